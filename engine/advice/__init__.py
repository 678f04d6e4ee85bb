"""Advice a player can ask for about their own hand: pure rules code, standard library only.

- :mod:`engine.advice.discards`: Cribbage discards ranked by expected net points (exact hand
  expectation over every starter, crib expectation from the shipped crib table).
- :mod:`engine.advice.pegging`: Cribbage plays in the count, what each scores and the risk it leaves.
- :mod:`engine.advice.tricks`: All Fives and Fifteen, the legal cards and why, and a suggested card.
- :mod:`engine.advice.quinze`: Le Quinze captures; :mod:`engine.advice.its15`: It's 15 chances.

Advice is about one player's hand, so it is for that player's eyes (docs/advice.md, "Privacy").
"""
