"""The shared drawing pieces: a font for every script, and seat colours that colour-blind
players can tell apart."""
from __future__ import annotations

import itertools
import math

import pytest
from PIL import Image, ImageDraw

from renderers.common import MIN_TEXT, PHONE_SIZE, SEAT_COLOURS, drawable, font, has_glyph, seat_names, wrap

# Machado, Oliveira & Fernandes (2009), severity 1.0, on linear RGB.
SIMULATIONS = {
    "normal": ((1, 0, 0), (0, 1, 0), (0, 0, 1)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413),
                     (-0.011820, 0.042940, 0.968881)),
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216),
                   (-0.003882, -0.048116, 1.051998)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602),
                   (0.004733, 0.691367, 0.303900)),
}
KNATSCH_ARMS = [(200, 40, 40), (35, 85, 200), (30, 140, 60), (240, 200, 30), (125, 55, 165), (30, 30, 30)]


def _linear(channel: int) -> float:
    c = channel / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _lab(rgb, vision: str) -> tuple[float, float, float]:
    linear = [_linear(c) for c in rgb]
    matrix = SIMULATIONS[vision]
    r, g, b = (min(1.0, max(0.0, sum(matrix[i][j] * linear[j] for j in range(3)))) for i in range(3))
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883
    def f(t):
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    fx, fy, fz = f(x), f(y), f(z)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def distance(a, b, vision: str = "normal") -> float:
    return math.dist(_lab(a, vision), _lab(b, vision))


def test_simulation_sees_the_classic_confusion():
    # The check itself: red and green that normal eyes tell apart merge for deuteranopes.
    red, green = (205, 40, 40), (30, 150, 70)
    assert distance(red, green) > 60
    assert distance(red, green, "deuteranopia") < distance(red, green) / 2


@pytest.mark.parametrize("vision", list(SIMULATIONS))
def test_every_pair_of_seat_colours_stays_apart(vision):
    assert len(SEAT_COLOURS) >= 6
    for (i, a), (j, b) in itertools.combinations(enumerate(SEAT_COLOURS), 2):
        assert distance(a, b, vision) >= 30, f"seats {i + 1} and {j + 1} look alike under {vision}"


def test_seat_colours_stay_apart_from_knatsch_coats_of_arms():
    for seat, colour in enumerate(SEAT_COLOURS):
        for arms in KNATSCH_ARMS:
            assert distance(colour, arms) >= 30, f"seat {seat + 1} looks like a coat of arms {arms}"


NAMES = ["Jürgen", "Αλέξανδρος", "Дмитрий", "王小明", "さくら", "김민준", "Zoë Ødegård"]


@pytest.mark.parametrize("name", NAMES)
def test_names_in_every_script_have_glyphs(name):
    assert all(has_glyph(char) for char in name), [c for c in name if not has_glyph(c)]
    assert drawable(name) == name


def test_missing_glyphs_are_detected_and_dropped():
    assert not has_glyph("😀") and not has_glyph("🎲")
    assert drawable("Anna 🎲") == "Anna"
    assert drawable("🐉🐉", "P2") == "P2"
    assert drawable("Ἀλέξανδρος") == "Αλέξανδρος"  # polytonic Greek falls back to its base letters
    assert seat_names(["🐉", "Bob"], 3) == ["P1", "Bob", "P3"]


def test_cjk_names_draw_real_glyphs():
    """A drawn CJK name differs from the same number of 'missing glyph' boxes."""
    def pixels(text):
        image = Image.new("L", (400, 80), 0)
        ImageDraw.Draw(image).text((4, 4), text, font=font(48), fill=255)
        return image.tobytes()

    boxes = pixels("\U0010fffd" * 3)
    for name in ("王小明", "さくら", "김민준"):
        assert pixels(name) != boxes and any(pixels(name))


def test_wrap_breaks_words_and_cjk():
    lines = wrap("one two three four five six", MIN_TEXT, 200)
    assert len(lines) > 1 and all(font(MIN_TEXT).getlength(line) <= 200 for line in lines)
    assert len(wrap("王小明" * 20, MIN_TEXT, 200)) > 1


def test_phone_size_is_upright_and_not_square():
    width, height = PHONE_SIZE
    assert height > width and 1.2 <= height / width <= 1.3
    assert MIN_TEXT >= width / 40


