"""Storage: migrations, SQLite settings, and the one-transaction-per-move compare-and-swap."""
from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import sqlite3

import pytest

from bot.days.storage import timers_writes
from bot.delivery.storage import new_turn_write
from bot.storage import ChannelBusy, StaleVersion, StorageError, stored_digest
from bot.store import Storage


@pytest.fixture
async def storage(tmp_path):
    storage = await Storage.open(tmp_path / "data" / "bot.sqlite3")  # the directory is created
    yield storage
    await storage.close()


async def started_game(storage: Storage, channel_id: int = 10) -> int:
    table = await storage.games.create_lobby(guild_id=1, channel_id=channel_id, game="pips", host_id=100,
                                             host_name="Alice", options={"rounds": "2"})
    await storage.games.add_player(table.id, 200, "Bob")
    await storage.games.start_game(table.id, seat_order=[200, 100], seed=42, state={"n": 0})
    return table.id


def newest_migrations() -> dict[str, int]:
    return {feature.name: feature.migrations[-1].version for feature in Storage.features()}


async def test_migrations_are_applied_once_and_tracked_per_feature(tmp_path):
    path = tmp_path / "bot.sqlite3"
    storage = await Storage.open(path)
    assert await storage.schema_version() == newest_migrations()
    await started_game(storage)
    await storage.close()

    again = await Storage.open(path)  # re-opening must not re-run (or fail on) migrations
    assert await again.schema_version() == newest_migrations()
    assert (await again.games.get_game(1)).status == "active"
    await again.close()


async def test_wal_mode_and_foreign_keys(storage, tmp_path):
    game_id = await started_game(storage)
    with sqlite3.connect(tmp_path / "data" / "bot.sqlite3") as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    with pytest.raises(sqlite3.IntegrityError):
        # seats must belong to a game: foreign keys are enforced on the bot's connection
        await storage.database.update(
            "INSERT INTO seats (game_id, user_id, name, joined_at) VALUES (999, 1, 'x', 0)", ())
    assert (await storage.games.get_game(game_id)).players[0].name == "Bob"


async def test_a_move_is_one_transaction_with_compare_and_swap(storage):
    game_id = await started_game(storage)

    version = await storage.games.record_change(game_id, expected_version=0, seat=0, action="roll", state={"n": 1})
    assert version == 1
    with pytest.raises(StaleVersion):
        await storage.games.record_change(game_id, expected_version=0, seat=1, action="roll", state={"n": 99})

    table = await storage.games.get_game(game_id)
    assert (table.version, table.state) == (1, {"n": 1})
    assert [(a.version, a.seat, a.action) for a in await storage.games.actions(game_id)] == [(1, 0, "roll")]


async def test_a_board_pays_only_the_board_of_the_version_it_shows(storage):
    """Two processes on one database: one posts the board of version 1 while the other has
    just stored version 2. Posting the older board must leave version 2's board owed."""
    game_id = await started_game(storage)
    await storage.games.record_change(game_id, expected_version=0, seat=0, action="roll", state={"n": 1},
                                      writes=[new_turn_write(game_id, lines=["a"], pings=[])])
    await storage.games.record_change(game_id, expected_version=1, seat=1, action="roll", state={"n": 2},
                                      writes=[("UPDATE games SET board_owed = 1 WHERE id = ?", (game_id,))])
    await storage.delivery.board_delivered(game_id, message_id=501, version=1, turn=1)  # the board drawn at version 1
    table = await storage.games.get_game(game_id)
    assert (table.board_message_id, table.board_owed, table.turn_posted) == (501, True, True)
    assert [game for game, _ in await storage.delivery.owed_games()] == [game_id]
    await storage.delivery.board_delivered(game_id, message_id=502, version=2, turn=1)
    table = await storage.games.get_game(game_id)
    assert (table.board_message_id, table.board_owed) == (502, False)
    assert await storage.delivery.owed_games() == []


async def test_a_board_sent_for_a_turn_that_is_over_loses_its_buttons(storage):
    """A board message sent while a move began the next turn: the open turn is still owed its
    own message, and the one sent becomes history (its buttons stripped)."""
    game_id = await started_game(storage)
    await storage.games.record_change(game_id, expected_version=0, seat=0, action="roll", state={"n": 1},
                                      writes=[new_turn_write(game_id, lines=["a"], pings=[])])
    assert await storage.delivery.board_posting(game_id, 1) == 1
    await storage.games.record_change(game_id, expected_version=1, seat=1, action="roll", state={"n": 2},
                                      writes=[new_turn_write(game_id, lines=["b"], pings=[])])
    assert await storage.delivery.board_posting(game_id, 2) == 1  # the unanswered post's turn

    assert await storage.delivery.board_delivered(game_id, message_id=501, version=1, turn=1) is False
    table = await storage.games.get_game(game_id)
    assert (table.board_message_id, table.board_owed, table.turn_number) == (None, True, 2)
    assert [(kind, payload) for _, kind, payload in await storage.delivery.deliveries(game_id)] == [
        ("close", {"message_id": 501, "lines": None})]
    assert await storage.delivery.board_posting(game_id, 2) == 2  # nothing unanswered any more

    assert await storage.delivery.board_delivered(game_id, message_id=502, version=2, turn=2) is True
    table = await storage.games.get_game(game_id)
    assert (table.board_message_id, table.board_owed, table.board_turn) == (502, False, 2)
    assert len(await storage.delivery.deliveries(game_id)) == 1


