"""Pillow renderers, one module per game, plus shared drawing helpers (`renderers.common`).

Each game module is a `BoardDrawing`: `render(view, names, lang)` draws only what the view holds
(words from the `i18n` catalogues in `lang`), so a public view can never draw a secret; it may
also be a `SeatStrips` and a `PrivateShown` (below). `render_png` picks the module by the view's
"game" key and encodes a compact PNG.
"""
from __future__ import annotations

import importlib
import io
from collections.abc import Hashable
from typing import Any, Protocol, cast, runtime_checkable

from PIL import Image

from renderers.common import PNG_LEVEL, encode_png, encode_pngs

View = dict[str, Any]
"""A view of a game as its engine gives it (`Game.view`): JSON."""


class BoardDrawing(Protocol):
    """What every game's renderer module (`renderers.<game>`) defines."""

    def render(self, view: View, names: list[str], lang: str = "en") -> Image.Image:
        """The picture of `view` with the players' `names`, in words of `lang`."""


@runtime_checkable
class SeatStrips(Protocol):
    """A renderer that keeps the same board above each seat's own strip at the bottom of its
    image (the row `image.info["private_top"]`) and can draw that strip alone, so `render_pngs`
    draws the board once for the views that share it."""

    def private_layout(self, view: View, lang: str) -> Hashable:
        """What the board above the strip depends on of a view: views alike in it share the board."""

    def private_rows(self, view: View, names: list[str], lang: str, top: int) -> Image.Image:
        """The rows from `top` down of the view's image, as `render` draws them."""


@runtime_checkable
class HandAlone(Protocol):
    """A renderer whose seat images may show the seat's own things alone, none of the table."""

    def hand_alone(self, view: View) -> bool:
        """Whether the seat's image shows its own things alone (its cards), none of the table."""


@runtime_checkable
class PrivateShown(Protocol):
    """A renderer that can tell whether a seat's image shows anything the public board does not."""

    def private_shown(self, view: View) -> bool:
        """Whether the seat's image draws anything the public board does not."""


def _drawing(game: str) -> BoardDrawing:
    module: BoardDrawing = importlib.import_module(f"renderers.{game}")
    return module


def _conforms(module: object, protocol: type) -> bool:
    """`isinstance(module, protocol)`, worked out once a game's module and protocol: the check of a
    runtime-checkable protocol looks through its members each time (some 10-40 us), and a move's
    delivery asks `hand_alone` and `private_shown` of each seat's view several times (at 100 Raub
    Ritter tables some ten a move, 0.4 ms of CPU). A module's functions stay what they are once
    imported."""
    key = (module, protocol)
    found = _CONFORMING.get(key)
    if found is None:
        found = _CONFORMING[key] = isinstance(module, protocol)
    return found


_CONFORMING: dict[tuple[object, type], bool] = {}
"""`_conforms` by (module, protocol): a few games' modules, two protocols."""


def render_image(view: View, names: list[str], lang: str = "en") -> Image.Image:
    return _drawing(view["game"]).render(view, names, lang=lang)


def render_png(view: View, names: list[str], lang: str = "en") -> bytes:
    return _png(_palette_image(render_image(view, names, lang)))


def _png(image: Image.Image) -> bytes:
    if image.mode == "P" and "transparency" not in image.info:
        return encode_png(image)
    buffer = io.BytesIO()
    # Level 3 encodes in half the time of the default 6 for some 20% more bytes: still far under 300 KB.
    image.save(buffer, format="PNG", optimize=False, compress_level=PNG_LEVEL)
    return buffer.getvalue()


def render_pngs(views: list[View], names: list[str], lang: str = "en") -> list[bytes]:
    """PNGs of several views of one state (a move's DM images, and the public board with them),
    each exactly what `render_png` draws for it. Seats' images differ only in their own strip at
    the bottom, so where a game's renderer can draw that strip alone (`SeatStrips`), the board
    above it is drawn and compressed once for all the views that share its layout (the public
    board too, where its renderer keeps the same board above the strip)."""
    if not views:
        return []
    module = _drawing(views[0]["game"])
    if not isinstance(module, SeatStrips) or len(views) == 1:
        return [render_png(view, names, lang) for view in views]
    groups: dict[str, list[int]] = {}
    for index, view in enumerate(views):
        # Seats whose views differ in more than their own parts, or whose strip needs another
        # layout above it, are drawn apart.
        public = {key: value for key, value in view.items() if key not in ("viewer", "private")}
        key = repr((public, module.private_layout(view, lang)))
        groups.setdefault(key, []).append(index)
    pngs: list[bytes] = [b""] * len(views)
    for members in groups.values():
        first = _palette_image(render_image(views[members[0]], names, lang))
        top = first.info.get("private_top")
        if top is None or len(members) == 1:
            pngs[members[0]] = _png(first)
            for index in members[1:]:
                pngs[index] = render_png(views[index], names, lang)
            continue
        strips = [first.crop((0, top, first.width, first.height))]
        strips += [module.private_rows(views[index], names, lang, top) for index in members[1:]]
        for index, png in zip(members, encode_pngs(first, top, strips)):
            pngs[index] = png
    return pngs


def _palette_image(image: Image.Image) -> Image.Image:
    """Palette PNGs are several times smaller than RGB for flat board art, and look the same."""
    if image.mode == "P":
        return image
    top = image.info.get("private_top")
    image = image.convert("RGB").quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    if top is not None:
        image.info["private_top"] = top
    return image


class BoardRenderer:
    """What the bot draws with: one view (`__call__`), or several seats' views of one state at
    once (`many`), which shares the drawing of the board they have in common."""

    def __call__(self, view: View, names: list[str], lang: str = "en") -> bytes:
        return render_png(view, names, lang)

    def many(self, views: list[View], names: list[str], lang: str = "en") -> list[bytes]:
        return render_pngs(views, names, lang)


def private_shown(view: View) -> bool:
    """Whether a seat's image would show anything the public board does not (a game's renderer
    may say, as a `PrivateShown`; otherwise it is taken to). A DM carries an image only then."""
    try:
        module = _drawing(view["game"])
    except (ImportError, KeyError):
        return True
    return bool(cast(PrivateShown, module).private_shown(view)) if _conforms(module, PrivateShown) else True


def hand_alone(view: View) -> bool:
    """Whether a seat's image shows its own things alone, none of the table (a game's renderer may
    say, as a `HandAlone`; otherwise its seat images draw the table too): its description then
    describes those things alone."""
    try:
        module = _drawing(view["game"])
    except (ImportError, KeyError):
        return False
    return bool(cast(HandAlone, module).hand_alone(view)) if _conforms(module, HandAlone) else False
