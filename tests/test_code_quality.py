"""The linter guards the code: `ruff check`, as configured in pyproject.toml, finds nothing to say
about the project (its output is the failure message)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """A checker run as a module of the interpreter running the tests, from the project's root
    (where pyproject.toml configures it)."""
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, input=stdin, capture_output=True, text=True,
                          timeout=600)


def test_ruff_finds_nothing() -> None:
    result = run("ruff", "check", "--no-fix", ".")
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_linter_does_complain_about_bad_code() -> None:
    """The test above could pass by checking nothing: the same checker refuses a flaw."""
    linted = run("ruff", "check", "--no-fix", "--stdin-filename", "games/example.py", "-", stdin="import os\n")
    assert linted.returncode == 1 and "F401" in linted.stdout
