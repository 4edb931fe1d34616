"""What players see: the JSON view, the status line and the labels of actions.

Nothing here is secret except the order of the stacks below their top cards, and that never
appears: a view holds stack sizes and top cards only.
"""
from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any

from games.core import Action, InvalidState, Msg, SeatRef, msg
from games.knatsch.cards import (
    CARDS,
    CASTLE,
    CASTLE_GUARD,
    KING,
    SPECIAL,
    SPECIAL_GUARD,
    TOURNAMENT,
    card_json,
    card_label,
    card_name,
)
from games.knatsch.dice import SIX, Result, beats, dice_text, result_msg
from games.knatsch.state import (
    CAPTURE,
    CHOOSE,
    DEFENCE,
    KING_ROLL,
    KING_TARGET,
    REVENGE,
    TOURNAMENT_ROLL,
    KnatschState,
    Roll,
)

if TYPE_CHECKING:
    from games.knatsch.engine import KnatschGame

KING_NAME = msg("knatsch.card.king")
KING_LABEL = msg("knatsch.card.label", name=KING_NAME, combination=KING.text)
KING_CARD = {"id": KING_TARGET, "kind": "king", "name": KING_NAME.to_json(), "label": KING_LABEL.to_json(),
             "combination": {"count": KING.count, "red": KING.value, "yellow": KING.extra,
                             "text": KING.text},
             "arms": None, "ability": None, "value": None}


def _result_fields(result: Result | list[int]) -> dict[str, Any]:
    return {"result": list(result), "text": result_msg(result).to_json()}


def _result_json(result: Result | list[int] | None) -> dict[str, Any] | None:
    return None if result is None else _result_fields(result)


def build_view(game: KnatschGame, state: KnatschState, viewer: int | None) -> dict[str, Any]:
    outcome = game.outcome(state)
    return {
        "game": game.name,
        "seats": state.seats,
        "viewer": viewer,
        "to_act": sorted(game.to_act(state)),
        "status": status_line(game, state).to_json(),
        "over": outcome is not None,
        "phase": state.phase,
        "active": state.active,
        "stacks": [{"number": i + 1, "size": len(stack),
                    "top": card_json(CARDS[stack[0]]) if stack else None}
                   for i, stack in enumerate(state.stacks)],
        "king": KING_CARD,
        "players": [_player_json(game, state, seat) for seat in range(state.seats)],
        "turn": {
            "seat": state.active,
            "unders_used": state.unders_used,
            "unders_allowed": game.unders_allowed(state, state.active),
            "further_attempt": state.bonus,
            "may_topple": state.phase == CHOOSE and game.may_topple(state),
        },
        "roll": _roll_json(game, state, state.roll) if state.roll else None,
        "tournament": _tournament_json(state),
        "log": list(state.log),
        "outcome": None if outcome is None else {
            "winners": list(outcome.winners), "scores": list(outcome.scores),
            "reason": outcome.reason.to_json(), "kind": state.win_kind,
        },
    }


def _player_json(game: KnatschGame, state: KnatschState, seat: int) -> dict[str, Any]:
    castles = len(state.cards_of(seat, CASTLE))
    tournaments = len(state.cards_of(seat, TOURNAMENT))
    castle_guard = game.card_with(state, seat, CASTLE_GUARD)
    special_guard = game.card_with(state, seat, SPECIAL_GUARD)
    guarded_by = {cid: castle_guard for cid in state.castle_guard[seat]}
    guarded_special = state.special_guard[seat]
    if special_guard and guarded_special:
        guarded_by[guarded_special] = special_guard
    cards = []
    for cid in state.holdings[seat]:
        entry = card_json(CARDS[cid])
        entry["guarded_by"] = guarded_by.get(cid)
        cards.append(entry)
    return {
        "seat": seat,
        "cards": cards,
        "castles": castles,
        "tournaments": tournaments,
        "specials": len(state.cards_of(seat, SPECIAL)),
        "die_cards": game.die_values(state, seat),
        "castle_guard": None if castle_guard is None else
        {"card": castle_guard, "covers": list(state.castle_guard[seat])},
        "special_guard": None if special_guard is None else
        {"card": special_guard, "covers": state.special_guard[seat]},
        "goals": {
            "four_castles": {"castles": castles, "need": 4, "met": castles >= 4},
            "king": {"castles": castles, "need": 3, "ready": castles == 3},
            "castles_and_tournaments": {"castles": castles, "tournaments": tournaments,
                                        "need": [2, 3], "met": castles >= 2 and tournaments >= 3},
        },
    }


