"""Tournaments through the simulated Discord (bot.tournaments): a Swiss of three rounds with nine
players at tables in threads, the rounds running themselves; a restart mid-round; a withdrawal;
a table past its time ended by the rule; and bad input answered clearly, only to the asker."""
from __future__ import annotations

import json
import random
from collections import Counter

import discord
import pytest

from tests.bot import pg
from tests.bot.harness import buttons, play_to_end, reply, take_turn
from tests.bot.tournaments.helpers import (
    DAY,
    NAMES,
    announcement,
    open_swiss,
    play_round,
    settle,
    sign_up,
    tables,
    thread_handle,
)


async def test_a_swiss_of_three_rounds_with_nine_players_runs_itself_to_a_winner(world):
    organiser = world.player("orga", manage_server=True)
    players = [world.player(name) for name in NAMES]

    answer = await open_swiss(world, organiser)
    assert answer.ephemeral and "Tournament #1 is open for sign-up" in answer.content
    message = announcement(world)
    assert [b["label"] for b in buttons(message)] == ["Join", "Leave"]
    await sign_up(world, players)
    await settle(world)
    assert "Signed up (9)" in world.fresh(message).content and world.pinged(world.fresh(message)) == []

    started = reply(await world.slash(organiser, "game tournament start"))
    assert "has begun" in started.content
    await settle(world)
    round_one = tables(world, round_no=1)
    assert len(round_one) == 3 and all(row[3] == "playing" for row in round_one)
    for _, number, _, _, thread_id, game_id in round_one:
        thread = world.env.backend.get_channel(thread_id)
        assert thread.is_thread and thread.parent_id == world.channel.id and f"table {number}" in thread.name
        assert world.stored(game_id).status == "active"
        board = world.latest_board(thread_handle(world, thread_id))
        assert "Tournament #1 · round 1 of 3" in world.messages(thread_handle(world, thread_id))[0].content or \
            "Tournament #1" in board.content
    assert buttons(world.fresh(message)) == []  # the sign-up is closed
    assert "Round 1 of 3" in world.fresh(message).content

    for round_no in (1, 2, 3):
        await play_round(world, players, round_no, seed=round_no)
        if round_no < 3:
            assert f"Round {round_no + 1} of 3" in world.fresh(message).content
    content = world.fresh(message).content
    assert "wins the tournament!" in content and "Final standings" in content
    ((status, winner),) = world.query("SELECT status, winner_id FROM tournaments WHERE id = 1")
    assert status == "finished" and winner in {player.id for player in players}
    assert len(tables(world)) == 9
    # Nine players at tables of three over three rounds: nobody met anyone twice.
    met = Counter(frozenset((a, b)) for row in tables(world) for a in json.loads(row[2]) for b in json.loads(row[2])
                  if a < b)
    assert max(met.values()) == 1
    # The standings name everyone once, the winner first.
    names = [line.split("**")[1] for line in content.splitlines() if line[:1].isdigit()]
    assert sorted(names) == sorted(name.capitalize() for name in NAMES)
    assert winner == next(p.id for p in players if p.name.capitalize() == names[0])
    # Each player's own status: their final place, privately.
    status = reply(await world.slash(players[0], "game tournament status"))
    assert status.ephemeral and "You: place" in status.content and "of 9" in status.content


