"""Which of two overlapping cards lies on the other (vision.faces.finder.lies_on): the one whose
edge shows all round it and across the other's print; a patch that holds no card
(vision.faces.finder.fit_cards); the card a patch of a card of another size is
(vision.faces.finder.cards_of_patch); the size a deck's shape names (size_of_shape, DeckSize);
how much of a guessed card lies in a patch's room (share_inside); the corners of cards whose
ends lie in line, guessed at their sides across the patch (shown_corners)."""

import cv2
import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from vision.faces.finder import CARD_SIZES_MM, DeckSize, cards_of_patch, fit_cards, lies_on, quad_mask, share_inside, shown_corners, size_of_shape


def _card(frame: np.ndarray, centre: tuple[float, float], degrees: float, index: str) -> np.ndarray:
    """A white card 120 x 170 px, its edge a little darker (as a card's edge and shadow show),
    with a dark border line 8 px inside, an index and big pips, drawn on ``frame`` over what
    lies there; its four corners."""
    quad = cv2.boxPoints((centre, (120, 170), degrees)).astype(np.float32)
    cv2.fillConvexPoly(frame, quad.astype(np.int32), 225)
    cv2.polylines(frame, [quad.astype(np.int32)], True, 185, 1)
    inner = cv2.boxPoints((centre, (104, 154), degrees)).astype(np.int32)
    cv2.polylines(frame, [inner], True, 60, 2)
    x, y = quad.mean(axis=0)
    cv2.putText(frame, index, (int(x) - 45, int(y) - 50), cv2.FONT_HERSHEY_SIMPLEX, 1.0, 30, 3)
    for dx, dy in ((-25, -20), (25, -20), (-25, 40), (25, 40)):
        cv2.circle(frame, (int(x) + dx, int(y) + dy), 11, 40, -1)
    return quad


def _fan(step: float, turn: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(3)
    frame = np.clip(70 + rng.normal(0, 5, (400, 480)), 0, 255).astype(np.uint8)
    under = _card(frame, (200, 200), -turn / 2, "7")
    over = _card(frame, (200 + step, 205), turn / 2, "K")
    return cv2.GaussianBlur(frame, (3, 3), 0.8), under, over


def test_the_card_whose_edge_shows_across_the_other_lies_on_it():
    for step, turn in ((40, 6), (25, 10), (70, 3)):
        frame, under, over = _fan(step, turn)
        assert lies_on(frame, over, [under]) == [True], (step, turn)
        assert lies_on(frame, under, [over]) == [False], (step, turn)


def test_cards_apart_or_on_plain_table_are_in_no_known_order():
    frame, under, over = _fan(40, 6)
    table = np.full_like(frame, 70)
    assert lies_on(table, over, [under]) == [False] and lies_on(table, under, [over]) == [False]


def test_a_patch_of_fewer_than_four_sides_holds_no_card():
    triangle = np.int32([[100, 100], [400, 120], [250, 380]]).reshape(-1, 1, 2)
    assert fit_cards(triangle, np.eye(3) / np.float64([3, 3, 1])[:, None], ((63.0, 88.0),)) == []


#: Frame px to table mm: 3 px a millimetre.
THIRD = np.eye(3) / np.float64([3, 3, 1])[:, None]


def _rounded_card(width_mm: float) -> tuple[np.ndarray, np.ndarray, tuple]:
    """The patch of a card ``width_mm`` by 88 mm lying alone at 3 px a millimetre, its corners
    rounded as a card's are (3 mm): its contour, its outline and where it lies (``support``)."""
    x0, y0, x1, y1, r = 300, 300, 300 + round(width_mm * 3), 300 + 264, 9
    mask = np.zeros((800, 800), np.uint8)
    cv2.rectangle(mask, (x0 + r, y0), (x1 - r, y1), 1, -1)
    cv2.rectangle(mask, (x0, y0 + r), (x1, y1 - r), 1, -1)
    for x, y in ((x0 + r, y0 + r), (x1 - r, y0 + r), (x0 + r, y1 - r), (x1 - r, y1 - r)):
        cv2.circle(mask, (x, y), r, 1, -1)
    contour = max(cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)[0], key=cv2.contourArea)
    return contour, np.float32([[x0, y0], [x1, y0], [x1, y1], [x0, y1]]), (mask.astype(bool), (0, 0))


def test_a_card_of_another_size_alone_in_its_patch_is_a_card_to_read():
    """The defect (issue 22, a bridge-size back of another deck on a table whose deck is of poker
    cards): once the deck's size was known, the card's patch fitted no poker card and the card
    was passed over in silence, never read, never refused."""
    poker = ((63.0, 88.0),)
    contour, bridge, support = _rounded_card(57.0)
    assert fit_cards(contour, THIRD, poker, support) == []
    assert [card.tolist() for card in cards_of_patch(contour, bridge, THIRD, poker, support)] == [bridge.tolist()]
    contour, narrow, support = _rounded_card(40.0)
    assert cards_of_patch(contour, narrow, THIRD, poker, support) == []


