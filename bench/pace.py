"""How often a game waits on people, and what that means in days: per game and table size, over
games with the computer player (`suggest`) in every seat. Figures only; no test asserts them.

A wait is each time a seat that was not being asked becomes one the game waits for a person's
answer from. Waits are split into the seat's own turn, outside its own turn (a reaction kind the
game declares: a defence, a tournament roll, a robber on another's score), and publicly forced
(one move, and everyone can tell). The same games are counted three ways:

  today      every decision is asked of its player (how the bot worked before);
  defaults   publicly forced decisions are made at once, so they cost no wait;
  standing   as defaults, and every seat has standing orders for every reaction kind: the
             computer answers those at once for the seat.

A decision made at once is not a wait; a seat that goes on acting after it (a defender whose
first roll was made, an attacker whose defender's card was played for them) was not kept waiting.

    python bench/pace.py [GAME ...] [--games 10] [--answer-hours 2] [--waking-hours 16]
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games import REGISTRY
from games.core import reaction_kind

TABLES = {"knatsch": (3, 4, 6), "macrobber": (3, 4, 5), "carcassonne": (2, 5), "raubritter": (3, 4),
          "gluecksritter": (4, 6)}
MODES = ("today", "defaults", "standing")
# Waits per game as issue 29 counted them before this change (its own count, for comparison).
ISSUE_TODAY = {("knatsch", 3): 67, ("knatsch", 4): 96, ("knatsch", 6): 439, ("macrobber", 3): 94,
               ("macrobber", 4): 121, ("macrobber", 5): 153, ("carcassonne", 2): 91, ("carcassonne", 5): 97,
               ("raubritter", 3): 41, ("raubritter", 4): 56, ("gluecksritter", 4): 35, ("gluecksritter", 6): 60}
# The issue's aims with standing orders on for every seat: at most this many waits a game.
STANDING_AIMS = {("knatsch", 4): 60, ("knatsch", 6): 439 / 2, ("macrobber", 4): 85}


class Tally:
    """One mode's counts over the games of one table size."""

    def __init__(self) -> None:
        self.waits: Counter = Counter()       # own / outside / forced
        self.outside_kinds: Counter = Counter()
        self.reactions = 0                    # waits for a decision of a reaction kind (forced or not)
        self.handovers = 0                    # moments when one or more seats are newly asked
        self.made: Counter = Counter()        # decisions made at once: forced / ordered
        self.one_move_asked = 0               # asked although there was one move (forced by a secret)
        self.per_game: list[int] = []         # waits in each game, for the spread

    def close_game(self) -> None:
        """The waits of the game just played (the counts above sum over all games)."""
        self.per_game.append(sum(self.waits.values()) - sum(self.per_game))

    def spread(self) -> str:
        """Median and the middle 80 % of the games: game lengths vary a lot, so a mean over ten
        games moves by a quarter from one set of seeds to the next."""
        games = sorted(self.per_game)
        def at(share: float) -> int:
            return games[min(len(games) - 1, int(share * len(games)))]

        return f"{at(0.5)} ({at(0.1)}-{at(0.9)})"


def automatic(mode: str, forced, kind) -> str | None:
    """Why a seat's decision is made at once in `mode` ("forced", "ordered"), or None if asked."""
    if mode != "today" and forced is not None:
        return "forced"
    if mode == "standing" and kind is not None:
        return "ordered"
    return None


def play(game, players: int, seed: int, tallies: dict[str, Tally]) -> None:
    """One game with `suggest` in every seat (the lowest seat the game waits for moves first),
    counted in every mode at once: the modes make the same moves, only who makes them differs."""
    rng = random.Random(seed)
    state = game.new_game(players, seed=seed)
    asked_before = {mode: frozenset() for mode in MODES}
    while game.outcome(state) is None:
        acting = sorted(game.to_act(state))
        forced = {seat: game.publicly_forced(state, seat) for seat in acting}
        kinds = {seat: reaction_kind(game, state, seat) for seat in acting}
        mover = acting[0]
        for mode in MODES:
            tally = tallies[mode]
            why = {seat: automatic(mode, forced[seat], kinds[seat]) for seat in acting}
            if why[mover] is not None:
                tally.made[why[mover]] += 1
            asked = frozenset(seat for seat in acting if why[seat] is None)
            if not asked:  # only decisions made at once are open: nobody is kept waiting
                continue
            new = asked - asked_before[mode]
            for seat in new:
                tally.reactions += kinds[seat] is not None
                if forced[seat] is not None:
                    tally.waits["forced"] += 1
                elif kinds[seat] is not None:
                    tally.waits["outside"] += 1
                    tally.outside_kinds[kinds[seat]] += 1
                else:
                    tally.waits["own"] += 1
                if forced[seat] is None and len(game.legal_actions(state, seat)) == 1:
                    tally.one_move_asked += 1
            tally.handovers += bool(new)
            asked_before[mode] = asked
        state, _ = game.apply(state, mover, game.suggest(state, mover, rng))
    for tally in tallies.values():
        tally.close_game()


