"""A tournament when Discord fails or people go, through the simulated Discord (tests/bot/hostile.py):
its message deleted comes back by itself (heard at once, or looked for at a new session); a 5xx
or a hang on its edit or on a table's thread loses nothing and doubles nothing; a thread made
but not stored (its answer lost, or the bot stopped) is found again after a restart; a player
who left the server is played by the computer and left out of later rounds."""
from __future__ import annotations

import json
import random

import pytest

from bot.delivery.requests import LATE_LANDING, REQUEST_TIMEOUT
from bot.tournaments.runner import MEMBER_CHECK, RETRY_OPEN
from tests.bot.harness import buttons, reply, take_turn
from tests.bot.hostile import HostileDiscord
from tests.bot.tournaments.helpers import (
    EVERY,
    NAMES,
    announcement,
    announcements,
    open_swiss,
    play_round,
    settle,
    sign_up,
    started_swiss,
    tables,
    thread_handle,
)


@pytest.fixture
def hostile(world, monkeypatch):
    return HostileDiscord(world, monkeypatch)


def stored_message(world) -> int:
    ((message_id,),) = world.query("SELECT message_id FROM tournaments WHERE id = 1")
    return message_id


def owes_nothing(world) -> bool:
    ((wanted, shown),) = world.query("SELECT wanted, shown FROM tournaments WHERE id = 1")
    return shown >= wanted


def threads_named(world, text: str) -> list:
    return [channel for channel in world.env.backend.channels.values()
            if channel.is_thread and channel.parent_id == world.channel.id and text in channel.name]


async def play_table(world, players, number: int, round_no: int = 1) -> None:
    from tests.bot.harness import play_to_end

    row = next(row for row in tables(world, round_no=round_no) if row[1] == number)
    by_id = {p.id: p for p in players}
    await play_to_end(world, [by_id[u] for u in json.loads(row[2])], channel=thread_handle(world, row[4]))


# ------------------------------------------------------------------- its message deleted


async def test_a_message_deleted_by_a_moderator_comes_back_by_itself_and_a_finished_ones_stays_gone(world, hostile):
    organiser, players = await started_swiss(world)
    first = announcement(world)
    await hostile.delete_as_moderator(first)
    await settle(world)
    again = announcement(world)
    assert again.id != first.id and stored_message(world) == again.id
    assert "Round 1 of 2" in again.content and "Table 2:" in again.content and owes_nothing(world)
    assert world.pinged(again) == []
    # From then on the new message is the one edited.
    await play_round(world, players, 1)
    assert announcement(world).id == again.id and "Round 2 of 2" in announcement(world).content
    await play_round(world, players, 2)
    final = announcement(world)
    assert "wins the tournament!" in final.content and final.attachments
    # Once it is over, a moderator tidying the channel means it: it stays deleted.
    await hostile.delete_as_moderator(final)
    await settle(world)
    assert announcements(world) == []


async def test_a_message_deleted_while_the_bot_was_stopped_is_posted_again_at_its_start(world, hostile):
    organiser, players = await started_swiss(world)
    first = announcement(world)
    await world.bot.close_storage()  # stopped: it hears nothing
    hostile.delete_unheard(first)
    await world.env.restart_bot(world.factory())
    await settle(world)
    again = announcement(world)
    assert again.id != first.id and stored_message(world) == again.id and "Round 1 of 2" in again.content


async def test_a_message_deleted_during_a_gateway_outage_is_posted_again_at_the_new_session(world, hostile):
    organiser = world.player("orga", manage_server=True)
    await open_swiss(world, organiser)
    first = announcement(world)
    hostile.delete_unheard(first)  # Discord does not tell the bot
    with world.env._bot_scope():
        world.parts.tournaments.messages.new_session()  # READY after the outage: nothing is replayed
    await settle(world)
    again = announcement(world)
    assert again.id != first.id and "Nobody has signed up yet." in again.content
    assert [b["label"] for b in buttons(again)] == ["Join", "Leave"]  # the sign-up's buttons too
    requests = len(hostile.requests)
    with world.env._bot_scope():
        world.parts.tournaments.messages.new_session()  # found this time: nothing posted
    await settle(world)
    assert announcement(world).id == again.id and len(hostile.requests) == requests + 1  # one look


