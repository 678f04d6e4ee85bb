"""Train the corner index model that reads a deck nobody enrolled (:mod:`vision.faces.index_reader`),
calibrate how sure it must be, and write it where cardtable loads it from.

    .venv/bin/pip install -e '.[train]'               # PyTorch and onnx, for training only (a CPU wheel of torch does)
    PYTHONPATH=. .venv/bin/python tools/train_corner_model.py

One command, fixed seeds: the corners are drawn by :mod:`tools.corner_data` (training: seed 1;
calibration, whole cards of the held-out designs and fonts and of the calibration fonts, and
jokers: seed 2), the network is a small CNN with two heads (the rank, or no index, and the
suit), trained on the CPU (one thread unless ``--threads`` says more). It is exported to ONNX
(opset 13, which OpenCV 5's DNN module reads), read back through ``cv2.dnn.readNetFromONNX`` and
checked against PyTorch. Then two thresholds are calibrated on those cards, judged as the
reader judges a whole card (:func:`vision.faces.index_reader.decide`): the least sureness at
which no corner alone names its card wrong, and the least at which no card whose two corners
agree is named wrong (the ink's colour vetoing as the reader's does), each with a margin
(:data:`DOUBT_KEPT`). ``--calibrate`` calibrates the model already written again. Writes
``vision/faces/models/corner_index.onnx`` and beside it ``corner_index.json`` (the thresholds,
the split, the figures of the run).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import cv2
import numpy as np
import torch
from torch import nn

from tools import corner_data
from vision.faces.index_reader import INPUT, MODEL, RANKS, SUITS, decide, ink_clash, softmax

#: The share of the doubt left at the surest wrong name on the calibration cards that a threshold
#: keeps: a threshold is 1 - (1 - that sureness) x this, above it by three quarters of its
#: distance to 1. (Half, as before, left the benchmark's surest wrong names above the thresholds:
#: its 9,100 views reach further into the tail than the calibration's.)
DOUBT_KEPT = 0.25
#: ONNX opset: OpenCV 5's DNN module reads it.
OPSET = 13


#: The channels of the network's four convolutions.
WIDTHS = (12, 24, 48, 64)


class CornerNet(nn.Module):
    """Four small convolutions (``widths`` channels, max pooling between), then one linear layer
    giving the rank logits and the suit logits side by side (:data:`RANKS`, then :data:`SUITS`)."""

    def __init__(self, widths=WIDTHS) -> None:
        super().__init__()
        layers, before = [], 1
        for i, width in enumerate(widths):
            layers += [nn.Conv2d(before, width, 3, padding=1, bias=False), nn.BatchNorm2d(width), nn.ReLU()]
            if i < len(widths) - 1:
                layers.append(nn.MaxPool2d(2))
            before = width
        self.features = nn.Sequential(*layers)
        cells = (INPUT[1] // 8) * (INPUT[0] // 8)
        self.head = nn.Sequential(nn.Flatten(), nn.Dropout(0.2), nn.Linear(before * cells, len(RANKS) + len(SUITS)))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(self.features(x))


def train(model: CornerNet, pixels: np.ndarray, ranks: np.ndarray, suits: np.ndarray, *, epochs: int,
          seed: int) -> None:
    generator = torch.Generator().manual_seed(seed)
    x, r, s = torch.from_numpy(pixels), torch.from_numpy(ranks).long(), torch.from_numpy(suits).long()
    batch = 128
    steps = epochs * ((len(x) + batch - 1) // batch)
    optimiser = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=1e-4)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, max_lr=3e-3, total_steps=steps)
    loss_rank, loss_suit = nn.CrossEntropyLoss(), nn.CrossEntropyLoss(ignore_index=-1)
    for epoch in range(epochs):
        model.train()
        order = torch.randperm(len(x), generator=generator)
        total = 0.0
        for start in range(0, len(x), batch):
            pick = order[start:start + batch]
            xb = x[pick]
            # A shift of a pixel or two more, as an outline found further off would give.
            dx, dy = (int(v) for v in torch.randint(-2, 3, (2,), generator=generator))
            xb = torch.roll(xb, shifts=(dy, dx), dims=(2, 3))
            out = model(xb)
            loss = loss_rank(out[:, :len(RANKS)], r[pick]) + loss_suit(out[:, len(RANKS):], s[pick])
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            schedule.step()
            total += float(loss.detach()) * len(pick)
        print(f"epoch {epoch + 1}/{epochs}: loss {total / len(x):.4f}", flush=True)


def corner_reads(rank_p: np.ndarray, suit_p: np.ndarray) -> list[tuple[str | None, float]]:
    """Per corner, as the reader reads it: the likeliest card id (None: no index) and how sure
    (the lesser of the two heads')."""
    ranks, suits = rank_p.argmax(axis=1), suit_p.argmax(axis=1)
    sure = np.minimum(rank_p.max(axis=1), suit_p.max(axis=1))
    return [(None if RANKS[r] is None else RANKS[r] + SUITS[s], float(p)) for r, s, p in zip(ranks, suits, sure)]


def ink_vetoes(views, reads) -> tuple[np.ndarray, np.ndarray]:
    """Whether the ink rules out the suit read (:func:`vision.faces.index_reader.ink_clash`):
    per corner, by that corner's ink alone; per view, for the card its first corner reads, by
    both corners' ink."""
    alone, whole = [], []
    for n, view in enumerate(views):
        for k, seen in enumerate(([True, False, False, False], [False, False, False, True])):
            card = reads[2 * n + k][0]
            alone.append(card is not None and bool(ink_clash(view.upright, np.array(seen), card[-1])))
        card = reads[2 * n][0] or reads[2 * n + 1][0]
        whole.append(card is not None and bool(ink_clash(view.upright, np.array([True, False, False, True]), card[-1])))
    return np.array(alone), np.array(whole)


def named(reads, labels, whole_veto, threshold: float, agree: float) -> tuple[np.ndarray, np.ndarray]:
    """Per view (``reads`` two corners each), whether the reader names it with these thresholds
    (:func:`vision.faces.index_reader.decide`, then the ink's veto) and whether that name is wrong."""
    called = [decide(reads[i:i + 2], threshold, agree)[0] for i in range(0, len(reads), 2)]
    called = [None if veto else c for c, veto in zip(called, whole_veto)]
    said = np.array([c is not None for c in called])
    return said, np.array([c is not None and c != t for c, t in zip(called, labels[::2])])


def with_margin(worst: float) -> float:
    """A threshold above the surest wrong name ``worst`` (at least 0.5), by :data:`DOUBT_KEPT`."""
    return round(1 - (1 - max(worst, 0.5)) * DOUBT_KEPT, 6)


def calibrate(reads, labels, alone_veto, whole_veto) -> tuple[float, float]:
    """The thresholds (one corner alone; each of two agreeing corners) above the surest wrong
    name on the calibration cards (a corner alone; two corners agreeing), with the margin."""
    alone = [p for (card, p), truth, veto in zip(reads, labels, alone_veto) if card is not None and card != truth and not veto]
    threshold = with_margin(max(alone, default=0.5))
    pairs = [min(reads[i][1], reads[i + 1][1]) for i in range(0, len(reads), 2)
             if reads[i][0] is not None and reads[i][0] == reads[i + 1][0] != labels[i] and not whole_veto[i // 2]]
    return threshold, min(with_margin(max(pairs, default=0.5)), threshold)


def export(model: CornerNet, path: Path) -> None:
    model.eval()
    sample = torch.zeros(1, 1, INPUT[1], INPUT[0])
    torch.onnx.export(model, sample, str(path), dynamo=False, opset_version=OPSET, input_names=["corner"],
                      output_names=["logits"], dynamic_axes={"corner": {0: "n"}, "logits": {0: "n"}})


def dnn_logits(path: Path, pixels: np.ndarray) -> np.ndarray:
    """The exported model's logits through OpenCV's DNN module, as cardtable runs it."""
    net = cv2.dnn.readNetFromONNX(str(path))
    out = []
    for start in range(0, len(pixels), 256):
        net.setInput(pixels[start:start + 256])
        out.append(net.forward().reshape(len(pixels[start:start + 256]), -1))
    return np.concatenate(out)


def calibration(path: Path, model: CornerNet | None, per_card: int = 20) -> dict:
    """The thresholds of the model at ``path`` calibrated on the calibration cards
    (:func:`tools.corner_data.calibration_views`, seed 2), and the
    figures at them; ``model`` (the PyTorch network it was exported from) is checked against it."""
    held = corner_data.calibration_views(2, per_card)
    held_pixels, labels = corner_data.view_corners(held)
    held_pixels = held_pixels.reshape(-1, 1, INPUT[1], INPUT[0])
    logits = dnn_logits(path, held_pixels)
    if model is not None:
        with torch.no_grad():
            reference = model.eval()(torch.from_numpy(held_pixels)).numpy()
        if not np.allclose(logits, reference, atol=1e-3):
            raise SystemExit("the ONNX model read by OpenCV does not give PyTorch's answers")
    reads = corner_reads(softmax(logits[:, :len(RANKS)]), softmax(logits[:, len(RANKS):]))
    alone_veto, whole_veto = ink_vetoes(held, reads)
    threshold, agree = calibrate(reads, labels, alone_veto, whole_veto)
    said, wrong = named(reads, labels, whole_veto, threshold, agree)
    shown = np.array([v.card is not None for v in held])
    by_source = {}
    for source in dict.fromkeys(v.source for v in held if v.card is not None):
        pick = np.array([v.source == source for v in held])
        by_source[source] = round(float((said & ~wrong & pick).sum() / pick.sum()), 4)
    return {"threshold": threshold, "agree_threshold": agree, "calibration_cards": len(held),
            "held_out_named_right": round(float((said & ~wrong & shown).sum() / shown.sum()), 4),
            "held_out_named_right_by_source": by_source, "held_out_named_wrong": int(wrong.sum())}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs", type=int, default=30)
    parser.add_argument("--per-design-card", type=int, default=20)
    parser.add_argument("--per-font-card", type=int, default=3)
    parser.add_argument("--jokers-per-font", type=int, default=20)
    parser.add_argument("--threads", type=int, default=1, help="PyTorch's threads (default 1)")
    parser.add_argument("--calibration-views", type=int, default=20, help="views of each calibration card (default 20)")
    parser.add_argument("--widths", type=lambda v: tuple(int(w) for w in v.split(",")), default=WIDTHS,
                        help="the four convolutions' channels, comma-separated (default %(default)s)")
    parser.add_argument("--out", type=Path, default=MODEL)
    parser.add_argument("--calibrate", action="store_true", help="only calibrate the model already at --out again")
    args = parser.parse_args(argv)
    missing = (set(corner_data.HELD_OUT_FONTS) - {f.name for f in corner_data.fonts(held_out=True)}) | \
        (set(corner_data.CALIBRATION_FONTS) - {f.name for f in corner_data.fonts(calibration=True)})
    if missing:
        raise SystemExit(f"the held-out or calibration fonts {', '.join(sorted(missing))} are not installed: apt-get install "
                         + " ".join(corner_data.FONT_PACKAGES))
    try:
        import onnx  # noqa: F401  (torch.onnx.export needs it: fail before training, not after)
    except ImportError:
        raise SystemExit("onnx is not installed: pip install onnx (the train extra)") from None
    if args.calibrate:
        meta = json.loads(args.out.with_suffix(".json").read_text())
        meta.update(calibration(args.out, None, args.calibration_views), calibration_views=args.calibration_views)
        args.out.with_suffix(".json").write_text(json.dumps(meta, indent=1) + "\n")
        print(json.dumps(meta, indent=1))
        return 0
    started = time.monotonic()
    torch.manual_seed(0)
    torch.set_num_threads(args.threads)
    corners = corner_data.training_set(1, per_design_card=args.per_design_card, per_font_card=args.per_font_card,
                                       jokers_per_font=args.jokers_per_font)
    pixels, ranks, suits = corner_data.arrays(corners)
    drawn = time.monotonic()
    print(f"{len(corners)} training corners drawn in {drawn - started:.0f} s", flush=True)
    model = CornerNet(args.widths)
    train(model, pixels, ranks, suits, epochs=args.epochs, seed=0)
    trained = time.monotonic()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    export(model, args.out)
    meta = {**calibration(args.out, model, args.calibration_views), "calibration_views": args.calibration_views,
            "input": list(INPUT), "ranks": [r or "none" for r in RANKS],
            "suits": list(SUITS), "opset": OPSET, "seeds": {"training": 1, "calibration": 2, "torch": 0},
            "epochs": args.epochs, "training_corners": len(corners),
            "trained_on": list(corner_data.TRAIN_DESIGNS), "training_fonts": len(corner_data.fonts()),
            "held_out": list(corner_data.HELD_OUT), "held_out_fonts": list(corner_data.HELD_OUT_FONTS),
            "calibration_fonts": list(corner_data.CALIBRATION_FONTS), "jokers_per_font": args.jokers_per_font,
            "per_font_card": args.per_font_card, "glyphs_reshaped": corner_data.RESHAPE_SHARE,
            "widths": list(args.widths), "parameters": sum(p.numel() for p in model.parameters()),
            "seconds": {"draw": round(drawn - started), "train": round(trained - drawn),
                        "all": round(time.monotonic() - started)}}
    args.out.with_suffix(".json").write_text(json.dumps(meta, indent=1) + "\n")
    print(json.dumps(meta, indent=1))
    print(f"wrote {args.out} ({args.out.stat().st_size // 1024} KB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
