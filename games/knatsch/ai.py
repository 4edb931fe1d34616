"""A simple computer player for Knatsch: greedy, from public information only.

Choosing a card: every card it may roll for is weighed by how likely it is to win it (an
estimate of the chance to beat the card's dice with the rolls it has and its die cards, times
the chance that a defender fails for an opponent's castle) and by what the card is worth to it
(a castle it lacks most, the fourth castle or a third tournament wins at once; a rival close to
winning makes taking from them worth more). The king is challenged when the chance to win
outweighs the castle the revenge would cost.

Putting a card under: the turn's free look at a new card is weighed like any choice. What turns
up is one of the cards below the tops, and which cards those are is public (every card not in
front of a player and not on top); the worth of the look is the average, over them, of the best
choice it would leave (the card that turns up, or what was on offer without the card put away).
Without this the computer players traded castles among themselves for thousands of moves while
the castles in the stacks never came to the top.

Guards: before announcing, it moves the castle guard onto the two castles easiest for rivals to
beat and the special guard onto the special worth most to it, whenever they stand elsewhere
(a guard move costs nothing, so it comes first; each move strictly improves the cover, so
guards never go round in circles). A further attempt after a special is declined when it is a
long shot and a failure would only turn up a new stack card for the next player in place of one
they cannot use.

Rolling: it keeps every die of its best group (die cards count towards it) and rolls the rest
again; it stops once it beats what it must beat, except where a higher result still helps (an
attack on a castle that will be defended, a tournament that others must beat).

Nothing hidden is read: stacks below their tops are never looked at. The chance estimates are
deterministic (a fixed-seed simulation, cached); all choices among equals come from `rng`.
"""
from __future__ import annotations

import random
from collections.abc import Iterable
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from games.core import Action
from games.knatsch.cards import (
    BETRAYAL,
    BETRAYAL_COMBINATION,
    CARDS,
    CASTLE,
    CASTLE_GUARD,
    CATAPULT,
    CHAMPION,
    DIE,
    KING,
    PROTECTION,
    STACK,
    TOURNAMENT,
    likeness,
)
from games.knatsch.dice import SIX, evaluate
from games.knatsch.state import CAPTURE, REVENGE, ROLL, TOURNAMENT_ROLL, KnatschState

if TYPE_CHECKING:
    from games.knatsch.engine import KnatschGame

SIMULATIONS = 400
WIN = 20.0  # the worth of a card that wins the game at once


def suggest(game: KnatschGame, state: KnatschState, seat: int, rng: random.Random) -> Action:
    legal = game.legal_actions(state, seat)
    if len(legal) == 1:
        return legal[0]
    if state.phase == ROLL:
        return _roll_choice(game, state, seat, legal)
    if state.phase == REVENGE:
        return _revenge_choice(state, seat, legal)
    return _card_choice(game, state, seat, legal, rng)


# ----------------------------------------------------------------------------------------
# Rolling


def _keep_value(dice: list[int], die_cards: tuple[int, ...]) -> int | None:
    """The value of the best group the dice and die cards make (None: nothing rolled)."""
    counts = [0] * 6
    for value in list(dice) + list(die_cards):
        if 1 <= value <= 5:
            counts[value] += 1
    if not any(counts):
        return None
    return max(range(1, 6), key=lambda v: (counts[v], v))


def _rerolls(dice: list[int], die_cards: tuple[int, ...]) -> list[int]:
    """1-based positions of the dice to roll again: every non-six outside the best group."""
    keep = _keep_value(dice, die_cards)
    return [i + 1 for i, d in enumerate(dice) if d != SIX and d != keep]