# ------------------------------------------------------------- failing edits and threads


async def test_a_standings_edit_answered_with_5xx_is_tried_again_and_nothing_is_doubled(world, hostile):
    organiser, players = await started_swiss(world)
    message = announcement(world)
    path = f"/channels/{world.channel.id}/messages/{message.id}"
    hostile.fail("PATCH", path, 503, times=3)
    await play_round(world, players, 1)
    for _ in range(6):
        await world.env.advance_time(EVERY)
    assert sum(1 for method, p in hostile.requests if method == "PATCH" and p == path) >= 4  # three failed
    content = announcement(world).content
    assert "Round 2 of 2" in content and owes_nothing(world)
    assert len(tables(world)) == 4 and len(threads_named(world, "tournament 1")) == 4


def posts_and_edits(hostile, world, message_id: int | None = None) -> tuple[int, int]:
    """The requests the bot made to post a message in the tournament's channel and to edit one."""
    posts = sum(1 for method, p in hostile.requests
                if method == "POST" and p == f"/channels/{world.channel.id}/messages")
    edits = sum(1 for method, p in hostile.requests if method == "PATCH"
                and p == f"/channels/{world.channel.id}/messages/{message_id}")
    return posts, edits


async def test_standings_edits_refused_with_429_and_5xx_while_tables_end_show_the_last_standings_once(world, hostile):
    organiser, players = await started_swiss(world)
    message = announcement(world)
    path = f"/channels/{world.channel.id}/messages/{message.id}"
    hostile.fail("PATCH", path, 429, times=2)
    await play_table(world, players, 1)  # the standings change while their edits are refused
    await world.env.advance_time(EVERY)
    hostile.fail("PATCH", path, 502, times=2)
    await play_table(world, players, 2)  # and change again: round 2 is paired
    for _ in range(6):
        await world.env.advance_time(EVERY)
    _, edits = posts_and_edits(hostile, world, message.id)
    assert edits >= 5  # four refused, then shown
    (shown,) = announcements(world)  # edited, never posted again
    assert shown.id == message.id and "Round 2 of 2" in shown.content and owes_nothing(world)
    assert len(tables(world)) == 4 and len(threads_named(world, "tournament 1")) == 4


async def test_the_standings_deleted_mid_round_come_back_once_though_their_post_is_refused_at_first(world, hostile):
    organiser, players = await started_swiss(world)
    await play_table(world, players, 1)
    await settle(world)
    first = announcement(world)
    assert "Round 1 of 2" in first.content
    posts_before, _ = posts_and_edits(hostile, world)
    channel_posts = f"/channels/{world.channel.id}/messages"
    hostile.fail("POST", channel_posts, 503, times=1)
    hostile.fail("POST", channel_posts, 429, times=1)
    await hostile.delete_as_moderator(first)  # mid-round: one table over, one being played
    for _ in range(4):
        await world.env.advance_time(EVERY)
    again = announcement(world)  # exactly one: the refused posts made none, the retry one
    assert again.id != first.id and stored_message(world) == again.id and owes_nothing(world)
    assert "Round 1 of 2" in again.content and "Table 2:" in again.content
    posts, _ = posts_and_edits(hostile, world)
    assert posts - posts_before >= 3  # two refused, then posted
    # The round goes on, and the message posted again is the one edited.
    await play_table(world, players, 2)
    await settle(world)
    assert announcement(world).id == again.id and "Round 2 of 2" in announcement(world).content


