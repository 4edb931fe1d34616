"""What the tests of boards composed straight in their palette (`renderers.common.PaletteDraw`)
share: a drawing made both ways, and `render` drawing both under `VERIFY_KEPT_PARTS`."""
from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from types import ModuleType
from typing import Any

from PIL import Image, ImageDraw

from renderers import common
from renderers.common import BACKGROUND, forget_kept, palette_board, settled, to_palette


def painted_both_ways(paint: Callable[[ImageDraw.ImageDraw], None], palette: Image.Image,
                      size: tuple[int, int]) -> tuple[Image.Image, Image.Image]:
    """`paint(draw)` on an RGB image quantized to `palette`, and on a palette image (`PaletteDraw`)."""
    rgb = Image.new("RGB", size, BACKGROUND)
    paint(ImageDraw.Draw(rgb))
    board, draw = palette_board(size, palette)
    paint(draw)
    return to_palette(rgb, palette), settled(board)


def boards_render_draws(monkeypatch: Any, renderer: ModuleType, view: dict[str, Any], names: list[str],
                        lang: str) -> list[bool]:
    """Which boards `renderer.render` drew under `VERIFY_KEPT_PARTS` (`composed` of each call to
    its `_board`): the composed one, then the RGB one it is checked against."""
    monkeypatch.setattr(common, "VERIFY_KEPT_PARTS", True)
    calls: list[bool] = []
    original = renderer._board
    monkeypatch.setattr(renderer, "_board",
                        lambda *args, composed: calls.append(composed) or original(*args, composed=composed))
    renderer.render(view, names, lang)
    return calls


def assert_same(composed: Image.Image, drawn: Image.Image, what: object) -> None:
    """The board composed in its palette is the board drawn in RGB and quantized, pixel for pixel."""
    assert composed.size == drawn.size and composed.mode == drawn.mode == "P", what
    assert composed.getpalette() == drawn.getpalette(), what
    assert composed.tobytes() == drawn.tobytes(), what


def random_game(game: Any, seats: int, seed: int) -> Iterator[Any]:
    """Every state of a game played at random (the first seat to act takes a legal action)."""
    rng = random.Random(seed)
    state = game.new_game(seats, seed=seed)
    while True:
        yield state
        if game.outcome(state) is not None:
            return
        seat = min(game.to_act(state))
        state, _ = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))


def whole_game_compared(game: Any, seats: int, seed: int, every: int, names: list[list[str]],
                        both_ways: Callable[[dict[str, Any], list[str], str], tuple[Image.Image | None, Image.Image]]
                        ) -> tuple[int, int]:
    """Every `every`-th public board of a random game drawn both ways (`both_ways(view, names, lang)`:
    composed, or None where not composable, and drawn in RGB) and each composed one checked to be
    the RGB one (`assert_same`); the languages take turns, the two lists of `names` every other
    time, and the kept pictures are forgotten at every seventh state. (Boards composed, boards
    compared.)"""
    composed_count = compared = 0
    for step, state in enumerate(random_game(game, seats, seed)):
        if step % every:
            continue
        if step % 7 == 0:
            forget_kept()
        lang = ("en", "de")[step // every % 2]
        composed, drawn = both_ways(game.view(state, None), names[step // (2 * every) % 2][:seats], lang)
        compared += 1
        if composed is not None:
            composed_count += 1
            assert_same(composed, drawn, (seats, seed, step, lang))
    return composed_count, compared
