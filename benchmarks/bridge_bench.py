"""Firmware bridge benchmark: CT1 lines parsed per second (this parser vs a naive one), the
sequence window that never takes an old line for new (vs remembering every line), and the
median time from a line written on the twin's side of a real pseudo-terminal to the event the
bridge delivers.

    .venv/bin/python benchmarks/bridge_bench.py [--quick]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from firmware_bridge.bridge import Bridge  # noqa: E402
from firmware_bridge.protocol import (  # noqa: E402
    FrameError, Heartbeat, SeqWindow, State, Tag, decode_frame, decode_message, encode_message,
)
from firmware_bridge.host import LinkChange  # noqa: E402
from firmware_bridge.twin import Twin  # noqa: E402


def naive_crc(data: bytes) -> int:
    """CRC-16/CCITT-FALSE bit by bit, as a first version would write it."""
    crc = 0xFFFF
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) & 0xFFFF if crc & 0x8000 else (crc << 1) & 0xFFFF
    return crc


def naive_parse(line: bytes):
    """Split on '*' and ',' with a bitwise CRC: the straightforward parser."""
    text = line.decode("ascii").strip()
    if not text.startswith("$") or "*" not in text:
        return None
    body, crc = text[1:].rsplit("*", 1)
    if naive_crc(body.encode()) != int(crc, 16):
        return None
    parts = body.split(",")
    return parts[2], parts[3:]


def sample_lines(count: int) -> list[bytes]:
    messages = [Tag(1, True, "04A23B1C"), Heartbeat(123456, 15), State(0, ("04A23B1C", None, "0A0B0C0D", None)),
                Tag(3, False, "04A23B1C556677")]
    lines = [encode_message(seq, messages[seq % len(messages)]) for seq in range(count)]
    for index in range(0, count, 10):  # one line in ten damaged
        lines[index] = lines[index][:20] + b"X" + lines[index][21:]
    return lines


def lines_per_second(parse, lines: list[bytes]) -> float:
    start = time.perf_counter()
    for line in lines:
        try:
            parse(line)
        except FrameError:
            pass
    return len(lines) / (time.perf_counter() - start)


class EveryLineSeen:
    """The naive guard against old lines: remember every line ever accepted."""

    def __init__(self) -> None:
        self.seen: set[bytes] = set()

    def check(self, line: bytes) -> bool:
        if line in self.seen:
            return False
        self.seen.add(line)
        return True


def stale_stream(count: int) -> list[bytes]:
    """Numbered heartbeats; one line in ten is a copy of one sent 32 to 5000 lines before."""
    rng = random.Random(1)
    lines: list[bytes] = []
    for seq in range(count):
        lines.append(encode_message(seq, Heartbeat(seq * 1000)))
        if seq % 10 == 9 and len(lines) > 32:
            lines.append(lines[-rng.randint(32, min(5000, len(lines)))])
    return lines


def guard_rate(lines: list[bytes], make_guard, use) -> tuple[float, int, int]:
    """Lines per second through a guard, the lines it let through, and the memory it holds."""
    frames = [(line, decode_frame(line)) for line in lines]
    tracemalloc.start()
    guard = make_guard()
    start = time.perf_counter()
    passed = sum(1 for line, frame in frames if use(guard, line, frame))
    elapsed = time.perf_counter() - start
    memory = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    return len(frames) / elapsed, passed, memory


def latency(samples: int) -> list[float]:
    """Seconds from Twin.place() writing the TAG line to the bridge delivering the event."""
    delays = []
    with Twin(readers=1, heartbeat=0.5, state_every=60) as twin, Bridge(twin.port) as bridge:
        while not isinstance(event := bridge.get(timeout=2), LinkChange) or event.state != "resynced":
            if event is None:
                raise SystemExit("the bridge did not come up on the twin")
        for n in range(samples):
            if n % 2:
                twin.remove(0)
            start = time.perf_counter()
            twin.place(0, f"04{n:06X}")
            while True:
                event = bridge.get(timeout=2)
                if event is None:
                    raise SystemExit("no event within 2 s")
                if getattr(event, "kind", None) == "placed":
                    delays.append(time.perf_counter() - start)
                    break
    return delays


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a short run")
    args = parser.parse_args(argv)
    lines = sample_lines(20_000 if args.quick else 200_000)
    ours = lines_per_second(decode_message, lines)
    naive = lines_per_second(naive_parse, lines)
    print(f"lines parsed per second: cardtable {ours:,.0f}  naive {naive:,.0f}  ({ours / naive:.1f}x)")
    stream = stale_stream(30_000 if args.quick else 300_000)
    window = guard_rate(stream, SeqWindow, lambda guard, line, frame: guard.check(frame.seq, frame.crc) in ("ok", "gap"))
    every = guard_rate(stream, EveryLineSeen, lambda guard, line, frame: guard.check(line))
    print(f"old lines kept out ({len(stream):,} lines, one in eleven a stale copy): sequence window "
          f"{window[0]:,.0f} lines/s, {window[1]:,} let through, {window[2] / 1e6:.1f} MB held; "
          f"every line remembered {every[0]:,.0f} lines/s, {every[1]:,} let through, {every[2] / 1e6:.1f} MB held")
    delays = latency(50 if args.quick else 300)
    print(f"line written on the twin -> event delivered, over a real pty ({len(delays)} placements): "
          f"median {statistics.median(delays) * 1000:.2f} ms, "
          f"95th percentile {sorted(delays)[int(len(delays) * 0.95)] * 1000:.2f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