async def test_an_edit_that_lands_late_over_a_newer_one_is_put_right(world, hostile):
    organiser, players = await started_swiss(world)
    message = announcement(world)
    path = f"/channels/{world.channel.id}/messages/{message.id}"
    # The edit after the first table's end gets no answer; Discord carries it out much later,
    # after the bot has shown round 2.
    hostile.hang("PATCH", path, seconds=REQUEST_TIMEOUT + 20, lands_late=True)
    await play_table(world, players, 1)
    await world.env.advance_time(REQUEST_TIMEOUT + 2)  # the edit is sent and given up on
    await play_table(world, players, 2)
    await settle(world)
    assert "Round 2 of 2" in world.fresh(message).content  # the newer edit went through
    await world.env.advance_time(12)
    assert "Round 1 of 2" in world.fresh(message).content  # the hung edit landed over it
    await world.env.advance_time(LATE_LANDING)
    assert "Round 2 of 2" in world.fresh(message).content and owes_nothing(world)
    assert len(announcements(world)) == 1


async def test_a_thread_discord_refused_with_5xx_is_made_once_on_the_retry(world, hostile, clock):
    organiser = world.player("orga", manage_server=True)
    players = [world.player(name) for name in NAMES[:4]]
    await open_swiss(world, organiser, players=2, rounds=2)
    await sign_up(world, players)
    hostile.fail("POST", f"/channels/{world.channel.id}/threads", 500, times=1)
    await world.slash(organiser, "game tournament start")
    await settle(world)
    assert sorted(row[3] for row in tables(world)) == ["pending", "playing"]
    assert "being opened" in announcement(world).content
    clock.advance(RETRY_OPEN)
    await world.run_timers()
    await settle(world)
    assert [row[3] for row in tables(world)] == ["playing", "playing"]
    assert [len(threads_named(world, f"table {number}")) for number in (1, 2)] == [1, 1]


@pytest.mark.parametrize("stopped", [False, True], ids=["answer-lost", "bot-stopped-meanwhile"])
async def test_a_thread_made_but_not_stored_is_the_tables_after_a_restart(world, hostile, stopped):
    organiser = world.player("orga", manage_server=True)
    players = [world.player(name) for name in NAMES[:4]]
    await open_swiss(world, organiser, players=2, rounds=2)
    await sign_up(world, players)
    # Discord makes the first table's thread, but the bot never hears its answer.
    hostile.hang("POST", f"/channels/{world.channel.id}/threads", seconds=REQUEST_TIMEOUT + 4, lost_answer=True)
    await world.slash(organiser, "game tournament start")
    if not stopped:
        await world.env.advance_time(REQUEST_TIMEOUT + 1)  # the bot gives up on it (else it stops while waiting)
    (made,) = threads_named(world, "table 1")
    ((thread_id, asked),) = world.query("SELECT thread_id, thread_asked_at FROM tournament_tables WHERE number = 1")
    assert thread_id is None and asked is not None  # asked for, not stored

    await world.restart()
    await world.run_timers()  # the first pass after a start: every running tournament is looked at
    await settle(world)
    assert [row[3] for row in tables(world)] == ["playing", "playing"]
    assert threads_named(world, "table 1") == [made]  # that thread, not a second one
    first = tables(world)[0]
    assert first[4] == made.id and world.latest_board(thread_handle(world, made.id))
    assert len(threads_named(world, "tournament 1")) == 2


async def test_of_two_threads_made_for_one_table_the_first_is_kept_and_the_second_removed(world, hostile):
    organiser = world.player("orga", manage_server=True)
    players = [world.player(name) for name in NAMES[:4]]
    await open_swiss(world, organiser, players=2, rounds=2)
    await sign_up(world, players)
    hostile.hang("POST", f"/channels/{world.channel.id}/threads", seconds=REQUEST_TIMEOUT + 4, lost_answer=True)
    await world.slash(organiser, "game tournament start")
    await world.env.advance_time(REQUEST_TIMEOUT + 1)
    (made,) = threads_named(world, "table 1")
    # Two more of that name: a second the bot made (a try that landed late), and a member's own.
    backend = world.env.backend
    second = backend.create_thread(world.channel.id, made.name, world.bot.user.id)
    members = backend.create_thread(world.channel.id, made.name, players[0].id)
    await world.restart()
    await world.run_timers()
    await settle(world)
    assert tables(world)[0][4] == made.id
    assert {thread.id for thread in threads_named(world, "table 1")} == {made.id, members.id}  # the bot's second: gone
    assert second.id not in backend.channels


