"""Back-ups of the SQLite store and restoring one (`python -m bot backup`, `restore`)."""
from __future__ import annotations

import sqlite3
import time
from pathlib import Path


def backup_file(source: str | Path, target: str | Path) -> None:
    """Copy the database at `source` to `target` with SQLite's back-up API (one step: one read
    snapshot, so concurrent writes never restart it). Also the restore command's copy."""
    target = Path(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".partial")
    partial.unlink(missing_ok=True)
    src = sqlite3.connect(Path(source))
    try:
        dst = sqlite3.connect(partial)
        try:
            src.backup(dst, pages=-1)
            dst.execute("PRAGMA journal_mode = DELETE")  # a self-contained single file
        finally:
            dst.close()
    finally:
        src.close()
    partial.replace(target)


def restore_file(backup: str | Path, database: str | Path) -> Path | None:
    """Put a back-up in place of the database (the bot must be stopped). The back-up is checked
    first; the database it replaces is kept beside it as `<name>.before-restore-<time>`, with its
    WAL files, so a restore can itself be undone. Returns where the old database went."""
    backup, database = Path(backup), Path(database)
    if not backup.is_file():
        raise ValueError("no such file")
    check = sqlite3.connect(f"file:{backup.resolve()}?mode=ro", uri=True)
    try:
        (verdict,) = check.execute("PRAGMA quick_check").fetchone()
        has_games = check.execute("SELECT 1 FROM sqlite_master WHERE name = 'games'").fetchone()
    except sqlite3.DatabaseError as error:
        raise ValueError(f"not a database of this bot ({error})") from None
    finally:
        check.close()
    if verdict != "ok" or not has_games:
        raise ValueError("not an intact database of this bot")
    kept = None
    if database.exists():
        kept = database.with_name(f"{database.name}.before-restore-{time.strftime('%Y%m%d-%H%M%S', time.gmtime())}")
        database.replace(kept)
        for suffix in ("-wal", "-shm"):
            side = database.with_name(database.name + suffix)
            if side.exists():
                side.replace(kept.with_name(kept.name + suffix))
    backup_file(backup, database)
    return kept
