"""Records, leaderboards, exports and languages, played through simcord with the test game Pips.

Tally rules: a finished game counts for everyone (won if among the winners, its score averaged);
a resigned game counts as lost for the one who resigned (with two players the other won it);
an abandoned game does not count.
"""
from __future__ import annotations

import io
import json
import random
import sqlite3

import pytest
from PIL import Image

from bot import records
from bot.storage import ResultRow, SeatRow
from games import REGISTRY
from games.replay import check, replay
from tests.bot import fakegame
from tests.bot.harness import play_to_end, reply, seat_order, start_table, take_turn, to_act

pytestmark = pytest.mark.usefixtures("client_languages")  # tests/bot/conftest.py


def text_of(result) -> str:
    answer = reply(result)
    assert answer is not None, "no ephemeral answer"
    return answer.content


def attachment_bytes(world, message, suffix: str) -> bytes:
    for attachment in message.attachments:
        if attachment.filename.endswith(suffix):
            return world.env.backend.cdn.get(attachment.url)
    raise AssertionError(f"no {suffix} attachment in {[a.filename for a in message.attachments]}")


def stored_result(world, game_id: int) -> dict:
    with sqlite3.connect(world.database_path) as db:
        (result,) = db.execute("SELECT result FROM games WHERE id = ?", (game_id,)).fetchone()
    return json.loads(result)


# ------------------------------------------------------------------------------ tally rules


def row(game_id: int, status: str, result: dict | None, players: list[tuple[int, str]], game: str = "pips"):
    return ResultRow(game_id, game, status, result, 0,
                     [SeatRow(user_id, name, seat, None) for seat, (user_id, name) in enumerate(players)])


def test_tally_counts_finished_and_resigned_games_but_not_abandoned_ones():
    ann, bo, cy = (1, "Ann"), (2, "Bo"), (3, "Cy")
    results = [
        row(1, "finished", {"winners": [0], "scores": [5, 3], "reason": "x"}, [ann, bo]),
        row(2, "finished", {"winners": [0, 1], "scores": [4, 4], "reason": "x"}, [bo, ann]),      # a shared win
        row(3, "finished", {"winners": [1], "reason": "{s0} resigned.", "resigned": 0}, [ann, bo]),
        row(4, "abandoned", {"winners": [], "reason": "{s2} resigned.", "resigned": 2}, [ann, bo, cy]),
        row(5, "abandoned", {"reason": "Abandoned by Ann."}, [ann, bo, cy]),
        row(6, "finished", {"winners": [1], "scores": [1, 9], "reason": "x"}, [ann, bo], game="knatsch"),
    ]
    tally = records.tally(results)
    ann_pips, bo_pips, cy_pips = tally[(1, "pips")], tally[(2, "pips")], tally[(3, "pips")]
    assert (ann_pips.played, ann_pips.won, ann_pips.average_score) == (3, 2, 4.5)
    assert (bo_pips.played, bo_pips.won, bo_pips.average_score) == (3, 2, 3.5)
    assert (cy_pips.played, cy_pips.won, cy_pips.average_score) == (1, 0, None)  # only the resignation
    assert tally[(1, "knatsch")].won == 0 and tally[(2, "knatsch")].won == 1
    assert [r.name for r in records.leaderboard(results, "pips")] == ["Ann", "Bo", "Cy"]  # 2/3, 2/3 by name, 0/1
    assert [r.game for r in records.player_records(results, 1)] == ["knatsch", "pips"]
    assert records.player_records(results, 1, "knatsch")[0].played == 1


def test_stats_and_leaderboard_texts_in_both_languages():
    rec = records.Record(1, "Ann", "pips", played=4, won=3, score_total=10, scored=4)
    english = records.stats_text([rec], "Ann", {"pips": "Pips"}, "en")
    german = records.stats_text([rec], "Ann", {"pips": "Pips"}, "de")
    assert "**Pips**: 4 played · 3 won (75%) · average score 2.5" in english
    assert "**Pips**: 4 gespielt · 3 gewonnen (75\xa0%) · im Schnitt 2,5 Punkte" in german
    board = records.leaderboard_text([rec], "Pips", "de")
    assert board.startswith("🏆 **Bestenliste — Pips**") and "1. **Ann** — 3 von 4 gewonnen" in board
    assert "no counted games" in records.stats_text([], "Ann", {}, "en")


# ---------------------------------------------------------------------- through Discord