def _roll_choice(game: KnatschGame, state: KnatschState, seat: int, legal: list[Action]) -> Action:
    roll = state.rolling
    if roll.rolls_used == 0:
        return Action("roll")
    die_cards = tuple(game.die_values(state, seat))
    result = evaluate(roll.dice, die_cards)
    target = tuple(roll.to_beat) if roll.to_beat is not None else (0, 0, 0)
    beating = result > target
    # Where a higher result still helps: an attack that will be defended, a tournament lead.
    keeps_going = roll.purpose == TOURNAMENT_ROLL or (
        roll.purpose == CAPTURE and roll.owner is not None and CARDS[roll.target].kind == CASTLE)
    positions = _rerolls(roll.dice, die_cards)
    if beating:
        safe = result[:2] > target[:2]  # rerolling the others cannot lose the lead
        if not (keeps_going and safe and positions):
            return Action("stop")
    if not positions:
        return Action("stop")
    action = Action("reroll", (",".join(map(str, positions)),))
    return action if action in legal else Action("stop")


# ----------------------------------------------------------------------------------------
# Chances


@lru_cache(maxsize=4096)
def beat_chance(target: tuple[int, int, int], rolls: int, die_cards: tuple[int, ...] = ()) -> float:
    """How often rolling six dice up to `rolls` times with the keep-the-best-group policy beats
    `target`, estimated by a fixed-seed simulation (the same answer every time)."""
    rng = random.Random(f"{target}:{rolls}:{die_cards}")
    wins = 0
    for _ in range(SIMULATIONS):
        dice = [rng.randint(1, 6) for _ in range(6)]
        for used in range(1, rolls + 1):
            if evaluate(dice, die_cards) > target:
                wins += 1
                break
            if used == rolls:
                break
            positions = _rerolls(dice, die_cards)
            if not positions:
                break
            for p in positions:
                dice[p - 1] = rng.randint(1, 6)
    return wins / SIMULATIONS


@lru_cache(maxsize=4096)
def typical_result(target: tuple[int, int, int], rolls: int, die_cards: tuple[int, ...] = ()) -> tuple[int, int, int]:
    """A middling winning result against `target` (what a defender would have to beat)."""
    count, value, extra = target
    return (count, value, 5) if extra < 5 else (count + 1, value, 0)


# ----------------------------------------------------------------------------------------
# Choosing a card


def _castles(state: KnatschState, seat: int) -> int:
    return len(state.cards_of(seat, CASTLE))


def _tournaments(state: KnatschState, seat: int) -> int:
    return len(state.cards_of(seat, TOURNAMENT))


def _threat(state: KnatschState, seat: int) -> float:
    """How close a seat is to winning (0 far .. 1 about to)."""
    castles, tournaments = _castles(state, seat), _tournaments(state, seat)
    if castles >= 3:
        return 1.0
    if castles >= 2 and tournaments >= 2:
        return 0.8
    return 0.3 * castles / 3


def _worth(game: KnatschGame, state: KnatschState, seat: int, card_id: str, owner: int | None) -> float:
    card = CARDS[card_id]
    castles, tournaments = _castles(state, seat), _tournaments(state, seat)
    if card.kind == CASTLE:
        if castles + 1 >= 4 or (castles + 1 >= 2 and tournaments >= 3):
            worth = WIN
        else:
            worth = 2.0 + castles  # the third castle opens the king
    elif card.kind == TOURNAMENT:
        worth = WIN if castles >= 2 and tournaments + 1 >= 3 else 0.8 + 0.4 * tournaments
    else:
        worths: dict[str | None, float] = {DIE: 1.2, CATAPULT: 0.7, CHAMPION: 0.5, STACK: 0.3, BETRAYAL: 0.9,
                                           PROTECTION: 1.0 if castles >= 2 else 0.4}
        worth = worths.get(card.ability, 0.6)
        if owner is None:
            worth += 0.5  # a special from a stack earns a further attempt
        if owner is not None:
            # Taking a special from a rival only moves it round the table (and invites taking it
            # back): with nothing else to gain, computer seats would trade one Die card forever
            # while the stacks, the game's clock, never shrink.
            worth *= 0.2
    if owner is not None:
        worth += 2.0 * _threat(state, owner) * (1.5 if card.kind == CASTLE else 0.5)
    return worth