async def test_a_games_timers_are_replaced_whole(storage):
    """What `bot.days` stores after every change: each seat's wait and the game's timers."""
    game_id = await started_game(storage)
    await storage.apply(timers_writes(game_id, {0: 100, 1: None}, [(0, "reminder", 1000), (0, "deadline", 2000)]))
    assert await storage.days.timers(game_id) == [(0, "deadline", 2000), (0, "reminder", 1000)]
    assert await storage.days.next_due() == 1000
    await storage.apply(timers_writes(game_id, {0: None, 1: 300}, [(1, "reminder", 1300)]))
    assert await storage.days.timers(game_id) == [(1, "reminder", 1300)]
    assert (await storage.days.seats(game_id))[1]["since"] == 300


def test_waits_and_timers_as_stored_are_not_written_again():
    """Given the seats' rows and the timers as read, only what changed is written: the waits of
    seats that changed, and the game's timers only if the set differs."""
    seats = {0: {"since": 100, "computer": None}, 1: {"since": None}}
    timers = [(0, "reminder", 1000), (0, "deadline", 2000)]
    same = timers_writes(7, {0: 100, 1: None}, list(reversed(timers)), seats_before=seats, timers_before=timers)
    assert same == []
    moved = timers_writes(7, {0: None, 1: 300, 2: None}, [(1, "reminder", 1300)], seats_before=seats,
                          timers_before=timers)
    assert [params for _, params in moved] == [(7, 0, None), (7, 1, 300), (7, 2, None), (7,), (7, 1, "reminder", 1300)]


def count_hand_overs(storage: Storage, monkeypatch) -> list[str]:
    """The names of the functions the store hands to aiosqlite's thread from now on (each
    statement, fetch, BEGIN and COMMIT that goes through aiosqlite is one)."""
    connection = storage.database.connection
    handed: list[str] = []
    original = connection._execute

    async def counted(fn, *args, **kwargs):
        handed.append(getattr(fn, "__name__", repr(fn)))
        return await original(fn, *args, **kwargs)

    monkeypatch.setattr(connection, "_execute", counted)
    return handed


async def test_a_change_is_one_hand_over_and_its_writes_keep_their_order(storage, monkeypatch):
    """A change's transaction goes to the database's thread whole (BEGIN, the compare-and-swap,
    the log row, every write, COMMIT), and its writes still in their order: each seat's row is
    made before its wait is set."""
    game_id = await started_game(storage)
    handed = count_hand_overs(storage, monkeypatch)

    await storage.games.record_change(game_id, expected_version=0, seat=0, action="roll", state={"n": 1},
                                      writes=timers_writes(game_id, {0: 100, 1: 200},
                                                           [(0, "reminder", 1000), (1, "deadline", 2000)]))
    assert handed == ["_batch_here"]
    await storage.apply(timers_writes(game_id, {0: 300, 1: None}, [(0, "reminder", 3000)]))
    assert handed == ["_batch_here"] * 2

    assert [seat["since"] for seat in (await storage.days.seats(game_id)).values()] == [300, None]
    assert await storage.days.timers(game_id) == [(0, "reminder", 3000)]
    assert (await storage.games.get_game(game_id)).version == 1


async def test_nothing_to_write_goes_nowhere(storage, monkeypatch):
    """An empty list of writes (a pass with nothing to store) hands nothing to SQLite's thread:
    no empty transaction, whose commit alone is a disk sync."""
    game_id = await started_game(storage)
    handed = count_hand_overs(storage, monkeypatch)

    await storage.apply([])
    assert await storage.database.batch([], guarded=True) == []
    assert handed == []
    await storage.apply(timers_writes(game_id, {0: 300}, []))
    assert handed == ["_batch_here"]


