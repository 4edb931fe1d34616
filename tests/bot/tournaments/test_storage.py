"""What tournaments store (bot.tournaments.storage), on SQLite and on PostgreSQL: sign-ups open
and closed, rounds moved on once (a compare-and-swap on the round), a table's game linked and its
result written with the game's own transactions, and all of it there after a reopen."""
from __future__ import annotations

import pytest

from bot.postgres import open_storage
from bot.store import Storage
from bot.tournaments.storage import game_link_write, owed_write, playing_write, result_write
from tests.bot import pg

BIG = 1456074443980800007  # a real-size snowflake


@pytest.fixture
def place(request, tmp_path):
    """Where the store lives: a SQLite file, or a fresh PostgreSQL database."""
    if request.param == "postgresql":
        return pg.fresh_database_url()
    return str(tmp_path / "bot.sqlite3")


both = pytest.mark.parametrize("place", ["sqlite", "postgresql"], indirect=True)


async def new_tournament(store: Storage, **changes) -> int:
    settings = dict(guild_id=BIG, channel_id=BIG + 1, host_id=BIG + 2, game="pips", format="swiss", size=3,
                    rounds=3, options={"rounds": "1"}, settings={"deadline": 86400, "strength": "normal"},
                    game_time=3 * 86400, overtime="computer", signup_until=1_800_000_000, lang="de")
    return await store.tournaments.create(**{**settings, **changes})


@both
async def test_a_tournament_from_sign_up_to_its_end_survives_a_reopen(place):
    store = await open_storage(place)
    tid = await new_tournament(store)
    assert await store.tournaments.join(tid, BIG + 10, "Ænne", 1000.0)
    assert not await store.tournaments.join(tid, BIG + 10, "Ænne", 1000.0)  # once
    for offset, name in ((11, "Bo"), (12, "Cy"), (13, "Di")):
        assert await store.tournaments.join(tid, BIG + offset, name, 990.0 + offset)
    assert await store.tournaments.leave(tid, BIG + 13)
    assert not await store.tournaments.leave(tid, BIG + 13)
    assert await store.tournaments.owed() == [tid]
    assert await store.tournaments.signup_due(1_800_000_000) == [tid]
    assert await store.tournaments.next_due() == 1_800_000_000

    assert await store.tournaments.begin(tid, rounds=3, schedule=None, ratings={BIG + 10: 1100.0})
    assert not await store.tournaments.begin(tid, rounds=3, schedule=None, ratings={})  # once
    assert not await store.tournaments.join(tid, BIG + 14, "Late", 1000.0)  # the sign-up is closed
    assert await store.tournaments.next_round(tid, round_no=1, tables=[(BIG + 10, BIG + 11), (BIG + 12,)])
    assert not await store.tournaments.next_round(tid, round_no=1, tables=[(BIG + 11, BIG + 10)])

    game = await store.games.create_lobby(guild_id=BIG, channel_id=BIG + 20, game="pips", host_id=BIG + 2,
                                          host_name="Host", options={},
                                          writes_for=lambda game_id: [game_link_write(tid, 1, 1, game_id)])
    await store.apply([playing_write(tid, 1, 1, 1_800_100_000)])
    await store.tournaments.set_thread(tid, 1, 1, BIG + 20)
    assert (await store.tournaments.table_of_game(game.id)).number == 1
    assert [table.number for table in await store.tournaments.tables_due(1_800_100_000)] == [1]
    assert await store.tournaments.claim_overtime(tid, 1, 1)
    assert not await store.tournaments.claim_overtime(tid, 1, 1)  # one process applies the rule
    assert await store.tournaments.overtime(game.id) == (tid, "running")
    result = {"places": [1, 2], "scores": [3, 1], "how": "finished"}
    await store.apply([result_write(tid, 1, 1, result), owed_write(tid)])
    assert await store.tournaments.withdraw(tid, BIG + 11, 1)
    assert not await store.tournaments.withdraw(tid, BIG + 11, 1)
    await store.tournaments.set_role(BIG, BIG + 30)
    await store.tournaments.shown(tid, message_id=BIG + 40, shown=3)
    await store.close()

    again = await open_storage(place)
    tournament = await again.tournaments.get(tid)
    assert (tournament.status, tournament.round, tournament.lang, tournament.settings["deadline"]) == \
        ("running", 1, "de", 86400)
    assert tournament.message_id == BIG + 40 and tournament.guild_id == BIG
    entrants = await again.tournaments.entrants(tid)
    assert [(e.name, e.rating, e.withdrawn) for e in entrants] == [("Ænne", 1100.0, None), ("Bo", 1001.0, 1),
                                                                   ("Cy", 1002.0, None)]
    tables = await again.tournaments.tables(tid, 1)
    assert [(t.players, t.status) for t in tables] == [((BIG + 10, BIG + 11), "done"), ((BIG + 12,), "bye")]
    assert tables[0].result == result and tables[0].game_id == game.id and tables[0].thread_id == BIG + 20
    assert await again.tournaments.role(BIG) == BIG + 30
    assert [t.id for t in await again.tournaments.in_guild(BIG)] == [tid]
    assert await again.tournaments.end(tid, status="finished", winner_id=BIG + 10)
    assert (await again.tournaments.get(tid)).winner_id == BIG + 10
    assert await again.tournaments.in_guild(BIG) == []
    await again.close()


