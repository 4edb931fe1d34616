"""Ratings per game and server (bot.league): openskill's Plackett-Luce numbers, ties, a
substitute's share, what is left out (practice tables, games the computer played), the rebuild,
and what the end message, `/game leaderboard` and `/game stats` say in both languages."""
from __future__ import annotations

import asyncio
import io
import json
import math
import random

import pytest
from openskill.models import PlackettLuce
from PIL import Image

from bot.__main__ import main
from bot.app import create_bot
from bot.league.ratings import (
    PROVISIONAL_GAMES,
    Entry,
    FinishedGame,
    Rating,
    SeatMoves,
    applied,
    judge,
    placings,
    rate,
    shown_points,
)
from bot.league.rebuild import rebuild
from bot.scheduler import FakeClock
from tests.bot import fakegame, pg
from tests.bot.harness import play_to_end, reply, seat_order, start_table, take_turn, to_act

pytestmark = pytest.mark.usefixtures("client_languages")  # tests/bot/conftest.py

LIBRARY = PlackettLuce()


def approx(value: float):
    return pytest.approx(value, rel=1e-12, abs=1e-12)


def entries(*places: int, shares=None) -> list[Entry]:
    """One person per seat (user id = seat + 1) at these places."""
    return [Entry(seat + 1, f"P{seat + 1}", seat, 1.0 if shares is None else shares[seat], place)
            for seat, place in enumerate(places)]


# ------------------------------------------------------------------------------ the model


def test_a_series_of_results_gives_the_librarys_own_numbers():
    """Four players over four games of two, three and four seats: each game rated from the ratings
    the last one left, exactly as openskill rates them by hand."""
    series = [  # (user ids in seat order, their places)
        ((1, 2), (0, 1)),
        ((3, 1, 4), (2, 0, 1)),
        ((2, 3, 4, 1), (1, 3, 0, 2)),
        ((4, 2), (1, 0)),
    ]
    ours: dict[int, Rating] = {}
    theirs = {user: LIBRARY.rating() for user in (1, 2, 3, 4)}
    for users, places in series:
        game = [Entry(user, str(user), seat, 1.0, place) for seat, (user, place) in enumerate(zip(users, places))]
        for change in rate(game, ours):
            ours[change.entry.user_id] = applied(ours.get(change.entry.user_id), change)
        rated = LIBRARY.rate([[theirs[user]] for user in users], ranks=[float(place) for place in places])
        for user, (new,) in zip(users, rated):
            theirs[user] = new
    for user in (1, 2, 3, 4):
        assert ours[user].mu == approx(theirs[user].mu)
        assert ours[user].sigma == approx(theirs[user].sigma)
    assert [ours[user].games for user in (1, 2, 3, 4)] == [3, 3, 2, 3]
    assert ours[1].provisional and PROVISIONAL_GAMES == 5
    # What players see: 1000 for a new player, the conservative estimate scaled.
    assert Rating().points == 1000
    assert ours[1].points == shown_points(theirs[1].mu, theirs[1].sigma) == round(1000 + 40 * theirs[1].ordinal())


def test_ties_share_a_place_and_a_rating():
    changes = rate(entries(0, 0, 1), {})
    library = LIBRARY.rate([[LIBRARY.rating()] for _ in range(3)], ranks=[0.0, 0.0, 1.0])
    for change, (new,) in zip(changes, library):
        assert change.after.mu == approx(new.mu)
    first, second, third = changes
    assert first.after == second.after and first.after.mu > third.after.mu
    # Placings: the winners share first place; the others follow by score, equal scores tie.
    assert placings({"winners": [2], "scores": [3, 5, 7, 3]}, range(4)) == {0: 2, 1: 1, 2: 0, 3: 2}
    assert placings({"winners": [0, 1], "scores": [4, 4, 1]}, range(3)) == {0: 0, 1: 0, 2: 1}
    assert placings({"winners": [1], "resigned": 0}, range(2)) == {0: 1, 1: 0}  # a resignation has no scores


