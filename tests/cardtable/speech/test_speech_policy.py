"""The speech queue's policy on a fake clock: a refusal first and cutting chatter short, a backlog
summarised, and under a burst of 100 events a bounded delay with no refusal and no point lost."""

import pytest
from hypothesis import given, settings, strategies as st

from cardtable.speech.policy import SpeechPolicy
from cardtable.speech.sentences import END, PLAY, PROMPT, REFUSAL, SCORE, WARNING, Utterance

NAMES = ["Ann", "Bob", "Cy", "Di", "Eve"]


def speak(policy, arrivals):
    """Say everything as the speaker's thread does, each sentence taking as long as the policy
    thinks: ``arrivals`` are ``(time, utterance)``; returns ``(start, end, utterance, cut)``."""
    arrivals = sorted(arrivals, key=lambda a: a[0])
    t, i, said = 0.0, 0, []
    while i < len(arrivals) or policy.waiting:
        while i < len(arrivals) and arrivals[i][0] <= t:
            policy.add(arrivals[i][1], arrivals[i][0])
            i += 1
        utterance = policy.next(t)
        if utterance is None:
            t = arrivals[i][0]
            continue
        end, cut = t + policy.seconds(utterance.text), False
        while i < len(arrivals) and arrivals[i][0] < end and not cut:
            at, arriving = arrivals[i]
            i += 1
            if policy.add(arriving, at):
                end, cut = at, True
        policy.done()
        said.append((t, end, utterance, cut))
        t = end
    return said


def sentence(words: int, tag: str) -> str:
    return " ".join([tag] + ["word"] * (words - 1))


@st.composite
def utterances(draw, n):
    kind = draw(st.sampled_from([PLAY, PLAY, PLAY, PROMPT, SCORE, SCORE, WARNING, REFUSAL, END]))
    seat = draw(st.integers(0, 4))
    text = sentence(draw(st.integers(2, 15)), f"{kind}{n}")
    if kind == SCORE:
        return Utterance(SCORE, text, seat, ((NAMES[seat], draw(st.integers(-2, 29))),))
    return Utterance(kind, text, seat if kind == REFUSAL else None)


@st.composite
def bursts(draw):
    size = draw(st.integers(1, 100))
    times = sorted(draw(st.lists(st.floats(0, 3), min_size=size, max_size=size)))
    return [(t, draw(utterances(n))) for n, t in enumerate(times)]


def bound(policy) -> float:
    """Whatever the burst, this long at most: the backlog allowed, then a summary of at most one
    refusal per seat, the moves, the scores, two ends, a warning and a prompt (sentences of at
    most 15 words), behind the sentence being said."""
    longest = policy.seconds(sentence(15, "x"))
    return policy.max_backlog + longest * (len(NAMES) + 8)


@pytest.mark.slow
@settings(deadline=None, max_examples=150)
@given(bursts())
def test_a_burst_is_said_within_a_bounded_delay_and_drops_no_refusal_and_no_point(burst):
    policy = SpeechPolicy(words_per_minute=160, max_backlog=6.0)
    said = speak(policy, burst)
    limit = bound(policy)
    assert said[-1][1] <= burst[-1][0] + limit                     # everything said (or summarised) in time
    for at, utterance in burst:
        if utterance.kind == REFUSAL:                             # said, or a newer one for the seat
            assert any(u.kind == REFUSAL and u.seat == utterance.seat and at <= start <= at + limit and not cut
                       for start, _, u, cut in said), utterance
    added = sorted(item for _, u in burst for item in u.tally)
    told = sorted(item for _, _, u, cut in said if not cut for item in u.tally)
    totals = {name: sum(p for n, p in added if n == name) for name in NAMES}
    assert totals == {name: sum(p for n, p in told if n == name) for name in NAMES}
    ends = [u for _, u in burst if u.kind == END]
    if ends:
        assert ends[-1] in [u for _, _, u, _ in said]
    assert not any(cut and u.kind in (REFUSAL, SCORE, END) for _, _, u, cut in said)


def test_a_burst_of_plays_and_scores_is_caught_up_in_seconds_not_minutes():
    burst = []
    for n in range(100):
        seat = n % 2
        kind = SCORE if n % 3 == 0 else PLAY
        text = f"{NAMES[seat]} plays the five of hearts, the count is twenty-one" if kind == PLAY else \
            f"{NAMES[seat]}: fifteen two, fifteen four, and a pair is six"
        burst.append((n * 0.02, Utterance(kind, f"{text} {n}", tally=((NAMES[seat], 6),) if kind == SCORE else ())))
    policy = SpeechPolicy()
    fifo = sum(policy.seconds(u.text) for _, u in burst)
    said = speak(policy, burst)
    assert fifo > 200 and said[-1][1] < 20                             # a naive queue: minutes late
    assert any(u.kind == SCORE and " scored " in u.text for _, _, u, _ in said)        # summed up
    assert sum(p for _, _, u, _ in said for _, p in u.tally) == 34 * 6


def test_a_refusal_cuts_a_play_short_and_goes_before_what_waits():
    policy = SpeechPolicy()
    assert not policy.add(Utterance(PLAY, "Ann plays the five of hearts"), 0.0)
    assert policy.next(0.0).kind == PLAY
    policy.add(Utterance(PROMPT, "Bob to play"), 0.1)
    assert policy.add(Utterance(REFUSAL, "Bob, it is not your turn", 1), 0.2)     # stop the play
    assert policy.current is None
    assert policy.next(0.3).kind == REFUSAL and policy.next(0.4).kind == PROMPT


def test_a_refusal_does_not_cut_a_score_short():
    policy = SpeechPolicy()
    policy.add(Utterance(SCORE, "Ann: fifteen two", tally=(("Ann", 2),)), 0.0)
    policy.next(0.0)
    assert not policy.add(Utterance(REFUSAL, "Bob, you must follow hearts", 1), 0.1)


def test_only_the_newest_prompt_and_the_newest_refusal_of_a_seat_wait_and_the_same_words_wait_once():
    policy = SpeechPolicy()
    for n, utterance in enumerate([Utterance(PROMPT, "Ann to play"), Utterance(PROMPT, "Bob to play"),
                                   Utterance(REFUSAL, "Bob, not your turn", 1), Utterance(REFUSAL, "Bob, take back", 1),
                                   Utterance(REFUSAL, "Ann, take back", 0), Utterance(WARNING, "The camera stopped"),
                                   Utterance(WARNING, "The camera stopped")]):
        policy.add(utterance, n * 0.01)
    assert [w.utterance.text for w in policy.waiting] == ["Bob to play", "Bob, take back", "Ann, take back",
                                                          "The camera stopped"]
