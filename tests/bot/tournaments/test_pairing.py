"""Tournament pairings, pure (bot.tournaments.pairing): Swiss groups by standing, avoids meeting
again when it can, seats fairly and gives byes fairly; a knockout of eight; round robin schedules
that are complete; points per place and the tie-breaks."""
from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

from bot.tournaments.pairing import (
    BYE_POINTS,
    Bye,
    Entrant,
    History,
    PairingError,
    RoundPlan,
    TableResult,
    bracket_order,
    knockout_bracket,
    knockout_next,
    knockout_rounds,
    knockout_standings,
    knockout_winner,
    place_points,
    round_robin_schedule,
    seat_order,
    standings,
    swiss_round,
    table_points,
    table_sizes,
)


def field(count: int) -> list[Entrant]:
    """Players 1..count, player 1 rated best."""
    return [Entrant(player, rating=2000 - 10 * player, order=player) for player in range(1, count + 1)]


def play(plan: RoundPlan, round_no: int, rank=lambda table: list(range(1, len(table) + 1))) -> list[TableResult]:
    """Each table of `plan` finished: by default the players in seat order place 1, 2, 3…
    (`rank(table)` gives other places)."""
    return [TableResult(round_no, table, tuple(rank(table)), tuple(10 - p for p in rank(table)))
            for table in plan.tables]


def byes_of(plan: RoundPlan, round_no: int) -> list[Bye]:
    return [Bye(round_no, player) for player in plan.byes]


def pairs(tables) -> list[frozenset[int]]:
    return [frozenset(pair) for table in tables for pair in itertools.combinations(table, 2)]


# ------------------------------------------------------------------------------ points


def test_points_per_place_first_always_six_and_a_table_of_four_is_6_5_3_1():
    assert place_points(4) == (6, 5, 3, 1)
    assert place_points(3) == (6, 4, 1)
    assert place_points(2) == (6, 1)
    for size in range(2, 7):
        points = place_points(size)
        assert points[0] == 6 and list(points) == sorted(points, reverse=True)
        assert 3.4 <= sum(points) / size <= 3.8  # a round of tables of 4 and of 3 is fair


def test_players_who_tie_share_the_points_of_the_places_they_span():
    assert table_points((1, 1, 3, 4)) == [5.5, 5.5, 3, 1]
    assert table_points((2, 1, 2)) == [2.5, 6, 2.5]
    assert table_points((1, 1, 1)) == [11 / 3] * 3


def test_standings_order_points_then_opponents_points_then_score():
    players = field(6)
    results = [
        TableResult(1, (1, 2, 3), (1, 2, 3), (30, 20, 10)),
        TableResult(1, (4, 5, 6), (1, 2, 3), (12, 11, 10)),
        TableResult(2, (1, 5, 3), (2, 1, 3), (20, 25, 5)),
        TableResult(2, (4, 2, 6), (2, 1, 3), (9, 8, 7)),
    ]
    order = standings(players, results)
    # 1: 6+4=10, 4: 6+4=10, 5: 4+6=10, 2: 4+6=10 — all on ten points.
    assert [row.points for row in order[:4]] == [10, 10, 10, 10]
    by_player = {row.player: row for row in order}
    # opponents' points: 1 met 2,3 and 5,3 -> 10+2+10+2 = 24; 5 met 4,6 and 1,3 -> 10+2+10+2 = 24;
    # 4 met 5,6 and 2,6 -> 24; 2 met 1,3 and 4,6 -> 24. All tie: the total score decides.
    assert {by_player[p].opponents_points for p in (1, 2, 4, 5)} == {24}
    assert [row.player for row in order[:4]] == [1, 5, 2, 4]  # scores 50, 36, 28, 21
    assert order[0].place == 1 and order[-1].place == 6


def test_opponents_points_break_a_tie_in_points_before_the_score():
    players = field(4)
    results = [TableResult(1, (1, 2), (1, 2), (1, 0)), TableResult(1, (3, 4), (1, 2), (9, 0)),
               TableResult(2, (1, 3), (1, 2), (1, 0)), TableResult(2, (2, 4), (1, 2), (9, 0))]
    order = standings(players, results)
    # 1: 12 points; 2 and 3: 7 each. 2 met 1 (12) and 4 (2) = 14; 3 met 4 (2) and 1 (12) = 14: the
    # score decides (9 + ... ): 2 scored 0 + 9 = 9, 3 scored 9 + 0 = 9 -> rating: 2 is rated higher.
    assert [row.player for row in order] == [1, 2, 3, 4]
    players = field(4)
    results = [TableResult(1, (1, 2), (1, 2)), TableResult(1, (3, 4), (1, 2)),
               TableResult(2, (1, 4), (1, 2)), TableResult(2, (3, 2), (2, 1))]
    order = standings(players, results)
    # 1: 12, 2: 1+6 = 7 (met 1: 12, 3: 7 -> 19), 3: 6+1 = 7 (met 4: 2, 2: 7 -> 9).
    assert [row.player for row in order][:3] == [1, 2, 3]
    assert order[1].opponents_points == 19 and order[2].opponents_points == 9


