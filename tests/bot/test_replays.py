"""Games replayed to judge clicks on older messages are carried on from where the last replay
stopped, and come out exactly as a replay from the start."""
from __future__ import annotations

import random

from bot.replay import UNDO, Replays, replay
from bot.storage import ActionRow, GameRow, SeatRow
from games import REGISTRY

GAME = REGISTRY["gluecksritter"]


def table(seed: int = 7, game_id: int = 1) -> GameRow:
    players = tuple(SeatRow(user_id=100 + seat, name=f"P{seat}", seat=seat, dm_ok=True) for seat in range(4))
    return GameRow(id=game_id, guild_id=1, channel_id=2, game="gluecksritter", status="active", host_id=100,
                   options={}, seed=seed, state=None, version=0, result=None, lobby_message_id=None,
                   board_message_id=None, created_at=0, updated_at=0, players=players)


def log_of(row: GameRow, moves: int) -> list[ActionRow]:
    state = GAME.new_game(4, seed=row.seed, options=row.options)
    rng = random.Random(row.seed)
    rows = []
    for version in range(1, moves + 1):
        seat = min(GAME.to_act(state))
        action = GAME.suggest(state, seat, rng)
        state, _ = GAME.apply(state, seat, action)
        rows.append(ActionRow(version=version, seat=seat, action=action.encode(), at=version))
    return rows


def dumped(states) -> list[dict]:
    return [GAME.to_dict(state) for state in states]


def test_a_replay_carried_on_is_the_replay_from_the_start():
    row = table()
    rows = log_of(row, 60)
    replays = Replays()
    for count in (10, 11, 30, 30, 60):
        states, moves = replays.replay(GAME, row, rows[:count])
        fresh_states, fresh_moves = replay(GAME, row, rows[:count])
        assert dumped(states) == dumped(fresh_states)
        assert [move.events for move in moves] == [move.events for move in fresh_moves]


def test_a_log_that_does_not_go_on_from_the_last_replay_is_replayed_afresh():
    row = table()
    rows = log_of(row, 20)
    replays = Replays()
    replays.replay(GAME, row, rows)
    # An undo appended: carried on, it goes back one state.
    undone = rows + [ActionRow(version=21, seat=rows[-1].seat, action=UNDO, at=21)]
    states, _ = replays.replay(GAME, row, undone)
    assert dumped(states) == dumped(replay(GAME, row, undone)[0])
    # Another table's log, or a shorter one, never reuses this one's states.
    other = table(seed=8, game_id=2)
    assert dumped(replays.replay(GAME, other, log_of(other, 5))[0]) == dumped(replay(GAME, other, log_of(other, 5))[0])
    changed = rows[:10] + [ActionRow(version=11, seat=rows[10].seat, action="nonsense", at=11)]
    try:
        replays.replay(GAME, row, changed)
    except Exception:  # noqa: BLE001 - a log the engine refuses is refused, not taken from the cache
        pass
    else:
        raise AssertionError("a changed log was taken from the cache")


def test_only_a_few_games_are_kept():
    replays = Replays(kept=2)
    for game_id in range(1, 5):
        row = table(seed=game_id, game_id=game_id)
        replays.replay(GAME, row, log_of(row, 3))
    assert len(replays) == 2
