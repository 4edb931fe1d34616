"""Playing: boards after moves, DMs, `/move` and its autocomplete, restarts, the end of a game."""
from __future__ import annotations

import random
from collections import Counter
from types import SimpleNamespace

from tests.bot import fakegame
from tests.bot.harness import (
    buttons,
    latest_dm_with_moves,
    move_buttons,
    play_to_end,
    reply,
    seat_order,
    selects,
    start_table,
    take_turn,
)


async def start_pips(world, names=("alice", "bob"), **kwargs):
    players = [world.player(name) for name in names]
    await start_table(world, *players, **kwargs)
    return seat_order(world, 1, players)


async def test_a_board_button_move_posts_one_new_board(world, renderer):
    starter, other = await start_pips(world)
    first_board = world.latest_board()

    await world.click(starter, first_board, label="High cards win")

    board = world.latest_board()
    assert board.id != first_board.id
    assert f"**{starter.name.capitalize()}** decides that high cards win" in board.content
    assert renderer.viewer_of[world.png(board)] is None
    # Both must now choose a card in secret: both named, once each, and no public move buttons;
    # only the other is pinged (the starter is at the table, moving right now).
    assert world.pinged(board) == [other.id]
    assert all(board.content.count(p.mention) == 1 for p in (starter, other))
    assert move_buttons(board) == [] and [b["label"] for b in buttons(board)] == ["My hand"]
    assert buttons(world.messages()[-2]) == []  # the old board's buttons are gone
    assert world.stored(1).version == 1


async def test_secret_choices_arrive_by_dm_and_clicks_there_play(world):
    starter, other = await start_pips(world)
    await world.click(starter, world.latest_board(), label="Low cards win")
    hands = world.stored_state(1)["hands"]

    for seat, player in enumerate((starter, other)):
        dm = latest_dm_with_moves(world, player)
        assert [b["label"] for b in move_buttons(dm)] == [f"Play your {card}" for card in hands[seat]]
        assert all(b["custom_id"].startswith("rk:move:1:1:play ") for b in move_buttons(dm))

    dm = latest_dm_with_moves(world, other)
    await world.click(other, dm, label=f"Play your {hands[1][0]}")

    assert world.stored_state(1)["chosen"][1] == hands[1][0]
    assert f"**{other.name.capitalize()}** has chosen a card." in world.latest_board().content
    assert str(hands[1][0]) not in world.latest_board().content.split("\n")[0]


async def test_a_click_from_an_older_version_counts_while_that_decision_is_open(world):
    starter, other = await start_pips(world)
    await world.click(starter, world.latest_board(), label="Low cards win")
    # 'My hand' answers with the moves of version 1; unlike a DM, nobody edits that answer later.
    hand = reply(await world.click(starter, world.latest_board(), label="My hand"))
    assert all(b["custom_id"].startswith("rk:move:1:1:") for b in move_buttons(hand))

    await take_turn(world, other, random.Random(0))  # version 2: only the other seat's choice
    await world.click(starter, hand, custom_id=move_buttons(hand)[0]["custom_id"])

    assert world.stored(1).version == 3
    assert "Revealed:" in world.latest_board().content


async def test_move_autocomplete_lists_only_the_callers_legal_moves(world):
    starter, other = await start_pips(world)
    outsider = world.player("zoe")

    assert await world.autocomplete(other, "move", "action", "") == []  # not their turn yet
    offered = await world.autocomplete(starter, "move", "action", "")
    # Each value names the version it was offered at (issue 7: a retried /move is judged against it).
    assert offered == [{"name": "High cards win", "value": "@0 trump high"},
                       {"name": "Low cards win", "value": "@0 trump low"}]
    assert await world.autocomplete(starter, "move", "action", "LOW") == [offered[1]]
    assert await world.autocomplete(outsider, "move", "action", "") == []

    await world.slash(starter, "move", action="trump high")
    hand = world.stored_state(1)["hands"][1]
    assert [c["value"] for c in await world.autocomplete(other, "move", "action", "")] == [
        f"@1 play {card}" for card in hand]


async def test_autocomplete_and_components_cope_with_more_than_25_moves(world):
    starter, other = await start_pips(world, options="hand=30")
    await world.slash(starter, "move", action="trump high")
    hand = world.stored_state(1)["hands"][1]

    offered = await world.autocomplete(other, "move", "action", "")
    assert len(offered) == 25 and [c["value"] for c in offered] == [f"@1 play {c}" for c in hand[:25]]
    typed = str(hand[-1])
    assert all(typed in c["value"] for c in await world.autocomplete(other, "move", "action", typed))

    dm = latest_dm_with_moves(world, other)
    menus = selects(dm)
    assert move_buttons(dm) == [] and [len(m["options"]) for m in menus] == [25, 5]
    await world.select(other, dm, f"play {hand[-1]}", custom_id=menus[1]["custom_id"])
    assert world.stored_state(1)["chosen"][1] == hand[-1]