@pg.on_both_stores
async def test_a_restart_mid_round_and_a_thread_discord_refused_at_first_lose_nothing(world, clock):
    organiser = world.player("orga", manage_server=True)
    players = [world.player(name) for name in NAMES[:4]]
    await open_swiss(world, organiser, players=2, rounds=2)
    await sign_up(world, players)
    # Discord refuses the first thread (a permission missing for a moment): that table stays paired
    # but not opened.
    world.env.inject_error("POST", f"/channels/{world.channel.id}/threads", status=403, code=50013,
                           message="Missing Permissions", times=1)
    await world.slash(organiser, "game tournament start")
    await settle(world)
    statuses = [row[3] for row in tables(world, round_no=1)]
    assert sorted(statuses) == ["pending", "playing"]
    message_id = announcement(world).id

    await world.restart()
    await world.run_timers()  # the scheduler's first pass after a start: every running tournament is looked at
    await settle(world)
    assert [row[3] for row in tables(world, round_no=1)] == ["playing", "playing"]
    await play_round(world, players, 1)
    assert [row[3] for row in tables(world, round_no=1)] == ["done", "done"]

    # A restart in the middle of round two: its tables and games go on as they were.
    assert [row[3] for row in tables(world, round_no=2)] == ["playing", "playing"]
    await world.restart()
    await world.run_timers()
    await play_round(world, players, 2)
    ((status,),) = world.query("SELECT status FROM tournaments WHERE id = 1")
    assert status == "finished"
    assert announcement(world).id == message_id  # the same message, edited all along
    assert "wins the tournament!" in announcement(world).content
    assert len(tables(world)) == 4  # no table twice


async def test_a_player_who_withdraws_is_played_by_the_computer_and_left_out_of_later_rounds(world, clock):
    organiser = world.player("orga", manage_server=True)
    players = [world.player(name) for name in NAMES[:4]]
    await open_swiss(world, organiser, players=2, rounds=2)
    await sign_up(world, players)
    await world.slash(organiser, "game tournament start")
    await settle(world)
    leaver = players[0]
    (table,) = [row for row in tables(world, round_no=1) if leaver.id in json.loads(row[2])]

    answer = reply(await world.slash(leaver, "game tournament withdraw"))
    assert answer.ephemeral and "You have withdrawn from tournament #1" in answer.content
    thread = thread_handle(world, table[4])
    assert any("withdrew from the tournament" in m.content for m in world.messages(thread))
    again = reply(await world.slash(leaver, "game tournament withdraw"))
    assert "already" in again.content and again.ephemeral

    # The computer plays the seat (its moves come on the computer's timers); the others play on.
    by_id = {p.id: p for p in players}
    rng = random.Random(3)
    for _ in range(40):
        if all(row[3] == "done" for row in tables(world, round_no=1)):
            break
        for row in tables(world, round_no=1):
            if row[3] != "playing":
                continue
            handle = thread_handle(world, row[4])
            waiting = [by_id[user] for user in json.loads(row[2]) if user in world.latest_board(handle).raw_mentions
                       and user != leaver.id]
            if waiting:
                await take_turn(world, waiting[0], rng, handle)
        clock.advance(5)
        await world.run_timers()
    await settle(world)
    assert all(row[3] == "done" for row in tables(world, round_no=1))
    round_two = tables(world, round_no=2)
    seated = [user for row in round_two for user in json.loads(row[2])]
    assert leaver.id not in seated and sorted(seated) == sorted(p.id for p in players[1:])
    assert sorted(row[3] for row in round_two) == ["bye", "playing"]  # three left: a table of two and a bye
    content = announcement(world).content
    assert "(withdrew)" in content and "Bye:" in content


