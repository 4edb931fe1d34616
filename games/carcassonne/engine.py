"""The Carcassonne (with The Robbers and the crop circle) rules engine (the `games.core.Game` contract).

A turn is a few sub-steps, each offered through `legal_actions` (canonical action texts):
  group <k>           when the board picture cannot show every square where the tile fits close
                      up (games.carcassonne.closeup), it shows one group of squares lying together
                      close up (first the one around the player's followers: `featured_group`)
                      and offers its squares and the other groups (k from 1): picking one shows
                      that group close up
  at <x>,<y>          the square for the drawn tile (the start tile is at 0,0; y grows southwards);
                      any square where it fits is taken, in a group picked or not (a group only
                      narrows what the menu offers)
  turn <N|E|S|W>      where the tile's printed top points; only rotations that fit, one per look
  back                choose another square (from the rotations), or see every group framed and
                      numbered on the whole landscape (from a group's squares)
  area <k>            not offered: the group of squares of games recorded before close-ups (runs
                      of 20 squares when more than 24 fit), still taken so their records replay
  robber <space>      after a robber tile: put (or move) your robber beside another player's
                      counting figure on that track space; `pass` keeps it where it is
  follower <spot>     a follower on a free feature of the new tile (city1, road2, field1, cloister);
  skip                no follower
  crop add|remove     after the crop-circle tile: the active player's choice A or B
  add <x>,<y>,<seg>   crop circle A: one more follower onto that road (or `pass`)
  remove <x>,<y>,<seg> crop circle B: take this follower off its road

Decisions where the rules are silent are listed in docs/carcassonne.md; the main ones are in
the comments below where they act.
"""
from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from itertools import permutations
from typing import Any

from games.carcassonne import state as state_io
from games.carcassonne.ai import ranked, standing_scores, suggest
from games.carcassonne.board import KIND, NODE_STRIDE, OPEN, Square, build
from games.carcassonne.closeup import legacy_groups
from games.carcassonne.data import (
    CROP_CIRCLE_CODE,
    MAX_PLAYERS,
    MIN_PLAYERS,
    ORIENTED,
    ROBBER_END_POINTS,
    SIDE_NAMES,
    START_CODE,
    TRACK_SPACES,
    Oriented,
    all_tiles,
)
from games.carcassonne.data import (
    TILES as TILE_TYPES,
)
from games.carcassonne.grid import square_name
from games.carcassonne.rules import (
    feature_points,
    final_scoring,
    first_group,
    follower_spots,
    majority,
    spot_names,
    squares_offered,
)
from games.carcassonne.state import CarcassonneState
from games.carcassonne.views import build_view
from games.core import (
    Action,
    Checked,
    Event,
    Features,
    GameError,
    Msg,
    Option,
    Outcome,
    Search,
    SeatRef,
    as_checked,
    chance,
    check_turn,
    msg,
)
from games.search import TURN_DECISION, hint, suggest_strong

REACTION_ROBBER = "carcassonne.reaction.robber"
REACTION_CROP_CIRCLE = "carcassonne.reaction.crop_circle"
KIND_WORDS = {"city": "knight", "road": "thief", "cloister": "monk", "field": "farmer"}



