"""The Knatsch rules engine (Knights, Michael Schacht, Abacusspiele 2000).

Action vocabulary (canonical text forms):
  topple              challenge the king (start of turn, exactly three castles)
  target C05          announce the card to roll for (a stack top or an opponent's card) and
                      make the first roll of all six dice at once (there is nothing to choose
                      between the two; likewise `topple`)
  under 1             put the top card of stack 1 (or 2) under that stack
  guard S16 C03,C11   move your castle guard onto two of your castles
  guard S19 S05       move your special-card guard onto one of your specials
  end                 end the turn instead of taking a further attempt
  roll                the first roll of all six dice for a defender or a tournament roller
                      after the organiser: the only move, so it is publicly forced and the bot
                      makes it at once (`publicly_forced`); their first tap is reroll or stop
  reroll 1,4,5        roll the dice at these 1-based positions again (never sixes)
  stop                end the rolling and score the dice as they lie
  lose C03 2          king's revenge: give up this castle, under stack 2

Decisions where the rules are silent (each also noted where it is implemented):
  * Challenging the king is the turn's attempt: afterwards the turn ends (a win, the revenge,
    or, with Protection, nothing). It is allowed only before any card went under a stack or a
    target was announced this turn; moving guards first is fine.
  * Betrayal is used only where it helps: a stack castle must beat the easier of its own
    combination and 2-2-2+4 (the card "makes capturing easier"; 1-1-1+5 stays 1-1-1+5).
  * The king's revenge ignores guards (it is not an attack).
  * Guards are placed automatically when a player gets them or a covered card leaves: on the
    castles / special held longest. The owner moves them with `guard` on their own turn, any
    time before announcing a target. A special-card guard may cover a castle guard, never itself.
  * Putting under a stack is offered only for stacks of two or more cards (otherwise it changes
    nothing). Special case: when no card can be targeted and the allowance is used, `under` is
    offered for each stack that holds a card the player may capture somewhere below its top
    (which cards lie in the stacks is public: all cards not held by a player), so cycling always
    reaches one. If no card in either stack and no opponent's card can be targeted (and the king
    cannot be challenged), the turn passes at once. If every seat passes in a row with nothing
    else happening, the game ends without a winner (stalemate).
  * A further attempt (after winning a special from a stack) is optional: `end` declines it.
    With nothing left to target it ends on its own.
  * Rolling never stops by itself while rolls are left and a non-six die remains, even after
    the target is beaten: a higher result makes a castle harder to defend.
  * Tournaments: every player must roll (no sitting out). The organiser rolls up to 4 times
    (the Champion gives nothing more); others up to 3, or 4 with the Champion.
  * Decisions outside one's own turn (`Features.reactions`): defending a castle and rolling in
    someone else's tournament. The king's revenge and everything else are the active player's.
"""
from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterable, Mapping
from functools import lru_cache
from typing import Any

from games.core import (
    Action,
    Checked,
    Event,
    Features,
    GameError,
    IllegalAction,
    InvalidState,
    Msg,
    Option,
    Outcome,
    Seat,
    SeatRef,
    SubsetChoice,
    admitted,
    chance,
    msg,
)
from games.knatsch import state as st
from games.knatsch.ai import suggest
from games.knatsch.cards import (
    ARMS,
    BETRAYAL,
    BETRAYAL_COMBINATION,
    CARD_ORDER,
    CARDS,
    CASTLE,
    CASTLE_GUARD,
    CATAPULT,
    CHAMPION,
    DIE,
    KING,
    PROTECTION,
    SPECIAL,
    SPECIAL_GUARD,
    STACK,
    TOURNAMENT,
    Card,
    card_label,
    card_name,
    likeness,
)
from games.knatsch.dice import SIX, Result, beats, dice_text, evaluate, result_msg
from games.knatsch.state import (
    CAPTURE,
    CHOOSE,
    DEFENCE,
    KING_ROLL,
    KING_TARGET,
    OVER,
    REVENGE,
    ROLL,
    TOURNAMENT_ROLL,
    KnatschState,
    Roll,
    Tournament,
)
from games.knatsch.views import build_view, describe_action
from games.search import hint, suggest_strong

NORMAL_ROLLS = 3
EXTRA_ROLLS = 4  # tournament organiser, Champion in a tournament, Catapult on an opponent's castle
LOG_SIZE = 8

REACTION_DEFENCE = "knatsch.reaction.defence"
REACTION_TOURNAMENT = "knatsch.reaction.tournament"