def test_a_substitute_and_the_player_they_replaced_share_the_game_by_their_moves():
    # Seat 0: Ann made 6 moves, then Sub took over for 4; seat 1: Bo all 10. Seat 0 won.
    game = FinishedGame("finished", {"winners": [0], "scores": [3, 1]}, {0: (9, "Sub"), 1: (2, "Bo")},
                        moves={0: [SeatMoves(1, "Ann", person=6), SeatMoves(9, "Sub", person=4)],
                               1: [SeatMoves(2, "Bo", person=10)]})
    verdict = judge(game)
    assert verdict.rated
    shares = {entry.name: entry.share for entry in verdict.entries}
    assert shares == {"Ann": 0.6, "Sub": 0.4, "Bo": 1.0}
    known = {1: Rating(30.0, 6.0, 7), 9: Rating(20.0, 7.0, 2), 2: Rating(25.0, 5.0, 9)}
    changes = {c.entry.name: c for c in rate(verdict.entries, known)}

    def library(seat0: int):
        return LIBRARY.rate([[LIBRARY.rating(mu=known[seat0].mu, sigma=known[seat0].sigma)],
                             [LIBRARY.rating(mu=25.0, sigma=5.0)]], ranks=[0.0, 1.0])

    ann_full, bo_full = library(1)   # Ann holds the seat most: the game as she would have played it
    sub_full, _ = library(9)
    ann, sub, bo = changes["Ann"].after, changes["Sub"].after, changes["Bo"].after
    assert ann.mu == approx(30.0 + 0.6 * (ann_full[0].mu - 30.0))
    assert ann.sigma == approx(math.sqrt(36.0 + 0.6 * (ann_full[0].sigma ** 2 - 36.0)))
    assert sub.mu == approx(20.0 + 0.4 * (sub_full[0].mu - 20.0))
    assert bo.mu == approx(bo_full[0].mu) and bo.sigma == approx(bo_full[0].sigma)  # against the main holder
    assert 0 < ann.mu - 30.0 < ann_full[0].mu - 30.0
    assert (ann.games, sub.games, bo.games) == (8, 3, 10)


def test_practice_tables_and_games_the_computer_played_are_left_out():
    result = {"winners": [0], "scores": [2, 1, 0, 0]}
    people = {0: (1, "Ann"), 1: (2, "Bo")}
    computers = {2: (-1, "Computer 1"), 3: (-2, "Computer 2")}

    # A practice table counts for nobody.
    assert judge(FinishedGame("finished", result, {**people, 2: computers[2]}, practice=True)).reason == "practice"
    # Abandoned games (and running out of time with timeout=end) are not finished.
    assert judge(FinishedGame("abandoned", {}, people)).reason == "not_finished"
    # Two people and two computer seats: the computer played half the seats, so it decided the game.
    assert judge(FinishedGame("finished", result, {**people, **computers})).reason == "computer"
    # Two people and one computer seat: rated among the people, the computer neither rated nor rating.
    three = judge(FinishedGame("finished", {"winners": [2], "scores": [1, 0, 5]}, {**people, 2: computers[2]}))
    assert three.rated and [(e.user_id, e.place) for e in three.entries] == [(1, 1), (2, 2)]
    # A seat whose moves the computer made for the most part (timed-out turns) is nobody's: with
    # two seats that leaves one person, and half the seats.
    timed_out = {0: [SeatMoves(1, "Ann", 2, 8)], 1: [SeatMoves(2, "Bo", 10, 0)]}
    assert judge(FinishedGame("finished", result, people, moves=timed_out)).reason == "computer"
    # The same seat with most moves its player's own counts.
    played = {0: [SeatMoves(1, "Ann", 6, 4)], 1: [SeatMoves(2, "Bo", 10, 0)]}
    assert judge(FinishedGame("finished", result, people, moves=played)).rated
    # A player who resigned (the computer then played their seat) is rated, and last.
    left = judge(FinishedGame("finished", {"winners": [0], "scores": [1, 0, 9]}, {**people, 2: (3, "Cy")},
                              computer={2: "resigned"},
                              moves={0: [SeatMoves(1, "Ann", 9)], 1: [SeatMoves(2, "Bo", 9)],
                                     2: [SeatMoves(3, "Cy", 2, 7)]}))
    assert [(e.name, e.place, round(e.share, 2)) for e in left.entries] == [("Ann", 0, 1.0), ("Bo", 2, 1.0),
                                                                            ("Cy", 3, 1.0)]
    # One person alone is no contest.
    assert judge(FinishedGame("finished", result, {0: (1, "Ann"), 1: (1, "Ann")})).reason == "too_few"


