"""What a seat may choose, in words, and which choices may go on the public board.

Everything a player chooses comes from the engine's `legal_actions`; labels come from its
`describe`, put into words with the seats' names. A choice goes on the board in the channel only
when it reveals nothing hidden; otherwise it reaches its seat privately (DM or 'My hand').
"""
from __future__ import annotations

import json
import logging
import random
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any

from bot.components import DICE_VERBS, Choice, Toggles
from bot.storage.rows import GameRow, stored_digest
from games.core import Game, hooks
from i18n import t, translate

log = logging.getLogger(__name__)

# Probing hidden variants is only a second leak check (see public_choices); a fixed generator
# keeps it reproducible.
PROBES_PER_OWNER = 2

_ABSENT = object()

KEPT_STATES = 16
"""States whose choices in words, board moves and secrets are kept (`_kept_for`): a move asks
for them of the state it left when planning, when its board and DMs are delivered and at each
toggle tapped on them, each time from a state decoded anew. Sixteen cover a move's own asks and
a toggle's between moves: at a hundred tables a table's next move finds its state gone whether 16 or 64
are kept, and 64 states with their views (up to some 150 KiB a Raub Ritter state) cost 7 MiB."""
_kept: OrderedDict[tuple[str, bytes], dict[Any, Any]] = OrderedDict()


def label_names(table_or_names: Any) -> list[str]:
    """Seat names as plain text for labels (buttons, menus, autocomplete): no Markdown there."""
    return list(getattr(table_or_names, "names", table_or_names) or [])


def choices_for(game: Game, state: Any, seat: int, names: Sequence[str] = (), lang: str = "en", *,
                leaving_out: frozenset[str] = frozenset()) -> list[Choice]:
    """The seat's legal actions with their labels in words: engine text (a Msg or a legacy
    string with `{s0}` placeholders) always goes through `i18n.translate` with the names.
    `leaving_out`: verbs whose actions a message shows as toggles (`components.private_toggled`),
    left out undescribed (a Knatsch roll's 63 ways to roll again, a Glücksritter's pairs of cards)."""
    def work() -> list[Choice]:
        encoded = ((action, action.encode()) for action in game.legal_actions(state, seat))
        return [Choice(text, translate(game.describe(state, seat, action), lang, names)) for action, text in encoded
                if not leaving_out or text.split(" ", 1)[0] not in leaving_out]
    return list(_worked_out(game, state, ("choices", seat, lang, tuple(names), leaving_out), work))


def choices_offered(game: Game, state: Any, seat: int, names: Sequence[str], lang: str,
                    toggled: frozenset[str]) -> tuple[list[Choice], bool]:
    """`choices_for` less the actions of the verbs `toggled` (shown as toggles), and whether the
    seat has any legal action at all (those included)."""
    choices = choices_for(game, state, seat, names, lang, leaving_out=toggled)
    return choices, bool(choices) or (bool(toggled) and bool(game.legal_actions(state, seat)))


def toggles_for(game: Game, state: Any, seat: int, names: Sequence[str] = (), lang: str = "en") -> list[Toggles]:
    """Families of the seat's actions the engine wants shown as toggles, with every text in
    words; a toggle names its item's position and value ("Die 3: 5")."""
    if not game.features.toggles:
        return []
    return list(_worked_out(game, state, ("toggles", seat, lang, tuple(names)),
                            lambda: _toggles(game, state, seat, names, lang)))


def _toggles(game: Game, state: Any, seat: int, names: Sequence[str], lang: str) -> list[Toggles]:
    families = []
    for family in hooks(game).subset_choices(state, seat):
        item_id = "bot.table.die_item" if family.verb in DICE_VERBS else "bot.table.toggle_item"
        items = tuple((value, t(lang, item_id, position=value, value=translate(label, lang, names)))
                      for value, label in family.items)
        families.append(Toggles(family.verb, items, translate(family.prompt, lang, names),
                                translate(family.confirm, lang, names), size=family.size,
                                chosen=tuple(family.chosen)))
    return families


def private_delta(mine: Any, public: Any) -> Any:
    """The part of a seat's view that the public view does not show (recursively)."""
    if isinstance(mine, dict) and isinstance(public, dict):
        return {key: private_delta(value, public.get(key, _ABSENT)) for key, value in mine.items()
                if key != "viewer" and value != public.get(key, _ABSENT)}
    if isinstance(mine, list) and isinstance(public, list) and len(mine) == len(public):
        return [None if a == b else private_delta(a, b) for a, b in zip(mine, public)]
    return mine