def _roll_json(game: KnatschGame, state: KnatschState, roll: Roll) -> dict[str, Any]:
    rolled = roll.rolls_used > 0
    target = KING_CARD if roll.target == KING_TARGET else card_json(CARDS[roll.target])
    to_beat = None
    if roll.to_beat is not None:
        against = {CAPTURE: "card", KING_ROLL: "king", DEFENCE: "attacker",
                   TOURNAMENT_ROLL: "leader"}[roll.purpose]
        holder = {"attacker": state.active,
                  "leader": state.tournament.leader if state.tournament else None}.get(against)
        to_beat = {**_result_fields(roll.to_beat), "against": against, "seat": holder}
    best = game.roll_result(state, roll) if rolled else None
    return {
        "purpose": roll.purpose,
        "roller": roll.roller,
        "target": target,
        "from_stack": None if roll.from_stack is None else roll.from_stack + 1,
        "owner": roll.owner,
        "dice": [{"position": i + 1, "value": value or None, "locked": value == SIX,
                  "kept": rolled and roll.rolls_used > 1 and not roll.rerolled[i] and value != SIX}
                 for i, value in enumerate(roll.dice)],
        "die_cards": game.die_values(state, roll.roller),
        "rolls_used": roll.rolls_used,
        "rolls_allowed": roll.rolls_allowed,
        "best": _result_json(best),
        "to_beat": to_beat,
        "beating": best is not None and (roll.to_beat is None or tuple(best) > tuple(roll.to_beat)),
    }


def _tournament_json(state: KnatschState) -> dict[str, Any] | None:
    tournament = state.tournament
    if tournament is None:
        return None
    standings = [{"seat": seat, **_result_fields(result), "leader": seat == tournament.leader}
                 for seat, result in zip(tournament.order, tournament.results)]
    leader_result = None
    if tournament.leader is not None:
        leader_result = tournament.results[tournament.order.index(tournament.leader)]
    return {
        "card": card_json(CARDS[tournament.card]),
        "stack": tournament.stack + 1,
        "organiser": tournament.order[0],
        "order": list(tournament.order),
        "standings": standings,
        "leader": tournament.leader,
        "best": _result_json(leader_result),
        "waiting": tournament.order[len(tournament.results):],
    }


def _progress(roll: Roll) -> Msg:
    if roll.rolls_used == 0:
        return msg("knatsch.progress.start", count=roll.rolls_allowed)
    return msg("knatsch.progress.roll", used=roll.rolls_used, allowed=roll.rolls_allowed)


def _target_label(roll: Roll) -> Msg:
    return KING_LABEL if roll.target == KING_TARGET else card_label(CARDS[roll.target])


def status_line(game: KnatschGame, state: KnatschState) -> Msg:
    """One line on what happens now; it adds to the events (what to beat, how far the rolls
    are) rather than repeating them."""
    outcome = game.outcome(state)
    if outcome is not None:  # the phase is OVER
        return msg("knatsch.status.over", reason=outcome.reason)
    active = SeatRef(state.active)
    if state.phase == REVENGE:
        return msg("knatsch.status.revenge", player=active)
    if state.phase == CHOOSE:
        if state.bonus:
            return msg("knatsch.status.further", player=active)
        return msg("knatsch.status.choose", player=active)
    roll = state.rolling
    roller = SeatRef(roll.roller)
    progress = _progress(roll)
    if roll.purpose == KING_ROLL:
        return msg("knatsch.status.king", player=roller, progress=progress)
    label = _target_label(roll)
    if roll.purpose == DEFENCE:
        return msg("knatsch.status.defence", player=roller, card=label, attacker=active,
                   result=result_msg(_to_beat(roll)), progress=progress)
    if roll.purpose == TOURNAMENT_ROLL:
        if roll.to_beat is None:
            return msg("knatsch.status.organiser", player=roller, progress=progress)
        return msg("knatsch.status.tournament", player=roller, leader=SeatRef(state.running_tournament.leading),
                   result=result_msg(roll.to_beat), progress=progress)
    return msg("knatsch.status.capture", player=roller, card=label, progress=progress,
               target=result_msg(_to_beat(roll)))


