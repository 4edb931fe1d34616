"""bench.store_statements times what a change runs in aiosqlite's thread and the reads made on the
event loop's, and leaves the store as it found it."""
from __future__ import annotations

from aiosqlite.core import Connection

import bot.storage.database as database
from bench.store_statements import StatementTimes
from bot.store import Storage


async def test_a_move_is_timed_statement_by_statement_and_the_store_restored(tmp_path):
    storage = await Storage.open(tmp_path / "bot.sqlite3")
    batch_here, execute = database._batch_here, Connection._execute
    times = StatementTimes()
    try:
        table = await storage.games.create_lobby(guild_id=1, channel_id=2, game="pips", host_id=100,
                                                 host_name="Alice", options={})
        await storage.games.start_game(table.id, seat_order=[100], seed=1, state={"n": 0})
        times.start()
        await storage.games.record_change(table.id, expected_version=0, seat=0, action="roll", state={"n": 1})
        assert (await storage.games.get_game(table.id)).state == {"n": 1}
        times.stop()
    finally:
        times.close()
    assert (database._batch_here, Connection._execute) == (batch_here, execute)
    await storage.close()

    assert times.counts["BEGIN IMMEDIATE"] == times.counts["COMMIT"] == 1
    logged = "INSERT INTO actions (game_id, version, seat, action, at, answered) VALUES (?, ?, ?, ?, ?, ?)"
    assert times.counts[logged] == 1
    assert times.counts["SELECT * FROM games WHERE id = ? ORDER BY id DESC LIMIT 1"] == 1
    assert times.calls == 1  # the move's batch; the game is read on the event loop's thread
    assert times.here_batches == 1 and times.here > 0
    assert times.worker >= sum(times.seconds.values()) - times.here > 0
    lines = times.lines(moves=1)
    assert "1.00 transactions" in lines[0] and "1.0 hand-overs" in lines[0]
    assert "1.0 reads of a game" in lines[1]