async def test_a_games_reads_are_read_on_the_event_loops_thread_and_see_every_commit(storage, monkeypatch):
    """A game's reads hand nothing to SQLite's thread: they are read through the event loop's own
    read-only connection, and see each change the moment it is committed."""
    game_id = await started_game(storage)
    handed = count_hand_overs(storage, monkeypatch)

    for version in range(1, 4):
        await storage.games.record_change(game_id, expected_version=version - 1, seat=0, action="roll",
                                          state={"n": version})
        read = await storage.games.get_game(game_id)
        assert (read.version, read.state) == (version, {"n": version})
    assert handed == ["_batch_here"] * 3  # the changes alone
    seats, actions = await storage.database.reads([("SELECT * FROM seats WHERE game_id = ?", (game_id,)),
                                                   ("SELECT * FROM actions WHERE game_id = ?", (game_id,))])
    assert (len(seats), len(actions)) == (2, 3)
    assert handed == ["_batch_here"] * 3


async def test_a_read_the_reader_cannot_make_goes_to_sqlites_thread(storage, monkeypatch):
    """A busy database (or a statement the read-only connection refuses) does not fail a read:
    it is made in aiosqlite's thread instead, as every read was before."""
    game_id = await started_game(storage)
    import bot.storage.database as database
    here = database._batch_here

    def busy_on_the_loops_thread(connection, statements, transaction, guarded):
        if connection is storage.database._reader:
            raise sqlite3.OperationalError("database is locked")
        return here(connection, statements, transaction, guarded)

    monkeypatch.setattr(database, "_batch_here", busy_on_the_loops_thread)
    handed = count_hand_overs(storage, monkeypatch)
    assert (await storage.games.get_game(game_id)).state == {"n": 0}
    assert handed == ["busy_on_the_loops_thread"]


async def test_reads_inside_the_writers_open_transaction_see_its_writes(storage):
    """While the writer's transaction is open its reads go to the writer, which sees what the
    transaction wrote so far (the reader would not)."""
    game_id = await started_game(storage)
    database = storage.database
    async with database.lock, database.held_transaction() as db:
        await db.execute("UPDATE games SET lang = 'de' WHERE id = ?", (game_id,))
        (row,), = await database.held_reads([("SELECT lang FROM games WHERE id = ?", (game_id,))])
        assert row["lang"] == "de"
    assert (await storage.games.get_game(game_id)).lang == "de"


async def test_closing_the_store_closes_the_reader(tmp_path):
    storage = await Storage.open(tmp_path / "bot.sqlite3")
    game_id = await started_game(storage)
    assert (await storage.games.get_game(game_id)).version == 0
    reader = storage.database._reader
    assert reader is not None
    await storage.close()
    assert storage.database._reader is None
    with pytest.raises(sqlite3.ProgrammingError):
        reader.execute("SELECT 1")


async def test_a_change_whose_write_fails_is_not_stored_at_all(storage):
    """A statement that fails anywhere in a change's batch rolls back the whole change: the
    version, the state, the log row and the writes before it; the store goes on."""
    game_id = await started_game(storage)
    failing = ("INSERT INTO seats (game_id, user_id, name, joined_at) VALUES (999, 1, 'x', 0)", ())  # no game 999
    with pytest.raises(sqlite3.IntegrityError):
        await storage.games.record_change(game_id, expected_version=0, seat=0, action="roll", state={"n": 1},
                                          writes=[*timers_writes(game_id, {0: 100}, [(0, "reminder", 1000)]),
                                                  failing])
    table = await storage.games.get_game(game_id)
    assert (table.version, table.state) == (0, {"n": 0})
    assert await storage.games.actions(game_id) == []
    assert await storage.days.timers(game_id) == []
    assert await storage.games.record_change(game_id, expected_version=0, seat=0, action="roll",
                                             state={"n": 1}) == 1


async def test_a_state_read_back_has_the_digest_its_moves_are_kept_by(storage):
    """The plan works out a move's choices from the state it made, the delivery and toggles from
    the state read back: both digests are the same, so the work is shared (bot.choices)."""
    from bot.choices import state_fingerprint
    from tests.bot.fakegame import GAME

    game_id = await started_game(storage)
    state = GAME.new_game(2, seed=3)
    await storage.games.record_change(game_id, expected_version=0, seat=0, action="x", state=GAME.to_dict(state))

    read = await storage.games.get_game(game_id)
    assert read.state_digest == state_fingerprint(GAME, state) == state_fingerprint(GAME, GAME.from_dict(read.state))
    later, _ = GAME.apply(state, 0, GAME.legal_actions(state, 0)[0])
    assert state_fingerprint(GAME, later) != read.state_digest


async def test_concurrent_moves_on_one_version_apply_once(storage):
    game_id = await started_game(storage)

    results = await asyncio.gather(
        *(storage.games.record_change(game_id, expected_version=0, seat=s, action=f"move {s}", state={"n": s})
          for s in (0, 1)),
        return_exceptions=True,
    )

    assert sorted(type(r).__name__ for r in results) == ["StaleVersion", "int"]
    assert len(await storage.games.actions(game_id)) == 1