def test_the_shape_of_the_cards_enrolled_names_the_decks_size_until_a_card_is_measured():
    assert size_of_shape(63.5 / 88.9) == (63.0, 88.0) and size_of_shape(0.643) == (57.0, 88.0)
    assert size_of_shape(0.73) == (63.0, 88.0)         # a design drawn a little wide
    assert size_of_shape(0.75) is None                 # art drawn wider than any card: no card's outline
    assert size_of_shape(0.685) is None and size_of_shape(None) is None   # between the two: unsure
    deck = DeckSize(shape=0.706)
    assert deck.sizes == ((63.0, 88.0),)
    deck.note(np.float32([[0, 0], [57 * 3, 0], [57 * 3, 88 * 3], [0, 88 * 3]]), THIRD)
    assert deck.sizes == ((57.0, 88.0),)               # the table measured says more than the pictures
    assert DeckSize().sizes == ((63.0, 88.0), (57.0, 88.0))


def test_an_index_as_dark_as_the_table_by_a_cards_edge_stays_in_the_fine_arrivals_and_a_thin_gap_does_not():
    # (Before: faces_bench fan 777019, gm-paris on a checked cloth. The 10S's "10" and its
    # suit, printed as dark as the cloth just inside the card's thin printed frame, were cut out
    # of the fine arrivals a fan's corners are looked for in, with the card's corner.)
    from vision.faces.finder import arrivals, fine_arrivals
    from vision.faces.recogniser import FINE_CLOSE

    rng = np.random.default_rng(5)
    table = np.clip(110 + rng.normal(0, 3, (200, 260)), 0, 255).astype(np.uint8)
    frame = table.copy()
    frame[40:180, 30:110] = 225                 # a card, its top-left corner at (30, 40)
    frame[40:180, 30:32] = frame[40:42, 30:110] = 110   # its printed frame, as dark as the table
    frame[44:66, 33:40] = 110                   # its index, as dark, by the frame
    frame[40:180, 116:200] = 225                # the next card, a 6 px gap between
    dirty = np.ones(table.shape, bool)
    coarse, _ = arrivals(frame, table, table, dirty)
    fine, _ = arrivals(frame, table, table, dirty, close=FINE_CLOSE)
    assert coarse[44:66, 33:40].all() and not fine[46:64, 34:39].any()   # the index, cut out
    kept = fine_arrivals(fine, coarse)
    assert kept[46:64, 34:39].all()
    assert coarse[60:160, 112:114].all() and not kept[60:160, 112:114].any()   # the gap stays


def _fan_patch(hand: bool, count: int = 6, step: float = 12.0, turn: float = 5.0) -> tuple[np.ndarray, np.ndarray, tuple]:
    """The patch of ``count`` poker cards fanned to the right, ``step`` mm apart and each turned
    ``turn`` degrees more, laid at once (as faces_bench fans them), at 3 px a millimetre; with a
    hand reaching in beside it when ``hand``: its contour, the top card's corners, and where it
    lies (``support``)."""
    mask = np.zeros((900, 1200), np.uint8)
    middle = (count - 1) / 2
    for k in range(count):
        x, y, degrees = 200 + (k - middle) * step, 150 + 1.5 * (k - middle) ** 2, (k - middle) * turn
        top = cv2.boxPoints(((3 * x, 3 * y), (189, 264), degrees)).astype(np.float32)
        cv2.fillConvexPoly(mask, top.astype(np.int32), 1)
    if hand:
        cv2.ellipse(mask, (int(3 * (200 + middle * step + 45)), 450), (140, 90), 20, 0, 360, 1, -1)   # over the top card's right side
    contour = max(cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)[0], key=cv2.contourArea)
    return contour, top, (mask.astype(bool), (0, 0))


def test_a_fan_laid_at_once_is_fitted_at_its_two_ends_when_what_lies_between_counts():
    """The defect (issue 22, faces_bench fans 777024, 515169 and 515179, oxygen and oxygen-air,
    whose corners name no card alone): a fan laid at once was fitted at its two ends only (the
    cards between show a strip each and no two square corners); the two cards fitted left the
    tops of the cards between uncovered, 9 % of the patch, so the patch held no whole cards, and
    its top card, lying whole, was never read. With ``ends``, what lies between the cards fitted
    is taken for cards under them; a hand reaching in beside them still is not."""
    poker = ((63.0, 88.0),)
    contour, top, support = _fan_patch(hand=False)
    assert fit_cards(contour, THIRD, poker, support) == []
    fitted = fit_cards(contour, THIRD, poker, support, ends=True)
    assert len(fitted) == 2
    assert min(np.abs(np.sort(card, axis=0) - np.sort(top, axis=0)).max() for card in fitted) < 3   # px: 1 mm
    contour, _, support = _fan_patch(hand=True)
    assert fit_cards(contour, THIRD, poker, support, ends=True) == []