DiceSource = Callable[[int], list[int]]
"""Test hook: given a number of dice, the values they show. Production uses `chance`."""



def _seat(seat: int) -> SeatRef:
    return SeatRef(seat)


def _label(card_id: str) -> Msg:
    return card_label(CARDS[card_id])


class KnatschGame:
    name = "knatsch"
    title = "Knatsch (Knights)"
    min_players = 2
    max_players = 6
    options: tuple[Option, ...] = ()
    rules_summary = msg("knatsch.rules.summary")  # the catalogues hold its words
    features = Features(computer=True, strengths=("normal", "strong"), hints=True, scores=True, undo=True,
                        toggles=True, forced=True, reactions=(REACTION_DEFENCE, REACTION_TOURNAMENT))

    def __init__(self, dice_source: DiceSource | None = None) -> None:
        # Tests script the dice through `dice_source`; the game itself always uses `chance`.
        self._dice_source = dice_source

    # ------------------------------------------------------------------------------------
    # Setup

    def new_game(self, seats: int, *, seed: int, options: Mapping[str, str] | None = None) -> KnatschState:
        if isinstance(seats, bool) or not isinstance(seats, int) or not 2 <= seats <= 6:
            raise GameError(f"Knatsch takes 2 to 6 players, not {seats!r}.")
        if options:
            raise GameError(f"Knatsch has no table options (got: {', '.join(options)}).")
        state = KnatschState(seats=seats, seed=int(seed), counter=0, stacks=[[], []],
                             holdings=[[] for _ in range(seats)],
                             castle_guard=[[] for _ in range(seats)],
                             special_guard=[None] * seats, active=0)
        rng = self._next_rng(state)
        # One castle of each arms, shuffled face down; each player draws one.
        starting = [rng.choice([c.id for c in CARDS.values() if c.arms == arms]) for arms in ARMS]
        rng.shuffle(starting)
        for seat in range(seats):
            state.holdings[seat].append(starting[seat])
        dealt = set(starting[:seats])
        rest = [cid for cid in CARDS if cid not in dealt]
        rng.shuffle(rest)
        half = (len(rest) + 1) // 2
        state.stacks = [rest[:half], rest[half:]]
        state.log = [msg("knatsch.event.start", player=SeatRef(0)).to_json()]
        return state

    # ------------------------------------------------------------------------------------
    # Who acts, and what they may do

    def to_act(self, state: KnatschState) -> frozenset[Seat]:
        if state.phase == OVER:
            return frozenset()
        if state.phase == ROLL:
            return frozenset({state.rolling.roller})
        return frozenset({state.active})

    def legal_actions(self, state: KnatschState, seat: Seat) -> list[Action]:
        if seat not in self.to_act(state):
            return []
        if state.phase == ROLL:
            return self._roll_actions(state.rolling)
        if state.phase == REVENGE:
            return [Action("lose", (cid, str(number)))
                    for cid in _by_id(state.cards_of(seat, CASTLE)) for number in (1, 2)]
        return self._choose_actions(state, seat)


    def publicly_forced(self, state: KnatschState, seat: Seat) -> Action | None:
        """The only move, when there is one: nothing a move depends on is secret in Knatsch (the
        order below a stack's top decides no move; which cards lie in the stacks is public). Most
        often the first roll of a defender or a later tournament roller: all six dice."""
        legal = self.legal_actions(state, seat)
        return legal[0] if len(legal) == 1 else None

    def reaction_kind(self, state: KnatschState, seat: Seat) -> str | None:
        """A defence or a roll in someone else's tournament; None on the seat's own turn."""
        if state.phase != ROLL or seat not in self.to_act(state) or seat == state.active:
            return None
        return {DEFENCE: REACTION_DEFENCE, TOURNAMENT_ROLL: REACTION_TOURNAMENT}.get(state.rolling.purpose)

    def _roll_actions(self, roll: Roll) -> list[Action]:
        if roll.rolls_used == 0:
            return [Action("roll")]
        return list(_reroll_actions(tuple(i + 1 for i, die in enumerate(roll.dice) if die != SIX)))

    def subset_choices(self, state: KnatschState, seat: Seat) -> list[SubsetChoice]:
        """The rerolls as one family: the bot shows a toggle per die and a "Roll again" button."""
        if seat not in self.to_act(state) or state.phase != ROLL or state.rolling.rolls_used == 0:
            return []
        items = tuple((str(i + 1), str(die)) for i, die in enumerate(state.rolling.dice) if die != SIX)
        if not items:
            return []
        return [SubsetChoice("reroll", items, prompt=msg("knatsch.label.toggle_prompt"),
                             confirm=msg("knatsch.label.toggle_confirm"))]

    def _choose_actions(self, state: KnatschState, seat: int) -> list[Action]:
        actions: list[Action] = []
        if self.may_topple(state):
            actions.append(Action("topple"))
        targets = self._targets(state, seat)
        actions += [Action("target", (cid,)) for cid in targets]
        actions += [Action("under", (str(i + 1),)) for i in self._under_stacks(state, seat, targets)]
        actions += self._guard_actions(state, seat)
        if state.bonus:
            actions.append(Action("end"))
        return actions

    def may_topple(self, state: KnatschState) -> bool:
        # "Three castles at the start of the turn": before anything else happened this turn.
        return state.fresh and len(state.cards_of(state.active, CASTLE)) == 3

    def _targets(self, state: KnatschState, seat: int) -> list[str]:
        owned = self._likenesses(state, seat)
        targets = [stack[0] for stack in state.stacks
                   if stack and likeness(CARDS[stack[0]]) not in owned]
        for offset in range(1, state.seats):
            owner = (seat + offset) % state.seats
            targets += [cid for cid in state.holdings[owner]
                        if self._may_attack(state, owner, CARDS[cid], owned)]
        return targets

    def _may_attack(self, state: KnatschState, owner: int, card: Card, owned: set[Any]) -> bool:
        if card.kind == TOURNAMENT or likeness(card) in owned:
            return False
        if card.kind == CASTLE:
            castles = len(state.cards_of(owner, CASTLE))
            if castles < (3 if state.seats == 2 else 2):
                return False
            return not (self.holds(state, owner, CASTLE_GUARD) and card.id in state.castle_guard[owner])
        return not (self.holds(state, owner, SPECIAL_GUARD) and state.special_guard[owner] == card.id)

    def unders_allowed(self, state: KnatschState, seat: int) -> int:
        return 2 if self.holds(state, seat, STACK) else 1

    def _under_stacks(self, state: KnatschState, seat: int, targets: list[str]) -> list[int]:
        movable = [i for i, stack in enumerate(state.stacks) if len(stack) >= 2]
        if state.unders_used < self.unders_allowed(state, seat):
            return movable
        if targets:
            return []
        # Special case: keep cycling, but only where cycling can reach a card (see module doc).
        owned = self._likenesses(state, seat)
        return [i for i in movable
                if any(likeness(CARDS[cid]) not in owned for cid in state.stacks[i][1:])]

    def _guard_actions(self, state: KnatschState, seat: int) -> list[Action]:
        actions: list[Action] = []
        castle_guard = self.card_with(state, seat, CASTLE_GUARD)
        castles = _by_id(state.cards_of(seat, CASTLE))
        if castle_guard and castles:
            current = set(state.castle_guard[seat])
            for pair in itertools.combinations(castles, min(2, len(castles))):
                if set(pair) != current:
                    actions.append(Action("guard", (castle_guard, ",".join(pair))))
        special_guard = self.card_with(state, seat, SPECIAL_GUARD)
        if special_guard:
            for cid in _by_id(state.cards_of(seat, SPECIAL)):
                if cid not in (special_guard, state.special_guard[seat]):
                    actions.append(Action("guard", (special_guard, cid)))
        return actions

    def _can_progress(self, state: KnatschState) -> bool:
        seat = state.active
        if self.may_topple(state):
            return True
        targets = self._targets(state, seat)
        return bool(targets or self._under_stacks(state, seat, targets))

    # ------------------------------------------------------------------------------------
    # Applying actions

    def apply(self, state: KnatschState, seat: Seat,
              action: Action | Checked | str) -> tuple[KnatschState, list[Event]]:
        if isinstance(action, str):
            action = Action.parse(action)
        action = admitted(self, state, seat, action, _canonical)
        new = state.clone()
        events: list[Event] = []
        handler = getattr(self, f"_do_{action.verb}")
        handler(new, seat, action.args, events)
        self._settle(new, events)
        new.log = (new.log + [e.text.to_json() for e in events if e.seat is None])[-LOG_SIZE:]
        return new, events

    def _do_topple(self, state: KnatschState, seat: Seat, args: tuple[str, ...], events: list[Event]) -> None:
        state.fresh = False
        state.passes = 0
        state.phase = ROLL
        state.roll = Roll(KING_ROLL, seat, KING_TARGET, None, None, NORMAL_ROLLS, list(KING.key))
        events.append(Event(msg("knatsch.event.topple", player=_seat(seat), combination=KING.text), kind="announce"))
        self._do_roll(state, seat, (), events)  # one tap: nothing to choose between announcing and rolling

    def _do_under(self, state: KnatschState, seat: Seat, args: tuple[str, ...], events: list[Event]) -> None:
        index = int(args[0]) - 1
        special_case = state.unders_used >= self.unders_allowed(state, seat)
        stack = state.stacks[index]
        card = stack.pop(0)
        stack.append(card)
        state.unders_used += 1
        state.fresh = False
        key = "knatsch.event.under_forced" if special_case else "knatsch.event.under"
        events.append(Event(msg(key, player=_seat(seat), card=_label(card), stack=index + 1,
                                top=_label(stack[0])), kind="stack"))

    def _do_guard(self, state: KnatschState, seat: Seat, args: tuple[str, ...], events: list[Event]) -> None:
        guard_id, covered = args[0], args[1].split(",")
        if CARDS[guard_id].ability == CASTLE_GUARD:
            state.castle_guard[seat] = covered
        else:
            state.special_guard[seat] = covered[0]
        state.passes = 0
        events.append(Event(msg("knatsch.event.guard", player=_seat(seat), guard=card_name(CARDS[guard_id]),
                                cards=[_label(cid) for cid in covered]), kind="guard"))

    def _do_end(self, state: KnatschState, seat: Seat, args: tuple[str, ...], events: list[Event]) -> None:
        events.append(Event(msg("knatsch.event.end", player=_seat(seat)), kind="turn"))
        self._end_turn(state)

    def _do_target(self, state: KnatschState, seat: Seat, args: tuple[str, ...], events: list[Event]) -> None:
        card = CARDS[args[0]]
        state.fresh = False
        state.passes = 0
        state.phase = ROLL
        stack_index = next((i for i, s in enumerate(state.stacks) if s and s[0] == card.id), None)
        who = _seat(seat)
        if stack_index is not None:
            if card.kind == TOURNAMENT:
                order = [(seat + k) % state.seats for k in range(state.seats)]
                state.tournament = Tournament(card.id, stack_index, order)
                state.roll = Roll(TOURNAMENT_ROLL, seat, card.id, stack_index, None, EXTRA_ROLLS, None)
                events.append(Event(msg("knatsch.event.organise", player=who, stack=stack_index + 1,
                                        count=EXTRA_ROLLS), kind="announce"))
                self._do_roll(state, seat, (), events)
                return
            combination = card.dice_to_beat
            text = msg("knatsch.event.target_stack", player=who, card=card_label(card), stack=stack_index + 1)
            # Betrayal only where it helps (see the module doc).
            if card.kind == CASTLE and self.holds(state, seat, BETRAYAL) and BETRAYAL_COMBINATION.key < combination.key:
                combination = BETRAYAL_COMBINATION
                text = msg("knatsch.event.target_betrayal", player=who, card=card_label(card),
                           stack=stack_index + 1, combination=combination.text)
            state.roll = Roll(CAPTURE, seat, card.id, stack_index, None, NORMAL_ROLLS, list(combination.key))
            events.append(Event(text, kind="announce"))
            self._do_roll(state, seat, (), events)
            return
        owner = state.holder_of(card.id)
        rolls = NORMAL_ROLLS
        key = "knatsch.event.attack" if card.kind == CASTLE else "knatsch.event.target_owned"
        if card.kind == CASTLE and self.holds(state, seat, CATAPULT):
            rolls, key = EXTRA_ROLLS, "knatsch.event.attack_catapult"
        state.roll = Roll(CAPTURE, seat, card.id, None, owner, rolls, list(card.dice_to_beat.key))
        events.append(Event(msg(key, player=who, owner=_seat(owner), card=card_label(card), count=rolls),
                            kind="announce"))
        self._do_roll(state, seat, (), events)

    def _do_roll(self, state: KnatschState, seat: Seat, args: tuple[str, ...], events: list[Event]) -> None:
        roll = state.rolling
        roll.dice = self._roll_dice(state, len(roll.dice))
        roll.rerolled = [True] * len(roll.dice)
        roll.rolls_used = 1
        self._after_roll(state, events)

    def _do_reroll(self, state: KnatschState, seat: Seat, args: tuple[str, ...], events: list[Event]) -> None:
        roll = state.rolling
        positions = [int(p) for p in args[0].split(",")]
        for position, value in zip(positions, self._roll_dice(state, len(positions))):
            roll.dice[position - 1] = value
        roll.rerolled = [i + 1 in positions for i in range(len(roll.dice))]
        roll.rolls_used += 1
        self._after_roll(state, events)

    def _do_stop(self, state: KnatschState, seat: Seat, args: tuple[str, ...], events: list[Event]) -> None:
        self._finish_roll(state, events)

    def _do_lose(self, state: KnatschState, seat: Seat, args: tuple[str, ...], events: list[Event]) -> None:
        # Guards do not help here: the revenge is not an attack.
        castle, index = args[0], int(args[1]) - 1
        state.holdings[seat].remove(castle)
        state.stacks[index].append(castle)
        self._place_guards(state, seat)
        events.append(Event(msg("knatsch.event.revenge", player=_seat(seat), card=_label(castle),
                                stack=index + 1), kind="revenge"))
        self._end_turn(state)

    # ------------------------------------------------------------------------------------
    # Dice

    def _roll_dice(self, state: KnatschState, count: int) -> list[int]:
        rng = self._next_rng(state)
        if self._dice_source is not None:
            return list(self._dice_source(count))
        return [rng.randint(1, 6) for _ in range(count)]

    @staticmethod
    def _next_rng(state: KnatschState) -> random.Random:
        rng = chance(state.seed, state.counter)
        state.counter += 1
        return rng

    def roll_result(self, state: KnatschState, roll: Roll) -> tuple[int, int, int]:
        return evaluate(roll.dice, self.die_values(state, roll.roller))

    def _after_roll(self, state: KnatschState, events: list[Event]) -> None:
        roll = state.rolling
        dice_cards = self.die_values(state, roll.roller)
        common = dict(player=_seat(roll.roller), dice=dice_text(roll.dice), used=roll.rolls_used,
                      allowed=roll.rolls_allowed, result=result_msg(self.roll_result(state, roll)))
        if dice_cards:
            text = msg("knatsch.event.rolled_cards", cards=", ".join(map(str, dice_cards)),
                       count=len(dice_cards), **common)
        else:
            text = msg("knatsch.event.rolled", **common)
        events.append(Event(text, kind="roll"))
        if roll.rolls_used >= roll.rolls_allowed or all(d == SIX for d in roll.dice):
            self._finish_roll(state, events)

    def _finish_roll(self, state: KnatschState, events: list[Event]) -> None:
        roll = state.rolling
        result = self.roll_result(state, roll)
        {KING_ROLL: self._finish_king, CAPTURE: self._finish_capture, DEFENCE: self._finish_defence,
         TOURNAMENT_ROLL: self._finish_tournament_roll}[roll.purpose](state, roll, result, events)

    def _finish_king(self, state: KnatschState, roll: Roll, result: Result, events: list[Event]) -> None:
        seat = roll.roller
        state.roll = None
        if beats(result, KING.key):
            events.append(Event(msg("knatsch.event.toppled", player=_seat(seat), result=result_msg(result)),
                                kind="win"))
            self._declare_winner(state, seat, st.KING_TOPPLED)
        elif self.holds(state, seat, PROTECTION):
            events.append(Event(msg("knatsch.event.king_protected", player=_seat(seat),
                                    result=result_msg(result)), kind="fail"))
            self._end_turn(state)
        else:
            events.append(Event(msg("knatsch.event.king_failed", player=_seat(seat), result=result_msg(result)),
                                kind="fail"))
            state.phase = REVENGE

    def _finish_capture(self, state: KnatschState, roll: Roll, result: Result, events: list[Event]) -> None:
        seat, card = roll.roller, CARDS[roll.target]
        success = beats(result, roll.to_beat)
        text = result_msg(result)
        label = card_label(card)
        if roll.from_stack is not None:
            stack = state.stacks[roll.from_stack]
            if not success:
                stack.append(stack.pop(0))
                events.append(Event(msg("knatsch.event.fail_stack", player=_seat(seat), result=text, card=label,
                                        stack=roll.from_stack + 1), kind="fail"))
                self._end_turn(state)
                return
            stack.pop(0)
            self._gain(state, seat, card.id)
            if stack:
                taken = msg("knatsch.event.take_stack", player=_seat(seat), card=label, result=text,
                            top=_label(stack[0]))
            else:
                taken = msg("knatsch.event.take_stack_empty", player=_seat(seat), card=label, result=text)
            events.append(Event(taken, kind="capture"))
            if self._check_win(state, seat, events):
                return
            if card.kind == SPECIAL:
                # A special from a stack earns a further attempt, usable at once.
                state.phase, state.roll, state.bonus = CHOOSE, None, True
                events.append(Event(msg("knatsch.event.further", player=_seat(seat)), kind="turn"))
            else:
                self._end_turn(state)
            return
        owner = roll.opponent
        if not success:
            events.append(Event(msg("knatsch.event.fail_owned", player=_seat(seat), result=text, owner=_seat(owner),
                                    card=label), kind="fail"))
            self._end_turn(state)
        elif card.kind == CASTLE:
            state.roll = Roll(DEFENCE, owner, card.id, None, owner, NORMAL_ROLLS, list(result))
            events.append(Event(msg("knatsch.event.beaten", player=_seat(seat), card=label, result=text,
                                    owner=_seat(owner)), kind="attack"))
        else:
            self._transfer(state, card.id, owner, seat)
            events.append(Event(msg("knatsch.event.take_owned", player=_seat(seat), card=label, owner=_seat(owner),
                                    result=text), kind="capture"))
            if not self._check_win(state, seat, events):
                self._end_turn(state)

    def _finish_defence(self, state: KnatschState, roll: Roll, result: Result, events: list[Event]) -> None:
        defender, attacker, card = roll.roller, state.active, CARDS[roll.target]
        if beats(result, roll.to_beat):
            events.append(Event(msg("knatsch.event.defended", player=_seat(defender), card=card_label(card),
                                    result=result_msg(result)), kind="defence"))
        else:
            self._transfer(state, card.id, defender, attacker)
            events.append(Event(msg("knatsch.event.defence_failed", player=_seat(defender),
                                    result=result_msg(result), attacker=_seat(attacker), card=card_label(card)),
                                kind="capture"))
            if self._check_win(state, attacker, events):
                return
        self._end_turn(state)

    def _finish_tournament_roll(self, state: KnatschState, roll: Roll, result: Result, events: list[Event]) -> None:
        tournament = state.running_tournament
        tournament.results.append(list(result))
        who, text = _seat(roll.roller), result_msg(result)
        if beats(result, roll.to_beat):
            tournament.leader = roll.roller
            events.append(Event(msg("knatsch.event.leads", player=who, result=text), kind="tournament"))
        else:
            events.append(Event(msg("knatsch.event.not_enough", player=who, result=text,
                                    leader=_seat(tournament.leading), best=result_msg(_beaten_mark(roll))),
                                kind="tournament"))
        if len(tournament.results) < len(tournament.order):
            # Everyone rolls in turn (no sitting out); only the Champion earns a fourth roll.
            following = tournament.order[len(tournament.results)]
            rolls = EXTRA_ROLLS if self.holds(state, following, CHAMPION) else NORMAL_ROLLS
            best = tournament.results[tournament.order.index(tournament.leading)]
            state.roll = Roll(TOURNAMENT_ROLL, following, tournament.card, tournament.stack, None,
                              rolls, list(best))
            return
        winner = tournament.leading
        stack = state.stacks[tournament.stack]
        stack.pop(0)
        self._gain(state, winner, tournament.card)
        events.append(Event(msg("knatsch.event.tournament_won", player=_seat(winner)), kind="capture"))
        state.tournament = None
        if not self._check_win(state, winner, events):
            self._end_turn(state)

    # ------------------------------------------------------------------------------------
    # Cards changing hands, guards, winning, turns

    def _gain(self, state: KnatschState, seat: int, card_id: str) -> None:
        state.holdings[seat].append(card_id)
        self._place_guards(state, seat)

    def _transfer(self, state: KnatschState, card_id: str, loser: int, gainer: int) -> None:
        state.holdings[loser].remove(card_id)
        self._place_guards(state, loser)
        self._gain(state, gainer, card_id)

    def _place_guards(self, state: KnatschState, seat: int) -> None:
        """Keep guard assignments valid; fill empty places with the cards held longest.

        A covered card can leave only on its owner's turn (king's revenge) or with the guard
        itself, so this refills only when the owner could have done so themselves."""
        held = state.holdings[seat]
        if self.holds(state, seat, CASTLE_GUARD):
            castles = [cid for cid in held if CARDS[cid].kind == CASTLE]
            covered = [cid for cid in state.castle_guard[seat] if cid in castles]
            for cid in castles:
                if len(covered) >= 2:
                    break
                if cid not in covered:
                    covered.append(cid)
            state.castle_guard[seat] = _by_id(covered)
        else:
            state.castle_guard[seat] = []
        guard = self.card_with(state, seat, SPECIAL_GUARD)
        if guard is None:
            state.special_guard[seat] = None
        elif state.special_guard[seat] not in held:
            others = [cid for cid in held if CARDS[cid].kind == SPECIAL and cid != guard]
            state.special_guard[seat] = others[0] if others else None

    def _check_win(self, state: KnatschState, seat: int, events: list[Event]) -> bool:
        castles = len(state.cards_of(seat, CASTLE))
        tournaments = len(state.cards_of(seat, TOURNAMENT))
        if castles >= 4:
            kind = st.FOUR_CASTLES
        elif castles >= 2 and tournaments >= 3:
            kind = st.CASTLES_AND_TOURNAMENTS
        else:
            return False
        if kind == st.CASTLES_AND_TOURNAMENTS:  # what the player holds, which may be more than needed
            text = msg("knatsch.event.win_castles_and_tournaments", player=_seat(seat),
                       castles=msg("knatsch.score", count=castles), count=tournaments)
        else:
            text = msg(f"knatsch.event.win_{kind}", player=_seat(seat))
        events.append(Event(text, kind="win"))
        self._declare_winner(state, seat, kind)
        return True

    @staticmethod
    def _declare_winner(state: KnatschState, seat: int | None, kind: str) -> None:
        state.phase, state.roll, state.tournament = OVER, None, None
        state.winners = [] if seat is None else [seat]
        state.win_kind = kind

    @staticmethod
    def _end_turn(state: KnatschState) -> None:
        state.phase, state.roll, state.tournament = CHOOSE, None, None
        state.active = (state.active + 1) % state.seats
        state.unders_used, state.bonus, state.fresh = 0, False, True

    def _settle(self, state: KnatschState, events: list[Event]) -> None:
        """Pass turns that cannot do anything (see the special case in the module doc)."""
        while state.phase == CHOOSE and not self._can_progress(state):
            seat = _seat(state.active)
            if state.bonus:
                events.append(Event(msg("knatsch.event.no_further", player=seat), kind="turn"))
                self._end_turn(state)
                continue
            state.passes += 1
            events.append(Event(msg("knatsch.event.pass", player=seat), kind="turn"))
            if state.passes >= state.seats:
                events.append(Event(msg("knatsch.event.stalemate"), kind="win"))
                self._declare_winner(state, None, st.STALEMATE)
                return
            self._end_turn(state)

    # ------------------------------------------------------------------------------------
    # Small queries (public: the views and the computer player read them too)

    @staticmethod
    def card_with(state: KnatschState, seat: int, ability: str) -> str | None:
        return next((cid for cid in state.holdings[seat] if CARDS[cid].ability == ability), None)

    def holds(self, state: KnatschState, seat: int, ability: str) -> bool:
        return self.card_with(state, seat, ability) is not None

    @staticmethod
    def die_values(state: KnatschState, seat: int) -> list[int]:
        return sorted(CARDS[cid].die_value for cid in state.holdings[seat] if CARDS[cid].ability == DIE)

    @staticmethod
    def _likenesses(state: KnatschState, seat: int) -> set[Any]:
        return {likeness(CARDS[cid]) for cid in state.holdings[seat]} - {None}

    # ------------------------------------------------------------------------------------
    # Labels, views, outcome

    def describe(self, state: KnatschState, seat: Seat, action: Action) -> Msg:
        return describe_action(self, state, seat, _canonical(action))

    def suggest(self, state: KnatschState, seat: int, rng: random.Random, *, strength: str = "normal",
                clock: Callable[[], float] | None = None) -> Action:
        """The computer player (see `ai.py`): a legal action from public information only."""
        if strength == "strong":  # a search over the normal player (games.search)
            return suggest_strong(self, state, seat, rng, clock=clock)
        return suggest(self, state, seat, rng)

    def scores(self, state: KnatschState) -> list[int]:
        """Castles held: what the final score counts (public)."""
        return [len(state.cards_of(seat, CASTLE)) for seat in range(state.seats)]

    def hint(self, state: KnatschState, seat: int, rng: random.Random, *,
             clock: Callable[[], float] | None = None) -> tuple[Action, Msg]:
        """The strong player's move for `seat` and why, from the seat's view only."""
        return hint(self, state, seat, rng, clock=clock)

    def view(self, state: KnatschState, seat: Seat | None) -> dict[str, Any]:
        return build_view(self, state, seat)

    def outcome(self, state: KnatschState) -> Outcome | None:
        if state.phase != OVER:
            return None
        castles = tuple(len(state.cards_of(s, CASTLE)) for s in range(state.seats))
        tournaments = [len(state.cards_of(s, TOURNAMENT)) for s in range(state.seats)]
        if state.win_kind == st.STALEMATE:
            reason = msg("knatsch.reason.stalemate")
        elif state.win_kind == st.CASTLES_AND_TOURNAMENTS:
            # The counts held (two castles and four tournaments, say), as the board's cards show them.
            winner = state.winners[0]
            reason = msg("knatsch.reason.castles_and_tournaments", player=_seat(winner),
                         castles=msg("knatsch.score", count=castles[winner]), count=tournaments[winner])
        else:
            reason = msg(f"knatsch.reason.{state.win_kind}", player=_seat(state.winners[0]))
        return Outcome(winners=tuple(state.winners), scores=castles, reason=reason,
                       details={"kind": state.win_kind, "castles": list(castles),
                                "tournaments": tournaments})

    # ------------------------------------------------------------------------------------
    # Storage and hidden information

    def to_dict(self, state: KnatschState) -> dict[str, Any]:
        return st.to_dict(state)

    def from_dict(self, data: Mapping[str, Any]) -> KnatschState:
        return st.from_dict(data)

    def exposure(self, state: KnatschState) -> tuple[Any, ...]:
        """What grows or changes only when chance is drawn or something hidden comes to light:
        the dice counter, and each stack's size and face-up top (a new top card is a reveal)."""
        return (state.counter, tuple(len(stack) for stack in state.stacks),
                tuple(stack[0] if stack else None for stack in state.stacks))

    def hidden_variant(self, state: KnatschState, owner: Seat | None, rng: random.Random) -> KnatschState:
        variant = state.clone()
        if owner is None:
            # Only the order of each stack below its face-up top is hidden, from everyone.
            for stack in variant.stacks:
                below = stack[1:]
                rng.shuffle(below)
                stack[1:] = below
        return variant


