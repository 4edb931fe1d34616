"""The linter and the type checker guard the code: `ruff check` and `mypy`, as configured in
pyproject.toml, find nothing to say about the project (their output is the failure message)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """A checker run as a module of the interpreter running the tests, from the project's root
    (where pyproject.toml configures it and mypy keeps its cache, .mypy_cache)."""
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, input=stdin, capture_output=True, text=True,
                          timeout=600)


def test_ruff_finds_nothing() -> None:
    result = run("ruff", "check", "--no-fix", ".")
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_finds_nothing() -> None:
    result = run("mypy")
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_checkers_do_complain_about_bad_code(tmp_path: Path) -> None:
    """The two tests above could pass by checking nothing: the same checkers refuse a flaw."""
    linted = run("ruff", "check", "--no-fix", "--stdin-filename", "games/example.py", "-", stdin="import os\n")
    assert linted.returncode == 1 and "F401" in linted.stdout
    untyped = tmp_path / "half.py"
    untyped.write_text("def half(value):\n    return value / 2\n")
    typed = run("mypy", "--no-incremental", str(untyped))
    assert typed.returncode == 1 and "no-untyped-def" in typed.stdout, typed.stdout
