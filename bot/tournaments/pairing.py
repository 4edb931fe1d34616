"""Who plays whom in a tournament: pure functions over players and results (no Discord, no store).

Three formats, every table seating `size` players of a multiplayer game:

- **Swiss** (`swiss_round`): each round groups players by standing (points so far), avoids
  opponents met before wherever it can, gives the seats in a fair order over the rounds, seats
  everyone at tables of `size` with as few tables one smaller as it takes (the last ones), and
  gives a bye only to whoever cannot be seated: the lowest in the standings of those with the
  fewest byes so far.
- **Knockout** (`knockout_bracket`, `knockout_next`): the first round from the ratings, the best
  seeds spread so that they meet as late as possible (1 v 8, 4 v 5, 2 v 7, 3 v 6); each table's
  winner goes on; a seed without opponents goes on by a bye.
- **Round robin** (`round_robin_schedule`) for a small field: the whole schedule fixed at the
  start, so that everyone meets everyone (exactly once at tables of two).

Points per place (`place_points`): +6/+5/+3/+1 at a table of four, first place always 6 and the
average about 3.5 at every size, so a round of tables of four and three is fair; players who tie
share the points of the places they span. A bye is worth `BYE_POINTS`. The standings order by
points, then opponents' points (the sum of the points of everyone met, once per meeting), then
the total in-game score, then rating, then sign-up order.
"""
from __future__ import annotations

import itertools
import math
import random
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

FORMATS = ("swiss", "knockout", "roundrobin")
PLACE_POINTS: dict[int, tuple[float, ...]] = {
    1: (6.0,),
    2: (6.0, 1.0),
    3: (6.0, 4.0, 1.0),
    4: (6.0, 5.0, 3.0, 1.0),
    5: (6.0, 5.0, 4.0, 2.0, 1.0),
    6: (6.0, 5.0, 4.0, 3.0, 2.0, 1.0),
}
BYE_POINTS = 3.5          # about an average place at any table size
ROUND_ROBIN_MAX = 10      # a round robin is for a small field: everyone meets everyone
REPEAT_COST = 10_000.0    # a meeting again outweighs any difference in points
SEARCH_PASSES = 40        # rounds of improving swaps at most
RESTARTS = 12             # fresh starts when the first search leaves repeats
PERMUTATION_LIMIT = 7     # seat orders tried exhaustively up to this table size


class PairingError(ValueError):
    """The field cannot be seated as asked (too few players for one table)."""


# ------------------------------------------------------------------------------ records


@dataclass(frozen=True)
class Entrant:
    """A player in the tournament: `rating` seeds them, `order` (sign-up order) breaks the last tie."""

    id: int
    rating: float = 1000.0
    order: int = 0


@dataclass(frozen=True)
class TableResult:
    """One finished table: its players in seat order, each seat's place (1 first; equal places
    tie) and in-game score."""

    round: int
    players: tuple[int, ...]
    places: tuple[int, ...]
    scores: tuple[float, ...] = ()

    def points(self) -> dict[int, float]:
        return dict(zip(self.players, table_points(self.places), strict=True))

    def score_of(self, player: int) -> float:
        index = self.players.index(player)
        return float(self.scores[index]) if index < len(self.scores) else 0.0

    def place_of(self, player: int) -> int:
        return self.places[self.players.index(player)]


@dataclass(frozen=True)
class Bye:
    round: int
    player: int


@dataclass(frozen=True)
class RoundPlan:
    """One round: its tables (each in seat order) and who has a bye."""

    tables: tuple[tuple[int, ...], ...]
    byes: tuple[int, ...] = ()

    @property
    def players(self) -> list[int]:
        return [player for table in self.tables for player in table] + list(self.byes)


@dataclass(frozen=True)
class Standing:
    player: int
    place: int                 # 1 first
    points: float
    opponents_points: float
    score: float
    played: int
    byes: int


