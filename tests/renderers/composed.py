"""What the tests of boards composed straight in their palette (`renderers.common.PaletteDraw`)
share: a drawing made both ways, and `render` drawing both under `VERIFY_KEPT_PARTS`."""
from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

from PIL import Image, ImageDraw

from renderers import common
from renderers.common import BACKGROUND, palette_board, settled, to_palette


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
