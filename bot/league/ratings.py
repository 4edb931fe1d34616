"""Ratings per game and server from each finished game's placings: what counts, who takes part
with what share, and the update itself (openskill's Plackett-Luce model). Pure: no I/O, no Discord.

Decided here (docs/league.md says why):

- A game counts when it *finished* (by its rules, or by a resignation with two players), is not
  a practice table, and people played more than half of its seats. A seat is played by people
  when people made more than half of its moves (their own clicks, and decisions made at once on
  their behalf: publicly forced ones, standing orders); the computer's moves are those of
  computer seats, of turns that timed out and of seats whose player resigned. A seat whose last
  player left (resigned, or the computer kept it after timeouts) counts as played by people:
  leaving is that person's decision, and they are placed last.
- Computer seats (negative user ids) are never rated and never rate anyone: the people's
  placings among themselves are what counts.
- A seat held by several people in turn (a substitute, `/game replace`): each of them takes part
  with the share of the seat's moves made while they held it, and gets that share of the change
  the game would have made had they played the whole seat.
- Placings: the winners share first place, the others follow by score (equal scores tie), and
  players who left come last.
"""
from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from openskill.models import PlackettLuce

from bot.storage.rows import is_computer_user

MODEL = PlackettLuce()  # openskill's defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300
PROVISIONAL_GAMES = 5   # a rating is provisional until its player has this many rated games
DISPLAY_BASE = 1000     # what a new player's rating shows
DISPLAY_SCALE = 40      # shown points per unit of the conservative skill estimate (mu - 3 sigma)
LEFT = "left"           # a seat whose player resigned or whose seat the computer kept after timeouts


@dataclass(frozen=True)
class Rating:
    mu: float = MODEL.mu
    sigma: float = MODEL.sigma
    games: int = 0

    @property
    def ordinal(self) -> float:
        """The conservative estimate the leaderboard ranks by (99.7 % sure the skill is above it)."""
        return self.mu - 3 * self.sigma

    @property
    def points(self) -> int:
        return shown_points(self.mu, self.sigma)

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES


def shown_points(mu: float, sigma: float) -> int:
    """The number players see: 1000 for a new player, some ±100 a game at first."""
    return round(DISPLAY_BASE + DISPLAY_SCALE * (mu - 3 * sigma))


@dataclass(frozen=True)
class SeatMoves:
    """The moves one person (or computer seat) made at a seat while holding it."""

    user_id: int
    name: str
    person: int = 0     # by the person (their clicks, and decisions made at once for them)
    computer: int = 0   # by the computer while they held the seat (timed-out turns, after resigning)

    @property
    def total(self) -> int:
        return self.person + self.computer


@dataclass(frozen=True)
class FinishedGame:
    """What the ratings of one finished game are worked out from, all of it stored."""

    status: str                                  # 'finished' counts; anything else does not
    result: Mapping                              # winners, scores, resigned (games.result)
    holders: Mapping[int, tuple[int, str]]       # seat -> (user id, name) holding it at the end
    practice: bool = False
    computer: Mapping[int, str | None] = field(default_factory=dict)   # seat -> day_seats.computer at the end
    moves: Mapping[int, Sequence[SeatMoves]] = field(default_factory=dict)   # seat -> who moved there


@dataclass(frozen=True)
class Entry:
    """One person taking part in a rated game: their seat, share and place (0 is first)."""

    user_id: int
    name: str
    seat: int
    share: float
    place: int


@dataclass(frozen=True)
class Verdict:
    """Whether a finished game is rated (and with whom), or why not."""

    entries: tuple[Entry, ...] = ()
    reason: str | None = None  # why it is left out: practice, not_finished, computer, too_few

    @property
    def rated(self) -> bool:
        return self.reason is None


def placings(result: Mapping, seats: Iterable[int]) -> dict[int, int]:
    """Each seat's place (0 first): the winners share first place, the others follow by score
    (higher is better in every game here; equal scores tie), all behind the winners."""
    winners = set(result.get("winners") or ())
    scores = result.get("scores")
    places = {}
    for seat in seats:
        if seat in winners:
            places[seat] = 0
        elif isinstance(scores, list) and seat < len(scores) and isinstance(scores[seat], (int, float)):
            higher = {score for other, score in enumerate(scores)
                      if other not in winners and isinstance(score, (int, float)) and score > scores[seat]}
            places[seat] = 1 + len(higher)
        else:
            places[seat] = 1
    return places


