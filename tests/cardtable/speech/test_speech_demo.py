"""``cardtable demo --speech DIR``: the whole game said into WAV files, with a transcript that
holds every score the demo printed, said in words, and the game's end."""

import re

import pytest

from cardtable.cli import main
from cardtable.speech.sentences import spoken

pytestmark = pytest.mark.slow          # a whole demo game said into WAV files


def test_the_demo_says_the_game_into_wav_files_with_every_score_and_the_end(tmp_path, capsys, audio):
    folder = tmp_path / "said"
    assert main(["demo", "--game", "fifteen", "--input", "rfid", "--seed", "2", "--out", str(tmp_path / "out"),
                 "--speech", str(folder)]) == 0
    out = capsys.readouterr().out
    lines = (folder / "transcript.tsv").read_text().splitlines()
    files = sorted(folder.glob("*.wav"))
    assert f"Speech: {folder}/ ({len(files)} WAV files" in out
    assert [line.split("\t")[0] for line in lines] == [f.name for f in files]
    said = [line.split("\t")[1] for line in lines]
    scores = [re.sub(r"^  [+-]\d+ ", "", line) for line in out.splitlines() if re.match(r"^  [+-]\d+ ", line)]
    assert scores and all(spoken(score) in said for score in scores)
    assert re.fullmatch(r"Seat (one|two) wins \w+(-\w+)? to \w+(-\w+)?", said[-1])
    for path in files[:5] + files[-5:]:
        seconds, rms = audio(path)
        assert seconds > 0.3 and rms > 0.02