# ------------------------------------------------------------------------------ sizes


@pytest.mark.parametrize("players, size, smallest, sizes, byes", [
    (9, 3, 2, [3, 3, 3], 0),
    (11, 3, 2, [3, 3, 3, 2], 0),       # the field does not divide: the last table one smaller
    (10, 4, 2, [4, 3, 3], 0),
    (7, 4, 3, [4, 3], 0),
    (5, 4, 2, [4], 1),                 # one smaller would need two tables of three: a bye
    (9, 2, 2, [2, 2, 2, 2], 1),        # two-player tables: an odd field has a bye
    (7, 5, 5, [5], 2),                 # a game for five at least: the two left over sit out
])
def test_table_sizes_seat_everyone_with_as_few_smaller_tables_as_it_takes(players, size, smallest, sizes, byes):
    assert table_sizes(players, size, smallest) == (sizes, byes)


def test_too_few_players_for_a_table_is_an_error():
    with pytest.raises(PairingError):
        table_sizes(1, 3, 2)


# ------------------------------------------------------------------------------ Swiss


def test_swiss_round_one_spreads_the_ratings_over_the_tables():
    plan = swiss_round(field(9), [], [], size=3, smallest=2)
    assert sorted(map(sorted, plan.tables)) == [[1, 6, 7], [2, 5, 8], [3, 4, 9]]
    assert plan.byes == ()


def test_swiss_groups_players_by_standing():
    players = field(9)
    first = swiss_round(players, [], [], size=3, smallest=2)
    results = play(first, 1)
    second = swiss_round(players, results, [], size=3, smallest=2)
    points = History.of(results).points
    # The three winners sit together, the three seconds together, the three thirds together.
    assert sorted(sorted(points[p] for p in table) for table in second.tables) == [[1, 1, 1], [4, 4, 4], [6, 6, 6]]
    assert [points[table[0]] for table in second.tables] == [6, 4, 1]  # the leaders' table first
    assert not set(pairs(first.tables)) & set(pairs(second.tables))


def test_swiss_avoids_meeting_again_when_it_can_even_against_the_standings():
    players = field(9)
    # Round one: {1, 2, 3} and {4, 5, 6} end in order; at {7, 8, 9} all three tie.
    results = [TableResult(1, (1, 2, 3), (1, 2, 3)), TableResult(1, (4, 5, 6), (1, 2, 3)),
               TableResult(1, (7, 8, 9), (1, 1, 1))]
    # By points alone: 1, 4 (6), then 2, 5 (4), then 7, 8, 9 (3.67), then 3, 6 (1): the straight
    # grouping {1, 4, 2} {5, 7, 8} {9, 3, 6} would seat 1 with 2 and 7 with 8 again.
    second = swiss_round(players, results, [], size=3, smallest=2)
    assert not set(pairs(second.tables)) & set(pairs(r.players for r in results))
    assert {1, 4} <= set(second.tables[0])  # the leaders still sit together at the first table


def test_swiss_meets_again_only_when_there_is_no_other_way():
    players = field(4)
    results, byes = [], []
    for round_no in range(1, 5):
        plan = swiss_round(players, results, byes, size=2, smallest=2)
        if round_no <= 3:
            assert not set(pairs(plan.tables)) & set(pairs(r.players for r in results))
        else:  # four players have met everyone after three rounds: now someone must meet again
            assert len(plan.tables) == 2
        results += play(plan, round_no)


def test_swiss_byes_go_to_the_lowest_placed_of_those_without_one_and_never_twice_before_everyone():
    players = field(5)
    results, byes, given = [], [], []
    for round_no in range(1, 6):
        plan = swiss_round(players, results, byes, size=2, smallest=2)
        assert len(plan.byes) == 1
        (sitting,) = plan.byes
        assert sitting not in given
        if round_no > 1:
            order = [row.player for row in standings(players, results, byes)]
            eligible = [player for player in order if player not in given]
            assert sitting == eligible[-1]
        given.append(sitting)
        results += play(plan, round_no)
        byes += byes_of(plan, round_no)
    assert sorted(given) == [1, 2, 3, 4, 5]
    assert History.of(results, byes).points[given[0]] >= BYE_POINTS


def test_swiss_seats_fairly_over_the_rounds():
    players = field(3)
    results = []
    firsts = Counter()
    for round_no in range(1, 4):
        plan = swiss_round(players, results, [], size=3, smallest=2)
        (table,) = plan.tables
        firsts[table[0]] += 1
        results += play(plan, round_no)
    seats = History.of(results).seats
    # Each of the three sat in each seat once.
    assert all(sorted(seat for seat, _ in seats[player]) == [0, 1, 2] for player in (1, 2, 3))
    assert firsts == Counter({1: 1, 2: 1, 3: 1})


def test_seat_order_puts_who_sat_first_most_often_later():
    history = History()
    history.seated((1, 2, 3, 4))
    history.seated((1, 3, 2, 4))
    order = seat_order((1, 2, 3, 4), history)
    # Nobody takes a seat number they have had before: 1 (first twice) is not first, 4 (last
    # twice) not last, 2 and 3 (second and third) neither second nor third.
    assert order[0] != 1 and order[-1] != 4 and set(order[1:3]).isdisjoint({2, 3})
    assert order.index(1) > order.index(4)


