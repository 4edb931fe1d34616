"""Every command the README and docs/ name exists in the bot's command tree, with the options
they name: the docs tell the truth about what a player can type."""
from __future__ import annotations

import re
from pathlib import Path

from discord import app_commands

ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
# "/game new <game> options:deadline=24h", "/game away days:3", "/move lay Fv D5"
COMMAND = re.compile(r"`/(game|move)(?: ([a-z]+))?([^`]*)`")
OPTION = re.compile(r"(?<![\w=])([a-z_]+):(?!//)")


def named_commands():
    for path in DOCS:
        for match in COMMAND.finditer(path.read_text(encoding="utf-8")):
            group, sub, rest = match.groups()
            options = set(OPTION.findall(rest)) if group == "game" else set()
            yield path.name, group, sub, options, rest


def test_the_docs_name_commands_at_all():
    assert sum(1 for _ in named_commands()) > 30


async def test_every_command_and_option_the_docs_name_exists(world):
    tree = {command.name: command for command in world.bot.tree.get_commands()}
    assert "game" in tree and "move" in tree
    subcommands = {command.name: command for command in tree["game"].commands}
    problems = []
    for doc, group, sub, options, rest in named_commands():
        if group == "move":
            continue
        if sub is None:
            continue  # "/game" alone names the group
        command = subcommands.get(sub)
        if command is None:
            problems.append(f"{doc}: /game {sub} does not exist")
            continue
        if isinstance(command, app_commands.Group):  # "/game overview here": a subcommand of a subgroup
            words = rest.split()
            names = {child.name: child for child in command.commands}
            if not words or words[0] not in names:
                problems.append(f"{doc}: /game {sub} {' '.join(words[:1])} does not exist")
                continue
            command = names[words[0]]
        known = {parameter.name for parameter in command.parameters}
        for option in options - known:
            problems.append(f"{doc}: /game {sub} has no option {option}:")
    assert not problems, "\n".join(problems)
