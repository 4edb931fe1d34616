"""The README's pictures: one turn of each game as a player sees it on a phone.

    .venv/bin/pip install -e '.[pictures]'    # simcord's preview and a headless Chromium driver
    .venv/bin/python docs/pictures.py [GAME ...]

The real bot runs offline in simcord (the simulated Discord the tests use); players open a table,
start it and move the way the tests' harness moves them, with fixed seeds, so the same code gives
the same pictures. simcord's preview draws the newest turn message the way a Discord client does,
390 px wide like a phone, and a headless Chromium (`/usr/bin/chromium`, or Playwright's own if
that is missing) photographs it. Each picture is stored as a 256-colour PNG in docs/pictures/ so
all five stay a few hundred KB. Run it again whenever a board changes; the README shows them.
"""
from __future__ import annotations

import argparse
import asyncio
import io
import random
import shutil
import sys
import tempfile
from pathlib import Path

from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.bot.harness import buttons, simulated_discord, take_turn, to_act

ROOT = Path(__file__).resolve().parents[1]

OUT = ROOT / "docs" / "pictures"
PHONE = (390, 1400)  # a phone's width; tall enough for the whole turn message
NAMES = ["anna", "bernd", "clara", "dora"]
# game -> (players, moves made before the picture, seed): a turn in the thick of the game.
TURNS = {
    "knatsch": (3, 14, 2),
    "raubritter": (3, 16, 5),
    "macrobber": (3, 14, 4),
    "gluecksritter": (4, 10, 3),
    "carcassonne": (3, 60, 1),
}


def _use_system_chromium() -> None:
    """Playwright downloads its own browser unless told of one; a distribution's Chromium will do."""
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        return
    import playwright.async_api as playwright

    launch = playwright.BrowserType.launch

    async def launch_system(self, **options):
        options.setdefault("executable_path", chromium)
        options.setdefault("args", ["--no-sandbox"])
        return await launch(self, **options)

    playwright.BrowserType.launch = launch_system


def small_png(png: bytes) -> bytes:
    """256 colours are plenty for a board and a chat client, at a third of the bytes."""
    image = Image.open(io.BytesIO(png)).convert("RGB")
    out = io.BytesIO()
    image.quantize(colors=256, method=Image.Quantize.MEDIANCUT).save(out, format="PNG", optimize=True)
    return out.getvalue()


async def picture(game: str, lang: str) -> bytes:
    players_count, moves, seed = TURNS[game]
    with tempfile.TemporaryDirectory() as folder:
        async with simulated_discord(Path(folder) / "bot.sqlite3", seed=seed) as world:
            players = [world.player(name) for name in NAMES[:players_count]]
            await world.slash(players[0], "game new", game=game, language=lang)

            def lobby_button(operation: str) -> str:
                return next(b["custom_id"] for b in buttons(world.latest()) if b["custom_id"].endswith(operation))

            for player in players[1:]:
                await world.click(player, world.latest(), custom_id=lobby_button(":join"))
            await world.click(players[0], world.latest(), custom_id=lobby_button(":start"))
            rng = random.Random(seed)
            for _ in range(moves):
                acting = to_act(world, players)
                if not acting:
                    break
                await take_turn(world, acting[0], rng)
            width, height = PHONE
            async with world.env.preview(world.channel, viewers=[players[0]], layout="message", display="fixed",
                                         width=width, height=height,
                                         locale="de" if lang == "de" else "en-US") as preview:
                capture = await preview.screenshot(mode="surface", allow_incomplete=True)
            return small_png(capture.png)


async def make(games: list[str], lang: str) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    total = 0
    for game in games:
        png = await picture(game, lang)
        (OUT / f"{game}.png").write_bytes(png)
        total += len(png)
        print(f"{game}: {len(png) // 1024} KB")
    print(f"all: {total // 1024} KB in {OUT.relative_to(ROOT)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", choices=[[], *TURNS], metavar="GAME",
                        help="games to photograph (all five by default)")
    parser.add_argument("--lang", default="en", choices=("en", "de"))
    arguments = parser.parse_args()
    _use_system_chromium()
    asyncio.run(make(arguments.games or list(TURNS), arguments.lang))


if __name__ == "__main__":
    main()