async def test_move_accepts_the_offered_label_too(world):
    starter, _ = await start_pips(world)

    result = await world.slash(starter, "move", action="low cards win")

    assert result.ephemeral and "Low cards win" in reply(result).content
    assert world.stored_state(1)["trump"] == "low"


async def test_private_events_reach_only_their_seat(world):
    players = await start_pips(world, ("alice", "bob", "carol"), options="rounds=1")

    await play_to_end(world, players)

    for player in players:
        drawn = [m.content for m in world.dms(player) if "You drew" in m.content]
        assert len(drawn) == 1
    assert not any("You drew" in m.content for m in world.messages())


async def test_every_dm_says_which_server_channel_and_game(world):
    players = await start_pips(world, ("alice", "bob", "carol"))

    await play_to_end(world, players)

    channel_url = f"https://discord.com/channels/{world.guild.id}/{world.channel.id}"
    for player in players:
        dms = world.dms(player)
        assert dms
        for dm in dms:
            assert "Pips (test game)** (game #1)" in dm.content
            assert f"**Ritterrunde** › [#spieltisch]({channel_url})" in dm.content  # a short masked link


async def test_a_whole_game_ends_with_the_outcome(world):
    players = await start_pips(world, ("alice", "bob", "carol"))

    moves = await play_to_end(world, players)

    final = world.latest_board()
    assert "🏁 **Game over**" in final.content and "Final scores:" in final.content
    assert buttons(final) == [] and final.raw_mentions == []
    stored = world.stored(1)
    assert stored.status == "finished" and stored.version == moves == stored.actions


async def test_restart_mid_game_keeps_the_game_and_every_button(world, database_path):
    starter, other = await start_pips(world)
    await world.click(starter, world.latest_board(), label="High cards win")
    dm_before_restart = latest_dm_with_moves(world, starter)
    before = world.stored(1)

    await world.restart()

    assert world.stored(1) == before
    await world.click(starter, dm_before_restart, custom_id=move_buttons(dm_before_restart)[0]["custom_id"])
    assert world.stored(1).version == before.version + 1
    hand = await world.click(other, world.latest_board(), label="My hand")
    await world.click(other, reply(hand), custom_id=move_buttons(reply(hand))[0]["custom_id"])
    assert "Revealed:" in world.latest_board().content

    await world.restart()
    await play_to_end(world, [starter, other])
    assert world.stored(1).status == "finished"


async def test_game_hand_is_an_ephemeral_private_view_with_image_and_moves(world, renderer):
    starter, other = await start_pips(world)
    await world.slash(starter, "move", action="trump high")

    result = await world.slash(other, "game hand")

    answer = reply(result)
    assert answer.ephemeral and "game #1" in answer.content
    assert renderer.viewer_of[world.png(answer)] == 1
    hand = world.stored_state(1)["hands"][1]
    assert [b["label"] for b in move_buttons(answer)] == [f"Play your {card}" for card in hand]


async def test_status_log_board_and_rules(world):
    starter, other = await start_pips(world)
    await world.slash(starter, "move", action="trump low")

    status = reply(await world.slash(other, "game status")).content
    assert "game #1, 1 move so far" in status and "(to act)" in status and "Latest board:" in status

    log = reply(await world.slash(other, "game log")).content
    assert "`#1`" in log and "decides that low cards win" in log

    before = world.latest_board().id
    await world.slash(other, "game board")
    assert world.latest_board().id != before and world.pinged(world.latest_board()) == []  # shown, not pinged
    assert world.stored(1).version == 1

    rules = reply(await world.slash(other, "game rules"))
    assert rules.ephemeral and "**Pips (test game)** (2–4 players)" in rules.content and "`rounds`" in rules.content


async def test_two_games_in_two_threads_run_independently(world):
    alice, bob, carol, dave = (world.player(n) for n in ("alice", "bob", "carol", "dave"))
    north, south = world.thread("north", alice), world.thread("south", carol)
    await start_table(world, alice, bob, channel=north)
    await start_table(world, carol, dave, channel=south)

    await play_to_end(world, [alice, bob], channel=north)

    assert world.stored(1).status == "finished" and world.stored(2).status == "active"
    assert world.stored(2).version == 0
    await play_to_end(world, [carol, dave], channel=south)
    assert world.stored(2).status == "finished"