# -------------------------------------------------------------------- through Discord


class PipsWithComputer(fakegame.Pips):
    """The test game with a computer player (it calls high and plays its lowest card)."""

    name = "pipsbot"
    title = "Pips with a computer"
    features = fakegame.Features(computer=True, undo=True, public_moves=True)

    def suggest(self, state, seat, rng, **_):
        if state["phase"] == "trump":
            return fakegame.Action("trump", ("high",))
        return fakegame.Action("play", (str(min(state["hands"][seat])),))


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture
def make_bot(database_path, clock):
    def build():
        return create_bot(database_path, games={"pips": fakegame.GAME, "pipsbot": PipsWithComputer()},
                          render=lambda view, names, lang="en": fakegame.render(view, names),
                          seed_source=random.Random(7), clock=clock)
    return build


def history(world, game_id: int) -> dict[int, tuple]:
    rows = world.query("SELECT user_id, share, place, mu_before, sigma_before, mu_after, sigma_after, games "
                       "FROM league_history WHERE game_id = ?", (game_id,))
    return {row[0]: row[1:] for row in rows}


def verdict_of(world, game_id: int) -> tuple:
    return world.query("SELECT rated, reason FROM league_games WHERE game_id = ?", (game_id,))[0]


async def play_with_computers(world, clock, game_id: int, people: dict, seed: int = 2) -> None:
    """Play a table to its end: people by their buttons, the computer seats by their timers."""
    rng = random.Random(seed)
    for _ in range(300):
        if world.stored(game_id).status != "active":
            return
        acting = fakegame.GAME.to_act(world.stored_state(game_id))
        humans = [people[seat] for seat in sorted(acting) if seat in people]
        if humans:
            await take_turn(world, humans[0], rng)
        else:
            clock.advance(3)  # the computer answers after a short pause
            await world.run_timers()
    raise AssertionError("the game did not end")


@pg.on_both_stores
async def test_a_finished_game_is_rated_as_the_library_rates_it_and_the_end_message_shows_it(world):
    alice, bob = world.player("alice"), world.player("bob")
    game_id = await start_table(world, alice, bob)
    await play_to_end(world, seat_order(world, game_id, [alice, bob]), seed=3)
    result = world.query("SELECT result FROM games WHERE id = ?", (game_id,))[0][0]
    winners, seats = json.loads(result)["winners"], world.seats(game_id)
    places = [0 if seat in winners else 1 for seat in range(2)]
    by_seat = {seat: user for user, seat in seats.items()}
    expected = LIBRARY.rate([[LIBRARY.rating()], [LIBRARY.rating()]], ranks=[float(p) for p in places])
    rows = history(world, game_id)
    for seat in range(2):
        share, place, _, _, mu, sigma, games = rows[by_seat[seat]]
        assert (share, place, games) == (1.0, places[seat], 1)
        assert mu == approx(expected[seat][0].mu) and sigma == approx(expected[seat][0].sigma)
    assert verdict_of(world, game_id) == (1, None)

    end = world.latest_board()
    line = next(line for line in end.content.splitlines() if line.startswith("📈 Ratings:"))
    for seat, player in ((0, by_seat[0]), (1, by_seat[1])):
        name = "Alice" if player == alice.id else "Bob"
        points = shown_points(expected[seat][0].mu, expected[seat][0].sigma)
        assert f"**{name}** {points:,} ({'+' if points > 1000 else '−'}{abs(points - 1000)}) provisional" in line
    assert "<@" not in line


