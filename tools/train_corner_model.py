"""Train the corner index model that reads a deck nobody enrolled (:mod:`vision.faces.index_reader`),
calibrate how sure it must be, and write it where cardtable loads it from.

    .venv/bin/pip install -e '.[train]'               # PyTorch (CPU) and onnx, for training only
    PYTHONPATH=. .venv/bin/python tools/train_corner_model.py

One command, fixed seeds: the corners are drawn by :mod:`tools.corner_data` (training: seed 1;
calibration, on the held-out designs and font: seed 2), the network is a small CNN with two heads
(the rank, or no index, and the suit), trained on the CPU. It is exported to ONNX (opset 13,
which OpenCV 5's DNN module reads), read back through ``cv2.dnn.readNetFromONNX`` and checked
against PyTorch; then the least sureness at which no corner of the held-out set is named wrong
is found, and :data:`MARGIN` added. Writes ``vision/faces/models/corner_index.onnx`` and beside
it ``corner_index.json`` (the threshold, the split, the figures of the run).
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
from vision.faces.index_reader import INPUT, MODEL, RANKS, SUITS, softmax

#: Added to the least threshold that names nothing wrong on the held-out corners.
MARGIN = 0.03
#: ONNX opset: OpenCV 5's DNN module reads it.
OPSET = 13


class CornerNet(nn.Module):
    """Four small convolutions, then one linear layer giving the rank logits and the suit
    logits side by side (:data:`RANKS`, then :data:`SUITS`)."""

    def __init__(self, widths=(8, 16, 32, 32)) -> None:
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


def corner_calls(rank_p: np.ndarray, suit_p: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per corner: the likeliest rank and suit, and how sure (the lesser of the two heads')."""
    return rank_p.argmax(axis=1), suit_p.argmax(axis=1), np.minimum(rank_p.max(axis=1), suit_p.max(axis=1))


def wrong_named(threshold: float, ranks, suits, sure, true_ranks, true_suits) -> np.ndarray:
    """The corners named (a rank, at least ``threshold`` sure) as another card than they show."""
    named = (ranks != corner_data.NONE_RANK) & (sure >= threshold)
    right = (ranks == true_ranks) & (suits == true_suits)
    return named & ~right


def calibrate(rank_p, suit_p, true_ranks, true_suits) -> tuple[float, float]:
    """The least threshold (in steps of 0.001) naming no corner wrong, plus :data:`MARGIN`; and
    the share of the corners that show an index named right at it."""
    ranks, suits, sure = corner_calls(rank_p, suit_p)
    least = next((t for t in np.arange(0.3, 1.0, 0.001) if not wrong_named(t, ranks, suits, sure, true_ranks, true_suits).any()),
                 None)
    if least is None:
        wrong = int(wrong_named(0.999, ranks, suits, sure, true_ranks, true_suits).sum())
        print(f"WARNING: {wrong} held-out corners are named wrong even at 0.999 sure: the threshold is 0.999")
        least = 0.999
    threshold = float(min(least + MARGIN, 0.999))
    indexed = true_ranks != corner_data.NONE_RANK
    named_right = indexed & (ranks == true_ranks) & (suits == true_suits) & (sure >= threshold)
    return threshold, float(named_right.sum() / max(indexed.sum(), 1))


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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--per-design-card", type=int, default=20)
    parser.add_argument("--per-font-card", type=int, default=8)
    parser.add_argument("--out", type=Path, default=MODEL)
    args = parser.parse_args(argv)
    started = time.monotonic()
    torch.manual_seed(0)
    torch.set_num_threads(2)
    corners = corner_data.training_set(1, per_design_card=args.per_design_card, per_font_card=args.per_font_card)
    pixels, ranks, suits = corner_data.arrays(corners)
    drawn = time.monotonic()
    print(f"{len(corners)} training corners drawn in {drawn - started:.0f} s", flush=True)
    model = CornerNet()
    train(model, pixels, ranks, suits, epochs=args.epochs, seed=0)
    trained = time.monotonic()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    export(model, args.out)
    held = corner_data.held_out_set(2)
    held_pixels, held_ranks, held_suits = corner_data.arrays(held)
    logits = dnn_logits(args.out, held_pixels)
    with torch.no_grad():
        reference = model.eval()(torch.from_numpy(held_pixels)).numpy()
    if not np.allclose(logits, reference, atol=1e-3):
        raise SystemExit("the ONNX model read by OpenCV does not give PyTorch's answers")
    rank_p, suit_p = softmax(logits[:, :len(RANKS)]), softmax(logits[:, len(RANKS):])
    threshold, named = calibrate(rank_p, suit_p, held_ranks, held_suits)
    meta = {"threshold": round(threshold, 3), "input": list(INPUT), "ranks": [r or "none" for r in RANKS],
            "suits": list(SUITS), "opset": OPSET, "seeds": {"training": 1, "calibration": 2, "torch": 0},
            "epochs": args.epochs, "training_corners": len(corners), "calibration_corners": len(held),
            "trained_on": list(corner_data.TRAIN_DESIGNS), "held_out": list(corner_data.HELD_OUT),
            "held_out_font": corner_data.HELD_OUT_FONT,
            "held_out_named_right": round(named, 4),
            "parameters": sum(p.numel() for p in model.parameters()),
            "seconds": {"draw": round(drawn - started), "train": round(trained - drawn),
                        "all": round(time.monotonic() - started)}}
    args.out.with_suffix(".json").write_text(json.dumps(meta, indent=1) + "\n")
    print(json.dumps(meta, indent=1))
    print(f"wrote {args.out} ({args.out.stat().st_size // 1024} KB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
