"""Two real bot processes on one PostgreSQL, each serving one of two shards (SHARD_COUNT=2,
SHARD_IDS=0 and 1): the game's server belongs to shard 1's process. Every click of a whole game
reaches both processes at the same moment (the message's button in the process that holds the
message, the same move as a versioned /move in the other). Each move is applied once, by one of
them; the other is refused; every version gets exactly one board, posted by the process that
serves the server, also when the other process applied the move. A timer due in both fires once.

The children are `tests/bot/shard_child.py`; each has its own simulated Discord, so "the
channel" is what their logs say they posted.
"""
from __future__ import annotations

import asyncio
import json
import os
import random
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from bot.postgres import open_storage
from games.core import Action
from tests.bot import fakegame, pg
from tests.bot.shard_child import PLAYERS

ROOT = Path(__file__).resolve().parents[2]


class Child:
    """One bot process (`tests.bot.shard_child`) serving shard `shard` of two."""

    def __init__(self, url: str, shard: int, log: Path, errors: Path) -> None:
        self.shard, self.log = shard, log
        self.errors = errors
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tests.bot.shard_child", url, str(shard), str(log)],
            cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=errors.open("w"), text=True,
            env={**os.environ, "PYTHONPATH": str(ROOT)})

    def send(self, command: dict) -> None:
        self.process.stdin.write(json.dumps(command) + "\n")
        self.process.stdin.flush()

    def receive(self) -> dict:
        line = self.process.stdout.readline()
        if not line:
            raise AssertionError(f"shard {self.shard}'s process died:\n{self.errors.read_text()[-4000:]}")
        return json.loads(line)

    def ask(self, command: dict) -> dict:
        self.send(command)
        return self.receive()

    def entries(self, kind: str) -> list[dict]:
        if not self.log.exists():
            return []
        return [entry for line in self.log.read_text().splitlines() if (entry := json.loads(line))["kind"] == kind]

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.stdin.close()
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def both(*pairs: tuple[Child, dict]) -> list[dict]:
    """Send each process its command at the same moment, then read both answers."""
    for child, command in pairs:
        child.send(command)
    return [child.receive() for child, _ in pairs]


@pytest.fixture
def processes(tmp_path):
    url = pg.fresh_database_url()  # skips, saying why, without PostgreSQL
    dms_process = Child(url, 0, tmp_path / "shard0.log", tmp_path / "shard0.err")    # Discord's DM shard
    owner = Child(url, 1, tmp_path / "shard1.log", tmp_path / "shard1.err")          # serves the server
    try:
        for child in (dms_process, owner):
            assert child.receive() == {"ready": True}
        yield url, dms_process, owner
    finally:
        for child in (dms_process, owner):
            child.stop()


STALE = ("That board is out of date", "That move was offered at move #", "Someone moved at the same moment")
OVER = "This game is over (finished)"


def is_stale(refusal: str | None, *, game_over: bool = False) -> bool:
    """The answer to a click that came second: the board moved on (no other refusal), or,
    after the game's last move, that the game is over."""
    return refusal is not None and (refusal.startswith(STALE) or (game_over and refusal.startswith(OVER)))


def boards(*children: Child) -> list[dict]:
    return [entry for child in children for entry in child.entries("board")]


