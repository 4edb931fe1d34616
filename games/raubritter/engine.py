"""The Raub Ritter rules engine (the `games.core.Game` contract).

Actions (canonical text; arguments never contain spaces):
  keep <face>                 keep-phase choice of the A tile kept besides the castle: "keep M"
  lay <face> <square>         lay a hand tile, named by its face code: "lay Fv D5"
  knights - <n>               after laying a castle: place n knights that all stay on it ("knights - 0")
  knights <dir> <counts>      place and move: direction N/E/S/W and knights left per tile along the
                              path, starting with the castle: "knights E 1,2,1"
  end                         end the turn after at least one lay

Decisions where the rules are silent (documented in the summary too):
  - A castle's stack may stay whole on the castle (at most four there), and may be empty.
  - A stack on a forest castle needs two knights: with one knight left a forest castle gets none.
  - The player draws after the knights of a castle are placed (they come "along with" the tile).
  - Two hand tiles with the same face are interchangeable; "lay" takes the one held longer.
  - The turn ends by itself when nothing but "end" would be left (three lays, empty hand,
    no free square).
  - Three players lay in 9 x 9 by default (72 tiles fit; the printed translation's 8 x 8 cannot
    hold them, so "when all tiles are laid" could never happen there). The table option
    `area=8x8` keeps the printed size; there the game also ends when no square is left to lay
    on, and unlaid tiles simply stay out. Two players always play 7 x 7, four 10 x 10.
"""
from __future__ import annotations

import functools
import random
from collections.abc import Callable, Mapping
from typing import Any

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
    admitted,
    chance,
    msg,
)
from games.raubritter import state as state_io
from games.raubritter.ai import ranked, standing_scores, suggest
from games.raubritter.board import (
    DIRECTION_NAMES,
    DIRECTIONS,
    Geometry,
    Laid,
    Square,
    knight_moves,
    legal_squares,
    path,
    square_name,
)
from games.raubritter.scoring import result_msg, score
from games.raubritter.state import RaubRitterState
from games.raubritter.tiles import (
    AREA_LIMIT,
    KNIGHTS_PER_PLAYER,
    MAX_KNIGHTS_PLACED,
    MAX_LAYS_PER_TURN,
    PILE_LETTERS,
    START_LETTER,
    TILES_BY_LETTER,
    building_of,
    face_msg,
    tile_msg,
)
from games.raubritter.tiles import BUILDINGS as BUILDING_CODES
from games.raubritter.tiles import TERRAINS as TERRAIN_CODES
from games.raubritter.views import build_view
from games.search import TURN_DECISION, hint, suggest_strong