@pg.on_both_stores
async def test_a_substitute_shares_the_seat_by_the_moves_made_while_holding_it(world):
    alice, bob, carol = world.player("alice"), world.player("bob"), world.player("carol")
    game_id = await start_table(world, alice, bob, options="rounds=3")
    rng = random.Random(5)
    for _ in range(4):
        await take_turn(world, to_act(world, [alice, bob])[0], rng)
    await world.slash(alice, "game replace", old=bob, new=carol)
    await play_to_end(world, [alice, carol], seed=6)
    counts = dict((user, person) for user, person in world.query(
        "SELECT user_id, person FROM league_moves WHERE game_id = ?", (game_id,)))
    bob_seat = world.query("SELECT seat FROM league_moves WHERE game_id = ? AND user_id = ?", (game_id, bob.id))[0][0]
    seat_moves = counts[bob.id] + counts[carol.id]
    assert world.stored(game_id).actions == counts[alice.id] + seat_moves + 1  # and the ~replace row
    rows = history(world, game_id)
    assert rows[bob.id][0] == pytest.approx(counts[bob.id] / seat_moves)
    assert rows[carol.id][0] == pytest.approx(counts[carol.id] / seat_moves)
    assert rows[alice.id][0] == 1.0
    assert rows[bob.id][1] == rows[carol.id][1]  # the seat's place, for both
    assert world.seats(game_id)[carol.id] == bob_seat
    end = world.latest_board().content
    assert f"for {round(100 * counts[carol.id] / seat_moves)}% of the seat" in end


async def test_practice_tables_and_computer_decided_games_are_not_rated(world, clock):
    alice, bob = world.player("alice"), world.player("bob")
    # A practice table: the asker against the computer.
    await world.slash(alice, "game practice", game="pipsbot", players=2)
    practice = world.query("SELECT MAX(id) FROM games")[0][0]
    await play_with_computers(world, clock, practice, {world.seats(practice)[alice.id]: alice})
    assert verdict_of(world, practice) == (0, "practice")
    # Two people and two computer seats: the computer decided it.
    await world.slash(alice, "game new", game="pipsbot")
    await world.click(bob, world.latest(), label="Join")
    for _ in range(2):
        await world.slash(alice, "game computer")
    await world.click(alice, world.latest(), label="Start")
    crowded = world.query("SELECT MAX(id) FROM games")[0][0]
    seats = world.seats(crowded)
    await play_with_computers(world, clock, crowded, {seats[alice.id]: alice, seats[bob.id]: bob})
    assert verdict_of(world, crowded) == (0, "computer")
    # Two people and one computer seat: rated among the people; the computer is never rated.
    await world.slash(alice, "game new", game="pipsbot")
    await world.click(bob, world.latest(), label="Join")
    await world.slash(alice, "game computer")
    await world.click(alice, world.latest(), label="Start")
    rated = world.query("SELECT MAX(id) FROM games")[0][0]
    seats = world.seats(rated)
    await play_with_computers(world, clock, rated, {seats[alice.id]: alice, seats[bob.id]: bob})
    assert verdict_of(world, rated) == (1, None)
    assert sorted(history(world, rated)) == sorted([alice.id, bob.id])
    assert world.query("SELECT COUNT(*) FROM league_ratings WHERE user_id < 0") == [(0,)]
    # The computer seat's moves were counted as the computer's, the people's as theirs.
    counted = world.query("SELECT user_id, person > 0, computer > 0 FROM league_moves WHERE game_id = ? "
                          "ORDER BY user_id", (rated,))
    assert counted == [(-1, 0, 1), *sorted([(alice.id, 1, 0), (bob.id, 1, 0)])]


async def test_a_timed_out_turn_is_the_computers_move(world, clock):
    alice, bob = world.player("alice"), world.player("bob")
    game_id = await start_table(world, alice, bob, options="deadline=24h")
    starter = seat_order(world, game_id, [alice, bob])[0]
    clock.advance(24 * 3600 + 1)
    await world.run_timers()  # the starter's turn times out: the computer moves for them
    assert world.query("SELECT user_id, person, computer FROM league_moves WHERE game_id = ?",
                       (game_id,)) == [(starter.id, 0, 1)]