def _on_top(state: KnatschState, card_id: str) -> bool:
    return any(s and s[0] == card_id for s in state.stacks)


def _target_chance(game: KnatschGame, state: KnatschState, seat: int, card_id: str,
                   on_stack: bool | None = None) -> float:
    """The chance to win `card_id`: off a stack when `on_stack` (by default: when it is on top)."""
    card = CARDS[card_id]
    die_cards = tuple(game.die_values(state, seat))
    if card.kind == TOURNAMENT:
        # The organiser rolls 4 times against everyone's 3: a bit better than an even share.
        return min(0.9, 1.6 / state.seats)
    combination = card.dice_to_beat.key
    if _on_top(state, card_id) if on_stack is None else on_stack:
        if card.kind == CASTLE and game.holds(state, seat, BETRAYAL) and BETRAYAL_COMBINATION.key < combination:
            combination = BETRAYAL_COMBINATION.key
        return beat_chance(combination, 3, die_cards)
    rolls = 4 if card.kind == CASTLE and game.holds(state, seat, CATAPULT) else 3
    chance = beat_chance(combination, rolls, die_cards)
    if card.kind == CASTLE:
        defender_cards = tuple(game.die_values(state, state.holder_of(card_id)))
        chance *= 1.0 - beat_chance(typical_result(combination, rolls, die_cards), 3, defender_cards)
    return chance


def _target_value(game: KnatschGame, state: KnatschState, seat: int, card_id: str, on_stack: bool) -> float:
    """What rolling for `card_id` is worth: the chance to win it times its worth."""
    owner = None if on_stack else state.owner_of(card_id)
    chance = _target_chance(game, state, seat, card_id, on_stack)
    value = chance * _worth(game, state, seat, card_id, owner)
    if CARDS[card_id].kind == TOURNAMENT:
        value -= _tournament_giveaway(game, state, seat, card_id)
    if on_stack:
        value += 0.1  # a card off a stack moves the game on; trading among players does not
        if state.bonus:
            value -= (1.0 - chance) * _failure_exposure(state, seat, card_id)
    return value


def _card_choice(game: KnatschGame, state: KnatschState, seat: int, legal: list[Action], rng: random.Random) -> Action:
    guard = _better_guard(game, state, seat, legal)
    values: dict[Action, float] = {}
    for action in legal:
        if action.verb == "target":
            values[action] = _target_value(game, state, seat, action.args[0], _on_top(state, action.args[0]))
        elif action.verb == "topple":
            die_cards = tuple(game.die_values(state, seat))
            chance = beat_chance(KING.key, 3, die_cards)
            cost = 0.0 if game.holds(state, seat, PROTECTION) else 3.0
            values[action] = chance * WIN - (1 - chance) * cost
        elif action.verb == "end":
            values[action] = 0.0
        elif action.verb != "under":
            values[action] = WIN + 1.0 if action == guard else float("-inf")  # moving back and forth helps nobody
    for action in legal:
        if action.verb == "under":
            values[action] = _look_value(game, state, seat, int(action.args[0]) - 1, values)
    scored = [(value, rng.random(), action) for action, value in values.items()]
    return max(scored, key=lambda item: (item[0], item[1]))[2]


def _look_value(game: KnatschGame, state: KnatschState, seat: int, stack: int, values: dict[Action, float]) -> float:
    """What putting the top of `stack` under is worth: the best choice it leaves, on average over
    the cards that may turn up. Those are public as a whole (every card neither in front of a
    player nor on top); their order is not read. The king can no longer be challenged after it."""
    if state.unders_used >= game.unders_allowed(state, seat):
        return 0.05  # cycling on when nothing can be rolled for: a look, nothing more
    top = state.stacks[stack][0]
    left = max((value for action, value in values.items() if action.verb in ("target", "end")
                and action.args[:1] != (top,)), default=0.0)
    owned = _likenesses_held(state, seat)
    below = _below_tops(state)
    if not below:
        return 0.05
    total = 0.0
    for card_id in below:
        fresh = (_target_value(game, state, seat, card_id, True)
                 if likeness(CARDS[card_id]) not in owned else left)
        total += max(left, fresh)
    return total / len(below)


