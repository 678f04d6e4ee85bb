"""The faces recogniser's record of the table (vision.faces.finder.Backdrop): whether a card
laid still shows as it was laid, through a change of light but not through a change of what
lies there."""

import cv2
import numpy as np

from vision.faces.finder import Backdrop

QUAD = np.float32([[100, 60], [220, 60], [220, 230], [100, 230]])


def table_with(card: bool, light: float = 1.0) -> np.ndarray:
    """Green felt's grey with a little grain, a white card with a printed index on it, and the
    light of the room ``light`` times what it was."""
    rng = np.random.default_rng(7)
    grey = np.clip(70 + rng.normal(0, 6, (300, 320)), 0, 255).astype(np.uint8)
    if card:
        cv2.fillConvexPoly(grey, QUAD.astype(np.int32), 225)
        cv2.putText(grey, "4", (110, 100), cv2.FONT_HERSHEY_SIMPLEX, 1.2, 30, 3)
    return np.clip(grey * light, 0, 255).astype(np.uint8)


def laid() -> Backdrop:
    backdrop = Backdrop()
    backdrop.ready(table_with(card=False))
    backdrop.lay("4D", table_with(card=True), QUAD)
    return backdrop


def test_a_card_lying_where_it_was_laid_shows_through_a_change_of_light():
    backdrop = laid()
    for light in (0.8, 1.0, 1.15):
        assert backdrop.shows("4D", table_with(card=True, light=light), [], 0.15)


def test_a_card_slid_away_from_a_plain_place_does_not_show_there():
    # (Before: faces_bench scene 639649, xskat-german's 4D slid off a face-down card to another
    # seat. Its place, felt and a card's back 147 grey levels darker than the white face, all
    # about as dark, was taken for the card in a dimmer light: "less their median difference"
    # took any uniform change for light. The 4D was named where it had been, 58 wrong
    # sightings, and its move was never reported.)
    backdrop = laid()
    assert not backdrop.shows("4D", table_with(card=False), [], 0.15)


def test_a_card_named_late_by_its_corner_lies_under_the_card_it_shows_beside():
    # A fan dealt one by one (faces_bench fan 101420, ancient-egyptians): the 3D lies under the
    # 6C, dealt on it; the 6C was named first, the 3D after by the corner it shows left of the
    # 6C. Laid in that order, the 3D was taken to lie on the 6C all over it, so the 6C, covered
    # later by the 10C, showed too little of itself to be kept, and was removed.
    under = np.float32([[60, 60], [180, 60], [180, 230], [60, 230]])    # the 3D
    over = np.float32([[100, 60], [220, 60], [220, 230], [100, 230]])   # the 6C, on it
    frame = table_with(card=False)
    cv2.fillConvexPoly(frame, under.astype(np.int32), 225)
    cv2.putText(frame, "3", (68, 100), cv2.FONT_HERSHEY_SIMPLEX, 1.2, 30, 3)
    cv2.fillConvexPoly(frame, over.astype(np.int32), 215)
    cv2.putText(frame, "6", (110, 100), cv2.FONT_HERSHEY_SIMPLEX, 1.2, 30, 3)
    for x, y in ((135, 90), (185, 90), (135, 145), (185, 145), (135, 200), (185, 200)):   # its pips
        cv2.circle(frame, (x, y), 12, 30, -1)
    backdrop = Backdrop()
    backdrop.ready(table_with(card=False))
    backdrop.lay("6C", frame, over)
    backdrop.lay("3D", frame, under, shown=np.float32([[60, 60], [100, 60], [100, 120], [60, 120]]))
    assert backdrop.laid_on("6C") == {}
    # A card named by its corner that was laid on the card: the frame there shows it, not the card.
    on_top = np.float32([[140, 70], [260, 70], [260, 240], [140, 240]])
    cv2.fillConvexPoly(frame, on_top.astype(np.int32), 235)
    cv2.putText(frame, "K", (150, 110), cv2.FONT_HERSHEY_SIMPLEX, 1.2, 30, 3)
    cv2.rectangle(frame, (165, 120), (235, 215), 90, -1)   # its picture
    backdrop.lay("KS", frame, on_top, shown=np.float32([[140, 70], [180, 70], [180, 130], [140, 130]]))
    assert list(backdrop.laid_on("6C")) == ["KS"]


