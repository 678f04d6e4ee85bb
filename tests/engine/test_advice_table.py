"""The crib-table simulation (tools/crib_sim.py) agrees with the engine: its crib scorer with
score_hand, its opponent model with the advice's exact hand expectation."""

import json
import subprocess
import sys
from itertools import combinations
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from engine.advice.crib_table import load_table
from engine.advice.discards import hand_ev
from engine.cards import standard_52
from engine.games.cribbage_scoring import score_hand
from tools.crib_sim import MODEL, card_of, code_of, crib_scores, model_discards

DECK = standard_52()
ROOT = Path(__file__).resolve().parents[2]


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from(DECK), min_size=5, max_size=5, unique=True))
def test_the_simulated_crib_scores_as_the_engine_does(five):
    crib, starter = np.array([[code_of(c) for c in five[:4]]]), np.array([code_of(five[4])])
    assert crib_scores(crib, starter)[0] == score_hand(five[:4], five[4], crib=True).total


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(DECK), min_size=6, max_size=6, unique=True), st.booleans())
def test_the_opponent_model_keeps_the_best_exact_hand(dealt, six):
    hand = sorted(dealt if six else dealt[:5])
    best = max(combinations(hand, 4), key=lambda keep: hand_ev(keep, [c for c in hand if c not in keep]))
    thrown = model_discards(np.array([[code_of(c) for c in hand]]))[0]
    assert [card_of(int(code)) for code in thrown] == [c for c in hand if c not in best]


def test_the_shipped_table_was_built_with_this_model():
    assert load_table()["model"] == MODEL


@pytest.mark.slow
def test_the_build_script_writes_a_table_the_advice_reads(tmp_path):
    out = tmp_path / "crib_table.json"
    subprocess.run([sys.executable, str(ROOT / "tools" / "build_crib_table.py"), "--deals-two", "50", "--deals-more", "50",
                    "--out", str(out)], check=True, capture_output=True)
    built = json.loads(out.read_text())
    shipped = load_table()
    assert built["model"] == MODEL and built["deals_per_kind"] == {"2": 50, "3": 50, "4": 50}
    for players in ("2", "3", "4"):
        assert built["players"][players].keys() == shipped["players"][players].keys()