# ------------------------------------------------------------------ players who left


async def test_a_player_who_left_the_server_is_played_by_the_computer_and_left_out_of_later_rounds(world, clock):
    organiser, players = await started_swiss(world)
    leaver = players[0]
    (table,) = [row for row in tables(world, round_no=1) if leaver.id in json.loads(row[2])]
    await world.run_timers()  # the scheduler's first pass (at the bot's start): the looks begin
    world.guild.remove_member(leaver)
    clock.advance(MEMBER_CHECK - 60)
    await world.run_timers()
    assert world.query("SELECT withdrawn FROM tournament_players WHERE user_id = ?", (leaver.id,)) == [(None,)]
    clock.advance(60)
    await world.run_timers()
    await settle(world)
    said = [m.content for m in world.messages(thread_handle(world, table[4]))]
    assert any(f"**{leaver.name.capitalize()}** left the server: a computer player takes the seat" in line
               for line in said)
    assert world.query("SELECT withdrawn, left_server FROM tournament_players WHERE user_id = ?", (leaver.id,)) == \
        [(1, 1)]
    assert f"**{leaver.name.capitalize()}** (left the server)" in announcement(world).content

    # The computer plays the seat; the others play on; round 2 leaves the leaver out.
    by_id = {p.id: p for p in players}
    rng = random.Random(3)
    for _ in range(40):
        if all(row[3] == "done" for row in tables(world, round_no=1)):
            break
        for row in tables(world, round_no=1):
            handle = thread_handle(world, row[4])
            waiting = [by_id[u] for u in json.loads(row[2]) if row[3] == "playing" and u != leaver.id
                       and u in world.latest_board(handle).raw_mentions]
            if waiting:
                await take_turn(world, waiting[0], rng, handle)
        clock.advance(5)
        await world.run_timers()
    await settle(world)
    seated = [user for row in tables(world, round_no=2) for user in json.loads(row[2])]
    assert leaver.id not in seated and sorted(seated) == sorted(p.id for p in players[1:])


async def test_who_left_between_rounds_is_left_out_of_the_pairing_and_a_sign_up_of_who_left_is_taken_back(world):
    organiser = world.player("orga", manage_server=True)
    players = [world.player(name) for name in NAMES[:5]]
    await open_swiss(world, organiser, players=2, rounds=2)
    await sign_up(world, players)
    world.guild.remove_member(players[4])  # gone before the start
    await world.slash(organiser, "game tournament start")
    await settle(world)
    assert sorted(user for row in tables(world, round_no=1) for user in json.loads(row[2])) == \
        sorted(p.id for p in players[:4])
    assert world.query("SELECT COUNT(*) FROM tournament_players") == [(4,)]

    await play_table(world, players, 1)
    first = json.loads(tables(world, round_no=1)[0][2])
    gone = next(p for p in players if p.id == first[0])
    world.guild.remove_member(gone)  # after their table, before the round's last one ends
    await play_table(world, players, 2)
    await settle(world)
    seated = [user for row in tables(world, round_no=2) for user in json.loads(row[2])]
    assert gone.id not in seated and len(seated) == 3
    assert world.query("SELECT withdrawn, left_server FROM tournament_players WHERE user_id = ?", (gone.id,)) == \
        [(1, 1)]
    status = reply(await world.slash(organiser, "game tournament status"))
    assert status.ephemeral and "Round 2 of 2" in status.content