class RaubRitter:
    name = "raubritter"
    title = "Raub Ritter (Robber Knights)"
    min_players = 2
    max_players = 4
    options: tuple[Option, ...] = (
        Option("area", msg("raubritter.option.area"),
               "9x9", ("9x9", "8x8")),
    )
    rules_summary = msg("raubritter.rules.summary")  # the catalogues hold its words
    features = Features(computer=True, strengths=("normal", "strong"), hints=True, scores=True, undo=True,
                        public_moves=True, forced=True,
                        # The strong player weighs the normal player's choice and the three it values next,
                        # about a round of turns on (a lay is slow to judge, and the standing says the rest).
                        search=Search(timing=True, order=True, standing=True, candidates=4, playout_actions=8))

    # ------------------------------------------------------------------------------------
    # Setup

    def new_game(self, seats: int, *, seed: int, options: Mapping[str, str] | None = None) -> RaubRitterState:
        if not isinstance(seats, int) or not self.min_players <= seats <= self.max_players:
            raise GameError(f"Raub Ritter is for {self.min_players} to {self.max_players} players, not {seats}.")
        options = dict(options or {})
        area = options.pop("area", "9x9")
        if options:
            raise GameError(f"Raub Ritter has no table option {', '.join(options)} (only area).")
        if area not in ("9x9", "8x8"):
            raise GameError(f"The area is 9x9 or 8x8, not {area!r}.")
        limit = int(area[0]) if seats == 3 else AREA_LIMIT[seats]
        rng = chance(seed, 0)
        piles = []
        for _ in range(seats):
            pile: list[str] = []
            for letter in PILE_LETTERS:  # top to bottom, each letter shuffled on its own
                tiles = [letter + face for face in TILES_BY_LETTER[letter]]
                rng.shuffle(tiles)
                pile.extend(tiles)
            piles.append(pile)
        a_tiles = [START_LETTER + face for face in TILES_BY_LETTER[START_LETTER]]
        return RaubRitterState(
            seats=seats, seed=int(seed), chance_counter=1, phase="keep", turn=0, lays_this_turn=0,
            kept=[None] * seats, hands=[list(a_tiles) for _ in range(seats)], piles=piles,
            knights_left=[KNIGHTS_PER_PLAYER] * seats, board={}, limit=limit,
        )

    # ------------------------------------------------------------------------------------
    # Whose move, which moves

    def to_act(self, state: RaubRitterState) -> frozenset[int]:
        if state.phase == "keep":
            return frozenset(s for s in range(state.seats) if state.kept[s] is None)
        if state.phase in ("lay", "knights"):
            return frozenset({state.turn})
        return frozenset()

    def moves_are_public(self, state: RaubRitterState, seat: int) -> bool:
        """Only the knights step: it depends on the laid castle and knights left, not the hand."""
        return state.phase == "knights" and seat in self.to_act(state)

    # Every decision is the seat's own: the keep choice at the start is everyone's own, and a
    # turn's lays and knights are the player's whose turn it is. Nothing happens outside a turn.

    def reaction_kind(self, state: RaubRitterState, seat: int) -> str | None:
        return None

    def publicly_forced(self, state: RaubRitterState, seat: int) -> Action | None:
        """The only move, where everyone can tell it is the only one: the knights step (public)
        with no knight left to place, or the first lay of a turn with one tile in hand (the
        hand's size is public, its face is not) and one free square. The keep choice and any
        lay from a larger hand are never reported (the faces are secret)."""
        if seat not in self.to_act(state):
            return None
        if not (state.phase == "knights" or (state.phase == "lay" and len(state.hands[seat]) == 1)):
            return None  # asked before the legal actions: the bot asks it after every move
        legal = self.legal_actions(state, seat)
        return legal[0] if len(legal) == 1 else None

    def legal_actions(self, state: RaubRitterState, seat: int) -> list[Action]:
        if seat not in self.to_act(state):
            return []
        if state.phase == "keep":
            return [Action("keep", (face,)) for face in _keep_choices(state.hands[seat])]
        if state.phase == "knights":
            return list(_knights_actions(state))
        actions: list[Action] = []
        if state.lays_this_turn < MAX_LAYS_PER_TURN:
            squares = legal_squares(state.board, state.geometry)
            for face in _distinct_faces(state.hands[seat]):
                actions.extend(_lay(face, square) for square in squares)
        if state.lays_this_turn >= 1:
            actions.append(_END)
        return actions

    # ------------------------------------------------------------------------------------
    # Applying moves

    def apply(self, state: RaubRitterState, seat: int,
              action: Action | Checked) -> tuple[RaubRitterState, list[Event]]:
        action = admitted(self, state, seat, action, lambda plain: _canonical(state.geometry, plain))
        new = state.clone()
        events: list[Event] = []
        if action.verb == "keep":
            self._keep(new, seat, action.args[0], events)
        elif action.verb == "lay":
            self._lay(new, seat, action.args[0], new.geometry.square_named(action.args[1]), events)
        elif action.verb == "knights":
            self._knights(new, seat, action.args[0], [int(n) for n in action.args[1].split(",")], events)
        else:  # "end": said, so that the move's own line is not only whose turn follows
            events.append(Event(msg("raubritter.event.ends", player=SeatRef(seat), count=new.lays_this_turn),
                                kind="ends"))
            self._end_turn(new, events)
        for event in events:
            if event.seat is None:
                new.add_log(event.text)
        return new, events

    def _keep(self, state: RaubRitterState, seat: int, face: str, events: list[Event]) -> None:
        state.kept[seat] = face
        events.append(Event(msg("raubritter.event.you_keep", face=face_msg(face)), seat=seat))
        events.append(Event(msg("raubritter.event.chosen", player=SeatRef(seat))))
        if any(choice is None for choice in state.kept):
            return
        # Everyone has chosen: the donated tiles form the starting area in shuffled positions.
        donated: list[tuple[str, int]] = []
        for s in range(state.seats):
            hand = state.hands[s]
            castle = next(t for t in hand if building_of(t[1:]) == "castle")
            rest = [t for t in hand if t != castle]
            kept = next(t for t in rest if t[1:] == state.kept[s])
            rest.remove(kept)
            state.hands[s] = [castle, kept]
            donated.extend((tile, s) for tile in rest)
        rng = chance(state.seed, state.chance_counter)
        state.chance_counter += 1
        rng.shuffle(donated)
        for square, (tile, owner) in zip(state.geometry.start_squares(), donated):
            state.board[square] = Laid(tile, owner)
        state.kept = [None] * state.seats
        state.phase, state.turn, state.lays_this_turn = "lay", 0, 0
        events.append(Event(msg("raubritter.event.start", player=SeatRef(0)), kind="phase"))

    def _lay(self, state: RaubRitterState, seat: int, face: str, square: Square, events: list[Event]) -> None:
        hand = state.hands[seat]
        tile = next(t for t in hand if t[1:] == face)  # the tile held longest
        hand.remove(tile)
        state.board[square] = Laid(tile, seat)
        state.this_turn.append(square)
        state.lays_this_turn += 1
        events.append(Event(msg("raubritter.event.lay", player=SeatRef(seat), face=face_msg(face),
                                square=state.geometry.name(square)), kind="lay"))
        if building_of(face) == "castle":
            state.phase, state.pending_castle = "knights", square
            return
        self._after_lay(state, seat, events)

    def _knights(self, state: RaubRitterState, seat: int, direction: str, counts: list[int],
                 events: list[Event]) -> None:
        castle = state.castle_awaiting_knights
        total = sum(counts)
        squares = path(castle, direction, len(counts))
        for square, count in zip(squares, counts):
            laid = state.board[square]
            state.board[square] = laid._replace(stack=laid.stack + (seat,) * count)
        state.knights_left[seat] -= total
        name = state.geometry.name
        player = SeatRef(seat)
        if total == 0:
            text = msg("raubritter.event.no_knights", player=player, square=name(castle))
        elif direction == "-":
            text = msg("raubritter.event.knights_stay", player=player, count=total, square=name(castle))
        else:
            spread = [msg("raubritter.spread", count=count, square=name(sq)) for sq, count in zip(squares, counts)]
            text = msg("raubritter.event.knights_move", player=player, count=total, square=name(castle),
                       direction=msg(f"raubritter.direction.{direction}"), spread=spread)
        events.append(Event(text, kind="knights"))
        state.phase, state.pending_castle = "lay", None
        self._after_lay(state, seat, events)

    def _after_lay(self, state: RaubRitterState, seat: int, events: list[Event]) -> None:
        """Draw a replacement, then end the turn if nothing but `end` would be left."""
        if state.piles[seat]:
            drawn = state.piles[seat].pop(0)
            state.hands[seat].append(drawn)
            events.append(Event(msg("raubritter.event.you_draw", tile=tile_msg(drawn)), seat=seat, kind="draw"))
        if (state.lays_this_turn >= MAX_LAYS_PER_TURN or not state.hands[seat]
                or not legal_squares(state.board, state.geometry)):
            self._end_turn(state, events)

    def _end_turn(self, state: RaubRitterState, events: list[Event]) -> None:
        state.recent_turns = (state.recent_turns + [(state.turn, tuple(state.this_turn))])[-state.seats:]
        state.this_turn = []
        state.lays_this_turn = 0
        following = [(state.turn + step) % state.seats for step in range(1, state.seats + 1)]
        with_tiles = [s for s in following if state.hands[s]]
        if not with_tiles:
            self._finish(state, "all_laid", events)
        elif not legal_squares(state.board, state.geometry):
            self._finish(state, "area_full", events)
        else:
            state.turn = with_tiles[0]
            events.append(Event(msg("raubritter.event.turn", player=SeatRef(state.turn)), kind="turn"))

    def _finish(self, state: RaubRitterState, reason: str, events: list[Event]) -> None:
        state.phase, state.end_reason = "over", reason
        finished = self.outcome(state)
        assert finished is not None  # the phase is over just above
        events.append(Event(msg("raubritter.event.over", result=result_msg(finished)), kind="end"))

    # ------------------------------------------------------------------------------------
    # Labels, views, results

    def describe(self, state: RaubRitterState, seat: int, action: Action) -> Msg:
        """The label depends on the grid and the castle awaiting knights alone: kept by those
        (the bot describes every legal move several times a move: a seat's choices, the
        public-move probes of hidden variants)."""
        try:
            return _label(state.geometry, state.pending_castle, action)
        except TypeError:  # arguments that are no tuple of texts: not kept
            return _described(state.geometry, state.pending_castle, action)

    def suggest(self, state: RaubRitterState, seat: int, rng: random.Random, *, strength: str = "normal",
                clock: Callable[[], float] | None = None) -> Action:
        """The computer player (see `ai.py`): a legal action from this seat's view only."""
        if strength == "strong":  # a search over the normal player (games.search)
            return suggest_strong(self, state, seat, rng, clock=clock)
        return suggest(self, state, seat, rng)

    def scores(self, state: RaubRitterState) -> list[int]:
        """Points for the top knights now on the board (public)."""
        return score(state)

    def search_time(self, state: RaubRitterState) -> float:
        """The first lay sets the turn (what follows it mostly finishes the plan): the strong
        player weighs it for longer."""
        return TURN_DECISION if state.phase == "lay" and state.lays_this_turn == 0 else 1.0

    def search_order(self, state: RaubRitterState, seat: int, actions: list[Action]) -> list[Action]:
        """The moves the normal player values most first (games.search weighs the first few)."""
        return ranked(self, state, seat, actions)

    def search_scores(self, state: RaubRitterState) -> list[float]:
        """Points on top, in full where no rival can come any more, and knights at hand (public)."""
        return standing_scores(state)

    def hint(self, state: RaubRitterState, seat: int, rng: random.Random, *,
             clock: Callable[[], float] | None = None) -> tuple[Action, Msg]:
        """The strong player's move for `seat` and why, from the seat's view only."""
        return hint(self, state, seat, rng, clock=clock)

    def view(self, state: RaubRitterState, seat: int | None) -> dict[str, Any]:
        return build_view(self, state, seat)

    def outcome(self, state: RaubRitterState) -> Outcome | None:
        if state.phase != "over":
            return None
        points = score(state)
        unused = list(state.knights_left)
        best = max(zip(points, unused))
        winners = tuple(s for s in range(state.seats) if (points[s], unused[s]) == best)
        best_points = max(points)
        tied_on_points = points.count(best_points) > 1
        ended = msg(f"raubritter.ended.{state.end_reason}")
        if not tied_on_points:
            reason = msg("raubritter.reason.points", ended=ended, points=best_points)
        elif len(winners) == 1:
            reason = msg("raubritter.reason.knights", ended=ended, points=best_points, knights=best[1])
        else:
            reason = msg("raubritter.reason.shared", ended=ended, points=best_points, knights=best[1])
        return Outcome(winners=winners, scores=tuple(points), reason=reason,
                       details={"points": list(points), "unused_knights": unused, "end": state.end_reason})

    def to_dict(self, state: RaubRitterState) -> dict[str, Any]:
        return state_io.to_dict(state)

    def from_dict(self, data: Mapping[str, Any]) -> RaubRitterState:
        return state_io.from_dict(data)

    def exposure(self, state: RaubRitterState) -> tuple[Any, ...]:
        """What changes only when chance is drawn or something hidden comes to light: the chance
        counter, the piles' sizes (a tile drawn into a hand), and the secret keep choice (its
        reveal ends the keep phase)."""
        return (state.chance_counter, tuple(len(pile) for pile in state.piles), state.phase == "keep")

    def hidden_variant(self, state: RaubRitterState, owner: int | None, rng: random.Random) -> RaubRitterState:
        """Owner seat: its hand faces are dealt afresh from the hidden tiles of the same letter
        (hand and pile), and an open keep choice may differ. Owner None: every pile is shuffled
        within each letter. The backs everyone sees stay where they are."""
        new = state.clone()
        if owner is None:
            for seat in range(new.seats):
                new.piles[seat] = _shuffle_within_letters(new.piles[seat], rng)
            return new
        hand_size = len(new.hands[owner])
        # Hand and pile together, reshuffled within each letter: every back stays in place.
        tiles = _shuffle_within_letters(new.hands[owner] + new.piles[owner], rng)
        new.hands[owner], new.piles[owner] = tiles[:hand_size], tiles[hand_size:]
        if new.phase == "keep" and new.kept[owner] is not None:
            new.kept[owner] = rng.choice(_keep_choices(new.hands[owner]))
        return new