def test_text_drawn_from_kept_bitmaps_looks_the_same_and_the_store_stays_bounded():
    from PIL import ImageFont

    from renderers import common

    kept = common.font(40)
    plain = ImageFont.truetype(common.FONT_PATH, kept.size, index=common.FONT_INDEX)

    def drawn(face, texts) -> bytes:
        image = Image.new("L", (900, 60 * len(texts)))
        draw = ImageDraw.Draw(image)
        for row, text in enumerate(texts):
            draw.text((10.5, 60 * row + 5.25), text, font=face, fill=255, anchor="la")
        return image.tobytes()

    texts = ["Anna 王小明", "Дмитрий 12", "Anna 王小明", "Αλέξανδρος"]
    assert drawn(kept, texts) == drawn(plain, texts)
    assert drawn(kept, texts) == drawn(plain, texts)  # a second time, from the kept bitmaps
    budget = common.TEXT_MASKS.budget
    for number in range(3000):
        drawn(kept, [f"{number} {'W' * 20}"])
    assert budget // 2 < common.TEXT_MASKS.used <= budget


def test_kept_images_stay_within_their_byte_budget_and_drop_the_least_recently_used():
    from renderers.common import KeptImages, keep_drawn

    kept = KeptImages(3 * 100 * 100)
    for name in "abc":
        kept.put(name, Image.new("L", (100, 100)))
    assert kept.get("a") is not None  # a is now the most recently used
    kept.put("d", Image.new("L", (100, 100)))
    assert kept.get("b") is None and kept.get("a") is not None and len(kept) == 3
    kept.put("huge", Image.new("RGB", (200, 200)))  # larger than the whole budget: not kept
    assert kept.get("huge") is None and kept.used <= kept.budget

    calls = []

    @keep_drawn(10 * 10 * 4)
    def square(size):
        calls.append(size)
        return Image.new("RGB", (size, size))

    assert square(10) is square(10) and calls == [10]
    square(5)
    assert square(10) is not None and calls == [10, 5, 10]  # 10 was dropped to make room for 5


def test_kept_parts_found_again_stay_while_many_parts_pass_through_once():
    """`KeptParts`: a part found again (a legend at every table) is kept however many parts seen
    once pass through after it, where a plain LRU of the same budget loses it; all within the
    byte budget, the promoted in half of it."""
    from renderers.common import KeptImages, KeptParts

    part = 100 * 100
    segmented, plain = KeptParts(10 * part), KeptImages(10 * part)
    for kept in (segmented, plain):
        kept.put("legend", Image.new("P", (100, 100)))
        assert kept.get("legend") is not None
        for table in range(50):
            assert kept.get(("row", table)) is None
            kept.put(("row", table), Image.new("P", (100, 100)))
        assert kept.used <= kept.budget and len(kept) == 10
    assert segmented.get("legend") is not None and plain.get("legend") is None
    assert segmented.get(("row", 49)) is not None and segmented.get(("row", 40)) is None

    for number in range(8):  # each found again: promoted, up to half the budget
        segmented.put(("often", number), Image.new("P", (100, 100)))
        assert segmented.get(("often", number)) is not None
    assert segmented._promoted_used <= segmented.budget // 2 and segmented.used <= segmented.budget
    assert len(segmented) == 10 and segmented.get(("often", 7)) is not None
    segmented.put(("often", 7), Image.new("P", (50, 100)))  # put again: replaced, counted once
    assert segmented.used == 9 * part + part // 2 and segmented.get(("often", 7)).size == (50, 100)
    segmented.clear()
    assert len(segmented) == 0 and segmented.used == 0 and segmented.get("legend") is None


def test_the_cover_test_sees_a_shape_drawn_over_a_text_and_not_one_drawn_under_it():
    from PIL import Image, ImageDraw

    from renderers.common import font
    from tests.renderers.standard import covered_texts, recording_covers

    with recording_covers() as drawn:
        image = Image.new("RGB", (300, 100), "white")
        draw = ImageDraw.Draw(image)
        draw.ellipse((10, 10, 90, 90), fill="yellow")  # under: drawn first
        draw.text((50, 50), "7", font=font(56), fill="black", anchor="mm")
        draw.text((200, 50), "2", font=font(56), fill="black", anchor="mm")
        draw.line((180, 70, 220, 70), fill="red", width=6)  # over the foot of the "2"
        draw.rectangle((100, 0, 300, 100), outline="blue", width=2)  # round it: covers nothing
    problems = covered_texts(drawn)
    assert len(problems) == 1 and problems[0].startswith("'2'")


def test_marks_are_recorded_and_held_to_min_mark():
    from PIL import Image, ImageDraw

    from renderers.common import MARK_TEXT, MIN_MARK, font, ink_height, mark_text, marks, recording_texts
    from tests.renderers.standard import mark_problems

    assert ink_height("8", MARK_TEXT) >= MIN_MARK > ink_height("8", 40)
    with recording_texts() as records:
        draw = ImageDraw.Draw(Image.new("RGB", (200, 100)))
        mark_text(draw, (40, 50), "5")
        with marks():
            draw.text((120, 50), "6", font=font(40), anchor="mm")
        draw.text((170, 50), "x", font=font(40), anchor="mm")
    assert [r.mark for r in records] == [True, True, False]
    assert [p.split()[1] for p in mark_problems(records)] == ["'6'"]