def test_a_tight_fan_laid_at_once_is_fitted_at_its_two_ends_though_they_overlap_by_most_of_a_card():
    """The defect (issue 22, faces_bench fans 107849 and 107871, oxygen, fans of four and five
    cards 8 and 7 mm apart): the cards fitted at a fan's two ends were taken while they overlapped
    little, and in a tight fan they overlap by two thirds: the second was left out, the patch
    was not covered, and the top card, lying whole, was never read. With ``ends``, the card at
    the other end is taken when the two together cover the patch."""
    poker = ((63.0, 88.0),)
    for count, step, turn in ((4, 8.0, 4.0), (5, 7.0, 3.0), (6, 7.0, 8.0)):
        contour, top, support = _fan_patch(hand=False, count=count, step=step, turn=turn)
        fitted = fit_cards(contour, THIRD, poker, support, ends=True)
        assert len(fitted) == 2, (count, step, turn)
        assert min(np.abs(np.sort(card, axis=0) - np.sort(top, axis=0)).max() for card in fitted) < 3, (count, step, turn)
        contour, _, support = _fan_patch(hand=True, count=count, step=step, turn=turn)
        assert fit_cards(contour, THIRD, poker, support, ends=True) == [], (count, step, turn)
    # A card alone, of a deck of either size (nobody enrolled it): the narrower size fitted at
    # its corners is another fit of it, not the other end of a fan.
    contour, top, support = _fan_patch(hand=False, count=1)
    fitted = fit_cards(contour, THIRD, CARD_SIZES_MM, support, ends=True)
    assert len(fitted) == 1 and np.abs(np.sort(fitted[0], axis=0) - np.sort(top, axis=0)).max() < 3


def test_two_fits_of_one_card_are_not_taken_for_a_tight_fans_two_ends():
    """The defect (issue 22, faces_bench fans, fresh seed 615096, fan 615136, oxygen dealt card
    by card on casino felt; and fan 21004 of seed 20962): a card's patch was fitted twice, 4-11
    mm and a few degrees apart, and the two fits were taken for the two ends of a tight fan.
    Each hid every corner of the other, so neither was read, and four cards of the fan were
    never named. Two cards cannot each lie on the other: the ends of a fan are two cards one of
    which shows a corner beside the other (the card below shows its index there)."""
    poker = ((63.0, 88.0),)
    for shift, turn in ((4.0, 3.0), (6.0, 5.0), (9.0, 4.0)):
        mask = np.zeros((900, 1200), np.uint8)
        one = cv2.boxPoints(((600, 450), (189, 264), 0.0)).astype(np.float32)
        other = cv2.boxPoints(((600 + 3 * shift, 450 - 3 * shift / 2), (189, 264), turn)).astype(np.float32)
        for card in (one, other):
            cv2.fillConvexPoly(mask, card.astype(np.int32), 1)
        contour = max(cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)[0], key=cv2.contourArea)
        assert len(fit_cards(contour, THIRD, poker, (mask.astype(bool), (0, 0)), ends=True)) < 2, (shift, turn)


def test_a_card_whose_far_end_is_lost_against_a_light_table_is_fitted_its_own_way_round():
    """The defect (issue 22, faces_bench scene 157900, oxygen-air on a checked cloth under a
    glare): the 7S was laid over the right side of the 5D, its top a little above the 5D's. The
    7S's bottom end, white on the glare, was not new, and 11 % of the card fell outside the
    patch: the 7S fitted at its top-right corner, the right way round, was not a card. Turned a
    quarter, it lay inside the patch (part of it on the 5D), and was taken though the 7S's right
    side ran straight on 14 mm past that card's corner: read in vain, the 5D under it read unsure,
    neither named in the 5 s they lay there, nor said. A card at a corner whose two sides run
    along the patch's for most of their length lies there, and of the two ways round at a
    corner, the one a straight side of the patch runs on past, where the other's does not, is
    dropped."""
    poker = ((63.0, 88.0),)
    mask = np.zeros((600, 700), np.uint8)
    mask[100:364, 100:289] = 1                    # the 5D, 63 x 88 mm
    mask[82:346, 250:439] = 1                     # the 7S on it, 6 mm higher
    glare = np.zeros_like(mask)
    cv2.ellipse(glare, (370, 350), (100, 50), 0, 0, 360, 1, -1)
    mask[(glare == 1) & (np.arange(700) >= 289)] = 0   # its bottom end, lost against the glare
    contour = max(cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)[0], key=cv2.contourArea)
    fitted = fit_cards(contour, THIRD, poker, (mask.astype(bool), (0, 0)))
    seven = np.float32([[250, 82], [439, 82], [439, 346], [250, 346]])
    five = np.float32([[100, 100], [289, 100], [289, 364], [100, 364]])
    assert len(fitted) == 2
    for card in (five, seven):
        assert min(np.abs(np.sort(f, axis=0) - np.sort(card, axis=0)).max() for f in fitted) < 6   # px: 2 mm