def shortfall(tallies: dict[str, Tally], n: int, limit: float) -> str:
    """Why standing orders leave more waits than an aim: they answer decisions outside one's own
    turn only, and every turn handed to another player is a wait on that player (their own turn
    is always theirs). Those turns are the floor no standing order goes below; a seat whose own
    turn follows its reaction at once was asked once for both before, and its turn is a wait of
    its own now."""
    today, standing = tallies["today"].waits, tallies["standing"].waits
    outside_before = tallies["today"].reactions
    gained = standing["own"] - today["own"]
    floor = standing["own"] / n
    verdict = (f"the aim of {limit:.1f} lies below that floor: only fewer turns a game would meet it"
               if floor > limit else "")
    return (f"standing orders answer the {outside_before / n:.1f} waits outside one's turn, but the own "
            f"turns handed to another player alone are {floor:.1f} waits a game: {today['own'] / n:.1f} as "
            f"before, and {gained / n:.1f} turns of a seat that had just reacted (a defender whose turn is "
            f"next), asked together with its reaction before and on their own now; {verdict}").rstrip("; ")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", metavar="GAME", help=f"any of {', '.join(TABLES)} (all by default)")
    parser.add_argument("--games", dest="count", type=int, default=10, help="games per table size")
    parser.add_argument("--answer-hours", type=float, default=2.0,
                        help="median time to answer a wait, in waking hours")
    parser.add_argument("--waking-hours", type=float, default=16.0, help="hours a day people answer in")
    args = parser.parse_args()
    unknown = [name for name in args.games if name not in TABLES]
    if unknown:
        parser.error(f"unknown game(s): {', '.join(unknown)}")
    per_day = args.waking_hours / args.answer_hours
    print(f"Calendar model: a handover (one or more seats newly asked at once; they answer side by "
          f"side) waits a median {args.answer_hours:g} h of waking time; people answer during "
          f"{args.waking_hours:g} h a day and the {24 - args.waking_hours:g} h night passes without "
          f"answers: days = handovers x {args.answer_hours:g} h / {args.waking_hours:g} h "
          f"({per_day:g} handovers a day).")
    print(f"{args.count} games per table size, the computer player in every seat; figures per game. "
          f"waits = own turn + outside one's turn + publicly forced; made at once: publicly forced, and "
          f"by standing orders (ordered); asked with one move: forced only by what the seat hides.\n")
    aims = []
    for name in args.games or TABLES:
        game = REGISTRY[name]
        for players in TABLES[name]:
            started = time.perf_counter()
            tallies = {mode: Tally() for mode in MODES}
            for seed in range(args.count):
                play(game, players, seed, tallies)
            n = args.count
            issue = ISSUE_TODAY.get((name, players))
            print(f"{name} {players}p ({time.perf_counter() - started:.0f} s; the issue counted {issue} waits today)")
            print(f"  {'':9} {'waits':>6} = {'own':>5} + {'outside':>7} + {'forced':>6}   {'handovers':>9} "
                  f"{'days':>5}   made at once: {'forced':>6} {'ordered':>7}   asked with one move")
            for mode in MODES:
                t = tallies[mode]
                print(f"  {mode:9} {sum(t.waits.values()) / n:6.1f} = {t.waits['own'] / n:5.1f} + "
                      f"{t.waits['outside'] / n:7.1f} + {t.waits['forced'] / n:6.1f}   {t.handovers / n:9.1f} "
                      f"{t.handovers / n / per_day:5.1f}   {'':14}{t.made['forced'] / n:6.1f} "
                      f"{t.made['ordered'] / n:7.1f}   {t.one_move_asked / n:6.1f}")
            print("  waits per game, median (middle 80 % of games): " + ", ".join(
                f"{mode} {tallies[mode].spread()}" for mode in MODES))
            kinds = tallies["defaults"].outside_kinds
            if kinds:
                print("  outside one's turn with the defaults: " + ", ".join(
                    f"{kind} {count / n:.1f}" for kind, count in sorted(kinds.items())))
            defaults_forced = tallies["defaults"].waits["forced"] / n
            aims.append(f"{name} {players}p with the defaults: {defaults_forced:.1f} waits a game for a publicly "
                        f"forced decision (aim: none) {'met' if defaults_forced == 0 else 'NOT met'}")
            if (name, players) in STANDING_AIMS:
                limit = STANDING_AIMS[(name, players)]
                standing = sum(tallies["standing"].waits.values()) / n
                today = sum(tallies["today"].waits.values()) / n
                aims.append(f"{name} {players}p with standing orders: {standing:.1f} waits a game (aim: at most "
                            f"{limit:g}; today {today:.1f} measured, {issue} in the issue) "
                            f"{'met' if standing <= limit else 'NOT met'}")
                # The aim as a share: the issue counted with the computer players of its day, whose
                # games were longer; what standing orders take away is the share of today's waits.
                share, aimed = 1 - standing / today, 1 - limit / issue
                aims.append(f"    as a share: standing orders take away {share:.0%} of today's waits (the aim: "
                            f"{aimed:.1%}) {'met' if share >= aimed else 'NOT met'}")
                if standing > limit or share < aimed:
                    aims.append("    why: " + shortfall(tallies, n, today * (1 - aimed)))
            print()
    print("Aims of issue 29:")
    for line in aims:
        print("  " + line)


if __name__ == "__main__":
    main()