def _likenesses_held(state: KnatschState, seat: int) -> set[Any]:
    """What the seat may not take again ("no double cards"): the likenesses of its cards."""
    return {likeness(CARDS[cid]) for cid in state.holdings[seat]} - {None}


def _below_tops(state: KnatschState) -> list[str]:
    """The cards below the stacks' tops, from public facts: every card not held and not on top."""
    seen = {cid for held in state.holdings for cid in held} | {s[0] for s in state.stacks if s}
    return [cid for cid in CARDS if cid not in seen]


def _castle_risk(card_id: str) -> float:
    """How likely a rival's attack is to beat this castle's combination."""
    return beat_chance(CARDS[card_id].dice_to_beat.key, 3)


def _special_keep_worth(card_id: str) -> float:
    card = CARDS[card_id]
    if card.ability == DIE:
        return 1.2 + 0.1 * card.die_value
    worths: dict[str | None, float] = {PROTECTION: 1.0, BETRAYAL: 0.9, CATAPULT: 0.7, CHAMPION: 0.5, STACK: 0.3}
    return worths.get(card.ability, 0.6)


def _better_guard(game: KnatschGame, state: KnatschState, seat: int, legal: list[Action]) -> Action | None:
    """The guard move that covers what is most at risk, if the guards do not cover it already."""
    moves = [a for a in legal if a.verb == "guard"]
    if not moves:
        return None
    castle_cover, special_cover = state.castle_guard[seat], state.special_guard[seat]  # public: on the table

    def castle_score(cards: Iterable[str]) -> float:
        return sum(_castle_risk(cid) for cid in cards)

    best = None
    best_gain = 1e-9  # only a strict improvement: guards never go round in circles
    for move in moves:
        covered = move.args[1].split(",")
        if CARDS[move.args[0]].ability == CASTLE_GUARD:
            gain = castle_score(covered) - castle_score(castle_cover)
        else:
            gain = _special_keep_worth(covered[0]) - (_special_keep_worth(special_cover) if special_cover else 0.0)
        if gain > best_gain:
            best, best_gain = move, gain
    return best


def _tournament_giveaway(game: KnatschGame, state: KnatschState, seat: int, card_id: str) -> float:
    """A tournament someone else wins goes to them: organising it when it would win a rival the
    game (two castles and two tournaments) hands them that chance."""
    rivals = [other for other in range(state.seats) if other != seat]
    share = (1.0 - _target_chance(game, state, seat, card_id)) / len(rivals)
    return sum(share * WIN for other in rivals if _worth(game, state, other, card_id, None) >= WIN)


def _failure_exposure(state: KnatschState, seat: int, card_id: str) -> float:
    """What a failed try at a stack card gives away: the card goes under and a fresh one turns up
    for the next seat. That costs something only when the next seat cannot use the card on top
    now, and more the closer that seat is to winning. (A further attempt is optional: when every
    try is worth less than nothing, the computer ends its turn.)"""
    following = (seat + 1) % state.seats
    theirs = _likenesses_held(state, following)
    if likeness(CARDS[card_id]) not in theirs:
        return 0.0
    return 0.25 * (1.0 + 2.0 * _threat(state, following))


def _revenge_choice(state: KnatschState, seat: int, legal: list[Action]) -> Action:
    """Give up the castle easiest for others to win, under the longer stack (it comes back later)."""
    longer = 1 if len(state.stacks[0]) >= len(state.stacks[1]) else 2
    options = [a for a in legal if a.args[1] == str(longer)] or legal
    return min(options, key=lambda a: CARDS[a.args[0]].dice_to_beat.key)