async def test_finishing_move_stores_the_result(storage):
    game_id = await started_game(storage)

    await storage.games.record_change(game_id, expected_version=0, seat=0, action="win", state={"n": 1},
                              finished_result={"winners": [0], "scores": [1, 0], "reason": "won"})

    table = await storage.games.get_game(game_id)
    assert table.status == "finished" and table.result["winners"] == [0]
    with pytest.raises(StaleVersion):
        await storage.games.record_change(game_id, expected_version=1, seat=1, action="late", state={})


async def test_one_open_game_per_channel(storage):
    first = await storage.games.create_lobby(guild_id=1, channel_id=10, game="pips", host_id=1, host_name="A",
                                             options={})
    with pytest.raises(ChannelBusy):
        await storage.games.create_lobby(guild_id=1, channel_id=10, game="pips", host_id=2, host_name="B", options={})
    await storage.games.create_lobby(guild_id=1, channel_id=11, game="pips", host_id=2, host_name="B", options={})

    await storage.games.end_game(first.id, status="abandoned", result={})
    third = await storage.games.create_lobby(guild_id=1, channel_id=10, game="pips", host_id=3, host_name="C",
                                             options={})
    assert (await storage.games.open_game_in(10)).host_id == 3
    assert (await storage.games.latest_game_in(10)).id == third.id  # ids may skip (PostgreSQL sequences do)


async def test_lobby_writes_are_refused_once_started(storage):
    game_id = await started_game(storage)
    with pytest.raises(StorageError):
        await storage.games.add_player(game_id, 300, "Carol")
    table = await storage.games.get_game(game_id)
    assert [(p.name, p.seat) for p in table.players] == [("Bob", 0), ("Alice", 1)]
    assert table.seat_of(100) == 1 and table.seat_of(300) is None


async def test_a_game_read_decodes_its_state_only_when_it_is_read(storage):
    """A game is read several times a move while its state is decoded once (bot.choices): the
    row keeps the stored text until `state` is read, and then the same value as before."""
    game_id = await started_game(storage)
    await storage.games.record_change(game_id, expected_version=0, seat=0, action="x",
                                      state={"n": 1, "hand": ["a", "b"]})

    read = await storage.games.get_game(game_id)
    assert read.has_state  # told without decoding it
    assert read.__dict__["_state_stored"] == '{"n": 1, "hand": ["a", "b"]}'  # not decoded yet
    assert read.state == read.started_state == {"n": 1, "hand": ["a", "b"]}
    assert read.state is read.state  # decoded once
    assert read == dataclasses.replace(read, state={"n": 1, "hand": ["a", "b"]})
    lobby = await storage.games.create_lobby(guild_id=1, channel_id=11, game="pips", host_id=100, host_name="A",
                                             options={})
    assert not lobby.has_state and lobby.state is None


@pytest.mark.parametrize("size", [0, 100, 2046, 2047, 2048, 4095, 4096, 50_000])
def test_a_stored_digest_is_blake2b_of_the_whole_text_whatever_its_length(size):
    """`stored_digest` feeds the text in pieces (keeping Python's lock), yet is the digest of
    the whole text: states digested before and after it are kept under the same key."""
    text = "".join(chr(0x41 + i % 26) if i % 7 else "é" for i in range(size))
    assert stored_digest(text) == hashlib.blake2b(text.encode(), digest_size=16).digest()


async def test_a_seats_row_and_its_moves_are_made_or_changed_by_one_statement(storage):
    """A seat's row of `bot.days` and its moves' count of the league are made by their first
    write and changed by the next ones, keeping what the write does not name."""
    from bot.days.storage import seat_write
    from bot.league.storage import moves_write

    game_id = await started_game(storage)
    for writes in ([], seat_write(game_id, 1, computer="timeout", timeouts=2),
                   moves_write(game_id, 0, 200, "Bob", computer=False),
                   moves_write(game_id, 0, 200, "Bobby", computer=False),
                   moves_write(game_id, 0, 200, "Bobby", computer=True),
                   moves_write(game_id, 1, 100, "Alice", computer=True)):
        assert len(writes) <= 1
        await storage.apply(writes)
    await storage.apply(timers_writes(game_id, {0: 100, 1: 200}, []))
    await storage.apply(seat_write(game_id, 0, computer="seat"))

    seats = await storage.days.seats(game_id)
    assert [(seats[s]["since"], seats[s]["computer"], seats[s]["timeouts"]) for s in (0, 1)] == [
        (100, "seat", 0), (200, "timeout", 2)]
    moves = await storage.league.seat_moves(game_id)
    assert [(m.name, m.person, m.computer) for m in moves[0]] == [("Bobby", 2, 1)]
    assert [(m.name, m.person, m.computer) for m in moves[1]] == [("Alice", 0, 1)]