def seat_secrets(view: Any, public: Any) -> Any:
    """`private_delta(view, public)` of a seat's view and the public view of the same state,
    worked out once for the same view objects (`SECRETS_KEPT`): a move's plan asks it of each
    seat's views before and after the move, its delivery of those after again (whether a DM has
    a picture, which to draw), the next move's plan of them as the views before it; views are
    never changed once made, and those of the states kept are shared (`KeptViews`). The delta
    handed out is shared: read it, never change it."""
    kept = _secrets.get(id(view))
    if kept is not None and kept[0] is view and kept[1] is public:
        return kept[2]
    delta = private_delta(view, public)
    # Held with the delta, so that no other view takes its id while it is kept.
    _secrets[id(view)] = (view, public, delta)
    if len(_secrets) > SECRETS_KEPT:
        del _secrets[next(iter(_secrets))]
    return delta


SECRETS_KEPT = 32
"""Views whose `seat_secrets` is kept: those of a move's states before and after it, each seat's
(the views themselves are kept with their states: `KEPT_STATES`)."""
_secrets: dict[int, tuple[Any, Any, Any]] = {}


def has_secrets(game: Game, state: Any, seats: int) -> bool:
    """A game shows secrets now if some seat's view holds more than the public view. Without
    secrets every move is a board button: no 'My hand' button and no DMs."""
    return bool(_worked_out(game, state, ("secrets", seats), lambda: _has_secrets(game, state, seats)))


def public_choices(game: Game, state: Any, seats: int, names: Sequence[str] = (), lang: str = "en") -> list[Choice]:
    """Moves that may go on the public board: only when one seat acts and its options reveal
    nothing hidden (`_public_moves`)."""
    kept = _kept_for(game, state)
    moves = _worked_out(game, state, ("moves", seats), lambda: _public_moves(game, state, seats), kept)
    return list(_worked_out(game, state, ("public", seats, lang, tuple(names)), lambda: [
        Choice(action, translate(label, lang, names)) for action, label in moves], kept))


def _worked_out(game: Game, state: Any, what: tuple[Any, ...], work: Callable[[], Any],
                kept: dict[Any, Any] | None = None) -> Any:
    """`work()`, done once a state: kept by the state's stored form (`game.to_dict`), which the
    plan's state shares with the ones decoded anew from the store for its delivery and for each
    toggle tapped on its messages. What is kept depends on the state alone (and on `what`: the
    seat, language and names; the probes of `_public_moves` draw from a fixed generator). The
    lists kept are shared: callers get copies of them. `kept`: the state's (`_kept_for`)."""
    if kept is None:
        kept = _kept_for(game, state)
    if what not in kept:
        kept[what] = work()
    return kept[what]


def stored_state(game: Game, table: GameRow) -> Any:
    """`game.from_dict(table.started_state)`, decoded once a stored form and kept with what is
    worked out of it (by the digest of the text read, `GameRow.state_digest`): a move's state is
    read again by its delivery, by each toggle tapped on its messages and by the next move, and a
    state never changes (`Game.apply` makes a new one), so one object serves them all."""
    digest = table.state_digest
    if digest is None:
        return game.from_dict(table.started_state)
    kept = _kept_at((game.name, digest))
    if STATE not in kept:
        kept[STATE] = game.from_dict(table.started_state)
        _remember_digest(kept[STATE], digest)
    return kept[STATE]


STATE = ("state",)
"""What `stored_state` keeps a decoded state under, beside what is worked out of it."""


def stored_form(game: Game, state: Any) -> str:
    """The state's stored form (the JSON text of `game.to_dict`: what a change stores), made
    once: its digest is remembered for `state_fingerprint` (a move's plan asks it of the state
    the move made), and the state kept as the `stored_state` of a row holding this text (the
    move's delivery and the next move read it back)."""
    text = json.dumps(game.to_dict(state))
    digest = stored_digest(text)
    _remember_digest(state, digest)
    _kept_at((game.name, digest))[STATE] = state
    return text


def _remember_digest(state: Any, digest: bytes) -> None:
    _digests[id(state)] = (state, digest)  # held, so that no other state takes its id meanwhile
    if len(_digests) > KEPT_STATES:
        del _digests[next(iter(_digests))]


