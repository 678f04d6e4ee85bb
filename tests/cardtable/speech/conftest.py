"""Fixtures for the speech tests: reading a WAV file's sound."""

import wave

import numpy as np
import pytest


def _audio(path):
    """Seconds of sound and RMS energy (full scale 1.0) of a 16-bit mono WAV file."""
    with wave.open(str(path)) as wav:
        assert (wav.getnchannels(), wav.getsampwidth()) == (1, 2)
        samples = np.frombuffer(wav.readframes(wav.getnframes()), dtype="<i2").astype(float) / 32768
        return len(samples) / wav.getframerate(), float(np.sqrt(np.mean(samples ** 2)))


@pytest.fixture
def audio():
    """``audio(path)``: the seconds and RMS energy of a WAV file."""
    return _audio