def test_a_nine_player_swiss_of_three_rounds_has_no_meeting_twice():
    players = field(9)
    results = []
    for round_no in range(1, 4):
        plan = swiss_round(players, results, [], size=3, smallest=2, rng=random.Random(round_no))
        assert sorted(plan.players) == list(range(1, 10))
        results += play(plan, round_no, rank=lambda table: [1 + (sum(table) + i) % 3 for i in range(3)])
    assert max(Counter(pairs(r.players for r in results)).values()) == 1


# ---------------------------------------------------------------------------- knockout


def test_bracket_order_keeps_the_best_seeds_apart():
    assert bracket_order(8, 2) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert bracket_order(9, 3) == [1, 6, 7, 2, 5, 8, 3, 4, 9]


def test_a_knockout_of_eight_plays_three_rounds_to_one_winner():
    players = field(8)
    seeds = {entrant.id: entrant.id for entrant in players}
    assert knockout_rounds(8, 2) == 3
    rounds = [knockout_bracket(players, 2)]
    assert rounds[0] == [(1, 8), (4, 5), (2, 7), (3, 6)]
    results = []
    upset = {frozenset((4, 5)): 5}  # seed 5 beats seed 4; otherwise the better seed wins
    for round_no in range(1, 4):
        advancing = []
        for table in rounds[-1]:
            winner = upset.get(frozenset(table), min(table))
            result = TableResult(round_no, table, tuple(1 if p == winner else 2 for p in table))
            results.append(result)
            advancing.append(knockout_winner(result, seeds))
        assert advancing == [upset.get(frozenset(t), min(t)) for t in rounds[-1]]
        if round_no < 3:
            rounds.append(knockout_next(advancing, 2))
    assert rounds[1] == [(1, 5), (2, 3)] and rounds[2] == [(1, 2)]
    order = knockout_standings(players, rounds, results, winner=1)
    assert [row.player for row in order][:2] == [1, 2]
    assert {row.player for row in order[2:4]} == {3, 5}   # out in the semi-finals
    assert {row.player for row in order[4:]} == {4, 6, 7, 8}


def test_a_knockout_with_an_uneven_field_gives_the_top_seeds_byes():
    groups = knockout_bracket(field(6), 2)
    assert groups == [(1,), (4, 5), (2,), (3, 6)]


def test_a_tied_first_place_goes_to_the_higher_score_then_the_better_seed_and_never_to_a_withdrawn_player():
    seeds = {7: 1, 8: 2, 9: 3}
    assert knockout_winner(TableResult(1, (7, 8), (1, 1), (5, 6)), seeds) == 8
    assert knockout_winner(TableResult(1, (8, 7), (1, 1), (5, 5)), seeds) == 7
    assert knockout_winner(TableResult(1, (7, 8, 9), (1, 2, 3)), seeds, out={7}) == 8
    assert knockout_winner(TableResult(1, (7,), (1,)), seeds, out={7}) is None


# -------------------------------------------------------------------------- round robin


@pytest.mark.parametrize("count", [4, 5, 6, 7, 8])
def test_a_round_robin_of_two_player_tables_meets_everyone_exactly_once(count):
    schedule = round_robin_schedule(field(count), size=2, smallest=2)
    assert len(schedule) == (count - 1 if count % 2 == 0 else count)
    met = Counter(pairs(table for plan in schedule for table in plan.tables))
    assert set(met) == {frozenset(pair) for pair in itertools.combinations(range(1, count + 1), 2)}
    assert set(met.values()) == {1}
    for plan in schedule:
        assert sorted(plan.players) == list(range(1, count + 1))
    byes = Counter(player for plan in schedule for player in plan.byes)
    assert all(value == 1 for value in byes.values()) and len(byes) == (count % 2) * count
    firsts = Counter(table[0] for plan in schedule for table in plan.tables)
    assert max(firsts.values()) - min(firsts.values()) <= 1  # who moves first, shared out


@pytest.mark.parametrize("count, size", [(6, 3), (9, 3), (8, 4), (7, 3), (10, 4)])
def test_a_round_robin_at_larger_tables_lets_everyone_meet_everyone(count, size):
    schedule = round_robin_schedule(field(count), size=size, smallest=2, rng=random.Random(1))
    met = Counter(pairs(table for plan in schedule for table in plan.tables))
    assert set(met) == {frozenset(pair) for pair in itertools.combinations(range(1, count + 1), 2)}
    for plan in schedule:
        assert sorted(plan.players) == list(range(1, count + 1))
        assert all(len(table) in (size, size - 1) for table in plan.tables)
    # Nobody sits out twice before everyone has sat out once.
    byes = Counter(player for plan in schedule for player in plan.byes)
    assert not byes or max(byes.values()) - min(byes.get(p, 0) for p in range(1, count + 1)) <= 1


def test_a_round_robin_is_for_a_small_field():
    with pytest.raises(PairingError):
        round_robin_schedule(field(11), size=2, smallest=2)
