"""How a tournament ends, through the simulated Discord: the final standings with a chart and the
winner named, the results kept for `/game stats`; and an organiser cancelling it (asked to
confirm first), its tables still being played ended by the tournament's rule or abandoned, in
English and German."""
from __future__ import annotations

import io
import json
import random

import pytest
from PIL import Image

from tests.bot.harness import buttons, reply, take_turn
from tests.bot.tournaments.helpers import announcement, play_round, settle, started_swiss, tables, thread_handle


def names_in(content: str) -> list[str]:
    """The standings' names, in order."""
    return [line.split("**")[1] for line in content.splitlines() if line[:1].isdigit()]


async def test_the_final_standings_name_the_winner_with_a_chart_and_count_in_everyones_stats(world, client_languages):
    organiser, players = await started_swiss(world)
    for round_no in (1, 2):
        await play_round(world, players, round_no, seed=round_no)
    message = announcement(world)
    ((status, winner_id),) = world.query("SELECT status, winner_id FROM tournaments WHERE id = 1")
    assert status == "finished"
    winner = next(player for player in players if player.id == winner_id)
    assert f"🥇 **{winner.name.capitalize()}** wins the tournament!" in message.content
    standings = names_in(message.content)
    assert standings[0] == winner.name.capitalize() and len(standings) == 4

    # The chart of the final standings, upright, in the message that names the winner.
    (attachment,) = message.attachments
    assert attachment.filename == "standings.png"
    assert winner.name.capitalize() in (attachment.description or "")
    assert Image.open(io.BytesIO(world.png(message))).size == (1080, 1350)

    # Everyone's final place is kept with the result; /game stats counts it.
    places = dict(world.query("SELECT user_id, place FROM tournament_players WHERE tournament_id = 1"))
    assert [places[next(p.id for p in players if p.name.capitalize() == name)] for name in standings] == [1, 2, 3, 4]
    won = reply(await world.slash(winner, "game stats"))
    assert "🏆 Pips (test game) tournaments: 1 played, 1 won, best place 1" in won.content
    last = next(player for player in players if places[player.id] == 4)
    client_languages[last.id] = "de"
    lost = reply(await world.slash(last, "game stats"))
    assert "Turniere in Pips (test game): 1 gespielt, 0 gewonnen, bester Platz 4" in lost.content
    # Asked about someone else, for one game only.
    other = reply(await world.slash(organiser, "game stats", player=winner, game="pips"))
    assert "1 played, 1 won" in other.content
    nobody = reply(await world.slash(organiser, "game stats"))
    assert "tournaments:" not in nobody.content


async def test_an_organiser_cancels_a_running_tournament_once_confirmed_its_tables_scored_as_they_stand(world):
    organiser, players = await started_swiss(world, overtime="score")
    member = world.player("mia")
    refused = reply(await world.slash(member, "game tournament cancel"))
    assert refused.ephemeral and "Only its organiser" in refused.content

    question = reply(await world.slash(organiser, "game tournament cancel"))
    assert question.ephemeral
    assert ("Cancel tournament #1 (Pips (test game)) in round 1 of 2? Its 2 tables still being played: they are "
            "scored as they stand. This cannot be undone.") in question.content
    assert [b["label"] for b in buttons(question)] == ["Cancel tournament #1", "Keep it"]
    kept = reply(await world.click(organiser, question, label="Keep it"))
    assert "Tournament #1 goes on." in kept.content and buttons(kept) == []
    assert world.query("SELECT status FROM tournaments WHERE id = 1") == [("running",)]

    question = reply(await world.slash(organiser, "game tournament cancel"))
    done = reply(await world.click(organiser, question, label="Cancel tournament #1"))
    assert "Tournament #1 is cancelled" in done.content and buttons(done) == []
    await settle(world)
    assert world.query("SELECT status, cancelled_by, cancel_tables FROM tournaments WHERE id = 1") == \
        [("cancelled", organiser.id, "rule")]
    for _, _, _, status, thread_id, game_id in tables(world):
        assert status == "done" and world.stored(game_id).status == "finished"
        said = [m.content for m in world.messages(thread_handle(world, thread_id))]
        assert any("Tournament #1 was cancelled by its organiser: this table is scored as it stands" in line
                   for line in said)
    content = announcement(world).content
    assert f"🛑 Cancelled by <@{organiser.id}> in round 1 of 2: the tables still being played were scored as they " \
           "stood." in content
    assert "**Standings when it was cancelled**" in content and len(names_in(content)) == 4
    assert world.pinged(announcement(world)) == []
    assert len(tables(world)) == 2  # no round after it
    again = reply(await world.slash(organiser, "game tournament cancel", tournament=1))
    assert again.ephemeral and "over already" in again.content
    # A cancelled tournament counts in nobody's stats.
    assert "tournaments:" not in reply(await world.slash(players[0], "game stats")).content