def judge(game: FinishedGame) -> Verdict:
    """Whether `game` is rated and who takes part with what share and place (the rules above)."""
    if game.practice:
        return Verdict(reason="practice")
    if game.status != "finished":
        return Verdict(reason="not_finished")
    seats = sorted(game.holders)
    resigned = game.result.get("resigned")
    left = {seat for seat in seats if seat == resigned or game.computer.get(seat) in ("resigned", "timeout")}
    places = placings(game.result, seats)
    last = 1 + max(places.values(), default=0)
    people_seats = 0
    entries: list[Entry] = []
    for seat in seats:
        moved = [m for m in game.moves.get(seat, ()) if m.total > 0]
        final_user, final_name = game.holders[seat]
        if not moved:  # no moves counted at this seat (a game from before the league, an early resignation)
            moved = [SeatMoves(final_user, final_name, person=0 if is_computer_user(final_user) else 1,
                               computer=1 if is_computer_user(final_user) else 0)]
        total = sum(m.total for m in moved)
        by_people = sum(m.person for m in moved if not is_computer_user(m.user_id))
        if seat in left and not is_computer_user(final_user):
            people_seats += 1
        elif 2 * by_people > total:
            people_seats += 1
        else:
            continue  # the computer played this seat: nobody is rated for it
        for holder in moved:
            if is_computer_user(holder.user_id):
                continue
            place = last if seat in left and holder.user_id == final_user else places[seat]
            entries.append(Entry(holder.user_id, holder.name, seat, holder.total / total, place))
    if 2 * people_seats <= len(seats):
        return Verdict(reason="computer")
    # Someone who held two seats in turn (replaced at one, substitute at another) counts once,
    # for the seat they played most.
    best: dict[int, Entry] = {}
    for entry in entries:
        if entry.user_id not in best or entry.share > best[entry.user_id].share:
            best[entry.user_id] = entry
    entries = [entry for entry in entries if best[entry.user_id] is entry]
    if len(entries) < 2 or len({entry.seat for entry in entries}) < 2:
        return Verdict(reason="too_few")
    return Verdict(tuple(entries))


@dataclass(frozen=True)
class Change:
    """One person's rating before and after a game."""

    entry: Entry
    before: Rating
    after: Rating

    @property
    def mu_delta(self) -> float:
        return self.after.mu - self.before.mu

    @property
    def sigma_factor(self) -> float:
        return self.after.sigma / self.before.sigma


def rate(entries: Sequence[Entry], ratings: Mapping[int, Rating]) -> list[Change]:
    """The new ratings of everyone in a rated game. `ratings`: their ratings before it (a
    missing one is a new player's).

    Each seat is one competitor, played by its main holder (the largest share); a seat's other
    holders are rated by the same game with themselves in the seat. Everyone then gets their
    share of that change: mu moves by share x its change, sigma's variance likewise. With one
    holder per seat (share 1) these are exactly openskill's numbers."""
    by_seat: dict[int, list[Entry]] = {}
    for entry in entries:
        by_seat.setdefault(entry.seat, []).append(entry)
    seats = sorted(by_seat)
    main = {seat: max(by_seat[seat], key=lambda e: (e.share, e.user_id)) for seat in seats}

    def before(entry: Entry) -> Rating:
        return ratings.get(entry.user_id) or Rating()

    def played(seat_entry: dict[int, Entry]) -> list:
        teams = [[MODEL.rating(mu=before(seat_entry[seat]).mu, sigma=before(seat_entry[seat]).sigma)]
                 for seat in seats]
        return MODEL.rate(teams, ranks=[float(seat_entry[seat].place) for seat in seats])

    everyone = played(main)
    changes = []
    for entry in entries:
        index = seats.index(entry.seat)
        if main[entry.seat] is entry:
            full = everyone[index][0]
        else:
            full = played({**main, entry.seat: entry})[index][0]
        old = before(entry)
        if entry.share >= 1:
            mu, sigma = full.mu, full.sigma
        else:
            mu = old.mu + entry.share * (full.mu - old.mu)
            sigma = math.sqrt(old.sigma ** 2 + entry.share * (full.sigma ** 2 - old.sigma ** 2))
        changes.append(Change(entry, old, Rating(mu, sigma, old.games + 1)))
    return changes


def applied(rating: Rating | None, change: Change) -> Rating:
    """`rating` (as stored now) after `change`, the way the store applies it: mu moves by the
    change's difference and sigma by its factor, so two games ending at the same moment that
    share a player both count (`bot.league.storage.rating_writes`)."""
    if rating is None:
        return change.after
    return Rating(rating.mu + change.mu_delta, rating.sigma * change.sigma_factor, rating.games + 1)