def test_a_card_dealt_a_few_millimetres_onto_a_card_named_has_it_for_a_neighbour():
    # (Before: faces_bench fan 777023, oxygen dealt one by one 9 mm apart on felt. The card
    # below lay less than a quarter of a side from the new card's centre and was taken for the
    # new card itself: nothing said where the new card lay on it, and its dark face on the dark
    # face below, no change, was taken as hidden.)
    backdrop = laid()
    shifted = QUAD + np.float32([12, 3])        # a tenth of the short side to the right
    frame = table_with(card=True)
    assert [q.tolist() for q, *_ in backdrop.neighbours(shifted, frame)] == [QUAD.tolist()]
    assert backdrop.neighbours(QUAD + np.float32([2, -1]), frame) == []   # the card itself, read again


def test_a_card_named_by_its_corner_is_a_neighbour_by_its_whole_outline():
    # (Before: faces_bench fans, fresh seed 542983 and 837600, fans 542983 and 837607, gm-paris
    # laid at once: the bottom card, its outline fitted, its corner reading the 3D surely, was
    # read with the cards named by their corners lying on it taken for their corners alone:
    # the rest of its face, under them, was compared as its own and looked more like the 2S
    # than the 3D. It was never named. A card named by the corner it shows lies somewhere
    # under its whole outline; which of two lies on the other is for their edges to say.)
    backdrop, frame = laid(), table_with(card=True)
    over = QUAD + np.float32([40, 10])
    corner = np.float32([over[0], over[0] + (30, 0), over[0] + (30, 50), over[0] + (0, 50)])
    backdrop.lay("KS", frame, over, shown=corner)
    assert [q.tolist() for q, *_ in backdrop.neighbours(QUAD - np.float32([30, 0]), frame)] == \
        [QUAD.tolist(), over.tolist()]
    assert [q.tolist() for q, *_ in backdrop.neighbours(over + np.float32([1, 1]), frame)] == [QUAD.tolist()]   # the KS itself
    # Named by its corner, the KS may have come with a card read under it (faces_bench fan
    # 898961: a fan laid at once names its cards by their corners a frame before its bottom
    # card is read whole): a neighbour says so, and is not taken for a card dealt onto it since.
    assert [by_corner for *_, by_corner in backdrop.neighbours(QUAD - np.float32([30, 0]), frame)] == [False, True]


