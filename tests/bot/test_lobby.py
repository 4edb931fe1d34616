"""Opening a table, joining, leaving and starting: `/game new` and the lobby buttons."""
from __future__ import annotations

from bot import moves
from tests.bot.harness import buttons, open_table, reply, seat_order, start_table


async def test_game_new_opens_a_lobby_with_persistent_buttons(world):
    alice = world.player("alice")

    result = await world.slash(alice, "game new", game="pips")

    assert result.ephemeral and "game #1" in reply(result).content
    lobby = world.latest()
    assert "Pips" in lobby.content and "**Alice**" in lobby.content
    assert [b["label"] for b in buttons(lobby)] == ["Join", "Leave", "Start"]
    assert [b["custom_id"] for b in buttons(lobby)] == ["rk:lobby:1:join", "rk:lobby:1:leave", "rk:lobby:1:start"]
    assert world.stored(1).status == "lobby"


async def test_game_choices_come_from_the_registry(world):
    alice = world.player("alice")

    choices = await world.autocomplete(alice, "game new", "game", "pi")

    assert choices == [{"name": "Pips (test game)", "value": "pips"}]


async def test_unknown_game_is_refused(world):
    alice = world.player("alice")

    result = await world.slash(alice, "game new", game="chess")

    assert result.ephemeral and "pips" in reply(result).content
    assert world.bot_messages() == []


async def test_join_and_leave_update_the_lobby(world):
    alice, bob, carol = world.player("alice"), world.player("bob"), world.player("carol")
    await open_table(world, alice, bob, carol)
    assert "**Alice**, **Bob**, **Carol**" in world.latest().content

    await world.click(bob, world.latest(), label="Leave")

    assert "**Alice**, **Carol**" in world.latest().content
    assert set(world.seats(1)) == {alice.id, carol.id}


async def test_joining_twice_or_leaving_without_a_seat_is_refused(world):
    alice, bob = world.player("alice"), world.player("bob")
    await open_table(world, alice, bob)

    twice = await world.click(bob, world.latest(), label="Join")
    stranger = await world.click(world.player("dave"), world.latest(), label="Leave")

    assert twice.ephemeral and "already" in reply(twice).content
    assert stranger.ephemeral and "not at this table" in reply(stranger).content


async def test_host_leaving_hands_the_table_on_and_the_last_one_out_closes_it(world):
    alice, bob = world.player("alice"), world.player("bob")
    await open_table(world, alice, bob)

    await world.click(alice, world.latest(), label="Leave")
    assert f"hosted by {bob.mention}" in world.latest().content

    await world.click(bob, world.latest(), label="Leave")
    assert buttons(world.latest()) == []
    assert world.stored(1).status == "abandoned"


async def test_a_full_table_refuses_more_players(world):
    host, *others = [world.player(name) for name in ("a1", "a2", "a3", "a4")]
    await open_table(world, host, *others)

    result = await world.click(world.player("late"), world.latest(), label="Join")

    assert result.ephemeral and "full (4 players)" in reply(result).content


async def test_only_the_host_starts_and_only_with_enough_players(world):
    alice, bob = world.player("alice"), world.player("bob")
    await open_table(world, alice)

    too_few = await world.click(alice, world.latest(), label="Start")
    assert reply(too_few).ephemeral and "at least 2 players" in reply(too_few).content

    await world.click(bob, world.latest(), label="Join")
    not_host = await world.click(bob, world.latest(), label="Start")
    assert "Only the host" in reply(not_host).content
    assert world.stored(1).status == "lobby"


async def test_start_shuffles_seats_announces_them_and_posts_the_board(world, renderer):
    players = [world.player(name) for name in ("alice", "bob", "carol")]
    await start_table(world, *players)

    lobby, board = world.bot_messages()
    assert buttons(lobby) == [] and "has started" in lobby.content
    ordered = seat_order(world, 1, players)
    names = ", ".join(f"{i + 1}. **{p.name.capitalize()}**" for i, p in enumerate(ordered))
    assert f"Seat order: {names}" in board.content
    assert world.stored(1).status == "active" and world.stored(1).version == 0
    png = world.png(board)
    assert png.startswith(b"\x89PNG") and renderer.viewer_of[png] is None
    # The first player is called, once, and nobody else.
    assert world.pinged(board) == [ordered[0].id]
    assert board.content.count(ordered[0].mention) == 1


async def test_seat_order_and_seed_come_from_the_injected_source(tmp_path, renderer):
    from tests.bot import fakegame
    from tests.bot.harness import simulated_discord

    async def play_start(path):
        async with simulated_discord(path, games={"pips": fakegame.GAME}, seed=99, render=renderer) as world:
            players = [world.player(name) for name in ("alice", "bob", "carol")]
            await start_table(world, *players)
            return [p.name for p in seat_order(world, 1, players)], world.stored_state(1)["seed"]

    assert await play_start(tmp_path / "one.sqlite3") == await play_start(tmp_path / "two.sqlite3")