class Carcassonne:
    name = "carcassonne"
    title = "Carcassonne (with The Robbers)"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    options: tuple[Option, ...] = (
        Option("robbers", msg("carcassonne.option.robbers"),
               "next", ("next", "all")),
    )
    rules_summary = msg("carcassonne.rules.summary")  # the catalogues hold its words
    features = Features(computer=True, strengths=("normal", "strong"), hints=True, scores=True, undo=True,
                        public_moves=True, forced=True, reactions=(REACTION_ROBBER, REACTION_CROP_CIRCLE),
                        # The strong player never weighs stepping back to another square; it weighs the normal
                        # player's choice and the three it values next, four turns of square, rotation and
                        # follower on, judged by search_scores.
                        search=Search(timing=True, order=True, standing=True, candidates=4, playout_actions=12,
                                      skips=("back",)))

    # ------------------------------------------------------------------------------------
    # Setup

    def new_game(self, seats: int, *, seed: int, options: Mapping[str, str] | None = None) -> CarcassonneState:
        if not isinstance(seats, int) or not self.min_players <= seats <= self.max_players:
            raise GameError(f"Carcassonne is for {self.min_players} to {self.max_players} players, not {seats}.")
        options = dict(options or {})
        robbers_option = options.pop("robbers", "next")
        if options or robbers_option not in ("next", "all"):
            raise GameError("Carcassonne has one table option: robbers = next or all.")
        pile = all_tiles()
        pile.remove(START_CODE)
        chance(seed, 0).shuffle(pile)
        board = build([(START_CODE, 0, 0, 0)])
        state = CarcassonneState(
            seats=seats, seed=int(seed), chance_counter=1, robbers_option=robbers_option, board=board,
            pile=pile, phase="place", turn=0, scores=[0] * seats, robbers=[None] * seats,
        )
        self._start_turn(state, 0, [])
        return state

    # ------------------------------------------------------------------------------------
    # Whose move, which moves

    def to_act(self, state: CarcassonneState) -> frozenset[int]:
        if state.phase == "over":
            return frozenset()
        if state.phase in ("robber", "crop_act"):
            return frozenset((state.asked_seat(),))
        return frozenset((state.turn,))

    def moves_are_public(self, state: CarcassonneState, seat: int) -> bool:
        return True


    def publicly_forced(self, state: CarcassonneState, seat: int) -> Action | None:
        """The only move, when there is one: every move follows from the open table (the drawn
        tile is shown; the order of the pile decides no move). E.g. a tile that fits one square
        only, or crop circle B with one road follower to take off."""
        legal = self.legal_actions(state, seat)
        return legal[0] if len(legal) == 1 else None

    def reaction_kind(self, state: CarcassonneState, seat: int) -> str | None:
        """Outside one's own turn: a robber offered on another player's score, and a crop
        circle's follower added or taken off on another player's tile."""
        if seat not in self.to_act(state) or seat == state.turn:
            return None
        return {"robber": REACTION_ROBBER, "crop_act": REACTION_CROP_CIRCLE}.get(state.phase)

    def legal_actions(self, state: CarcassonneState, seat: int) -> list[Action]:
        # States are never changed once made (apply works on a clone), so the list is kept.
        cached = state.__dict__.get("_legal")
        if cached is not None and cached[0] == seat:
            return list(cached[1])
        actions = self._legal_actions(state, seat)
        state.__dict__["_legal"] = (seat, tuple(actions))
        return actions

    def _legal_actions(self, state: CarcassonneState, seat: int) -> list[Action]:
        if seat not in self.to_act(state):
            return []
        phase = state.phase
        if phase == "place":
            plan = squares_offered(state)
            if plan.groups:
                if state.area is None:  # the whole landscape, every group framed and numbered
                    return [Action("group", (str(k + 1),)) for k in range(len(plan.groups))]
                # a group close up: its squares, any other group at once, and the whole landscape
                others = [Action("group", (str(k + 1),)) for k in range(len(plan.groups)) if k != state.area]
                return [Action("at", (_sq(sq),)) for sq in plan.groups[state.area]] + others + [Action("back")]
            return [Action("at", (_sq(sq),)) for sq in plan.order]
        if phase == "rotate":
            rots = state.fits[state.chosen_square()]
            return [Action("turn", (SIDE_NAMES[r],)) for r in rots] + [Action("back")]
        if phase == "robber":
            return [Action("robber", (str(space),)) for space in _robber_spaces(state, seat)] + [Action("pass")]
        if phase == "follower":
            return [Action("follower", (name,)) for name, _ in follower_spots(state)] + [Action("skip")]
        if phase == "crop":
            return [Action("crop", ("add",)), Action("crop", ("remove",))]
        if phase == "crop_act":
            if state.crop_mode == "add":
                adds = [Action("add", (_spot_arg(state, m),)) for m in _crop_add_targets(state, seat)]
                return adds + [Action("pass")]
            return [Action("remove", (_spot_arg(state, m),)) for m in _crop_remove_targets(state, seat)]
        return []

    # ------------------------------------------------------------------------------------
    # Applying moves

    def apply(self, state: CarcassonneState, seat: int,
              action: Action | Checked) -> tuple[CarcassonneState, list[Event]]:
        action, known = as_checked(state, seat, action)
        action = _canonical(action)
        if not known and not _taken_unoffered(self, state, seat, action):
            check_turn(self, state, seat, action)
        new = state.clone()
        events: list[Event] = []
        verb, args = action.verb, action.args
        # The steps towards a square say in words what was chosen ("Anna picks square M12."
        # rather than a button's label); they are provisional (`kind="step"`): a turn's account
        # may leave them out, since the tile placed says where it went.
        if verb == "group":
            new.area = int(args[0]) - 1
            first, last = _group_numbers(squares_offered(state).groups, new.area)
            said = (msg("carcassonne.event.area_one", player=SeatRef(seat), number=first) if first == last
                    else msg("carcassonne.event.area", player=SeatRef(seat), first=first, last=last))
            events.append(Event(said, kind="step"))
        elif verb == "area":  # a record of before close-ups: said as it was then; the choice goes on
            new.area = None
            first, last = _group_numbers(legacy_groups(list(state.fits)), int(args[0]) - 1)
            events.append(Event(msg("carcassonne.event.area", player=SeatRef(seat), first=first, last=last),
                                kind="step"))
        elif verb == "at":
            new.square = _parse_sq(args[0])
            new.phase = "rotate"
            events.append(Event(msg("carcassonne.event.square", player=SeatRef(seat),
                                    square=square_name(*new.square)), kind="step"))
        elif verb == "back":
            if new.phase == "rotate":
                new.phase, new.square = "place", None  # back to the squares of the same group
            else:
                new.area = None
            events.append(Event(msg("carcassonne.event.back", player=SeatRef(seat)), kind="step"))
        elif verb == "turn":
            self._place_tile(new, SIDE_NAMES.index(args[0]), events)
        elif verb == "robber":
            self._robber(new, seat, int(args[0]), events)
        elif verb == "pass" and new.phase == "robber":
            events.append(Event(msg("carcassonne.event.robber_pass", player=SeatRef(seat))))
            self._next_robber(new, events)
        elif verb in ("follower", "skip"):
            self._follower(new, args[0] if args else None, events)
        elif verb == "crop":
            self._crop_choice(new, args[0], events)
        elif verb in ("add", "remove", "pass"):
            self._crop_act(new, seat, verb, args[0] if args else None, events)
        for event in events:
            new.add_log(_json(event.text))
        return new, events

    # -- placing the tile

    def _place_tile(self, state: CarcassonneState, rot: int, events: list[Event]) -> None:
        code, square = state.drawn_tile(), state.chosen_square()
        state.board = state.board.place(code, square, rot)
        state.drawn, state.fits, state.area, state.square = None, {}, None, None
        events.append(Event(msg("carcassonne.event.placed", player=SeatRef(state.turn),
                                tile=_tile_term(code), square=square_name(*square)), kind="lay"))
        if TILE_TYPES[code].robber:
            state.robber_queue = self._robber_order(state)
            state.phase, state.asked = "robber", state.turn
            return
        self._to_follower_step(state, events)

    def _robber_order(self, state: CarcassonneState) -> list[int]:
        """Who may place a robber after the active player. Option "next" (2013 wording): the
        first player after them whose robber is at home, decided once the active player has
        acted. Option "all" (Big Box 4): every other player in turn order, each if at home."""
        return [(state.turn + k) % state.seats for k in range(1, state.seats)]

    def _robber(self, state: CarcassonneState, seat: int, space: int, events: list[Event]) -> None:
        moved = state.robbers[seat] is not None
        state.robbers[seat] = space
        beside = [SeatRef(s) for s in range(state.seats) if s != seat and state.space(s) == space]
        events.append(Event(msg("carcassonne.event.robber_moved" if moved else "carcassonne.event.robber_placed",
                                player=SeatRef(seat), space=space, players=beside), kind="robber"))
        self._next_robber(state, events)

    def _next_robber(self, state: CarcassonneState, events: list[Event]) -> None:
        if state.robbers_option == "next" and state.asked != state.turn:
            state.robber_queue = []  # only one other player is ever asked
        while state.robber_queue:
            candidate = state.robber_queue.pop(0)
            if state.robbers[candidate] is None and _robber_spaces(state, candidate):
                state.asked = candidate
                if state.robbers_option == "next":
                    state.robber_queue = []
                return
        state.asked, state.robber_queue = None, []
        self._to_follower_step(state, events)

    # -- the follower

    def _to_follower_step(self, state: CarcassonneState, events: list[Event]) -> None:
        state.phase, state.asked = "follower", None
        if not follower_spots(state):
            self._follower(state, None, events)

    def _follower(self, state: CarcassonneState, spot: str | None, events: list[Event]) -> None:
        index = len(state.board.tiles) - 1
        if spot is not None:
            seg = dict(follower_spots(state))[spot]
            state.meeples.append((state.turn, index, seg))
            kind = state.board.oriented(index).kinds[seg]
            _, x, y, _ = state.board.tiles[index]
            events.append(Event(msg("carcassonne.event.follower", player=SeatRef(state.turn),
                                    follower=msg(f"carcassonne.follower.{KIND_WORDS[kind]}"),
                                    square=square_name(x, y)), kind="follower"))
        awards = _completed_scoring(state, index, events)
        _score_round(state, awards, events)
        code = state.board.tiles[index][0]
        if code == CROP_CIRCLE_CODE and (_crop_possible(state, "add") or _crop_possible(state, "remove")):
            state.phase = "crop"
            return
        self._end_turn(state, events)

    # -- the crop circle

    def _crop_choice(self, state: CarcassonneState, mode: str, events: list[Event]) -> None:
        state.crop_mode = mode
        events.append(Event(msg(f"carcassonne.event.crop_{mode}", player=SeatRef(state.turn)), kind="crop"))
        state.crop_queue = [(state.turn + k) % state.seats for k in range(1, state.seats + 1)]
        self._next_crop(state, events)

    def _next_crop(self, state: CarcassonneState, events: list[Event]) -> None:
        while state.crop_queue:
            seat = state.crop_queue.pop(0)
            targets = (_crop_add_targets(state, seat) if state.crop_mode == "add"
                       else _crop_remove_targets(state, seat))
            if targets:
                state.phase, state.asked = "crop_act", seat
                return
        state.asked, state.crop_mode = None, None
        self._end_turn(state, events)

    def _crop_act(self, state: CarcassonneState, seat: int, verb: str, arg: str | None, events: list[Event]) -> None:
        if verb == "pass":
            events.append(Event(msg("carcassonne.event.crop_pass", player=SeatRef(seat))))
        else:
            if arg is None:  # never: every add and remove offered names a follower (check_turn)
                raise GameError(f"The crop circle's {verb} names no follower.")
            meeple = _meeple_at(state, seat, arg)
            if verb == "add":
                state.meeples.append(meeple)
                events.append(Event(msg("carcassonne.event.crop_added", player=SeatRef(seat),
                                        square=_spot_square(arg))))
            else:
                state.meeples.remove(meeple)
                events.append(Event(msg("carcassonne.event.crop_removed", player=SeatRef(seat),
                                        square=_spot_square(arg))))
        self._next_crop(state, events)

    # -- turns and the end

    def _end_turn(self, state: CarcassonneState, events: list[Event]) -> None:
        self._start_turn(state, (state.turn + 1) % state.seats, events)

    def _start_turn(self, state: CarcassonneState, seat: int, events: list[Event]) -> None:
        state.turn, state.asked, state.area, state.square = seat, None, None, None
        while state.pile:
            code = state.pile.pop(0)
            fits = state.board.fits(code)
            if fits:
                state.drawn, state.fits, state.phase = code, fits, "place"
                state.area = first_group(state)  # shown close up at once: no extra tap for its squares
                return
            state.set_aside.append(code)
            events.append(Event(msg("carcassonne.event.set_aside", tile=_tile_term(code)), kind="draw"))
        self._finish(state, events)

    def _finish(self, state: CarcassonneState, events: list[Event]) -> None:
        state.drawn, state.fits, state.phase = None, {}, "over"
        # Footnote [6]/[12]: after the last tile's scoring, robbers still out score 3 each, then
        # the final scoring. Decision: these 3 points are not robbed (every robber leaves at once).
        for seat in range(state.seats):
            if state.robbers[seat] is not None:
                state.scores[seat] += ROBBER_END_POINTS
                state.robbers[seat] = None
                events.append(Event(msg("carcassonne.event.robber_end", player=SeatRef(seat),
                                        count=ROBBER_END_POINTS), kind="score"))
        breakdown = final_scoring(state)
        state.breakdown = breakdown
        for seat in range(state.seats):
            parts = breakdown[seat]
            total = sum(parts.values())
            state.scores[seat] += total
            events.append(Event(msg("carcassonne.event.final", player=SeatRef(seat), count=total,
                                    roads=parts["road"], cities=parts["city"], cloisters=parts["cloister"],
                                    fields=parts["field"]), kind="score"))
        # the followers stay on the board for the last picture
        events.append(Event(_final_outcome(state).reason, kind="end"))

    # ------------------------------------------------------------------------------------
    # Labels, views, results

    def describe(self, state: CarcassonneState, seat: int, action: Action) -> Msg:
        action = _canonical(action)
        verb, args = action.verb, action.args
        try:
            if verb == "group":
                # numbered like the groups on the board, and where it lies (the overview's grid
                # marks find it while another group is shown close up): "2 · Squares 6–9 · K3–M5"
                groups = squares_offered(state).groups
                first, last = _group_numbers(groups, int(args[0]) - 1)
                group = groups[int(args[0]) - 1]
                xs, ys = [sq[0] for sq in group], [sq[1] for sq in group]
                if first == last:
                    where = msg("carcassonne.label.group_one", number=first, square=square_name(*group[0]))
                else:
                    where = msg("carcassonne.label.group", first=first, last=last,
                                corner=square_name(min(xs), min(ys)), other=square_name(max(xs), max(ys)))
                return msg("carcassonne.label.numbered", n=int(args[0]), label=where)
            if verb == "area":
                first, last = _group_numbers(legacy_groups(list(state.fits)), int(args[0]) - 1)
                return msg("carcassonne.label.area", first=first, last=last)
            if verb == "at":
                sq = _parse_sq(args[0])
                number = squares_offered(state).order.index(sq) + 1
                return msg("carcassonne.label.at", number=number, square=square_name(*sq))
            if verb == "back":
                return msg("carcassonne.label.map" if state.phase == "place" else "carcassonne.label.back")
            if verb == "turn":
                # Numbered like the pictures of the rotations on the board (in the view's order).
                rot = SIDE_NAMES.index(args[0])
                rots = state.fits.get(state.square, ()) if state.square is not None else ()
                number = list(rots).index(rot) + 1  # the tile is drawn while its square has rotations
                return msg("carcassonne.label.numbered", n=number, label=_turn_label(state.drawn_tile(), rot))
            if verb == "robber":
                space = int(args[0])
                beside = [SeatRef(s) for s in range(state.seats) if s != seat and state.space(s) == space]
                if len(beside) > 1:  # keep the label short (names are up to 32 characters)
                    return msg("carcassonne.label.robber_many", space=space, count=len(beside))
                return msg("carcassonne.label.robber", space=space, players=beside)
            if verb == "pass" and state.phase == "robber":
                return msg("carcassonne.label.robber_pass")
            if verb == "follower":
                # Numbered like the free spots on the board and on the enlarged tile.
                spots = follower_spots(state)
                seg = dict(spots)[args[0]]
                number = [name for name, _ in spots].index(args[0]) + 1
                return msg("carcassonne.label.numbered", n=number,
                           label=_spot_label(state.board.oriented(len(state.board.tiles) - 1), seg))
            if verb == "skip":
                return msg("carcassonne.label.skip")
            if verb == "crop":
                return msg(f"carcassonne.label.crop_{args[0]}")
            if verb == "add":
                return msg("carcassonne.label.add", square=_spot_square(args[0]))
            if verb == "remove":
                return msg("carcassonne.label.remove", square=_spot_square(args[0]))
            if verb == "pass":
                return msg("carcassonne.label.crop_pass")
        except (ValueError, KeyError, IndexError, TypeError):
            pass
        return msg("carcassonne.label.unknown", text=action.encode()[:60])

    def view(self, state: CarcassonneState, seat: int | None) -> dict[str, Any]:
        return build_view(self, state, seat)

    def outcome(self, state: CarcassonneState) -> Outcome | None:
        if state.phase != "over":
            return None
        return _final_outcome(state)

    def to_dict(self, state: CarcassonneState) -> dict[str, Any]:
        return state_io.to_dict(state)

    def from_dict(self, data: Mapping[str, Any]) -> CarcassonneState:
        return state_io.from_dict(data)

    def exposure(self, state: CarcassonneState) -> tuple[int, int]:
        """What changes only when chance is drawn or something hidden comes to light: the chance
        counter and the pile's size (a tile drawn is shown to everyone)."""
        return (state.chance_counter, len(state.pile))

    def hidden_variant(self, state: CarcassonneState, owner: int | None, rng: random.Random) -> CarcassonneState:
        """Only the order of the pile is secret (from everyone): shuffle it."""
        new = state.clone()
        if owner is None:
            rng.shuffle(new.pile)
        return new

    def suggest(self, state: CarcassonneState, seat: int, rng: random.Random, *, strength: str = "normal",
                clock: Callable[[], float] | None = None) -> Action:
        if strength == "strong":  # a search over the normal player (games.search)
            return suggest_strong(self, state, seat, rng, clock=clock)
        return suggest(self, state, seat, rng)

    def search_time(self, state: CarcassonneState) -> float:
        """Where the tile goes sets the turn: the strong player weighs the square (and the group
        it lies in) and the rotation for longer (bench/ai_strength.py: 155.5 of 200 games won,
        147 with the rotation and group on the plain budget). The follower it places as the
        normal player would: what a follower brings mostly shows when its feature closes or
        the game ends, beyond a short playout, and weighed by playouts the strong player's
        followers did worse (47 % won over 20 games with three budgets for the follower, 31 of
        40 with none; see docs/days.md)."""
        if state.phase in ("place", "rotate"):
            return TURN_DECISION
        if state.phase == "follower":
            return 0.0
        return 1.0

    def search_order(self, state: CarcassonneState, seat: int, actions: list[Action]) -> list[Action]:
        """The moves the normal player values most first (games.search weighs the first few)."""
        return ranked(state, seat, actions)

    def search_scores(self, state: CarcassonneState) -> list[float]:
        """What each seat's position is worth, for the strong player: the track, followers'
        features at what they may still become, and followers at home (all public)."""
        return standing_scores(state)

    def scores(self, state: CarcassonneState) -> list[int]:
        """Points on the score track (public)."""
        return list(state.scores)

    def projected_scores(self, state: CarcassonneState) -> list[int]:
        """The track's points plus what the followers on the board would score if the game ended
        now (all public). The strong player judges a continuation by these: most of a follower's
        worth comes at the end, and the track alone would make placing one look worthless."""
        return [track + sum(kinds.values()) for track, kinds in zip(state.scores, final_scoring(state))]

    def hint(self, state: CarcassonneState, seat: int, rng: random.Random, *,
             clock: Callable[[], float] | None = None) -> tuple[Action, Msg]:
        """The strong player's move for `seat` and why, from the seat's view only."""
        return hint(self, state, seat, rng, clock=clock)