@pg.on_both_stores
async def test_rebuilding_from_the_stored_results_gives_the_same_table(world, clock):
    alice, bob, carol, dora = (world.player(name) for name in ("alice", "bob", "carol", "dora"))
    for seed, players in enumerate(((alice, bob), (alice, bob, carol), (bob, carol, dora), (dora, alice))):
        game_id = await start_table(world, *players)
        await play_to_end(world, seat_order(world, game_id, list(players)), seed=seed)
    game_id = await start_table(world, carol, alice)
    await world.slash(carol, "game resign")  # two players: Alice wins, Carol is last

    def tables():
        ratings = world.query("SELECT guild_id, game, user_id, name, mu, sigma, games FROM league_ratings "
                              "ORDER BY guild_id, game, user_id")
        rows = world.query("SELECT game_id, user_id, share, place, mu_before, sigma_before, mu_after, sigma_after, "
                           "games FROM league_history ORDER BY game_id, user_id")
        return ratings, rows

    live = tables()
    assert len(live[0]) == 4 and len(live[1]) == 2 + 3 + 3 + 2 + 2
    # Scramble the stored ratings: the rebuild works them out from the results alone.
    await world.parts.storage.apply([("UPDATE league_ratings SET mu = 0, sigma = 1, games = 99", ()),
                                   ("DELETE FROM league_history WHERE game_id = 1", ())])
    done = await rebuild(world.parts.storage)
    assert (done.ended, done.rated, done.players) == (5, 5, 4)
    assert tables() == live
    # The same from the command line (`python -m bot ratings rebuild`), the bot still running.
    await world.parts.storage.apply([("UPDATE league_ratings SET mu = 0", ())])
    where = {"DATABASE_URL": world.database} if world.on_postgresql else {"DATABASE_PATH": world.database}
    code = await asyncio.to_thread(main, where, ["ratings", "rebuild"])
    assert code == 0 and tables() == live


# ---------------------------------------------------------- leaderboard and stats, both languages


async def test_leaderboard_and_stats_in_both_languages(world, client_languages):
    alice, bob, dora = world.player("alice"), world.player("bob"), world.player("dora")
    client_languages[dora.id] = "de"
    for seed in range(2):
        game_id = await start_table(world, alice, bob)
        await play_to_end(world, seat_order(world, game_id, [alice, bob]), seed=seed + 10)
    ranked = [(name, shown_points(mu, sigma)) for name, mu, sigma in world.query(
        "SELECT name, mu, sigma FROM league_ratings ORDER BY mu - 3 * sigma DESC")]

    english = reply(await world.slash(alice, "game leaderboard", game="pips")).content.splitlines()
    assert english[0] == "🏆 **Leaderboard — Pips (test game)** (rating)"
    assert english[1] == f"1. **{ranked[0][0]}** — {ranked[0][1]:,} · 2 games (provisional, 2 of 5)"
    assert english[2] == f"2. **{ranked[1][0]}** — {ranked[1][1]:,} · 2 games (provisional, 2 of 5)"
    assert "provisional until 5 games" in english[-1] and "`/game stats`" in english[-1]
    german = reply(await world.slash(dora, "game leaderboard", game="pips")).content.splitlines()
    assert german[0] == "🏆 **Bestenliste — Pips (test game)** (Wertung)"
    assert german[1] == f"1. **{ranked[0][0]}** — {ranked[0][1]:,}".replace(",", ".") + \
        " · 2 Partien (vorläufig, 2 von 5)"
    assert "`/spiel statistik`" in german[-1]

    stats = reply(await world.slash(alice, "game stats"))
    alice_points = dict(ranked)["Alice"]
    place = [name for name, _ in ranked].index("Alice") + 1
    assert f"📈 Rating in **Pips (test game)**: {alice_points:,} after 2 rated games · place {place} of 2" \
        in stats.content
    chart = Image.open(io.BytesIO(world.png(stats)))
    assert chart.size == (1080, 1350)
    assert [a.filename for a in stats.attachments] == ["rating.png"]
    german_stats = reply(await world.slash(dora, "game stats", player=alice))
    assert f"📈 Wertung in **Pips (test game)**: {alice_points:,}".replace(",", ".") + \
        f" nach 2 gewerteten Partien · Platz {place} von 2" in german_stats.content
    assert world.png(german_stats) != world.png(stats)  # the chart's words are the reader's language
    nobody = reply(await world.slash(dora, "game stats"))
    assert "noch keine gezählte Partie" in nobody.content and not nobody.attachments