# ----------------------------------------------------------------------------------------
# Helpers


_END = Action("end")


@functools.lru_cache(maxsize=1024)
def _lay(face: str, square: Square) -> Action:
    """The action laying `face` on `square` (made once: a legal-move list holds a few dozen)."""
    return Action("lay", (face, square_name(square)))


@functools.lru_cache(maxsize=1024)
def _label(geometry: Geometry, pending_castle: Square | None, action: Action) -> Msg:
    """`_described`, kept (labels are shared: never changed). A move's labels are some 75 (a
    seat's choices and the probes'); 1,024 of them, about 1.4 MiB, cover a few tables' moves."""
    return _described(geometry, pending_castle, action)


def _described(geometry: Geometry, pending_castle: Square | None, action: Action) -> Msg:
    """`RaubRitter.describe` of a state with that grid and castle awaiting knights."""
    action = _canonical(geometry, action)
    args = action.args
    if action.verb == "keep" and args and _is_face(args[0]):
        return msg("raubritter.label.keep", face=face_msg(args[0]))
    if action.verb == "lay" and len(args) == 2 and _is_face(args[0]):
        return msg("raubritter.label.lay", face=face_msg(args[0]), square=args[1])
    if action.verb == "end":
        return msg("raubritter.label.end")
    if action.verb == "knights" and len(args) == 2 and pending_castle is not None \
            and args[0] in ("-", *DIRECTION_NAMES) and all(n.isdigit() for n in args[1].split(",")):
        counts = [int(n) for n in args[1].split(",")]
        total = sum(counts)
        if total == 0:
            return msg("raubritter.label.no_knights")
        if args[0] == "-":
            return msg("raubritter.label.knights_stay", count=total)
        squares = path(pending_castle, args[0], len(counts))
        spread = " ".join(f"{geometry.name(sq)}:{n}" for sq, n in zip(squares, counts))
        return msg("raubritter.label.knights_move", count=total, direction=msg(f"raubritter.direction.{args[0]}"),
                   spread=spread)
    return msg("raubritter.label.unknown", text=action.encode()[:60])