# ----------------------------------------------------------------------------------------
# Helpers: squares, actions


def _sq(square: Square) -> str:
    return f"{square[0]},{square[1]}"


def _parse_sq(text: str) -> Square:
    x, y = text.split(",")
    return int(x), int(y)


def _canonical(action: Action) -> Action:
    verb = action.verb.lower()
    args = action.args
    if verb == "turn" and args:
        args = (args[0].upper(),)
    elif verb in ("crop", "follower") and args:
        args = (args[0].lower(),)
    return Action(verb, tuple(args))


def _group_numbers(groups: Sequence[Sequence[Square]], k: int) -> tuple[int, int]:
    """The numbers of group k's first and last squares (squares are numbered group by group)."""
    if not 0 <= k < len(groups):
        raise IndexError(k)
    first = sum(len(group) for group in groups[:k]) + 1
    return first, first + len(groups[k]) - 1


def _taken_unoffered(game: Carcassonne, state: CarcassonneState, seat: int, action: Action) -> bool:
    """Moves taken in the placing step though no menu offers them: any square where the tile
    fits (a group only narrows the menu), `back` with no group picked (nothing happens), the
    group shown already (recorded when it was picked from the whole landscape), and a group of
    games recorded before close-ups (`area k`)."""
    if state.phase != "place" or seat != state.turn or game.outcome(state) is not None:
        return False
    try:
        if action.verb == "at" and len(action.args) == 1:
            return _parse_sq(action.args[0]) in state.fits
        if action.verb == "back" and not action.args:
            return True
        if action.verb == "area" and len(action.args) == 1:
            return 1 <= int(action.args[0]) <= len(legacy_groups(list(state.fits)))
        if action.verb == "group" and len(action.args) == 1:
            return 1 <= int(action.args[0]) <= len(squares_offered(state).groups)
    except ValueError:
        return False
    return False