async def test_stats_and_leaderboard_after_finished_resigned_and_abandoned_games(world):
    alice, bob, carol = (world.player(name) for name in ("alice", "bob", "carol"))

    # 1: played to the end.
    first = await start_table(world, alice, bob)
    await play_to_end(world, seat_order(world, first, [alice, bob]), seed=3)
    result = stored_result(world, first)
    seats = world.seats(first)
    # 2: Bob resigns a two-player game: Alice wins it, Bob lost it.
    second = await start_table(world, alice, bob)
    await world.slash(bob, "game resign")
    # 3: Carol resigns a three-player game: the computer takes her seat and the game goes on;
    # then the host abandons it, so it counts for nobody.
    third = await start_table(world, alice, bob, carol)
    await world.slash(carol, "game resign")
    assert world.stored(third).status == "active"
    await world.slash(alice, "game abandon")
    # 4: abandoned by the host: counts for nobody.
    fourth = await start_table(world, alice, bob)
    await world.slash(alice, "game abandon")
    assert [world.stored(g).status for g in (first, second, third, fourth)] == [
        "finished", "finished", "abandoned", "abandoned"]

    alice_won = int(seats[alice.id] in result["winners"]) + 1
    alice_rate = f"{round(100 * alice_won / 2)}%"
    alice_average = f"{result['scores'][seats[alice.id]]:.1f}"  # the resignation has no score

    mine = text_of(await world.slash(alice, "game stats"))
    assert mine.startswith("📊 Records of **Alice** on this server")
    assert f"**Pips (test game)**: 2 played · {alice_won} won ({alice_rate}) · average score {alice_average}" in mine
    carols = text_of(await world.slash(alice, "game stats", player=carol, game="pips"))
    assert "has no counted games" in carols

    # The leaderboard ranks by rating (bot.league): both finished games are rated, for both.
    board = text_of(await world.slash(bob, "game leaderboard", game="pips"))
    lines = board.splitlines()
    assert lines[0] == "🏆 **Leaderboard — Pips (test game)** (rating)"
    ranked = [name for (name,) in world.query("SELECT name FROM league_ratings ORDER BY mu - 3 * sigma DESC")]
    assert sorted(ranked) == ["Alice", "Bob"]
    assert lines[1].startswith(f"1. **{ranked[0]}** — ") and lines[1].endswith("· 2 games (provisional, 2 of 5)")
    assert lines[2].startswith(f"2. **{ranked[1]}** — ")
    assert not any("Carol" in line for line in lines)
    assert "Ratings from the placings of finished games" in lines[-1]

    refused = text_of(await world.slash(bob, "game leaderboard", game="chess"))
    assert "I do not know a game called `chess`" in refused


async def test_an_empty_server_has_no_records(world):
    alice = world.player("alice")
    assert "has no counted games" in text_of(await world.slash(alice, "game stats"))
    board = text_of(await world.slash(alice, "game leaderboard", game="pips"))
    assert "Nobody has a rating in Pips (test game)" in board


async def test_the_end_of_game_message_has_the_board_the_scores_and_a_chart(world):
    alice, bob = world.player("alice"), world.player("bob")
    game_id = await start_table(world, alice, bob, options="rounds=3")
    players = seat_order(world, game_id, [alice, bob])
    moves = await play_to_end(world, players, seed=5)
    final = world.latest_board()
    assert [a.filename for a in final.attachments] == ["board.png", "scores.png"]
    assert "🏁 **Game over**" in final.content and "Final scores:" in final.content
    assert "`/game export`" in final.content
    assert all(a.description for a in final.attachments)  # alt text on the board and the chart
    chart = Image.open(io.BytesIO(attachment_bytes(world, final, "scores.png")))
    assert chart.height > chart.width  # upright, for phones
    # One end message: the only one with the chart, after turn messages that were edited in place.
    assert sum("scores.png" in [a.filename for a in m.attachments] for m in world.bot_messages()) == 1
    assert moves > 0
    assert not final.components  # nothing left to click


async def test_a_resigned_game_ends_with_its_last_board_and_the_chart_so_far(world):
    alice, bob = world.player("alice"), world.player("bob")
    game_id = await start_table(world, alice, bob, options="rounds=3")
    players = seat_order(world, game_id, [alice, bob])
    rng = random.Random(1)
    for _ in range(3):
        await take_turn(world, to_act(world, players)[0], rng)
    await world.slash(bob, "game resign")
    last = world.latest()
    assert "resigned" in last.content and "`/game export`" in last.content
    assert [a.filename for a in last.attachments] == ["board.png", "scores.png"]
    assert world.stored(game_id).status == "finished"


