"""The score chart of the end-of-game message: upright, one line per seat, numbers beside colour."""
from __future__ import annotations

import io

import pytest
from PIL import Image

from renderers.common import SEAT_COLOURS, recording_texts
from renderers.score_chart import BADGE, HEIGHT, MARGIN, ROW, WIDTH, WINNER_FILL, places, render_chart, render_chart_png
from tests.renderers.standard import readable_problems

HISTORY = [[0, 0, 0], [3, 0, 0], [3, 4, 0], [3, 4, 9], [8, 4, 9], [8, 12, 9]]
NAMES = ["Anna", "Bernd", "Clara"]


def colours(image: Image.Image) -> set[tuple[int, int, int]]:
    return {colour for _, colour in image.convert("RGB").getcolors(maxcolors=1 << 20)}


def test_the_chart_is_upright_and_draws_every_seat_in_its_colour():
    image = render_chart(HISTORY, NAMES, "en", "Raub Ritter")
    assert image.size == (WIDTH, HEIGHT) and HEIGHT > WIDTH
    present = colours(image)
    for seat in range(len(NAMES)):
        assert SEAT_COLOURS[seat] in present
    assert SEAT_COLOURS[len(NAMES)] not in present  # no fourth player drawn


def test_the_chart_shows_how_the_scores_went_not_just_the_end():
    rising = render_chart(HISTORY, NAMES, "en")
    flat = render_chart([HISTORY[0], HISTORY[-1]], NAMES, "en")
    assert rising.tobytes() != flat.tobytes()
    german = render_chart(HISTORY, NAMES, "de")
    assert german.tobytes() != rising.tobytes()  # the words are the table's language


def test_png_is_small_and_readable_at_phone_width(tmp_path):
    png = render_chart_png(HISTORY, NAMES, "de", "Knatsch")
    assert png.startswith(b"\x89PNG") and len(png) < 300 * 1024
    image = Image.open(io.BytesIO(png))
    assert image.size == (WIDTH, HEIGHT)


def test_a_single_seat_and_equal_scores_do_not_break_it():
    render_chart([[0, 0], [0, 0]], ["A", "B"], "en")
    render_chart([[5]], ["Solo"], "en")
    render_chart([], ["A", "B"], "en")


# ----------------------------------------------------------------------------------------
# Ties and winners, read on a phone


