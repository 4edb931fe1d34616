"""`python -m bot ratings rebuild`: every rating worked out again from the stored results.

The ratings the bot keeps (`league_ratings`, `league_history`) follow from what is stored of
each ended game: its result, its seats, the table's settings, the computer's seats and each
seat's counted moves (`league_moves`), in the order the games ended (`league_games`). A rebuild
folds the same rules (bot.league.ratings) over them, oldest first, and replaces both tables in
one transaction; so a change of the formula or of the rules loses nothing. The bot may keep
running: a game that ends meanwhile waits for the transaction and then counts on top.
"""
from __future__ import annotations

from dataclasses import dataclass

from bot.league.ratings import FinishedGame, Rating, applied, judge, rate
from bot.league.storage import history_write
from bot.storage import Write
from bot.store import Storage


@dataclass(frozen=True)
class Rebuilt:
    ended: int    # ended games looked at
    rated: int    # of which rated
    players: int  # ratings (player, game, server) made


async def rebuild(storage: Storage) -> Rebuilt:
    ratings: dict[tuple[int, str, int], Rating] = {}
    names: dict[tuple[int, str, int], str] = {}
    last_at: dict[tuple[int, str, int], int] = {}
    verdicts: list[tuple[int, str | None]] = []
    writes: list[Write] = []
    games = await storage.league.finished_games()
    for ended in games:
        verdict = judge(FinishedGame(status=ended["status"], result=ended["result"], holders=ended["holders"],
                                     practice=ended["practice"], computer=ended["computer"], moves=ended["moves"]))
        verdicts.append((ended["id"], verdict.reason))
        if not verdict.rated:
            continue
        guild_id, game = ended["guild_id"], ended["game"]
        current = {entry.user_id: ratings[key] for entry in verdict.entries
                   if (key := (guild_id, game, entry.user_id)) in ratings}
        for change in rate(verdict.entries, current):
            key = (guild_id, game, change.entry.user_id)
            ratings[key] = applied(ratings.get(key), change)
            names[key] = change.entry.name
            last_at[key] = ended["ended_at"]
            writes.append(history_write(ended["id"], guild_id, game, change, ended["ended_at"]))
    for (guild_id, game, user_id), rating in ratings.items():
        writes.append(("INSERT INTO league_ratings (guild_id, game, user_id, name, mu, sigma, games, updated_at) "
                       "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                       (guild_id, game, user_id, names[guild_id, game, user_id], rating.mu, rating.sigma, rating.games,
                        last_at[guild_id, game, user_id])))
    await storage.league.replace_all(verdicts, writes)
    return Rebuilt(len(games), sum(reason is None for _, reason in verdicts), len(ratings))