def _beaten_mark(roll: Roll) -> list[int]:
    """What a roll that failed had to beat: a failure means there was something to beat."""
    if roll.to_beat is None:
        raise InvalidState("Knatsch roll with nothing to beat cannot fail")
    return roll.to_beat


@lru_cache(maxsize=64)
def _reroll_actions(free: tuple[int, ...]) -> tuple[Action, ...]:
    """Every subset of the non-six dice, smallest first, then `stop` (at most 64 actions)."""
    subsets = [subset for size in range(1, len(free) + 1)
               for subset in itertools.combinations(free, size)]
    return tuple(Action("reroll", (",".join(map(str, s)),)) for s in subsets) + (Action("stop"),)


def _by_id(card_ids: Iterable[str]) -> list[str]:
    return sorted(card_ids, key=CARD_ORDER.__getitem__)


def _canonical(action: object) -> Action:
    """The one text form of an action the player may have typed loosely ("reroll 5,1")."""
    if not isinstance(action, Action):
        raise IllegalAction("That is not a move.")
    try:
        return _kept_canonical(action)
    except TypeError:  # arguments that are no tuple of texts: not kept
        return _canonical_form(action)


@lru_cache(maxsize=1024)
def _kept_canonical(action: Action) -> Action:
    """`_canonical_form`, kept: the bot describes every legal move several times a move."""
    return _canonical_form(action)


def _canonical_form(action: Action) -> Action:
    args = tuple(a.upper() for a in action.args) if action.verb in ("target", "guard", "lose") else action.args
    if action.verb == "reroll" and args:
        try:
            positions = sorted({int(p) for p in ",".join(args).split(",") if p})
        except ValueError:
            return action
        return Action("reroll", (",".join(map(str, positions)),))
    if action.verb == "guard" and len(args) == 2:
        ids = args[1].split(",")
        if all(cid in CARD_ORDER for cid in ids):
            args = (args[0], ",".join(_by_id(ids)))
    return Action(action.verb, args)