async def test_one_open_game_per_channel_but_a_thread_gets_its_own(world):
    alice, bob = world.player("alice"), world.player("bob")
    await open_table(world, alice)

    second = await world.slash(bob, "game new", game="pips")
    assert second.ephemeral and "already has a game" in reply(second).content and "thread" in reply(second).content

    thread = world.thread("Pips rematch", bob)
    await world.slash(bob, "game new", game="pips", channel=thread)
    assert "game #2" in world.latest(thread).content
    await world.click(alice, world.latest(thread), label="Join")
    await world.click(bob, world.latest(thread), label="Start")

    assert world.stored(1).status == "lobby" and world.stored(2).status == "active"
    assert world.png(world.latest(thread)) is not None  # the board went to the thread


async def test_options_are_validated_and_stored(world):
    alice = world.player("alice")

    bad = await world.slash(alice, "game new", game="pips", options="rounds=9")
    assert bad.ephemeral and "rounds" in reply(bad).content and "1, 2, 3" in reply(bad).content

    await world.slash(alice, "game new", game="pips", options="rounds=3")
    assert "rounds: 3" in world.latest().content


async def test_the_lobby_buttons_work_after_a_restart(world):
    alice, bob = world.player("alice"), world.player("bob")
    await open_table(world, alice)

    await world.restart()
    await world.click(bob, world.latest(), label="Join")
    await world.click(alice, world.latest(), label="Start")

    assert world.stored(1).status == "active"


async def test_a_crash_while_storing_a_join_leaves_no_seat_the_lobby_message_does_not_show(world, monkeypatch):
    alice, bob = world.player("alice"), world.player("bob")
    await open_table(world, alice)

    # The bot dies while it stores the lobby message's edit the join owes: the seat and the
    # edit are one transaction, so neither is kept.
    monkeypatch.setattr(moves, "lobby_write", lambda game_id, message_id: ("INSERT INTO no_such_table VALUES (1)", ()))
    await world.click(bob, world.latest(), label="Join")
    monkeypatch.undo()
    await world.restart()

    assert set(world.seats(1)) == {alice.id}
    assert "**Bob**" not in world.latest().content
    await world.click(bob, world.latest(), label="Join")
    assert set(world.seats(1)) == {alice.id, bob.id}
    assert "**Alice**, **Bob**" in world.latest().content


async def test_a_lobby_discord_refuses_to_show_frees_the_channel_for_the_next_try(world, monkeypatch):
    from tests.bot.hostile import HostileDiscord
    alice = world.player("alice")
    hostile = HostileDiscord(world, monkeypatch)
    hostile.fail("POST", "/channels/*/messages", 403, code=50013)

    refused = await world.slash(alice, "game new", game="pips")

    assert refused.ephemeral and "I can't host a game here" in reply(refused).content
    assert "Send Messages" in reply(refused).content
    assert world.stored(1).status == "abandoned" and world.bot_messages() == []
    hostile.clear()
    again = await world.slash(alice, "game new", game="pips")
    assert again.ephemeral and "game #2" in reply(again).content
    assert world.stored(2).status == "lobby" and "Pips" in world.latest().content


async def test_a_start_stored_while_the_worker_read_the_lobby_reaches_its_message_and_every_dm(world, monkeypatch):
    """The delivery worker's pass read the table while it was a lobby; the start was stored
    before the pass read what is owed (the lobby's edit, the players' first DMs): a store that
    runs the pass's reads one after another (PostgreSQL) lets a change in between. The lobby
    message loses its buttons and each player gets their DM, in that pass or the next."""
    import sys

    from tests.bot.harness import latest_dm_with_moves
    alice, bob = world.player("alice"), world.player("bob")
    await open_table(world, alice, bob)
    lobby = world.latest()
    games = world.parts.storage.games
    as_lobby = await games.get_game(1)
    real_get_game_with = games.get_game_with
    stale = []

    async def read_before_the_start(game_id, more):
        caller = sys._getframe(1).f_code.co_filename
        if not stale and game_id == 1 and caller.endswith("delivery/worker.py"):
            stale.append(game_id)
            _, owed = await real_get_game_with(game_id, more)  # what is owed, read after the start
            return as_lobby, owed
        return await real_get_game_with(game_id, more)

    monkeypatch.setattr(games, "get_game_with", read_before_the_start)
    await world.click(alice, lobby, label="Start")

    assert stale, "the worker's pass read the stale lobby"
    assert buttons(world.fresh(lobby)) == []
    assert world.query("SELECT COUNT(*) FROM seat_dms WHERE game_id = 1 AND owed IS NOT NULL") == [(0,)]
    assert [len(world.dms(player)) for player in (alice, bob)] == [1, 1]
    assert any(latest_dm_with_moves(world, player) is not None for player in (alice, bob))