def _canonical(geometry: Geometry, action: Action) -> Action:
    """The canonical spelling of a typed action ("lay fv d5" -> "lay Fv D5"), so that
    check_turn compares like with like. Unreadable text is left for check_turn to refuse."""
    args = action.args
    if action.verb in ("keep", "lay") and args:
        face = args[0][:1].upper() + args[0][1:].lower()
        args = (face, *args[1:])
        if action.verb == "lay" and len(args) == 2:
            square = geometry.parse(args[1])
            if square is not None:
                args = (face, geometry.name(square))
    elif action.verb == "knights" and len(args) == 2:
        direction = args[0].upper()
        try:
            counts = [int(n) for n in args[1].split(",")]
        except ValueError:
            return Action(action.verb, args)
        if len(counts) == 1:
            direction = "-"  # a single count never moves: everything stays on the castle
        args = (direction, ",".join(map(str, counts)))
    return Action(action.verb, args)


def _distinct_faces(hand: list[str]) -> list[str]:
    return list(dict.fromkeys(tile[1:] for tile in hand))


def _keep_choices(hand: list[str]) -> list[str]:
    """Faces of the A tiles a player may keep besides the (first) castle."""
    castle_index = next(i for i, t in enumerate(hand) if building_of(t[1:]) == "castle")
    return _distinct_faces([t for i, t in enumerate(hand) if i != castle_index])