def _fan_of_three(frame: np.ndarray) -> tuple[Backdrop, np.ndarray]:
    """The 7C dealt on the 6S, then the 7D on the 7C, 40 px apart, drawn on ``frame``; each is
    named as it is dealt but the 6S (a hand was over it). The backdrop and the 6S's outline."""
    backdrop = Backdrop()
    backdrop.ready(table_with(card=False))
    quads = []
    for x, key, light in ((60, "6S", 225), (100, "7C", 215), (140, "7D", 235)):
        quads.append(np.float32([[x, 60], [x + 120, 60], [x + 120, 230], [x, 230]]))
        cv2.fillConvexPoly(frame, quads[-1].astype(np.int32), light)
        cv2.putText(frame, key[0], (x + 8, 100), cv2.FONT_HERSHEY_SIMPLEX, 1.2, 30, 3)
        for dx, dy in ((35, 90), (85, 90), (35, 145), (85, 145), (35, 200), (85, 200)):   # its pips
            cv2.circle(frame, (x + dx, dy), 12, 30 + light // 4, -1)
        if key != "6S":
            backdrop.lay(key, frame, quads[-1])
    return backdrop, quads[0]


def test_a_card_named_late_by_its_corner_lies_under_a_card_covered_since_by_another():
    # (Before: faces_bench fan 243973454, xskat-german dealt one by one, a fresh seed: the 6S,
    # named by its corner after the 7C on it and the 7D on the 7C, was taken to lie on the 7C,
    # where the 7D, not the 7C, now showed over half of where the two overlap. The 7C, its
    # strip in view taken for the 6S's, then showed nothing of itself and was removed.)
    frame = table_with(card=False)
    backdrop, under = _fan_of_three(frame)
    backdrop.lay("6S", frame, under, shown=np.float32([[60, 60], [100, 60], [100, 120], [60, 120]]))
    assert list(backdrop.laid_on("7C")) == ["7D"]
    assert backdrop.shows("7C", frame, list(backdrop.laid_on("7C").values()), 0.1)


def test_a_card_read_again_where_it_lies_keeps_its_place_among_the_cards_on_it():
    # (Before: the same fan: the 7D, read again where it lay after the QS was dealt on it, was
    # laid anew, last, and taken to lie on the QS; the QS then showed nothing of itself.)
    frame = table_with(card=False)
    backdrop, _ = _fan_of_three(frame)
    backdrop.lay("7C", frame, np.float32([[101, 61], [221, 60], [221, 231], [101, 230]]))
    assert list(backdrop.laid_on("7C")) == ["7D"] and backdrop.laid_on("7D") == {}
    backdrop.lay("7C", frame, np.float32([[160, 60], [280, 60], [280, 230], [160, 230]]))   # taken up, laid on the 7D
    assert list(backdrop.laid_on("7D")) == ["7C"]


def _four_laid() -> tuple[Backdrop, np.ndarray]:
    """The 4D laid, its pips printed: the backdrop, and the frame it was laid in."""
    laid_then = table_with(card=True)
    for x, y in ((135, 90), (185, 90), (135, 145), (185, 145), (135, 200), (185, 200)):
        cv2.circle(laid_then, (x, y), 12, 90, -1)
    backdrop = Backdrop()
    backdrop.ready(table_with(card=False))
    backdrop.lay("4D", laid_then, QUAD)
    return backdrop, laid_then


def test_a_card_dealt_on_a_card_named_lies_on_it_where_that_card_no_longer_shows_as_laid():
    # (Before: faces_bench fan 107850, oxygen-air dealt one by one: the QC, pale, dealt on the
    # pale 5H named before, its edge hardly showing across it, was taken to lie under the 5H;
    # its corners over the 5H, not new, were hidden, and the corner left printed the rank alone.)
    backdrop, laid_then = _four_laid()
    over, frame = QUAD + np.float32([40, 8]), laid_then.copy()
    cv2.fillConvexPoly(frame, over.astype(np.int32), 228)      # white on white: its edge hardly shows
    cv2.putText(frame, "Q", (150, 110), cv2.FONT_HERSHEY_SIMPLEX, 1.2, 30, 3)
    assert [under for _, _, under, _ in backdrop.neighbours(over, frame)] == [True]
    # A card read late, the 4D named since lying on it: the frame shows the 4D as laid there.
    assert [under for _, _, under, _ in backdrop.neighbours(QUAD - np.float32([40, 8]), laid_then)] == [False]


def test_a_dark_card_dealt_on_a_dark_card_named_lies_on_it_where_its_own_print_covers_most_of_that_cards():
    # (Before: faces_bench fans, fresh seed 453993, fan 454030, oxygen dealt one by one on felt,
    # the camera 29 degrees off vertical: the KS, its face dark with a big light king, dealt on
    # the 10H, dark with light pips. Where the 10H's pips had been, the KS's own light print
    # covered four in five of them, its dark paper the rest (0.18-0.19: a hand resting over a
    # card, 0.00 in the scenes that rule was made on); the KS was taken to lie under the 10H,
    # its corners there hidden, and was read once before the hand came back to deal the next
    # card on it: never named.)
    def dark(frame: np.ndarray, quad: np.ndarray) -> None:
        cv2.fillConvexPoly(frame, quad.astype(np.int32), 55)
    laid_then = table_with(card=False)
    dark(laid_then, QUAD)
    for x, y in ((135, 90), (185, 90), (135, 145), (185, 145), (135, 200), (185, 200)):   # the 10H's light pips
        cv2.circle(laid_then, (x, y), 12, 190, -1)
    backdrop = Backdrop()
    backdrop.ready(table_with(card=False))
    backdrop.lay("10H", laid_then, QUAD)
    over, frame = QUAD + np.float32([40, 8]), laid_then.copy()
    dark(frame, over)
    cv2.ellipse(frame, (180, 158), (30, 80), 0, 0, 360, 170, -1)   # the king's light silhouette
    assert [under for _, _, under, _ in backdrop.neighbours(over, frame)] == [True]


def test_a_card_under_covers_the_place_of_a_card_laid_on_it_that_has_left():
    # (Before: faces_bench scene 157911, oxygen-air: the KH, taken up from a face-down card,
    # left its place looking new; an outline fitted there had its corner over the back in view,
    # the back taken to cover nothing where the KH had lain, and read it in vain until the
    # table was told "I can't read the card in front of Seat 1".)
    back = np.float32([[60, 80], [180, 80], [180, 250], [60, 250]])
    five = np.float32([[10, 215], [95, 215], [95, 298], [10, 298]])     # the 5S, on the back's foot
    frame = table_with(card=False)
    cv2.fillConvexPoly(frame, back.astype(np.int32), 40)                # a dark back, face down
    backdrop = Backdrop()
    backdrop.ready(table_with(card=False))
    backdrop.lay("face-down-1", frame, back)
    for key, quad, rank in (("5S", five, "5"), ("KH", QUAD, "K")):
        cv2.fillConvexPoly(frame, quad.astype(np.int32), 225)
        cv2.putText(frame, rank, (int(quad[0][0]) + 10, int(quad[0][1]) + 40), cv2.FONT_HERSHEY_SIMPLEX, 1.2, 30, 3)
        backdrop.lay(key, frame, quad)
    gone = frame.copy()                                                 # the KH taken up: the back shows again
    cv2.fillConvexPoly(gone, QUAD.astype(np.int32), 70)
    cv2.fillConvexPoly(gone, back.astype(np.int32), 40)
    gone[215:, :96] = frame[215:, :96]
    there = QUAD + np.float32([2, 1])                                   # an outline fitted where the KH lay
    [(_, on_it, _, _)] = backdrop.neighbours(there, gone)
    assert [q.tolist() for q in on_it] == [five.tolist()]              # the back covers the KH's place, not the 5S's


def test_a_hand_resting_on_a_card_named_is_no_card_lying_on_it():
    # (Before: faces_bench --enrol-from photo, seed 210012, scenes 210028, 210040, 210047: a hand
    # resting over a card and the card laid on it hid the print of each; an outline fitted in
    # the hand was taken to lie on the card whose print no longer showed, its corners there in
    # view, and was read in vain until the table was told "I can't read the card in the centre".
    # A card's print gone under paper as light as its own is a card dealt on it; under the
    # hand's grey, nothing is.)
    backdrop, laid_then = _four_laid()
    over, frame = QUAD + np.float32([40, 8]), laid_then.copy()
    cv2.fillConvexPoly(frame, over.astype(np.int32), 150)      # a hand's grey, resting still
    assert [under for _, _, under, _ in backdrop.neighbours(over, frame)] == [False]


def test_what_stood_out_on_the_first_frame_and_was_the_table_after_all_is_compared_in_colour():
    # (Before: faces_bench fans, fresh seed 615096, fan 615100, jolly-royal dealt card by card on a
    # pale checked cloth in glare: its pale squares stood out from the first frame as cards
    # might, and the table under them was guessed until they were found to be the table after
    # all. Restored in grey, they stayed unknown in colour: the six cards dealt on them, as
    # light as the pale squares in grey, were found in neither, and none was ever named.)
    pale = np.zeros((300, 320, 3), np.uint8)
    pale[:] = (60, 120, 60)                       # green checks
    pale[80:220, 90:250] = (196, 248, 240)        # a pale square, as light as a card in grey
    grey = cv2.cvtColor(pale, cv2.COLOR_BGR2GRAY)
    backdrop = Backdrop()
    backdrop.ready(grey)
    backdrop.keep_colour(pale)
    stood_out = np.zeros(grey.shape, bool)
    stood_out[70:230, 80:260] = True
    backdrop.guess((0, 0, 320, 300), stood_out)   # a card lying there when the camera started?
    backdrop.restore(stood_out, grey)             # no: the table, as the first frame showed it
    card = pale.copy()
    cv2.fillConvexPoly(card, QUAD.astype(np.int32), (251, 252, 252))
    apart = backdrop.colour_apart(card, cv2.cvtColor(card, cv2.COLOR_BGR2GRAY), (0, 0, 320, 300))
    inside = np.zeros(grey.shape, np.uint8)
    cv2.fillConvexPoly(inside, QUAD.astype(np.int32) + np.int32([[3, 3], [-3, 3], [-3, -3], [3, -3]]), 1)
    assert apart[inside.view(bool) & stood_out].mean() > 0.95