async def test_running_games_export_without_seed_and_finished_ones_replay(world, monkeypatch):
    monkeypatch.setitem(REGISTRY, "pips", fakegame.GAME)  # the replay tool finds engines in the registry
    alice, bob = world.player("alice"), world.player("bob")
    refused = text_of(await world.slash(alice, "game export"))
    assert "no started game" in refused

    game_id = await start_table(world, alice, bob)
    players = seat_order(world, game_id, [alice, bob])
    rng = random.Random(2)
    for _ in range(3):
        await take_turn(world, to_act(world, players)[0], rng)
    assert world.stored(game_id).actions == 3
    # A running game: a public record only.
    running = await world.slash(bob, "game export")
    assert "still running" in text_of(running)
    data = json.loads(attachment_bytes(world, reply(running), ".json"))
    with sqlite3.connect(world.database_path) as db:
        (seed,) = db.execute("SELECT seed FROM games WHERE id = ?", (game_id,)).fetchone()
    assert data["seed"] is None and data["complete"] is False and str(seed) not in json.dumps(data)
    assert data["board"]["viewer"] is None and "private" not in data["board"]
    # The trump call is public; the cards played in secret are not named, only what the table saw.
    assert [entry.get("action", "").split(" ")[0] for entry in data["moves"]] == ["trump", "", ""]

    await play_to_end(world, players, seed=2)
    done = await world.slash(bob, "game export")
    assert "python -m games replay pips-game-1.json" in text_of(done)
    data = json.loads(attachment_bytes(world, reply(done), ".json"))
    assert data["complete"] and data["seed"] == seed and len(data["moves"]) == world.stored(game_id).actions
    assert [seat["name"] for seat in data["seats"]] == [p.name.capitalize() for p in players]
    assert check(data, replay(data)) == []


# ---------------------------------------------------------------------------- languages


async def test_a_german_user_at_an_english_table_gets_german_replies(world, client_languages):
    alice, dora = world.player("alice"), world.player("dora")
    client_languages[dora.id] = "de"
    opened = await world.slash(dora, "game new", game="pips", language="en")
    assert "Tisch eröffnet (Partie #1, auf Englisch)" in text_of(opened)
    assert world.stored(1).status == "lobby"
    with sqlite3.connect(world.database_path) as db:
        assert db.execute("SELECT lang FROM games WHERE id = 1").fetchone() == ("en",)
        # Remembered for DMs sent to her later.
        assert db.execute("SELECT lang FROM user_languages WHERE user_id = ?", (dora.id,)).fetchone() == ("de",)
    german = text_of(await world.slash(dora, "game stats"))
    assert "noch keine gezählte Partie" in german
    english = text_of(await world.slash(alice, "game stats"))
    assert "has no counted games" in english
    refused = text_of(await world.slash(dora, "game leaderboard", game="schach"))
    assert "Ein Spiel namens `schach` kenne ich nicht" in refused

    # She switches her Discord client to English: the next interaction updates what is stored.
    client_languages[dora.id] = "en-GB"
    await world.slash(dora, "game stats")
    with sqlite3.connect(world.database_path) as db:
        assert db.execute("SELECT lang FROM user_languages WHERE user_id = ?", (dora.id,)).fetchone() == ("en",)


async def test_a_table_speaks_its_servers_language_unless_chosen(world):
    german_server = world.env.create_guild("Spieleabend", preferred_locale="de")
    channel = german_server.create_text_channel("tisch")
    host = german_server.add_member(world.env.create_user("emil", global_name="Emil"))
    await world.slash(host, "game new", channel=channel, game="pips")
    await world.slash(world.player("alice"), "game new", game="pips")
    with sqlite3.connect(world.database_path) as db:
        langs = dict(db.execute("SELECT channel_id, lang FROM games").fetchall())
    assert langs == {channel.id: "de", world.channel.id: "en"}


async def test_an_english_table_can_be_chosen_on_a_german_server(world):
    german_server = world.env.create_guild("Spieleabend", preferred_locale="de")
    channel = german_server.create_text_channel("tisch")
    host = german_server.add_member(world.env.create_user("emil", global_name="Emil"))
    await world.slash(host, "game new", channel=channel, game="pips", language="en")
    with sqlite3.connect(world.database_path) as db:
        assert db.execute("SELECT lang FROM games").fetchall() == [("en",)]


async def test_a_german_table_ends_with_a_german_note(world):
    alice, bob = world.player("alice"), world.player("bob")
    await world.slash(alice, "game new", game="pips", language="de")
    await world.click(bob, world.latest(), label="Mitspielen")
    await world.click(alice, world.latest(), label="Starten")
    await play_to_end(world, seat_order(world, 1, [alice, bob]), seed=4)
    final = world.latest_board()
    assert "Wiederholungsdatei" in final.content
    lobby = world.messages()[0]
    assert "Mitspieler (2, nötig" in lobby.content and "Das Spiel hat begonnen" in lobby.content
    assert [a.filename for a in final.attachments] == ["board.png", "scores.png"]