async def test_two_processes_take_each_click_at_once_and_apply_it_once(processes):
    url, other, owner = processes
    assert other.ask({"op": "ids"}) == owner.ask({"op": "ids"})  # one Discord, as both see it
    ids = owner.ask({"op": "ids"})
    name_of = {user_id: name for name, user_id in ids["users"].items()}
    game_id = owner.ask({"op": "open", "players": list(PLAYERS), "options": "rounds=3"})["game"]
    store = await open_storage(url)
    try:
        await one_timer_due_in_both(url, store, game_id, other, owner)

        # A move that reaches only the process that does not serve the server (a DM click
        # goes to shard 0's): stored there, its board posted once, by the owner.
        table = await store.games.get_game(game_id)
        game = fakegame.GAME
        seat = min(game.to_act(game.from_dict(table.state)))
        action = game.legal_actions(game.from_dict(table.state), seat)[0].encode()
        alone = other.ask({"op": "move", "user": name_of[table.player_at(seat).user_id],
                           "action": f"@{table.version} {action}"})
        assert alone["applied"] and alone["version"] == table.version + 1
        assert boards(owner)[-1]["version"] == table.version  # not yet: the owner has not looked
        again = other.ask({"op": "move", "user": name_of[table.player_at(seat).user_id],
                           "action": f"@{table.version} {action}"})
        assert not again["applied"] and is_stale(again["refusal"])  # and the owed board stays the owner's
        assert boards(other) == []
        assert both((other, {"op": "tick"}), (owner, {"op": "tick"})) == [{"posted": 0}, {"posted": 1}]
        assert boards(owner)[-1]["version"] == table.version + 1 and boards(other) == []

        rng = random.Random(11)
        applied_by: Counter = Counter()
        refusals: Counter = Counter()
        clicked_where: Counter = Counter()
        moves = 1
        while (table := await store.games.get_game(game_id)).status == "active":
            both((other, {"op": "tick"}), (owner, {"op": "tick"}))  # a few seconds pass
            assert any(b["version"] == table.version for b in boards(owner)), f"no board of {table.version}"
            state = game.from_dict(table.state)
            seat = rng.choice(sorted(game.to_act(state)))
            user = name_of[table.player_at(seat).user_id]
            # The newest offer of this player's moves, in whichever process's Discord holds it.
            offers = [(child, move) for child in (owner, other)
                      for move in child.ask({"op": "offer", "user": user})["moves"]]
            newest = max(int(move["custom_id"].split(":")[3]) for _, move in offers)
            holder, move = rng.choice([(c, m) for c, m in offers if int(m["custom_id"].split(":")[3]) == newest])
            _, _, _, seen, action = move["custom_id"].split(":", 4)
            typist = other if holder is owner else owner
            clicked_where[move["where"]] += 1
            clicked, typed = both(
                (holder, {"op": "click", "user": user, "where": move["where"], "custom_id": move["custom_id"]}),
                (typist, {"op": "move", "user": user, "action": f"@{seen} {action}"}),
            )
            moves += 1
            actions = await store.games.actions(game_id)
            assert len(actions) == moves, f"move {moves} was stored {len(actions) - moves + 1} times"
            assert (actions[-1].seat, actions[-1].action) == (seat, action)
            assert sorted((clicked["applied"], typed["applied"])) == [False, True], (clicked, typed)
            winner, loser = (clicked, typed) if clicked["applied"] else (typed, clicked)
            over = (await store.games.get_game(game_id)).status == "finished"
            assert winner["refusal"] is None and is_stale(loser["refusal"], game_over=over), (clicked, typed)
            assert loser["refusal"] in loser["reply"]  # the player saw it
            if winner is typed:
                assert typed["reply"].startswith("✅")
            refusals[loser["refusal"].split(" ")[0]] += 1
            applied_by[(holder if winner is clicked else typist).shard] += 1

        assert table.status == "finished" and table.result["winners"]
        assert clicked_where["board"] and clicked_where["dm"]  # public choices and secret ones in DMs
        both((other, {"op": "tick"}), (owner, {"op": "tick"}))  # the last board, if the other process made it
        actions = await store.games.actions(game_id)
        assert [a.version for a in actions] == list(range(1, table.version + 1)) and len(actions) == moves
        # The same result as the moves give when replayed from the seed.
        replayed = game.new_game(len(table.players), seed=table.seed, options=table.options)
        for row in actions:
            replayed, _ = game.apply(replayed, row.seat, Action.parse(row.action))
        assert list(game.outcome(replayed).winners) == table.result["winners"]
        # The channel: one board per version, every one from the process that serves the server.
        assert boards(other) == []
        per_version = Counter(entry["version"] for entry in boards(owner))
        assert per_version == Counter(range(table.version + 1)), per_version
        assert boards(owner)[-1].get("end") and boards(owner)[-1]["version"] == table.version
        print(f"moves applied per shard's process: {dict(applied_by)}; refusals: {dict(refusals)}; "
              f"clicks: {dict(clicked_where)}")
    finally:
        await store.close()


async def one_timer_due_in_both(url: str, store, game_id: int, other: Child, owner: Child) -> None:
    """Both processes' schedulers find the same reminder due at once: one player gets one DM."""
    import asyncpg

    table = await store.games.get_game(game_id)
    timers = [t for t in await store.days.timers(game_id) if t[1] == "reminder"]
    assert timers, "a started game has reminders"
    seat = timers[0][0]
    due = int(time.time()) - 1
    db = await asyncpg.connect(url)
    try:
        await db.execute("UPDATE timers SET due_at = $1 WHERE game_id = $2 AND seat = $3 AND kind = 'reminder'",
                         due, game_id, seat)
        dms_before = len(other.entries("dm")) + len(owner.entries("dm"))
        both((other, {"op": "poke"}), (owner, {"op": "poke"}))

        async def moved():
            row = await db.fetchrow("SELECT due_at FROM timers WHERE game_id = $1 AND seat = $2 AND kind = 'reminder'",
                                    game_id, seat)
            return row["due_at"] > due

        deadline = time.monotonic() + 15
        while not await moved():
            assert time.monotonic() < deadline, "the due reminder was not handled"
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.5)  # room for a second, wrong, reminder
        claims = await db.fetchval("SELECT COUNT(*) FROM timer_claims WHERE game_id = $1 AND due_at = $2",
                                   game_id, due)
    finally:
        await db.close()
    dms = sorted(other.entries("dm") + owner.entries("dm"), key=lambda e: e["at"])
    assert len(dms) - dms_before == 1, f"{len(dms) - dms_before} reminders for one due timer"
    assert dms[-1]["user"] == table.player_at(seat).user_id
    assert claims == 1