@pytest.mark.parametrize("rule", ["computer", "score"])
async def test_a_table_past_its_time_is_ended_by_the_rule(world, clock, rule):
    organiser = world.player("orga", manage_server=True)
    players = [world.player(name) for name in NAMES[:4]]
    await open_swiss(world, organiser, players=2, rounds=1, time="2d", overtime=rule, options="rounds=3")
    await sign_up(world, players)
    await world.slash(organiser, "game tournament start")
    await settle(world)
    first, second = tables(world, round_no=1)
    by_id = {p.id: p for p in players}
    # One table plays to its end in time; the other is stuck.
    await play_to_end(world, [by_id[u] for u in json.loads(first[2])], channel=thread_handle(world, first[4]))
    stuck = thread_handle(world, second[4])
    clock.advance(2 * DAY - 10)
    await world.run_timers()
    assert world.stored(second[5]).status == "active"

    clock.advance(10)
    await world.run_timers()
    await settle(world)
    said = [m.content for m in world.messages(stuck)]
    assert any("Time is up for this tournament table" in line for line in said)
    if rule == "computer":
        # Nobody moved in two days: the starter's choice is on the board. Their click is refused
        # now; the computer plays the game out on its timers.
        board = world.latest_board(stuck)
        (waiting,) = [by_id[u] for u in json.loads(second[2]) if u in board.raw_mentions]
        move = next(b for b in buttons(board) if b["custom_id"].startswith("rk:move"))
        refused = reply(await world.click(waiting, board, custom_id=move["custom_id"]))
        assert refused.ephemeral and "the computer finishes the game" in refused.content
        for _ in range(60):
            if world.stored(second[5]).status != "active":
                break
            clock.advance(5)
            await world.run_timers()
    await settle(world)
    assert world.stored(second[5]).status == "finished"
    ((result,),) = world.query("SELECT result FROM tournament_tables WHERE tournament_id = 1 AND number = 2")
    assert json.loads(result)["how"] == ("finished" if rule == "computer" else "scored")
    ((status,),) = world.query("SELECT status FROM tournaments WHERE id = 1")
    assert status == "finished"


# ------------------------------------------------------------------------- refusals


async def test_bad_input_is_answered_clearly_and_only_to_the_asker(world, clock):
    organiser = world.player("orga", manage_server=True)
    member = world.player("mia")
    players = [world.player(name) for name in NAMES[:2]]

    refused = reply(await world.slash(member, "game tournament new", game="pips", format="swiss"))
    assert refused.ephemeral and "manage the server" in refused.content
    too_big = reply(await world.slash(organiser, "game tournament new", game="pips", format="swiss", players=5))
    assert too_big.ephemeral and "2 to 4 at a table, not 5" in too_big.content
    no_threads = world.guild.create_text_channel(
        "no-threads", overwrites={world.bot.user: discord.PermissionOverwrite(create_public_threads=False)})
    refused = reply(await world.slash(organiser, "game tournament new", game="pips", format="swiss",
                                      channel=no_threads))
    assert refused.ephemeral and "Create Public Threads" in refused.content
    assert world.query("SELECT COUNT(*) FROM tournaments") == [(0,)]
    assert world.bot_messages(no_threads) == []

    # A role the server names may run tournaments too.
    role = world.guild.create_role("Turnierleitung")
    refused = reply(await world.slash(member, "game tournament organisers", role=role))
    assert "manage the server" in refused.content
    reply(await world.slash(organiser, "game tournament organisers", role=role))
    host = world.guild.add_member(world.env.create_user("hosta", global_name="Hosta"), roles=[role])
    opened = reply(await world.slash(host, "game tournament new", game="pips", format="swiss", signup="24h"))
    assert "Tournament #1 is open" in opened.content
    await settle(world)
    await sign_up(world, players)

    # Too small a field: refused, the sign-up stays open.
    small = reply(await world.slash(host, "game tournament start"))
    assert small.ephemeral and "at least 4 in all; 2 have signed up" in small.content
    assert world.query("SELECT status FROM tournaments WHERE id = 1") == [("signup",)]
    not_host = reply(await world.slash(member, "game tournament start"))
    assert not_host.ephemeral and "Only its organiser" in not_host.content

    # The sign-up's time is up: a late click is refused, and too few signed up cancels it.
    clock.advance(DAY)
    late = reply(await world.click(member, announcement(world), label="Join"))
    assert late.ephemeral and "sign-up for tournament #1 is closed" in late.content
    await world.run_timers()
    await settle(world)
    assert world.query("SELECT status FROM tournaments WHERE id = 1") == [("cancelled",)]
    assert "Cancelled: 2 signed up, at least 4 were needed." in announcement(world).content
    assert buttons(announcement(world)) == []
    status = reply(await world.slash(member, "game tournament status", tournament=1))
    assert status.ephemeral and "cancelled" in status.content


