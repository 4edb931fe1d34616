"""The tournaments' listener on the move pipeline (bot.moves): the change that ends a tournament
table's game also writes the table's result and marks the tournament's message owed, in its own
transaction; once it is stored the tournament is kicked (the next round may begin). And a gate:
a table whose time ran out is the computer's to finish, so its players' moves are refused.
"""
from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any

from bot.changes import Done, End, Move, Snapshot, states
from bot.errors import Refusal
from bot.league.ratings import placings
from bot.locale import table_language
from bot.records import outcome_record, running_scores
from bot.storage import Write
from bot.store import Storage
from bot.tournaments.pairing import competition_ranks
from bot.tournaments.storage import owed_write, result_write
from bot.tournaments.texts import words

log = logging.getLogger(__name__)

NOT_TABLES_KEPT = 20_000  # game ids known to be no tournament table's (some 2 MiB at most)


class TournamentListener:
    def __init__(self, storage: Storage, kick: Callable[[int], None]) -> None:
        self.storage = storage
        self.kick = kick  # tournament id -> its rounds move on (bot.tournaments.runner)
        # Games found to be no tournament table's: whether a game is one is fixed when it is made
        # (its table is linked in the transaction that makes it), so their moves ask no more.
        self._not_tables: OrderedDict[int, None] = OrderedDict()

    async def prepare(self, done: Done) -> Sequence[Write]:
        if not done.ended or done.table.status == "lobby":
            return []  # a lobby closed (its tournament cancelled before it started) has no result
        try:
            table = await self.storage.tournaments.table_of_game(done.table.id)
            if table is None or table.over:
                return []
            result = table_result(done, table.players)
        except Exception:
            log.exception("Could not count game %s for its tournament", done.table.id)
            return []
        log.info("tournament=%s round=%s table=%s game=%s done: places %s", table.tournament_id, table.round,
                 table.number, done.table.id, result["places"])
        return [result_write(table.tournament_id, table.round, table.number, result), owed_write(table.tournament_id)]

    async def after(self, done: Done) -> None:
        if not done.ended:
            return
        table = await self.storage.tournaments.table_of_game(done.table.id)
        if table is not None:
            self.kick(table.tournament_id)

    async def gate(self, snapshot: Snapshot, seat: int) -> None:
        """Refuse a player's move at a table the computer finishes (its time ran out, or its
        tournament was cancelled with that rule)."""
        table = snapshot.table
        if table.id in self._not_tables:
            return
        found = await self.storage.tournaments.overtime_of(table.id)
        if found is None:
            self._not_tables[table.id] = None
            while len(self._not_tables) > NOT_TABLES_KEPT:
                self._not_tables.popitem(last=False)
            return
        tournament_id, status, overtime = found
        if not overtime:
            return
        if status == "cancelled":
            raise Refusal(words(table_language(table), "cancelled_no_moves", id=tournament_id))
        raise Refusal(words(table_language(table), "overtime_no_moves"))


def table_result(done: Done, players: Sequence[int]) -> dict[str, Any]:
    """How an ended game counts for its tournament table, in the order of `players` (the
    table's seat order): each seat's place (1 first; equal places tie), its score and how the
    game ended ("finished", "scored": by the rule when its time ran out, "abandoned")."""
    change = done.change
    table, game = change.table, change.game
    seats = range(len(table.players))
    _, after = states(change)
    match change:
        case Move() if done.outcome is not None:
            record = outcome_record(done.outcome)
            how = "finished"
        case End(status=status, result=result):
            record = dict(result)
            how = record.get("how") or ("finished" if status == "finished" else "abandoned")
        case _:
            raise ValueError(f"A {type(change).__name__} that ends no game has no result")
    scores = record.get("scores")
    if not isinstance(scores, list):
        scores = running_scores(game, after) if after is not None else None
    if record.get("winners") or isinstance(record.get("scores"), list):
        keys = placings(record, seats)
    elif scores is not None:
        best = max(scores, default=0)
        keys = placings({"winners": [s for s in seats if scores[s] == best], "scores": scores}, seats)
    else:
        keys = {seat: 0 for seat in seats}  # nothing to tell them apart: they share the place
    left = {record[key] for key in ("resigned", "timed_out") if isinstance(record.get(key), int)}
    if left:  # whoever resigned or ran out of time (with timeout=end) comes last
        worst = max(keys.values(), default=0) + 1
        keys = {seat: worst if seat in left else key for seat, key in keys.items()}
    ranks = competition_ranks([keys[seat] for seat in seats])
    by_user = {table.player_at(seat).user_id: seat for seat in seats}
    order = [by_user[user] for user in players]
    return {"places": [ranks[seat] for seat in order],
            "scores": [float(scores[seat]) if scores is not None and seat < len(scores) else 0.0 for seat in order],
            "how": how}