_digests: dict[int, tuple[Any, bytes]] = {}
"""`stored_digest` of the stored form of the states kept (`stored_form`, `stored_state`), by the
state's id."""


class KeptViews:
    """A game whose views of the states kept (`stored_state`, `stored_form`: the very objects,
    read back or made by a move) are worked out once each and kept with them: a move's plan asks
    for the views of the state before it and after it, its delivery pass for those after it, the
    next move's plan for them again. Any other state, and everything else, is the game's own.
    The views it hands out are shared: read them, never change them."""

    def __init__(self, game: Game) -> None:
        self.game = game

    def __getattr__(self, name: str) -> Any:
        value = self.__dict__[name] = getattr(self.game, name)  # found on the instance when asked again
        return value

    def view(self, state: Any, seat: int | None) -> dict[str, Any]:
        known = _digests.get(id(state))
        kept = _kept.get((self.game.name, known[1])) if known is not None and known[0] is state else None
        if kept is None or kept.get(STATE) is not state:
            return self.game.view(state, seat)
        what = ("view", seat)
        if what not in kept:
            kept[what] = self.game.view(state, seat)
        return kept[what]


def _kept_for(game: Game, state: Any) -> dict[Any, Any]:
    fingerprint = _fingerprint(game, state)
    if fingerprint is None:
        return {}  # kept nowhere: worked out each time
    return _kept_at((game.name, fingerprint))


def _kept_at(key: tuple[str, bytes]) -> dict[Any, Any]:
    kept = _kept.get(key)
    if kept is None:
        kept = _kept[key] = {}
        if len(_kept) > KEPT_STATES:
            _kept.popitem(last=False)
    else:
        _kept.move_to_end(key)
    return kept


def _fingerprint(game: Game, state: Any) -> bytes | None:
    """The state's stored form, digested (None: a state that has none). A game that remembers
    its states (`bot.turns.Remembering`) digests each once."""
    remembered = getattr(game, "remembered_fingerprint", None)
    if remembered is not None:
        return remembered(state, state_fingerprint)
    return state_fingerprint(game, state)


def state_fingerprint(game: Game, state: Any) -> bytes | None:
    """`stored_digest` of the state's stored form (None: a state that has none): the digest of
    a state read from the store is that of the text read (`GameRow.state_digest`)."""
    known = _digests.get(id(state))
    if known is not None and known[0] is state:
        return known[1]
    try:
        stored = json.dumps(game.to_dict(state))
    except (TypeError, ValueError):
        return None
    return stored_digest(stored)


def _has_secrets(game: Game, state: Any, seats: int) -> bool:
    public = game.view(state, None)
    return any(seat_secrets(game.view(state, seat), public) for seat in range(seats))


def _public_moves(game: Game, state: Any, seats: int) -> list[tuple[str, Any]]:
    """The board's moves, encoded, with the engine's labels.

    A seat that holds secrets of its own (its view shows more than the public view: a hand of
    tiles) chooses privately, by DM or 'My hand', unless the engine declares these moves public
    (`moves_are_public`): whether options give a secret away cannot be decided by sampling.
    Then the engine's `hidden_variant` re-deals what is hidden from everyone (a deck's order)
    and the others' secrets; if the options and labels stay the same, they give nothing away.
    """
    to_act = game.to_act(state)
    if len(to_act) != 1:
        return []
    (seat,) = to_act
    if game.features.public_moves:
        if not hooks(game).moves_are_public(state, seat):
            return []
    elif seat_secrets(game.view(state, seat), game.view(state, None)):
        return []
    actions = game.legal_actions(state, seat)
    raw = [game.describe(state, seat, action) for action in actions]
    probe = random.Random(0)
    public = game.view(state, None)
    # Seats whose view shows nothing beyond the public view hold no secrets to re-deal.
    owners = [None, *(other for other in range(seats)
                      if other != seat and seat_secrets(game.view(state, other), public))]
    try:
        for owner in owners:
            for _ in range(PROBES_PER_OWNER):
                variant = game.hidden_variant(state, owner, probe)
                # The actions first (cheap), then their labels, which may name a secret too.
                if game.legal_actions(variant, seat) != actions or any(
                        game.describe(variant, seat, action) != label
                        for action, label in zip(actions, raw)):
                    return []
    except Exception:
        log.warning("hidden_variant failed for %s; keeping moves off the public board", game.name, exc_info=True)
        return []
    return [(action.encode(), label) for action, label in zip(actions, raw)]