async def test_the_message_and_the_tables_speak_german(world, clock):
    organiser = world.player("orga", manage_server=True)
    players = [world.player(name) for name in NAMES[:4]]
    await open_swiss(world, organiser, players=2, rounds=1, language="de")
    message = announcement(world)
    assert message.content.startswith("🏆 **Turnier #1") and "Schweizer System" in message.content
    assert [b["label"] for b in buttons(message)] == ["Mitmachen", "Abmelden"]
    await sign_up(world, players, label="Mitmachen")
    await world.slash(organiser, "game tournament start")
    await settle(world)
    content = announcement(world).content
    assert "Runde 1 von 1" in content and "**Tabelle**" in content and "Tisch 1:" in content
    (first, _) = tables(world, round_no=1)
    thread = world.env.backend.get_channel(first[4])
    assert "Turnier 1 · Runde 1 · Tisch 1" in thread.name


async def test_a_knockout_of_eight_plays_three_rounds_to_one_winner_by_the_bracket(world):
    organiser = world.player("orga", manage_server=True)
    players = [world.player(name) for name in ("ada", "ben", "cem", "dan", "eva", "fay", "gus", "hal")]
    opened = reply(await world.slash(organiser, "game tournament new", game="pips", format="knockout",
                                     options="rounds=1"))
    assert "is open for sign-up" in opened.content
    await settle(world)
    assert "Knockout · tables of 2" in announcement(world).content
    await sign_up(world, players)
    await world.slash(organiser, "game tournament start")
    await settle(world)
    assert [len(json.loads(row[2])) for row in tables(world, round_no=1)] == [2, 2, 2, 2]
    assert "Round 1 of 3" in announcement(world).content
    for round_no in (1, 2, 3):
        await play_round(world, players, round_no, seed=round_no)
        if round_no < 3:
            assert len(tables(world, round_no=round_no + 1)) == 4 // 2 ** (round_no - 1) // 2
    # Each round's tables hold the winners of the tables before, in bracket order.
    winners = {}
    for round_no, number, seated, _, _, _ in tables(world):
        ((result,),) = world.query("SELECT result FROM tournament_tables WHERE tournament_id = 1 AND round = ? "
                                   "AND number = ?", (round_no, number))
        places = json.loads(result)["places"]
        best = min(places)
        winners[round_no, number] = [u for u, place in zip(json.loads(seated), places) if place == best]
    for round_no in (2, 3):
        for _, number, seated, _, _, _ in tables(world, round_no=round_no):
            for user in json.loads(seated):
                assert user in winners[round_no - 1, 2 * number - 1] + winners[round_no - 1, 2 * number]
    ((status, winner),) = world.query("SELECT status, winner_id FROM tournaments WHERE id = 1")
    assert status == "finished" and winner in winners[3, 1]
    content = announcement(world).content
    assert "wins the tournament!" in content and "out in round 1" in content and "out in round 3" in content
    assert [a.filename for a in announcement(world).attachments] == ["standings.png"]


async def test_a_round_robin_of_four_lets_everyone_meet_everyone_once(world):
    organiser = world.player("orga", manage_server=True)
    players = [world.player(name) for name in NAMES[:4]]
    await world.slash(organiser, "game tournament new", game="pips", format="roundrobin", players=2,
                      options="rounds=1")
    await settle(world)
    await sign_up(world, players)
    await world.slash(organiser, "game tournament start")
    await settle(world)
    assert "Round 1 of 3" in announcement(world).content
    for round_no in (1, 2, 3):
        await play_round(world, players, round_no, seed=round_no)
    met = Counter(frozenset(json.loads(row[2])) for row in tables(world))
    assert len(met) == 6 and set(met.values()) == {1}
    assert world.query("SELECT status FROM tournaments WHERE id = 1") == [("finished",)]