def test_a_card_lying_square_to_the_table_on_another_is_fitted_as_it_lies():
    """The defect (issue 22, faces_bench scene 961988, oxygen, enrolled from clean images or from
    phone photos): a jack dealt partly onto a face-down card, square to the table (0.04
    degrees), was fitted lying across them both, never read, and said placed where it was slid
    to later. Its two corners in view each fitted it as it lay, but those two fits, a
    millimetre apart, were taken for two cards: their corners were compared in the order of
    their x (then y) coordinates, which for a card lying square to the table swaps two corners
    for a tenth of a millimetre. The fit from one corner, lying across, covered more of the
    patch and was taken. Two fits are one card when each corner of one lies near a corner of
    the other, whichever order they are listed in. (The patch is the scene's, in mm: the
    face-down card turned -2.3 degrees about (-60, 0), the jack about (-11.1, -1.2).)"""
    outline = np.float32([[-93.2, -42.5], [-89.5, 44.9], [-49.2, 40.6], [20.5, 42.0], [20.2, -45.1],
                          [-42.4, -45.1], [-48.3, -40.9]])
    contour = np.round((outline + 150) * 3).astype(np.int32).reshape(-1, 1, 2)
    mask = np.zeros((600, 600), np.uint8)
    cv2.fillPoly(mask, [contour], 1)
    for ends in (False, True):
        fitted = fit_cards(contour, THIRD, ((63.0, 88.0),), (mask.astype(bool), (0, 0)), ends=ends)
        centres = sorted(tuple(card.mean(axis=0) / 3 - 150) for card in fitted)
        assert len(centres) == 2, (ends, centres)
        for centre, truth in zip(centres, ((-60.0, 0.0), (-11.1, -1.2))):
            assert np.hypot(*np.subtract(centre, truth)) < 2.0, (ends, centres)


@given(st.integers(0, 2**32 - 1), st.integers(5, 90), st.integers(5, 90))
def test_the_share_of_a_card_in_a_room_is_counted_in_the_cards_box_alone_as_on_the_whole_room(seed, h, w):
    """A fan's corners are guessed by the hundred, each a card checked to lie in the patch's
    room (a card's length beyond the patch every way): drawn and counted in the card's own
    box, the share is the one drawn on the whole room, wherever the card lies, in it, across
    its edge or beyond it."""
    rng = np.random.default_rng(seed)
    room = rng.random((h, w)) < rng.random()
    centre, size = rng.uniform(-30, 120, 2), rng.uniform(1, 80, 2)
    quad = cv2.boxPoints((tuple(centre), tuple(size), float(rng.uniform(0, 180)))).astype(np.float32)
    within = quad_mask(room.shape, quad)
    assert share_inside(quad, room) == float((within & room).sum()) / max(float(within.sum()), 1.0)


def test_cards_whose_ends_lie_in_line_are_guessed_where_their_sides_cross_the_patch():
    """Three poker cards in a row, 20 mm apart, their tops in line: the patch's outline is one
    straight stretch along all three tops, and turns only at the row's ends. The sides of the
    second and third cards across the patch (the edges the detector finds, stopping short of
    the rounded corner) place a guess at each of their top-left corners, showing up to the next
    card's side; without the edges, no guess lies there."""
    outline = np.float32([[0, 0], [103, 0], [103, 88], [0, 88]])     # mm: the row's outline
    contour = np.round((outline + 50) * 3).astype(np.int32).reshape(-1, 1, 2)
    edges = [(np.float32([[x, 3.0], [x, 86.0]]) + 50) * 3 for x in (20.0, 40.0)]     # frame px
    sizes = ((63.0, 88.0),)

    def guessed(at, side_edges) -> list:
        found = shown_corners(contour, THIRD, sizes, edges=side_edges)
        return [(quad, end) for quad, point, end, _ in found if np.hypot(*(point / 3 - 50 - at)) <= 1.0
                and abs(float(quad[1][1] - quad[0][1])) <= 1.0 and quad[1][0] > quad[0][0]]

    for x, shows in ((20.0, 20.0), (40.0, 63.0)):
        assert guessed(np.float32([x, 0.0]), []) == []
        at = guessed(np.float32([x, 0.0]), edges)
        assert at, x
        assert any(abs(float(end[0] / 3 - 50) - (x + shows)) <= 1.0 for _, end in at), (x, [end for _, end in at])
