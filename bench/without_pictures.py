"""`python -m bench.without_pictures MODULE [ARGS]`: a module (the bot) run with every picture a
one-pixel PNG, to measure what a move costs besides drawing and encoding its images.

The renderers' entry points (`renderers.render_png`, `renderers.render_pngs`, which the bot's
`BoardRenderer` calls) are replaced before the module runs; everything else is the bot as it is:
the store, the engines, the messages and their words, the requests, discord.py. A bench that
runs the bot this way (`bench/discord_load.py --without-pictures`, `bench/bot_moves.py
--without-pictures`) shows the floor a move's CPU stands on: what no drawing saving can take
away. Nothing a player would see is measured here: the pictures are empty.
"""
from __future__ import annotations

import io
import runpy
import sys
from typing import Any

from PIL import Image

import renderers


def _one_pixel_png() -> bytes:
    buffer = io.BytesIO()
    Image.new("P", (1, 1)).save(buffer, format="PNG")
    return buffer.getvalue()


ONE_PIXEL = _one_pixel_png()


class WithoutPictures:
    """A renderer in the bot's shape (`renderers.BoardRenderer`) that draws nothing."""

    def __call__(self, view: Any, names: list[str], lang: str = "en") -> bytes:
        return ONE_PIXEL

    def many(self, views: list[Any], names: list[str], lang: str = "en") -> list[bytes]:
        return [ONE_PIXEL for _ in views]


def leave_pictures_out() -> None:
    """Every picture the bot asks for, from now on, a one-pixel PNG."""
    empty = WithoutPictures()
    renderers.render_png = empty  # type: ignore[assignment]
    renderers.render_pngs = empty.many  # type: ignore[assignment]


def _run_module() -> None:
    if len(sys.argv) < 2 or sys.argv[1] in ("-h", "--help"):
        raise SystemExit("usage: python -m bench.without_pictures MODULE [ARGS]  "
                         "(the module run as __main__, every picture a one-pixel PNG)")
    leave_pictures_out()
    module = sys.argv[1]
    sys.argv = sys.argv[1:]
    runpy.run_module(module, run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    _run_module()
