"""What each seat (or the public) may know of a Mac Robber game, as JSON."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from games.core import Msg, SeatRef, msg
from games.macrobber.data import RED_ZONE
from games.macrobber.state import MacRobberState

if TYPE_CHECKING:
    from games.macrobber.engine import MacRobber

P = "macrobber."


def build_view(game: MacRobber, state: MacRobberState, seat: int | None) -> dict[str, Any]:
    raid = state.raid
    players = [{
        "courtyard": list(state.courtyards[s]),
        "estates": list(state.estates[s]),
        "score": state.scores[s],
        "cards": len(state.hands[s]),
        "owed": state.owed[s],
    } for s in range(state.seats)]
    view: dict[str, Any] = {
        "game": game.name,
        "seats": state.seats,
        "viewer": seat,
        "to_act": sorted(game.to_act(state)),
        "status": status(game, state).to_json(),
        "over": state.winners is not None,
        "round": state.round,
        "start": state.start,
        "active": state.active,
        "turn": state.turn,
        "phase": state.phase,
        "bag": sum(state.bag),
        "display": list(state.display),
        "marked": list(state.marked),
        "done": list(state.done),
        "used": state.used,
        "follower": state.follower,
        "players": players,
        "deck": len(state.deck),
        "discard": len(state.discard),
        "estates_left": len(state.supply),
        "revealed": list(state.revealed),
        "red_zone": RED_ZONE,
        "tossed": len(state.exchange),
        "raid": None if raid is None else {
            "attacker": raid["attacker"], "defender": raid["defender"],
            "rounds": [list(r) for r in raid["rounds"]],
            "played": raid["a_card"] is not None, "piper": raid["a_piper"],
            "result": raid.get("result"), "loot": raid.get("loot"), "open": state.phase in ("combat", "plunder"),
        },
        "last_scoring": state.last_scoring,
        "drawn": _drawn(state),
        "log": list(state.log),
        "winners": list(state.winners) if state.winners is not None else None,
        "tiebreak": state.tiebreak,
    }
    if seat is not None and 0 <= seat < state.seats:
        hand = sorted(state.hands[seat])
        summary = msg(P + "private.hand", cards=hand) if hand else msg(P + "private.no_cards")
        private: dict[str, Any] = {"summary": summary.to_json(), "hand": hand}
        if seat == state.active:
            private["tossed"] = sorted(state.exchange)
        if raid is not None and raid["attacker"] == seat and raid["a_card"] is not None:
            private["face_down"] = raid["a_card"]
        # Whether the seat decides from its hand now (a discard, a raid card, cards to exchange):
        # that decision is its DM's, which shows the table around the hand and is kept current
        # while it is open. Otherwise its DM shows the hand alone: the table would go stale in it.
        private["deciding"] = seat in view["to_act"] and bool(
            state.owed[seat] or state.phase in ("combat", "exchange"))
        view["private"] = private
    return view


def _drawn(state: MacRobberState) -> dict[str, Any] | None:
    """The cubes the active player drew this turn, as the public log tells them (the display
    empties once the actions are over): {"cubes": [y, b, g, r], "redrew": [y, b, g, r] or None},
    or None when the log no longer reaches back to the draw."""
    found: dict[str, Any] | None = None
    for entry in state.log:  # the log holds Msg JSON only (the state's check says so)
        ident, params = entry.get("id"), entry.get("params") or {}
        player = (params.get("player") or {}).get("seat")
        if ident == P + "event.display":
            found = {"cubes": _counts(params.get("cubes")), "redrew": None} if player == state.active else None
        elif ident == P + "event.redrew" and found is not None and player == state.active:
            found["redrew"] = _counts(params.get("cubes"))
    return found


def _counts(cubes: list[Any] | None) -> list[int]:
    """[y, b, g, r] from a message's cube counts (Msg JSON, macrobber.cubes.y with a count each)."""
    counts = [0, 0, 0, 0]
    for cube in cubes or []:
        ident = cube.get("id", "") if isinstance(cube, dict) else ""
        colour = ident.rsplit(".", 1)[-1]
        if colour in "ybgr" and len(colour) == 1:
            counts["ybgr".index(colour)] += int((cube.get("params") or {}).get("count", 0))
    return counts


def status(game: MacRobber, state: MacRobberState) -> Msg:
    outcome = game.outcome(state)
    if outcome is not None:  # the game is over
        reason: Msg = outcome.reason
        return reason
    owing = [SeatRef(s) for s in range(state.seats) if state.owed[s]]
    if owing:
        return msg(P + "status.discard", players=owing)
    who = SeatRef(state.active)
    phase = state.phase
    if phase == "redraw":
        return msg(P + "status.redraw", player=who)
    if phase == "act":
        return msg(P + "status.act", player=who, used=state.used)
    if phase == "bard":
        return msg(P + "status.bard", player=who, victim=SeatRef(state.bard_victim))
    if phase == "raid":
        return msg(P + "status.raid", player=who)
    if phase == "exchange":
        return msg(P + "status.exchange", player=who)
    raid = state.raiding
    if phase == "combat":
        playing = raid["attacker"] if raid["a_card"] is None else raid["defender"]
        return msg(P + "status.combat", attacker=SeatRef(raid["attacker"]), defender=SeatRef(raid["defender"]),
                   round=len(raid["rounds"]) + 1, player=SeatRef(playing))
    return msg(P + "status.plunder", player=who, victim=SeatRef(raid["defender"]))