async def test_a_tournament_cancelled_with_its_tables_abandoned_says_so_in_german(world):
    organiser, players = await started_swiss(world, language="de")
    question = reply(await world.slash(organiser, "game tournament cancel", tables="abandon"))
    assert "they are abandoned" in question.content  # the organiser's own language
    await world.click(organiser, question, label="Cancel tournament #1")
    await settle(world)
    for _, number, _, status, thread_id, game_id in tables(world):
        assert status == "done" and world.stored(game_id).status == "abandoned"
        ((result,),) = world.query("SELECT result FROM tournament_tables WHERE number = ?", (number,))
        assert json.loads(result)["how"] == "cancelled"  # it counts for nothing
        said = [m.content for m in world.messages(thread_handle(world, thread_id))]
        assert any("Turnier #1 wurde vom Veranstalter abgesagt: Dieser Tisch wird abgebrochen." in line
                   for line in said)
    content = announcement(world).content
    assert f"🛑 Von <@{organiser.id}> in Runde 1 von 2 abgesagt: Die Tische, an denen noch gespielt wurde, wurden " \
           "abgebrochen." in content and "**Tabelle bei der Absage**" in content


async def test_cancelled_with_the_computer_rule_the_computer_finishes_and_players_moves_are_refused(world, clock):
    organiser, players = await started_swiss(world, overtime="computer")
    question = reply(await world.slash(organiser, "game tournament cancel"))
    assert "the computer finishes them" in question.content
    await world.click(organiser, question, label="Cancel tournament #1")
    first = tables(world)[0]
    board = world.latest_board(thread_handle(world, first[4]))
    by_id = {p.id: p for p in players}
    (waiting,) = [by_id[u] for u in json.loads(first[2]) if u in board.raw_mentions]
    refused = reply(await world.click(waiting, board, custom_id=next(
        b["custom_id"] for b in buttons(board) if b["custom_id"].startswith("rk:move"))))
    assert refused.ephemeral and "Tournament #1 was cancelled: the computer finishes this game." in refused.content
    for _ in range(80):
        if all(world.stored(row[5]).status != "active" for row in tables(world)):
            break
        clock.advance(5)
        await world.run_timers()
    await settle(world)
    assert [world.stored(row[5]).status for row in tables(world)] == ["finished", "finished"]
    assert "the computer finishes the tables still being played" in announcement(world).content
    assert world.query("SELECT status FROM tournaments WHERE id = 1") == [("cancelled",)]
    assert len(tables(world)) == 2


async def test_a_tournament_cancelled_in_its_sign_up_loses_its_buttons(world):
    organiser = world.player("orga", manage_server=True)
    reply(await world.slash(organiser, "game tournament new", game="pips", format="swiss"))
    await settle(world)
    # Another organiser (by the server's role) asks, and loses the role before confirming.
    role = world.guild.create_role("Turnierleitung")
    reply(await world.slash(organiser, "game tournament organisers", role=role))
    helper = world.guild.add_member(world.env.create_user("helga", global_name="Helga"), roles=[role])
    question = reply(await world.slash(helper, "game tournament cancel"))
    assert "Its sign-up closes and nobody plays" in question.content
    world.env.backend.remove_member_role(world.guild.id, helper.id, role.id)
    refused = reply(await world.click(helper, question, label="Cancel tournament #1"))
    assert refused is not None and "Only its organiser" in refused.content
    assert world.query("SELECT status FROM tournaments WHERE id = 1") == [("signup",)]
    question = reply(await world.slash(organiser, "game tournament cancel"))
    await world.click(organiser, question, label="Cancel tournament #1")
    await settle(world)
    message = announcement(world)
    assert f"🛑 Cancelled by <@{organiser.id}> during the sign-up." in message.content and buttons(message) == []
    status = reply(await world.slash(world.player("late"), "game tournament status", tournament=1))
    assert "It was cancelled." in status.content


@pytest.mark.parametrize("lang", ["en", "de"])
async def test_the_chart_speaks_the_tournaments_language(world, lang, clock):
    organiser, players = await started_swiss(world, language=lang, rounds=1)
    rng = random.Random(2)
    by_id = {p.id: p for p in players}
    for _ in range(200):
        playing = [row for row in tables(world) if row[3] == "playing"]
        if not playing:
            break
        handle = thread_handle(world, playing[0][4])
        waiting = [by_id[u] for u in json.loads(playing[0][2]) if u in world.latest_board(handle).raw_mentions]
        await take_turn(world, waiting[0], rng, handle)
    await settle(world)
    message = announcement(world)
    (attachment,) = message.attachments
    assert attachment.description.startswith("Endstand von Turnier #1" if lang == "de" else
                                              "Final standings of tournament #1")