@dataclass
class History:
    """What the results so far say about each player: meetings, seats, byes, points, scores."""

    met: Counter[frozenset[int]] = field(default_factory=Counter)
    seats: dict[int, list[tuple[int, int]]] = field(default_factory=dict)  # player -> (seat, table size)
    byes: Counter[int] = field(default_factory=Counter)
    points: defaultdict[int, float] = field(default_factory=lambda: defaultdict(float))
    score: defaultdict[int, float] = field(default_factory=lambda: defaultdict(float))
    played: Counter[int] = field(default_factory=Counter)
    opponents: dict[int, list[int]] = field(default_factory=dict)  # player -> everyone met, once per meeting

    @classmethod
    def of(cls, results: Iterable[TableResult] = (), byes: Iterable[Bye] = (), *,
           planned: Iterable[RoundPlan] = ()) -> History:
        """The history of `results` and `byes`; `planned`: rounds seated but not played yet
        (they count as meetings, seats and byes, not as points)."""
        history = cls()
        for result in results:
            history.seated(result.players)
            for player, points in result.points().items():
                history.points[player] += points
                history.score[player] += result.score_of(player)
                history.played[player] += 1
        for bye in byes:
            history.byes[bye.player] += 1
            history.points[bye.player] += BYE_POINTS
        for plan in planned:
            for table in plan.tables:
                history.seated(table)
            for player in plan.byes:
                history.byes[player] += 1
        return history

    def seated(self, table: Sequence[int]) -> None:
        for seat, player in enumerate(table):
            self.seats.setdefault(player, []).append((seat, len(table)))
            self.opponents.setdefault(player, []).extend(other for other in table if other != player)
        for a, b in itertools.combinations(table, 2):
            self.met[frozenset((a, b))] += 1

    def meetings(self, a: int, b: int) -> int:
        return self.met[frozenset((a, b))]


# ------------------------------------------------------------------------------- points


def place_points(size: int) -> tuple[float, ...]:
    """Points for each place (first to last) at a table of `size`."""
    if size in PLACE_POINTS:
        return PLACE_POINTS[size]
    # Larger tables than the games here have: 6 for first, 1 for last, evenly between.
    return tuple(round(6.0 - 5.0 * index / (size - 1), 1) for index in range(size))


def table_points(places: Sequence[int]) -> list[float]:
    """Each seat's points for its place (1 first). Players who tie share the points of the places
    they span: two tied for first at a table of four get (6 + 5) / 2 each."""
    ranks = competition_ranks(places)
    table = place_points(len(places))
    tied = Counter(ranks)
    return [sum(table[rank - 1:rank - 1 + tied[rank]]) / tied[rank] for rank in ranks]


def competition_ranks(keys: Sequence[float]) -> list[int]:
    """1 + how many are strictly better (lower key): (1, 1, 3) for two tied first and a third."""
    return [1 + sum(1 for other in keys if other < key) for key in keys]


# ---------------------------------------------------------------------------- standings


def standings(entrants: Sequence[Entrant], results: Iterable[TableResult] = (),
              byes: Iterable[Bye] = ()) -> list[Standing]:
    """Everyone in order: points, opponents' points, total score, rating, sign-up order."""
    history = History.of(results, byes)
    rows = []
    for entrant in entrants:
        opponents = sum(history.points[other] for other in history.opponents.get(entrant.id, []))
        rows.append((entrant, float(history.points[entrant.id]), float(opponents), float(history.score[entrant.id])))
    rows.sort(key=lambda row: (-row[1], -row[2], -row[3], -row[0].rating, row[0].order, row[0].id))
    return [Standing(entrant.id, place, points, opponents, score, history.played[entrant.id],
                     history.byes[entrant.id])
            for place, (entrant, points, opponents, score) in enumerate(rows, start=1)]


def seeding(entrants: Sequence[Entrant]) -> list[Entrant]:
    """Best rating first; equal ratings by sign-up order."""
    return sorted(entrants, key=lambda entrant: (-entrant.rating, entrant.order, entrant.id))


# --------------------------------------------------------------------------- table sizes


