"""The strong computer player and hints: determinized Monte Carlo search over the normal player.

For each move it is weighing, the strong player re-deals everything its seat cannot see (every
other seat's secrets with `hidden_variant(state, other, rng)`, then the hidden order of decks and
bags with `hidden_variant(state, None, rng)`), makes the move, and plays on with the normal
computer player for every seat for a while; the move whose continuations went best is chosen.
It never looks at the real hidden state: only the seat's own view survives the re-deal, so its
choice is the same for every state its seat cannot tell apart (the conformance suite checks).

Time is bounded by a budget on an injectable clock, so tests can run it on a fake clock.
"""
from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Iterable, MutableSequence, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from games.core import Action, Game, Msg, hooks, msg

if TYPE_CHECKING:
    from _typeshed import SupportsLenAndGetItem

Item = TypeVar("Item")

BUDGET = 0.25  # seconds a strong decision may take (about 0.3 s median on a small machine)
# How far a continuation is played on and how many moves are weighed (the normal player's choice
# and a sample of the rest) are the engine's to say (`Features.search`).
TURN_DECISION = 3.0  # times the budget for the decision that sets a whole turn (an engine's search_time)
CONFIDENCE = 1.0  # standard errors a move must lead the normal choice by to be preferred to it
PRUNE_AFTER = 4  # playouts before a move may be dropped from the weighing
PRUNE_CONFIDENCE = 2.0  # standard errors a move must trail the normal choice by to be dropped


@dataclass
class Weighed:
    action: Action
    value: float = 0.0
    playouts: int = 0
    lead: float = 0.0  # summed over playouts: this move's standing minus the normal choice's
    lead_squares: float = 0.0

    @property
    def mean(self) -> float:
        return self.value / self.playouts if self.playouts else 0.0

    def _lead(self) -> tuple[float, float]:
        """The mean lead over the normal player's choice and its standard error: each playout of
        every move starts from the same re-deal and the same dice, so the leads are paired."""
        n = self.playouts
        mean = self.lead / n
        variance = max(0.0, (self.lead_squares - n * mean * mean) / (n - 1))
        return mean, math.sqrt(variance / n)

    def clearly_better(self) -> bool:
        """Better than the normal player's choice beyond the playouts' noise."""
        if self.playouts < 2:
            return False
        mean, error = self._lead()
        return mean > CONFIDENCE * error and mean > 0.0

    def clearly_worse(self) -> bool:
        """Worse than the normal player's choice beyond the noise, after a few playouts."""
        if self.playouts < PRUNE_AFTER:
            return False
        mean, error = self._lead()
        return mean < -PRUNE_CONFIDENCE * error and mean < 0.0


class CanonicalRandom(random.Random):
    """A generator whose shuffles and picks do not depend on the order things come in: they are
    sorted first. A re-deal then depends only on what is hidden, never on how it lies, so two
    states a seat cannot tell apart are re-dealt alike, and the search's choice is the same."""

    def shuffle(self, x: MutableSequence[Any]) -> None:
        x[:] = sorted(x, key=repr)
        super().shuffle(x)

    def choice(self, seq: SupportsLenAndGetItem[Item]) -> Item:
        return super().choice(sorted((seq[index] for index in range(len(seq))), key=repr))

    def sample(self, population: Sequence[Item], k: int, *, counts: Iterable[int] | None = None) -> list[Item]:
        return super().sample(sorted(population, key=repr), k, counts=counts)


def determinize(game: Game, state: Any, seat: int, rng: random.Random) -> Any:
    """A state its seat cannot tell from `state`: all that is hidden from it re-dealt."""
    canonical = CanonicalRandom(rng.getrandbits(64))
    if game.features.search.determinize:  # an engine whose secrets share a pool deals them at once
        return hooks(game).determinize(state, seat, canonical)
    for other in range(_seats(game, state)):
        if other != seat:
            state = game.hidden_variant(state, other, canonical)
    return game.hidden_variant(state, None, canonical)


def standing(game: Game, state: Any, seat: int) -> float:
    """How well `seat` stands, 0 (lost) to 1 (won): a win's share at the end, else its score
    against the best rival's through the engine's `search_scores` (or `scores`), squashed
    into (0, 1)."""
    outcome = game.outcome(state)
    if outcome is not None:
        return 1.0 / len(outcome.winners) if seat in outcome.winners else 0.0
    # An engine whose points mostly come at the end says what a position is worth (`search_scores`).
    values: list[float]
    if game.features.search.standing:
        values = list(hooks(game).search_scores(state))
    elif game.features.scores:
        values = [float(value) for value in hooks(game).scores(state)]
    else:
        return 0.5
    best_rival = max(value for other, value in enumerate(values) if other != seat)
    return 1.0 / (1.0 + math.exp(-(values[seat] - best_rival) / max(1.0, 0.15 * max(values + [1]))))