@both
async def test_places_cancellations_departures_and_a_thread_asked_for_are_kept_and_counted(place):
    store = await open_storage(place)
    finished, cancelled, other_game = (await new_tournament(store), await new_tournament(store),
                                       await new_tournament(store, game="knatsch"))
    for tid in (finished, cancelled, other_game):
        for offset, name in ((10, "Ænne"), (11, "Bo"), (12, "Cy")):
            assert await store.tournaments.join(tid, BIG + offset, name, 1000.0)
        assert await store.tournaments.begin(tid, rounds=2, schedule=None, ratings={})
    assert await store.tournaments.next_round(finished, round_no=1, tables=[(BIG + 10, BIG + 11), (BIG + 12,)])
    await store.tournaments.thread_asked(finished, 1, 1)
    assert await store.tournaments.withdraw(finished, BIG + 12, 1, left_server=True)
    await store.tournaments.shown(finished, message_id=BIG + 40, shown=1)
    await store.tournaments.shown(cancelled, message_id=BIG + 41, shown=1)
    assert await store.tournaments.with_message(BIG + 1, [BIG + 40, BIG + 41, BIG + 99]) == \
        [(finished, BIG + 40), (cancelled, BIG + 41)]
    assert await store.tournaments.end(finished, status="finished", winner_id=BIG + 11,
                                       places={BIG + 11: 1, BIG + 10: 2, BIG + 12: 3})
    assert not await store.tournaments.end(finished, status="cancelled", cancelled_by=BIG + 2)  # over already
    assert await store.tournaments.end(cancelled, status="cancelled", cancelled_by=BIG + 2, cancel_tables="abandon")
    assert await store.tournaments.end(other_game, status="finished", winner_id=BIG + 10, places={BIG + 10: 1})
    await store.close()

    again = await open_storage(place)
    assert [(e.name, e.place, e.withdrawn, e.left_server) for e in await again.tournaments.entrants(finished)] == \
        [("Ænne", 2, None, False), ("Bo", 1, None, False), ("Cy", 3, 1, True)]
    row = await again.tournaments.get(cancelled)
    assert (row.status, row.cancelled_by, row.cancel_tables) == ("cancelled", BIG + 2, "abandon")
    (table, _bye) = await again.tournaments.tables(finished, 1)
    assert table.thread_asked_at is not None and table.thread_id is None
    # Only open tournaments' messages come back: none of these is open any more.
    assert await again.tournaments.messages_shown() == []
    assert await again.tournaments.with_message(BIG + 1, [BIG + 40]) == []
    # The records: finished tournaments only, a line per game.
    records = await again.tournaments.records(BIG, BIG + 11)
    assert [(r.game, r.played, r.won, r.best) for r in records] == [("knatsch", 1, 0, None), ("pips", 1, 1, 1)]
    assert [(r.game, r.played, r.won, r.best) for r in await again.tournaments.records(BIG, BIG + 10, "knatsch")] == \
        [("knatsch", 1, 1, 1)]
    assert await again.tournaments.records(BIG + 5, BIG + 11) == []  # another server
    # A deleted message owes a new one, once.
    running = await new_tournament(again)
    await again.tournaments.shown(running, message_id=BIG + 50, shown=1)
    assert await again.tournaments.message_gone(running, BIG + 50)
    assert not await again.tournaments.message_gone(running, BIG + 50)
    row = await again.tournaments.get(running)
    assert (row.message_id, row.posts) == (None, 1) and row.wanted > row.shown
    await again.close()