def test_wrap_gives_the_lines_of_measuring_every_candidate_line_whole():
    """`wrap` measures words alone and a line whole only where their sum cannot tell: the same
    lines as measuring each candidate line whole, kerned pairs ("PJ", "AV") at the joins, CJK
    broken between characters, and widths under a word's."""
    import random

    def measured_whole(text: str, size: int, width: float) -> list[str]:
        face = font(size)
        lines: list[str] = []
        line = ""
        for word in text.split(" "):
            candidate = f"{line} {word}" if line else word
            if face.getlength(candidate) <= width:
                line = candidate
                continue
            if line:
                lines.append(line)
            line = ""
            for char in word:
                if face.getlength(line + char) > width and line:
                    lines.append(line)
                    line = ""
                line += char
        if line:
            lines.append(line)
        return lines

    words = ("Anna rolled three sixes and keeps PJ AV To Wa 王小明 さくら 김민준 Дмитрий Αλέξανδρος Überlänge "
             "「決定」。 — … , ! Unbreakablewordwiderthanaline 王小明さくら王小明さくら").split() + [""]
    rng = random.Random(38)
    cut = 0
    for _ in range(400):
        text = " ".join(rng.choice(words) for _ in range(rng.randint(0, 12)))
        size, width = rng.choice([27, 40, 56]), rng.randint(30, 900) + rng.random()
        lines = wrap(text, size, width)
        assert lines == measured_whole(text, size, width), (text, size, width)
        cut += len(lines) > 1
    assert cut > 100


def test_a_text_stamped_from_its_kept_bitmap_is_the_text_drawn():
    from renderers.common import stamp_text, text_mask

    for text, anchor, stroke in (("Anna 12", "la", 0), ("王小明 Дмитрий", "lm", 0), ("Knatsch!", "ls", 1)):
        drawn = Image.new("RGB", (700, 120), (245, 239, 226))
        ImageDraw.Draw(drawn).text((31, 60), text, font=font(48), fill=(187, 34, 102), anchor=anchor,
                                   stroke_width=stroke, stroke_fill=(187, 34, 102))
        stamped = Image.new("RGB", (700, 120), (245, 239, 226))
        mask, left, top = text_mask(text, 48, anchor, stroke)
        stamp_text(ImageDraw.Draw(stamped), (31 + left, 60 + top), mask, (187, 34, 102))
        assert stamped.tobytes() == drawn.tobytes(), text


def test_a_text_stamped_from_its_kept_bitmap_over_the_edge_and_on_any_ground_is_the_text_drawn():
    """`stamp_text` pastes the ink through the coverage on an RGB image: the blend `ImageDraw.text`
    gives, clipped at the image's edges as it clips."""
    from renderers.common import stamp_text, text_mask

    ground = Image.effect_noise((300, 90), 80).convert("RGB")
    for xy in ((-20, -15), (250, 60), (40, 20)):
        for colour in ((187, 34, 102), "white", (0, 0, 0, 255)):
            drawn, stamped = ground.copy(), ground.copy()
            ImageDraw.Draw(drawn).text(xy, "Knatsch 4-4", font=font(48), fill=colour)
            mask, left, top = text_mask("Knatsch 4-4", 48)
            stamp_text(ImageDraw.Draw(stamped), (xy[0] + left, xy[1] + top), mask, colour)
            assert stamped.tobytes() == drawn.tobytes(), (xy, colour)


def test_a_text_bitmap_gone_from_the_kept_ones_is_unpacked_not_drawn_again():
    from renderers import common

    common.forget_kept()
    face = font(40)
    rasterised: list[str] = []
    original = common.ImageFont.FreeTypeFont.getmask2

    def counting(self, text, *args, **kwargs):
        rasterised.append(text)
        return original(self, text, *args, **kwargs)

    def drawn(text: str) -> bytes:
        image = Image.new("RGB", (800, 60), (255, 255, 255))
        ImageDraw.Draw(image).text((10.5, 5), text, font=face, fill=(40, 36, 32))
        return image.tobytes()

    first = drawn("Anna 王小明 rolled 12")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(common.ImageFont.FreeTypeFont, "getmask2", counting)
        common.TEXT_MASKS.clear()
        assert drawn("Anna 王小明 rolled 12") == first  # from the packed bitmap
        assert rasterised == []
        common.forget_kept()
        assert drawn("Anna 王小明 rolled 12") == first
        assert rasterised == ["Anna 王小明 rolled 12"]
    budget = common.PACKED_MASKS.budget
    for number in range(2000):
        face.getmask2(f"{number} {'Wj' * 30}", "L")
    assert budget // 2 < common.PACKED_MASKS.used <= budget