def _to_beat(roll: Roll) -> list[int]:
    """What a capture or a defence must beat: only a tournament's first roll has nothing to beat."""
    if roll.to_beat is None:
        raise InvalidState(f"Knatsch {roll.purpose} roll at {roll.target} has nothing to beat")
    return roll.to_beat


def _verdict(game: KnatschGame, state: KnatschState) -> Msg:
    """Whether stopping now wins: "wins" / "defends" / "leads" / "fails"."""
    roll = state.rolling
    result = game.roll_result(state, roll)
    good = beats(result, roll.to_beat)
    kind = {CAPTURE: "capture", KING_ROLL: "king", DEFENCE: "defence", TOURNAMENT_ROLL: "tournament"}[roll.purpose]
    return msg(f"knatsch.verdict.{kind}_{'yes' if good else 'no'}")


def describe_action(game: KnatschGame, state: KnatschState, seat: int, action: Action) -> Msg:
    verb, args = action.verb, action.args
    try:
        if verb == "topple":
            return msg("knatsch.label.topple", combination=KING.text)
        if verb == "target":
            card = CARDS[args[0]]
            stack = next((i for i, s in enumerate(state.stacks) if s and s[0] == card.id), None)
            if stack is not None:
                if card.kind == TOURNAMENT:
                    return msg("knatsch.label.organise", stack=stack + 1, count=4)
                return msg("knatsch.label.target_stack", card=card_label(card), stack=stack + 1)
            holder = state.owner_of(card.id)
            if holder is None:  # neither on a stack's top nor in front of a player: no such target
                return _unknown(action)
            owner = SeatRef(holder)
            if card.kind == CASTLE:
                if game.holds(state, seat, "catapult"):
                    return msg("knatsch.label.attack_catapult", owner=owner, card=card_label(card), count=4)
                return msg("knatsch.label.attack", owner=owner, card=card_label(card))
            return msg("knatsch.label.target_owned", owner=owner, card=card_label(card))
        if verb == "under":
            pile = state.stacks[int(args[0]) - 1]
            return msg("knatsch.label.under", card=card_label(CARDS[pile[0]]), stack=int(args[0]))
        if verb == "guard":
            covered = [card_label(CARDS[cid]) for cid in args[1].split(",")]
            return msg("knatsch.label.guard", guard=card_name(CARDS[args[0]]), cards=covered)
        if verb == "end":
            return msg("knatsch.label.end")
        if verb == "roll":
            return msg("knatsch.label.roll", allowed=state.rolling.rolls_allowed)
        if verb == "reroll":
            roll = state.rolling
            return _reroll_label(args[0], tuple(roll.dice), roll.rolls_used, roll.rolls_allowed)
        if verb == "stop":
            return msg("knatsch.label.stop", result=result_msg(game.roll_result(state, state.rolling)),
                       verdict=_verdict(game, state))
        if verb == "lose":
            return msg("knatsch.label.lose", card=card_label(CARDS[args[0]]), stack=int(args[1]))
    except (KeyError, IndexError, ValueError, AttributeError, InvalidState):  # not an action of this state
        pass
    return _unknown(action)


@lru_cache(maxsize=256)  # up to 63 labels a roll's dice
def _reroll_label(chosen: str, dice: tuple[int, ...], rolls_used: int, rolls_allowed: int) -> Msg:
    """A reroll's label, kept by what it says: a roll has up to 63 ways to roll again, which the
    bot describes for the roller's choices and again for each hidden variant it probes (labels
    are shared: never changed)."""
    positions = [int(p) for p in chosen.split(",")]
    showing = dice_text(dice[p - 1] for p in positions)
    kept = [d for i, d in enumerate(dice) if i + 1 not in positions]
    common = dict(positions=", ".join(map(str, positions)), showing=showing,
                  used=rolls_used + 1, allowed=rolls_allowed, count=len(positions))
    if kept:
        return msg("knatsch.label.reroll_keep", keep=dice_text(kept), **common)
    return msg("knatsch.label.reroll", **common)


def _unknown(action: Action) -> Msg:
    return msg("knatsch.label.unknown", text=action.encode()[:60])