def weigh(game: Game, state: Any, seat: int, rng: random.Random, *, budget: float | None = None,
          clock: Callable[[], float] | None = None) -> list[Weighed]:
    """Every candidate move with the mean standing of its continuations, best first."""
    clock = clock or time.perf_counter
    budget = BUDGET if budget is None else budget
    # An engine whose turns are one big choice followed by small ones (Carcassonne's square, Raub
    # Ritter's first lay) gives that choice more time: most decisions keep the plain budget.
    tuning = game.features.search
    if tuning.timing:
        budget *= hooks(game).search_time(state)
    legal = game.legal_actions(state, seat)
    normal = hooks(game).suggest(state, seat, rng)
    # Moves that only step back within a turn (Carcassonne's "back") are never weighed: judged by
    # a short search they can look as good as moving on, and a player who keeps stepping back
    # never finishes the game.
    skipped = set(tuning.skips)
    if normal.verb in skipped:
        # Nor is it taken: stepping back where the search then picks the same step again would go
        # round for ever. The first move that goes on stands in for the normal player's.
        normal = next((action for action in legal if action.verb not in skipped), normal)
    others = [action for action in legal if action != normal and action.verb not in skipped]
    if tuning.order:  # an engine with many moves says which are worth weighing first
        others = hooks(game).search_order(state, seat, others)
    else:
        rng.shuffle(others)
    weighed = [Weighed(normal)] + [Weighed(action) for action in others[:tuning.candidates - 1]]
    if len(weighed) == 1 or budget <= 0:  # no time: an engine leaves this decision to its normal player
        return weighed
    start = clock()
    active = list(weighed)
    while clock() - start < budget and len(active) > 1:
        # Every move is tried in the same re-dealt world with the same later dice: the comparison
        # then measures the moves, not the luck of the deal.
        world = determinize(game, state, seat, rng)
        luck = rng.getrandbits(64)
        results = []
        for item in active:
            after, _ = game.apply(world, seat, item.action)
            results.append(standing(game, _play_on(game, after, random.Random(luck)), seat))
            if clock() - start >= budget:
                break
        if len(results) < len(active):
            break  # a round cut short by the budget would compare unequal worlds
        for item, result in zip(active, results):
            item.value += result
            item.playouts += 1
            lead = result - results[0]
            item.lead += lead
            item.lead_squares += lead * lead
        # A move clearly worse than the normal choice can never be taken: the time goes to the
        # moves still in the running (and a decision with none left is made at once).
        active = [active[0]] + [item for item in active[1:] if not item.clearly_worse()]
    # The normal player's choice stands unless another move is clearly better.
    better = [item for item in weighed[1:] if item.clearly_better()]
    best = max(better, key=lambda item: item.mean) if better else weighed[0]
    return [best] + sorted((item for item in weighed if item is not best),
                           key=lambda item: -item.mean if item.playouts else 1.0)


def suggest_strong(game: Game, state: Any, seat: int, rng: random.Random, *, budget: float | None = None,
                   clock: Callable[[], float] | None = None) -> Action:
    return weigh(game, state, seat, rng, budget=budget, clock=clock)[0].action


def hint(game: Game, state: Any, seat: int, rng: random.Random, *, budget: float | None = None,
         clock: Callable[[], float] | None = None) -> tuple[Action, Msg]:
    """The move the strong player would make in `seat`, and why, from the seat's view only."""
    weighed = weigh(game, state, seat, rng, budget=budget, clock=clock)
    best = weighed[0]
    if best.playouts == 0 or len(weighed) == 1:
        return best.action, msg("core.hint.only" if len(weighed) == 1 else "core.hint.normal")
    runner_up = max((item for item in weighed[1:] if item.playouts), key=lambda item: item.mean, default=None)
    if runner_up is not None and runner_up.mean > best.mean:
        # The normal choice stood because no other move was clearly better: "did best" would be untrue.
        return best.action, msg("core.hint.normal")
    reason = msg("core.hint.search", count=sum(item.playouts for item in weighed),
                 share=round(100 * best.mean), other=round(100 * runner_up.mean) if runner_up else 0)
    return best.action, reason


def _play_on(game: Game, state: Any, rng: random.Random) -> Any:
    for _ in range(game.features.search.playout_actions):
        if game.outcome(state) is not None:
            break
        seat = min(game.to_act(state))
        state, _ = game.apply(state, seat, hooks(game).suggest(state, seat, rng))
    return state


def _seats(game: Game, state: Any) -> int:
    return int(game.view(state, None)["seats"])