async def test_resign_with_two_players_makes_the_other_win(world):
    starter, other = await start_pips(world)

    await world.slash(other, "game resign")

    assert world.stored(1).status == "finished"
    last = world.latest()
    assert "resigned" in last.content and f"**{starter.name.capitalize()}** wins" in last.content
    assert buttons(world.latest_board()) == []


async def test_resign_with_more_players_hands_the_seat_to_the_computer(world):
    # Issue 9: the game goes on (tests/bot/test_days_*.py play such games to the end).
    players = await start_pips(world, ("alice", "bob", "carol"))

    await world.slash(players[2], "game resign")

    assert world.stored(1).status == "active"
    assert "computer player takes the seat" in world.latest().content


async def test_abandon_is_for_the_host_or_a_server_manager(world):
    alice, bob = world.player("alice"), world.player("bob")
    mod = world.player("mod", manage_server=True)
    await start_table(world, alice, bob)

    refused = await world.slash(bob, "game abandon")
    assert "Only the host" in reply(refused).content and world.stored(1).status == "active"

    await world.slash(mod, "game abandon")
    assert world.stored(1).status == "abandoned" and "abandoned by **Mod**" in world.latest().content


async def test_the_host_abandons_a_lobby(world):
    alice = world.player("alice")
    await world.slash(alice, "game new", game="pips")

    await world.slash(alice, "game abandon")

    lobby = world.bot_messages()[0]
    assert buttons(lobby) == [] and "closed" in lobby.content
    assert world.stored(1).status == "abandoned"
    await world.slash(alice, "game new", game="pips")  # the channel is free again
    assert world.stored(2).status == "lobby"


async def test_a_renderer_failure_never_loses_a_move(world, caplog):
    starter, _ = await start_pips(world)

    def broken(view, names, lang="en"):
        raise ValueError("font missing")

    world.parts.deliveries.content.render = broken
    await world.click(starter, world.latest_board(), label="High cards win")

    board = world.bot_messages()[-1]
    assert "decides that high cards win" in board.content and board.attachments == []
    assert world.stored(1).version == 1 and "font missing" in caplog.text


async def test_moves_on_one_game_are_serialised(world):
    """Two requests racing on one game: the per-game lock makes them apply one after the other,
    and the second is judged against the state the first produced."""
    import asyncio

    starter, other = await start_pips(world)
    await world.click(starter, world.latest_board(), label="High cards win")
    service = world.parts.moves
    hands = world.stored_state(1)["hands"]

    first, second, again = await asyncio.gather(
        service.play(starter, game_id=1, action_text=f"play {hands[0][0]}", seen_version=1),
        service.play(other, game_id=1, action_text=f"play {hands[1][0]}", seen_version=1),
        service.play(starter, game_id=1, action_text=f"play {hands[0][1]}", seen_version=1),
        return_exceptions=True,
    )
    await world.env.settle()

    assert first.action == f"play {hands[0][0]}" and second.action == f"play {hands[1][0]}"
    assert "out of date" in str(again)  # the starter's own decision had already been made
    assert world.stored(1).version == 3 and world.stored(1).actions == 3


async def test_a_move_is_checked_once_and_what_it_did_worked_out_once(world, monkeypatch):
    """A player's move: its legality checked once (the engine applies it as checked, without
    `check_turn`), whether the game is over asked once of each state, and the seats' rows read
    once (bot.changes.Done hands them to the gates and the listeners)."""
    players = [world.player(name) for name in ("alice", "bob", "carol")]
    await start_table(world, *players)
    starter = seat_order(world, 1, players)[0]
    game = world.parts.moves.engine("pips")
    asked: Counter = Counter()

    def counting(name, original, is_async=False):
        if is_async:
            async def counted_async(*args, **kwargs):
                asked[name] += 1
                return await original(*args, **kwargs)
            return counted_async

        def counted(*args, **kwargs):
            asked[name] += 1
            return original(*args, **kwargs)
        return counted

    for name in ("outcome", "legal_actions"):
        monkeypatch.setattr(game, name, counting(name, getattr(game, name)))
    monkeypatch.setattr(fakegame, "check_turn", counting("check_turn", fakegame.check_turn))
    # Every read of the seats' rows is built by `seats_read` (alone, or with the game's row).
    monkeypatch.setattr(world.parts.storage.days, "seats_read",
                        counting("days_seats", world.parts.storage.days.seats_read))

    with world.env._bot_scope():
        await world.parts.moves.play(SimpleNamespace(id=starter.id), game_id=1, action_text="trump high")

    assert world.stored(1).version == 1
    assert asked["check_turn"] == 0 and asked["legal_actions"] == 1
    assert asked["outcome"] == 2  # the state it was made in (checking it), the state it left
    assert asked["days_seats"] == 1