def table_sizes(players: int, size: int, smallest: int) -> tuple[list[int], int]:
    """How `players` sit at tables of `size`: the sizes (largest first) and how many have a bye.

    Tables of `size`, with as few tables one smaller as it takes to seat everyone (a table of
    `size - 1` only where the game can be played by that many, `smallest` being its least);
    whoever still cannot be seated has a bye."""
    if players < min(size, smallest) or players < 1:
        raise PairingError(f"{players} players cannot fill a table (at least {min(size, smallest)}).")
    smaller = size - 1
    choices = [0]
    if smaller >= max(smallest, 2):
        choices = list(range(players // smaller + 1))
    best: tuple[int, int, list[int]] | None = None
    for count in choices:
        rest = players - count * smaller
        full, left = divmod(rest, size)
        if full + count == 0:
            continue
        candidate = (left, count, [size] * full + [smaller] * count)
        if best is None or candidate[:2] < best[:2]:
            best = candidate
    if best is None:
        raise PairingError(f"{players} players cannot fill a table of {size}.")
    return best[2], best[0]


def fair_byes(order: Sequence[int], count: int, history: History) -> list[int]:
    """Who sits out: of those with the fewest byes so far, the lowest in `order` (best first)."""
    if count <= 0:
        return []
    ranked = sorted(range(len(order)), key=lambda index: (history.byes[order[index]], -index))
    return [order[index] for index in ranked[:count]]


# ------------------------------------------------------------------------------ seating


def seat_order(table: Sequence[int], history: History) -> tuple[int, ...]:
    """The table's seats in a fair order over the rounds: each player away from the seat numbers
    they have had most, and those who have sat early most often later. `table`'s own order breaks
    ties."""
    players = list(table)
    size = len(players)
    if size <= 1:
        return tuple(players)
    counts = {player: Counter(seat for seat, _ in history.seats.get(player, [])) for player in players}
    early = {player: sum(1 - seat / (table_size - 1) for seat, table_size in history.seats.get(player, [])
                         if table_size > 1) for player in players}

    def cost(order: Iterable[int]) -> float:
        return sum(100 * counts[player][seat] + early[player] * (1 - seat / (size - 1))
                   for seat, player in enumerate(order))

    if size <= PERMUTATION_LIMIT:
        return tuple(min(itertools.permutations(players), key=cost))
    # Larger tables: the least early first, then improving swaps.
    order = sorted(players, key=lambda player: early[player])
    improved = True
    while improved:
        improved = False
        for i, j in itertools.combinations(range(size), 2):
            swapped = list(order)
            swapped[i], swapped[j] = swapped[j], swapped[i]
            if cost(swapped) < cost(order) - 1e-9:
                order, improved = swapped, True
    return tuple(order)


def _table_cost(table: Sequence[int], pair_cost: Callable[[int, int], float]) -> float:
    return sum(pair_cost(a, b) for a, b in itertools.combinations(table, 2))


def improve(tables: list[list[int]], pair_cost: Callable[[int, int], float]) -> list[list[int]]:
    """Swap players between tables while that lowers the total cost of who sits with whom."""
    tables = [list(table) for table in tables]
    costs = [_table_cost(table, pair_cost) for table in tables]
    for _ in range(SEARCH_PASSES):
        improved = False
        for i, j in itertools.combinations(range(len(tables)), 2):
            for a_index, b_index in itertools.product(range(len(tables[i])), range(len(tables[j]))):
                first, second = list(tables[i]), list(tables[j])
                first[a_index], second[b_index] = second[b_index], first[a_index]
                new_first, new_second = _table_cost(first, pair_cost), _table_cost(second, pair_cost)
                if new_first + new_second < costs[i] + costs[j] - 1e-9:
                    tables[i], tables[j], costs[i], costs[j] = first, second, new_first, new_second
                    improved = True
        if not improved:
            break
    return tables


def _chunks(players: Sequence[int], sizes: Sequence[int]) -> list[list[int]]:
    tables, start = [], 0
    for size in sizes:
        tables.append(list(players[start:start + size]))
        start += size
    return tables


def _snake(players: Sequence[int], sizes: Sequence[int]) -> list[list[int]]:
    """Players (best first) dealt to the tables back and forth, so each table gets a spread."""
    tables: list[list[int]] = [[] for _ in sizes]
    forward = True
    remaining = list(players)
    while remaining:
        indexes = range(len(sizes)) if forward else reversed(range(len(sizes)))
        for index in indexes:
            if remaining and len(tables[index]) < sizes[index]:
                tables[index].append(remaining.pop(0))
        forward = not forward
    return tables


def _repeats(tables: Iterable[Sequence[int]], history: History) -> int:
    return sum(history.meetings(a, b) for table in tables for a, b in itertools.combinations(table, 2))


def _best_grouping(start: list[list[int]], pair_cost: Callable[[int, int], float], history: History,
                   rng: random.Random) -> list[list[int]]:
    """Improving swaps from `start`; if meetings again remain, a few fresh starts from shuffled
    tables, keeping the cheapest grouping found."""
    best = improve(start, pair_cost)
    best_cost = sum(_table_cost(table, pair_cost) for table in best)
    if _repeats(best, history) == 0:
        return best
    sizes = [len(table) for table in start]
    players = [player for table in start for player in table]
    for _ in range(RESTARTS):
        shuffled = list(players)
        rng.shuffle(shuffled)
        candidate = improve(_chunks(shuffled, sizes), pair_cost)
        cost = sum(_table_cost(table, pair_cost) for table in candidate)
        if cost < best_cost - 1e-9:
            best, best_cost = candidate, cost
            if _repeats(best, history) == 0:
                break
    # Tables keep the order of the standings: the best-placed table first.
    return best


# -------------------------------------------------------------------------------- Swiss


def swiss_round(entrants: Sequence[Entrant], results: Sequence[TableResult], byes: Sequence[Bye], *,
                size: int, smallest: int, rng: random.Random | None = None) -> RoundPlan:
    """The next Swiss round for `entrants` (those still playing).

    Round one spreads the ratings (each table gets one of the best, one of the next, …); later
    rounds group players by standing, and swap players between tables where that avoids a
    meeting again (any repeat costs more than the widest gap in points)."""
    rng = rng or random.Random(0)
    history = History.of(results, byes)
    first_round = not results and not byes
    order = ([entrant.id for entrant in seeding(entrants)] if first_round
             else [row.player for row in standings(entrants, results, byes)])
    sizes, bye_count = table_sizes(len(order), size, smallest)
    sitting_out = fair_byes(order, bye_count, history)
    seated = [player for player in order if player not in sitting_out]
    if first_round:
        tables = _snake(seated, sizes)
    else:
        points = history.points

        def pair_cost(a: int, b: int) -> float:
            return REPEAT_COST * history.meetings(a, b) + abs(points[a] - points[b])

        tables = _best_grouping(_chunks(seated, sizes), pair_cost, history, rng)
        rank = {player: index for index, player in enumerate(order)}
        tables = sorted((sorted(table, key=rank.__getitem__) for table in tables),
                        key=lambda table: (-len(table), min(rank[player] for player in table)))
    return RoundPlan(tuple(seat_order(table, history) for table in tables), tuple(sitting_out))


def swiss_rounds_suggested(players: int, size: int) -> int:
    """Rounds enough for one clear winner: log of the field to the base of the table size, plus one."""
    if players <= size:
        return 1
    return max(1, math.ceil(math.log(players) / math.log(max(size, 2)))) + 1


# ----------------------------------------------------------------------------- knockout


def knockout_rounds(players: int, size: int) -> int:
    """Rounds until one winner is left when each table's winner goes on."""
    rounds, slots = 0, 1
    while slots < players:
        slots *= size
        rounds += 1
    return max(rounds, 1)


def bracket_order(slots: int, size: int) -> list[int]:
    """Seeds 1..slots in bracket order, `size` consecutive seeds to a table, so that the best
    seeds meet as late as possible: 1, 8, 4, 5, 2, 7, 3, 6 for eight at tables of two."""
    order = [1]
    while len(order) < slots:
        width = len(order)
        grown = []
        for seed in order:
            grown.append(seed)
            for pot in range(1, size):
                # Pots of `width` seeds each, dealt back and forth (a snake) so sums even out.
                grown.append((pot + 1) * width + 1 - seed if pot % 2 == 1 else pot * width + seed)
        order = grown
    return order


def knockout_bracket(entrants: Sequence[Entrant], size: int) -> list[tuple[int, ...]]:
    """The first round's tables in bracket order, by rating; a table of one is a bye."""
    seeded = [entrant.id for entrant in seeding(entrants)]
    rounds = knockout_rounds(len(seeded), size)
    slots = size ** rounds
    order = bracket_order(slots, size)
    groups = []
    for start in range(0, slots, size):
        group = tuple(seeded[seed - 1] for seed in order[start:start + size] if seed <= len(seeded))
        if group:
            groups.append(group)
    return groups


def knockout_next(advancing: Sequence[int | None], size: int) -> list[tuple[int, ...]]:
    """The next round's tables: the previous tables' winners in bracket order, `size` to a table
    (None: a table nobody won, all its players having withdrawn)."""
    groups = []
    for start in range(0, len(advancing), size):
        group = tuple(player for player in advancing[start:start + size] if player is not None)
        if group:
            groups.append(group)
    return groups


def knockout_winner(result: TableResult, seeds: Mapping[int, int], out: Iterable[int] = ()) -> int | None:
    """Who goes on from a table: the best place, then the higher in-game score, then the better
    seed (`seeds`: player -> seed, 1 best). Players in `out` (withdrawn) never go on."""
    left = set(out)
    candidates = [player for player in result.players if player not in left]
    if not candidates:
        return None
    return min(candidates, key=lambda player: (result.place_of(player), -result.score_of(player),
                                               seeds.get(player, math.inf)))


def knockout_standings(entrants: Sequence[Entrant], rounds: Sequence[Sequence[tuple[int, ...]]],
                       results: Sequence[TableResult], winner: int | None = None) -> list[Standing]:
    """The final order of a knockout: the winner, then by the round each went out in (later is
    better), then by their place at that table, then by seed. `rounds`: each round's tables."""
    seeds = {entrant.id: index for index, entrant in enumerate(seeding(entrants), start=1)}
    reached: dict[int, int] = {}
    place: dict[int, int] = {}
    for number, tables in enumerate(rounds, start=1):
        for table in tables:
            for player in table:
                reached[player] = number
                place[player] = 1  # a bye, until a result says otherwise
    for result in results:
        for player in result.players:
            if reached.get(player) == result.round:
                place[player] = result.place_of(player)
    history = History.of(results)

    def key(entrant: Entrant) -> tuple[float, ...]:
        return (0 if entrant.id == winner else 1, -reached.get(entrant.id, 0), place.get(entrant.id, math.inf),
                seeds[entrant.id])

    ordered = sorted(entrants, key=key)
    return [Standing(entrant.id, index, float(history.points[entrant.id]), 0.0, float(history.score[entrant.id]),
                     history.played[entrant.id], 0) for index, entrant in enumerate(ordered, start=1)]


# --------------------------------------------------------------------------- round robin


def round_robin_schedule(entrants: Sequence[Entrant], *, size: int, smallest: int,
                         rng: random.Random | None = None) -> list[RoundPlan]:
    """Every round of a round robin, fixed at the start, seats in a fair order over the rounds.

    At tables of two, the circle method: everyone meets everyone exactly once, in n - 1 rounds
    (n rounds with one bye each for an odd field). At larger tables, rounds are added until
    everyone has met everyone, each round seating together as many who have not met yet as it
    can (byes, where needed, go round fairly)."""
    if len(entrants) > ROUND_ROBIN_MAX:
        raise PairingError(f"A round robin is for at most {ROUND_ROBIN_MAX} players.")
    rng = rng or random.Random(0)
    players = [entrant.id for entrant in seeding(entrants)]
    if size == 2:
        # The circle method seats fairly by itself: each player moves first in half their games.
        return [RoundPlan(tuple(tuple(table) for table in tables), tuple(byes)) for tables, byes in _circle(players)]
    plans: list[RoundPlan] = []
    for tables, byes in _covering(players, size, smallest, rng):
        history = History.of(planned=plans)
        plans.append(RoundPlan(tuple(seat_order(table, history) for table in tables), tuple(byes)))
    return plans


def _circle(players: Sequence[int]) -> list[tuple[list[list[int]], list[int]]]:
    """Berger tables: one player (or the bye) stays put while the others turn round it; the
    player on the left moves first, and the one facing the fixed seat moves first every other
    round, so everyone moves first in half their games (one more or less for an even field)."""
    circle: list[int | None] = list(players)
    if len(circle) % 2:
        circle.insert(0, None)
    count = len(circle)
    rounds = []
    for number in range(count - 1):
        tables: list[list[int]] = []
        byes: list[int] = []
        for index in range(count // 2):
            a, b = circle[index], circle[count - 1 - index]
            if a is None or b is None:
                byes.extend(player for player in (a, b) if player is not None)
                continue
            if index == 0 and number % 2 == 1:
                a, b = b, a
            tables.append([a, b])
        rounds.append((tables, byes))
        circle = [circle[0], circle[-1], *circle[1:-1]]
    return rounds


def _covering(players: Sequence[int], size: int, smallest: int,
              rng: random.Random) -> list[tuple[list[list[int]], list[int]]]:
    everyone = set(itertools.combinations(sorted(players), 2))
    history = History()
    rounds: list[tuple[list[list[int]], list[int]]] = []
    sizes, bye_count = table_sizes(len(players), size, smallest)
    for _ in range(len(players) * 2):  # far more than ever needed; the loop ends when all have met
        if all(history.meetings(a, b) for a, b in everyone):
            break
        # Byes go to those with the fewest so far (then those who sat out longest ago).
        sitting_out = fair_byes(list(reversed(players)), bye_count, history)
        seated = [player for player in players if player not in sitting_out]
        start = list(seated)
        rng.shuffle(start)

        def pair_cost(a: int, b: int) -> float:
            return REPEAT_COST * history.meetings(a, b)

        tables = _best_grouping(_chunks(start, sizes), pair_cost, history, rng)
        for table in tables:
            history.seated(table)
        for player in sitting_out:
            history.byes[player] += 1
        rounds.append((tables, sitting_out))
    return rounds