def _json(text: Any) -> Any:
    return text.to_json() if isinstance(text, Msg) else text


def _tile_term(code: str) -> Msg:
    tile = TILE_TYPES[code]
    if tile.crop_circle:
        return msg("carcassonne.tile.crop_circle")
    if tile.robber:
        return msg("carcassonne.tile.robber")
    return msg("carcassonne.tile.plain")


def _dirs(sides: Sequence[int]) -> list[Msg]:
    return [msg(f"carcassonne.dir.{SIDE_NAMES[s].lower()}") for s in sides]


def _turn_label(code: str, rot: int) -> Msg:
    o = ORIENTED[(code, rot)]
    cities = [s for s in range(4) if o.edges[s] == "C"]
    roads = [s for s in range(4) if o.edges[s] == "R"]
    parts = []
    if cities:
        parts.append(msg("carcassonne.label.city_to", dirs=_dirs(cities)))
    if roads:
        parts.append(msg("carcassonne.label.road_to", dirs=_dirs(roads)))
    if not parts:
        return msg("carcassonne.label.turn_any")
    return msg("carcassonne.label.turn", parts=parts)


_COMPASS = ("e", "se", "s", "sw", "w", "nw", "n", "ne")


def _compass(x: float, y: float) -> str:
    dx, dy = x - 0.5, y - 0.5
    if abs(dx) < 0.06 and abs(dy) < 0.06:
        return "mid"
    angle = math.degrees(math.atan2(dy, dx)) % 360
    return _COMPASS[int(((angle + 22.5) % 360) // 45)]


def _spot_label(o: Oriented, seg: int) -> Msg:
    kind = o.kinds[seg]
    if kind == "cloister":
        return msg("carcassonne.label.monk")
    if kind == "city":
        return msg("carcassonne.label.knight", dirs=_dirs(o.ports[seg]))
    if kind == "road":
        return msg("carcassonne.label.thief", dirs=_dirs(o.ports[seg]))
    x, y = o.spots[seg]
    return msg("carcassonne.label.farmer", where=msg(f"carcassonne.compass.{_compass(x, y)}"))


def _robber_spaces(state: CarcassonneState, seat: int) -> list[int]:
    """Track spaces with at least one counting figure of another player; not the space the
    seat's robber already stands on (that is `pass`)."""
    spaces = {state.space(s) for s in range(state.seats) if s != seat}
    spaces.discard(state.robbers[seat])
    return sorted(spaces)


def _spot_arg(state: CarcassonneState, meeple: tuple[int, int, int]) -> str:
    _, index, seg = meeple
    _, x, y, _ = state.board.tiles[index]
    return f"{x},{y},{seg}"


def _spot_square(arg: str) -> str:
    """The board's name of the square in a follower's action argument ("x,y,segment")."""
    x, y, _ = (int(v) for v in arg.split(","))
    return square_name(x, y)


def _meeple_at(state: CarcassonneState, seat: int, arg: str) -> tuple[int, int, int]:
    x, y, seg = (int(v) for v in arg.split(","))
    return (seat, state.board.pos[(x, y)], seg)


def _road_meeples(state: CarcassonneState, seat: int) -> list[tuple[int, int, int]]:
    board = state.board
    return [m for m in state.meeples if m[0] == seat and board.oriented(m[1]).kinds[m[2]] == "road"]


def _crop_add_targets(state: CarcassonneState, seat: int) -> list[tuple[int, int, int]]:
    """One spot per road that already holds one of the seat's followers (the new follower
    stands beside the first of them); none without a follower at home."""
    if state.supply(seat) <= 0:
        return []
    seen, result = set(), []
    for m in sorted(_road_meeples(state, seat), key=lambda m: (m[1], m[2])):
        root = state.board.find(m[1] * NODE_STRIDE + m[2])
        if root not in seen:
            seen.add(root)
            result.append(m)
    return result


def _crop_remove_targets(state: CarcassonneState, seat: int) -> list[tuple[int, int, int]]:
    return sorted(set(_road_meeples(state, seat)), key=lambda m: (m[1], m[2]))


def _crop_possible(state: CarcassonneState, mode: str) -> bool:
    targets = _crop_add_targets if mode == "add" else _crop_remove_targets
    return any(targets(state, s) for s in range(state.seats))


# ----------------------------------------------------------------------------------------
# Scoring


def _completed_scoring(state: CarcassonneState, index: int, events: list[Event]) -> list[tuple[int, int, str]]:
    """Score every feature the tile at `index` completed: (seat, points, kind) awards, in the
    order roads, cities, cloisters; the followers on them go home."""
    board = state.board
    o = board.oriented(index)
    base = index * NODE_STRIDE
    roots: list[int] = []
    for seg, kind in enumerate(o.kinds):
        if kind in ("road", "city"):
            root = board.find(base + seg)
            if root not in roots and board.info[root][OPEN] == 0:
                roots.append(root)
    roots.sort(key=lambda r: (board.info[r][KIND] != "road", r))
    _, x, y, _ = board.tiles[index]
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            other = board.pos.get((x + dx, y + dy))
            if other is None:
                continue
            oo = board.oriented(other)
            if oo.kinds[0] == "cloister" and board.neighbours((x + dx, y + dy)) == 8:
                roots.append(board.find(other * NODE_STRIDE))
    if not roots:
        return []
    by_root: dict[int, list[tuple[int, int, int]]] = {}
    for m in state.meeples:
        root = board.find(m[1] * NODE_STRIDE + m[2])
        by_root.setdefault(root, []).append(m)
    awards = []
    for root in roots:
        on = by_root.get(root)
        if not on:
            continue
        kind = board.info[root][KIND]
        points = feature_points(board, root, final=False)
        for seat in majority([m[0] for m in on]):
            awards.append((seat, points, kind))
        for m in on:
            state.meeples.remove(m)
        events.append(Event(msg("carcassonne.event.completed", feature=msg(f"carcassonne.feature.{kind}"),
                                count=points, players=[SeatRef(s) for s in majority([m[0] for m in on])]),
                            kind="score"))
    return awards


def _score_round(state: CarcassonneState, awards: list[tuple[int, int, str]],
                 events: list[Event]) -> dict[int, tuple[int, int]]:
    """One scoring round (everything one tile completed), with The Robbers.

    Each player who scores several features decides their order (footnote: "the player
    receiving the points chooses the order that points are awarded"); we choose for them the
    order that leaves the least to robbers (`least_robbed_order`): with a robber beside their
    figure, the smallest first; with a robber further along the track, an order whose moves do
    not start on its space.
    Every counting figure moves by each of its scores in turn. A robber may rob, from each other
    player, only that player's first move starting on the robber's space; among those it takes
    the biggest (it has seen the whole round: footnote [8]/[9]); several robbers may rob the same
    move. Its owner gets half, rounded up, and the robber goes home. These rogue points are never
    robbed: a robber (of another player) standing where the rogue points start moves along.
    Returns {robber owner: (victim, points)} for the tests."""
    if not awards:
        return {}
    seats = state.seats
    order = [(state.turn + k) % seats for k in range(seats)]
    per_seat: dict[int, list[int]] = {}
    for seat, points, _ in awards:
        per_seat.setdefault(seat, []).append(points)
    first_from: dict[int, dict[int, int]] = {}  # space -> {seat: points of its first move from there}
    for seat in order:
        if seat not in per_seat:
            continue
        score = state.scores[seat]
        lurking = {space for other, space in enumerate(state.robbers) if other != seat and space is not None}
        for points in least_robbed_order(score, per_seat[seat], lurking):
            first_from.setdefault(score % TRACK_SPACES, {}).setdefault(seat, points)
            score += points
        state.scores[seat] = score
    robbed: dict[int, tuple[int, int]] = {}
    for owner in order:
        space = state.robbers[owner]
        if space is None:
            continue
        candidates = [(points, -order.index(seat), seat) for seat, points in first_from.get(space, {}).items()
                      if seat != owner]
        if not candidates:
            continue
        points, _, victim = max(candidates)
        robbed[owner] = (victim, points)
    for owner in order:
        if owner in robbed:
            state.robbers[owner] = None
    for owner in order:
        if owner not in robbed:
            continue
        victim, points = robbed[owner]
        gain = (points + 1) // 2
        start = state.space(owner)
        state.scores[owner] += gain
        events.append(Event(msg("carcassonne.event.robbed", player=SeatRef(owner), victim=SeatRef(victim),
                                count=gain), kind="robber"))
        end = state.space(owner)
        for other in order:
            if other != owner and state.robbers[other] == start:
                state.robbers[other] = end
                events.append(Event(msg("carcassonne.event.robber_along", player=SeatRef(other),
                                        victim=SeatRef(owner), space=end), kind="robber"))
    return robbed


def least_robbed_order(score: int, points: list[int], robber_spaces: set[int]) -> tuple[int, ...]:
    """The order of one player's scores in a round that leaves the least to the robbers on
    `robber_spaces`: a robber robs half (rounded up) of the first move starting on its space.
    Among equally good orders, the smallest first."""
    best: tuple[int, tuple[int, ...]] | None = None
    for candidate in sorted(set(permutations(sorted(points)))):
        loss, at, started = 0, score, set()
        for step in candidate:
            space = at % TRACK_SPACES
            if space in robber_spaces and space not in started:
                loss += (step + 1) // 2
            started.add(space)
            at += step
        if best is None or loss < best[0]:
            best = (loss, candidate)
    return best[1] if best else ()


def _final_outcome(state: CarcassonneState) -> Outcome:
    """How the finished game ended: the most points win (shared when tied)."""
    best = max(state.scores)
    winners = tuple(s for s in range(state.seats) if state.scores[s] == best)
    key = "carcassonne.outcome.shared" if len(winners) > 1 else "carcassonne.outcome.win"
    reason = msg(key, players=[SeatRef(s) for s in winners], count=best)
    return Outcome(winners=winners, scores=tuple(state.scores), reason=reason,
                   details={"breakdown": state.breakdown or []})


__all__ = ["Carcassonne", "final_scoring", "feature_points", "first_group", "follower_spots", "majority", "spot_names",
           "squares_offered"]