SIX = ["alice", "bob", "carol", "dave", "erin", "fritz"]
TIES = {
    # Three level on the best score, one of them the winner (a tie broken by the rules).
    "three level, one winner": ([[0, 0, 0, 0], [1, 1, 0, 0], [1, 1, 1, 0], [2, 1, 1, 1], [2, 2, 2, 1],
                                 [3, 2, 2, 1], [3, 3, 3, 2]], SIX[:4], [1]),
    "two winners": ([[0, 0, 0], [2, 0, 1], [2, 3, 1], [5, 3, 4], [5, 6, 4], [8, 8, 6]], ["Anna", "王小明", "Дмитрий"],
                    [0, 1]),
    # Four lines identical from start to end, the winner among them, a fifth below.
    "identical lines": ([[0, 0, 0, 0, 0], [1, 1, 1, 1, 0], [2, 2, 2, 2, 1], [3, 3, 3, 3, 2], [4, 4, 4, 4, 2]],
                        SIX[:5], [2]),
    # The winner holds fewer points than another (Knatsch: two castles and three tournaments).
    "winner not on top": ([[0, 0], [1, 0], [1, 1], [2, 1], [2, 3]], SIX[:2], [0]),
    "tied losers": ([[0, 0, 0, 0], [1, 0, 0, 0], [2, 1, 1, 1], [4, 2, 2, 2]],
                    ["Alexandros the Great of Macedon", "b", "c", "d"], [0]),
    "six level": ([[0] * 6] + [[min(4, (move * (seat + 1)) // 9) for seat in range(6)] for move in range(1, 60)],
                  SIX, [5]),
    "no winner": ([[0, 0, 0], [1, 1, 0], [1, 1, 1]], SIX[:3], []),
}


def test_places_put_the_winners_first_and_share_places_on_level_scores():
    assert places([3, 3, 3, 2], [1]) == [2, 1, 2, 4]
    assert places([8, 8, 6], [0, 1]) == [1, 1, 3]
    assert places([2, 3], [0]) == [1, 2]  # the winner is first though another scored more
    assert places([1, 1, 1], []) == [1, 1, 1]
    assert places([1, 2, 2], None) == [3, 1, 1]


def drawn(history, names, lang, winners):
    with recording_texts() as texts:
        image = render_chart(history, names, lang, "Knatsch", winners)
    return image, texts


@pytest.mark.parametrize("case", list(TIES))
@pytest.mark.parametrize("lang", ["en", "de"])
def test_ties_keep_the_standard_and_only_the_winners_are_marked(case, lang):
    """Every text at the standard's size, none cut off or over another; in the legend each
    winner's row (and only a winner's) is framed and says so, and places are shared by level
    scores only."""
    history, names, winners = TIES[case]
    image, texts = drawn(history, names, lang, winners)
    assert image.size == (WIDTH, HEIGHT)
    assert not readable_problems(texts, image.size)
    word = "Sieger" if lang == "de" else "Winner"
    assert len([t for t in texts if t.text == word]) == len(winners)
    legend_top = HEIGHT - 24 - ROW * len(names)
    for seat, name in enumerate(names):
        shown = next(t for t in texts if t.box[1] > legend_top and name.startswith(t.text.rstrip("…")))
        middle = (shown.box[1] + shown.box[3]) / 2
        on_row = [t.text for t in texts if t.box[1] < middle < t.box[3]]
        framed = image.getpixel((MARGIN - 8, int(middle))) == WINNER_FILL
        if seat in winners:
            assert word in on_row and framed and "1." in on_row, (case, name)
        else:
            assert word not in on_row and not framed, (case, name)
        assert f"{places(history[-1], winners)[seat]}." in on_row, (case, name)


def end_labels(texts, seats):
    """(seat, final score, height) of the labels at the lines' ends: a seat number with its
    score beside it, right of the plot and above the legend."""
    column = [t for t in texts if t.box[0] > WIDTH - 4 * BADGE - 60 and t.box[3] < HEIGHT - 24 - ROW * seats]
    found = []
    for text in column:
        beside = [o for o in column if o.box[0] > text.box[2] and abs(o.box[1] - text.box[1]) < 10]
        if text.text.isdigit() and beside:
            found.append((int(text.text) - 1, float(beside[0].text), text.box[1]))
    return found


@pytest.mark.parametrize("case", list(TIES))
def test_every_line_ends_in_its_seat_and_final_score_apart_from_the_others(case):
    history, names, winners = TIES[case]
    _, texts = drawn(history, names, "en", winners)
    labels = end_labels(texts, len(names))
    assert sorted(seat for seat, _, _ in labels) == list(range(len(names)))
    assert all(score == history[-1][seat] for seat, score, _ in labels)
    by_height = [score for _, score, _ in sorted(labels, key=lambda label: label[2])]
    assert by_height == sorted(by_height, reverse=True)  # higher scores stand higher


def test_identical_lines_are_drawn_side_by_side_not_on_top_of_each_other():
    """Four seats with the same score all game: wherever no numbered marker stands, each line
    shows its whole width (no line covers another)."""
    history, names, winners = TIES["identical lines"]
    image, texts = drawn(history, names, "en", winners)
    image = image.convert("RGB")
    legend_top = HEIGHT - 24 - ROW * len(names)
    markers = [t.box for t in texts if t.text.isdigit() and 150 < t.box[1] < legend_top - 100
               and t.box[0] > 100 and t.box[0] < WIDTH - 4 * BADGE - 60]
    assert markers
    free = [x for x in range(100, 860, 5) if not any(box[0] - 30 < x < box[2] + 30 for box in markers)]
    assert len(free) >= 15
    for x in free:
        shown = [image.getpixel((x, y)) for y in range(150, legend_top - 40)]
        assert all(shown.count(SEAT_COLOURS[seat]) >= 5 for seat in range(len(names))), x


def test_without_winners_nobody_is_called_a_winner():
    history, names, _ = TIES["three level, one winner"]
    _, texts = drawn(history, names, "en", None)
    assert not [t for t in texts if t.text == "Winner"]
    assert sum(t.text == "1." for t in texts) == 3  # the three level on the best score share the place


def test_the_png_takes_the_winners_too():
    history, names, winners = TIES["winner not on top"]
    marked = render_chart_png(history, names, "en", "Knatsch", winners=winners)
    assert marked != render_chart_png(history, names, "en", "Knatsch")