def _knights_actions(state: RaubRitterState) -> tuple[Action, ...]:
    """The knights actions of the state (`_knight_options`), kept by all they depend on: the
    castle, how many knights may go, and the tiles a stack of that many can reach (the bot asks
    for them from its choices, the forced-move check, the move's check and the probes)."""
    most = min(MAX_KNIGHTS_PLACED, state.knights_left[state.turn])
    if most < 1:
        return tuple(_knights_action(direction, counts) for direction, counts in _knight_options(state))
    castle = state.castle_awaiting_knights
    key = (castle, most, state.board[castle], tuple(
        state.board.get((castle[0] + dc * step, castle[1] + dr * step))
        for dc, dr in DIRECTIONS.values() for step in range(1, most)))
    actions = _kept_knights_actions.get(key)
    if actions is None:
        actions = tuple(_knights_action(direction, counts) for direction, counts in _knight_options(state))
        if len(_kept_knights_actions) >= 64:
            _kept_knights_actions.clear()
        _kept_knights_actions[key] = actions
    return actions


_kept_knights_actions: dict[tuple[Any, ...], tuple[Action, ...]] = {}


def _knights_action(direction: str, counts: tuple[int, ...]) -> Action:
    return Action("knights", (direction, ",".join(map(str, counts))))


def _knight_options(state: RaubRitterState) -> list[tuple[str, tuple[int, ...]]]:
    """Every legal knights action: no knights, then for each stack size every way to place it."""
    options: list[tuple[str, tuple[int, ...]]] = [("-", (0,))]
    most = min(MAX_KNIGHTS_PLACED, state.knights_left[state.turn])
    for knights in range(1, most + 1):
        options.extend(knight_moves(state.board, state.castle_awaiting_knights, knights))
    return options


def _shuffle_within_letters(pile: list[str], rng: random.Random) -> list[str]:
    result = list(pile)
    for letter in sorted({t[0] for t in pile}):
        indices = [i for i, t in enumerate(pile) if t[0] == letter]
        tiles = [pile[i] for i in indices]
        rng.shuffle(tiles)
        for i, tile in zip(indices, tiles):
            result[i] = tile
    return result


def _is_face(text: str) -> bool:
    return len(text) in (1, 2) and text[0] in TERRAIN_CODES and (len(text) == 1 or text[1] in BUILDING_CODES)
