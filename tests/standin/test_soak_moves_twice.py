"""The soak's check of moves applied twice (bench/soak.py, `Checks.compare_with_store`): one
click's action stored at two versions in a row is a move applied twice, unless the second is
another click's (one made at the first stored version) or one the bot made itself for the seat,
as its log says (a decision made at once, a standing order, the reaction window: the second of
two discards owed, say)."""
from __future__ import annotations

import sqlite3
from pathlib import Path
from types import SimpleNamespace

from bench.soak import Checks


def checks(actions: list[tuple[int, int, str]], log: str, folder: Path) -> Checks:
    """A check over a store whose game 4 holds `actions` (version, seat, action), user 7 at seat 1,
    with the bot's log `log`."""
    database = sqlite3.connect(":memory:")
    database.execute("CREATE TABLE actions (game_id INTEGER, version INTEGER, seat INTEGER, action TEXT)")
    database.execute("CREATE TABLE seats (game_id INTEGER, user_id INTEGER, seat INTEGER)")
    database.executemany("INSERT INTO actions VALUES (4, ?, ?, ?)", actions)
    database.execute("INSERT INTO seats VALUES (4, 7, 1)")
    (folder / "bot-1.log").write_text(log, encoding="utf-8")
    found = Checks.__new__(Checks)
    found._db = database
    found.soak = SimpleNamespace(elapsed=lambda at: at, logs=[folder / "bot-1.log", folder / "bot-2.log"],
                                 windows=SimpleNamespace(excuses_answer=lambda *_: False))
    return found


def click(version: int, action: str = "discard 1") -> SimpleNamespace:
    return SimpleNamespace(name=f"rk:move:4:{version}:{action}", value=None, user_id=7, sent_at=600.0, channel_id=1)


PLAYED = ("2026-11-29 23:00:01,000 INFO     bot.moves: move game=4 channel=9 seat=1 action='discard 1' "
          "version=137 took=21ms\n")
STORED_TWICE = [(137, 1, "discard 1"), (138, 1, "discard 1")]


def test_one_click_stored_twice_is_found(tmp_path):
    log = PLAYED + PLAYED.replace("version=137", "version=138")
    found = checks(STORED_TWICE, log, tmp_path)

    lost, _, twice = found.compare_with_store([click(136)], [click(136)])

    assert lost == [] and len(twice) == 1 and "stored at versions 137 and 138" in twice[0]


def test_a_click_on_the_new_buttons_explains_the_second(tmp_path):
    found = checks(STORED_TWICE, PLAYED, tmp_path)

    assert found.compare_with_store([click(136)], [click(136), click(137)])[2] == []


def test_a_move_the_bot_made_for_the_seat_explains_the_second(tmp_path):
    by_the_computer = ("2026-11-29 23:00:03,000 INFO     bot.moves: move game=4 channel=9 seat=1 "
                       "action='discard 1' version=138 by the computer\n")
    at_once = by_the_computer.replace("by the computer", "made at once")
    elsewhere = by_the_computer.replace("game=4", "game=5")

    def twice(log: str) -> list[str]:
        return checks(STORED_TWICE, log, tmp_path).compare_with_store([click(136)], [click(136)])[2]

    assert twice(PLAYED + by_the_computer) == [] and twice(PLAYED + at_once) == []
    assert len(twice(PLAYED + elsewhere)) == 1
