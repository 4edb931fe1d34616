"""The shape of the code, read with `ast` (nothing is imported): the modules of bot/, games/,
i18n/ and renderers/ import each other without a cycle, no function imports a module where a
module-level import would do, and no function in bot/ is over 60 lines."""
from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("bot", "games", "i18n", "renderers")
LONGEST_FUNCTION = 60  # lines, in bot/

# Imports inside a function (module, what it imports), each with why it is there. An import that
# only dodges a cycle has no place here: the cycle is taken apart instead (a protocol, a
# definition moved down a layer).
FUNCTION_IMPORTS: dict[tuple[str, str], str] = {
    ("bot.postgres", "asyncpg"): "an optional dependency: installed only to run on PostgreSQL",
}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    return {module_name(path): path for package in PACKAGES for path in sorted((ROOT / package).rglob("*.py"))}


KNOWN = modules()


def imported(node: ast.Import | ast.ImportFrom, module: str, is_package: bool, *,
             outside: bool = False) -> Iterator[str]:
    """The project's modules an import statement names (`from bot import presenter` names the
    module `bot.presenter`; `from bot.storage import Storage`, the package `bot.storage`); with
    `outside`, the top-level names of the other modules it imports too (`asyncpg`, `math`)."""
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    else:
        base = node.module or ""
        if node.level:
            package = module.split(".") if is_package else module.split(".")[:-1]
            package = package[:len(package) - (node.level - 1)]
            base = ".".join([*package, base] if base else package)
        names = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in KNOWN else base for alias in node.names]
    for name in names:
        top = name.split(".")[0]
        while name and name not in KNOWN:
            name = name.rpartition(".")[0]
        if name and name != module:
            yield name
        elif not name and outside:
            yield top


def is_type_checking(test: ast.expr) -> bool:
    return "TYPE_CHECKING" in ast.unparse(test)


def walk(tree: ast.AST) -> Iterator[tuple[ast.Import | ast.ImportFrom, str]]:
    """Every import statement with where it is: "module", "type checking" or "function"."""
    def visit(node: ast.AST, where: str) -> Iterator[tuple[ast.Import | ast.ImportFrom, str]]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                yield child, where
            elif isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                yield from visit(child, "function")
            elif isinstance(child, ast.If) and is_type_checking(child.test) and where == "module":
                yield from visit(child, "type checking")
            else:
                yield from visit(child, where)
    return visit(tree, "module")


def import_graph() -> tuple[dict[str, set[str]], list[tuple[str, int, str]]]:
    """Module-level imports of the project's modules as edges; and every import inside a function
    (module, line, what it imports)."""
    graph: dict[str, set[str]] = {module: set() for module in KNOWN}
    inside: list[tuple[str, int, str]] = []
    for module, path in KNOWN.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node, where in walk(tree):
            is_package = path.name == "__init__.py"
            if where == "module":
                graph[module] |= set(imported(node, module, is_package))
            elif where == "function":
                inside += [(module, node.lineno, target)
                           for target in sorted(set(imported(node, module, is_package, outside=True)))]
    return graph, inside


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def connect(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph[node]):
            if target not in index:
                connect(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            connect(node)
    return found


def test_the_modules_import_each_other_without_a_cycle() -> None:
    """Imports under `if TYPE_CHECKING:` are left out: they never run (every module has
    `from __future__ import annotations`), they name a class in annotations only, as the games'
    views and computer players name their engine's class; a module that needs a function of
    another module imports it at module level, and that is what is checked."""
    graph, _ = import_graph()
    assert cycles(graph) == []


def test_a_cycle_is_found() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_no_function_imports_a_module_but_those_listed_with_a_reason() -> None:
    _, inside = import_graph()
    unlisted = [(module, line, target) for module, line, target in inside
                if (module, target) not in FUNCTION_IMPORTS]
    assert unlisted == []
    stale = set(FUNCTION_IMPORTS) - {(module, target) for module, _, target in inside}
    assert stale == set()


def long_functions(tree: ast.AST, module: str) -> Iterator[tuple[str, int]]:
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            assert node.end_lineno is not None
            length = node.end_lineno - node.lineno + 1
            if length > LONGEST_FUNCTION:
                yield f"{module}.{node.name}", length


def test_no_function_in_bot_is_over_60_lines() -> None:
    found = [entry for module, path in KNOWN.items() if module.split(".")[0] == "bot"
             for entry in long_functions(ast.parse(path.read_text(encoding="utf-8")), module)]
    assert found == []


def test_a_long_function_is_found() -> None:
    body = "\n".join(f"    x{n} = {n}" for n in range(LONGEST_FUNCTION))
    assert list(long_functions(ast.parse(f"def long():\n{body}\n"), "m")) == [("m.long", LONGEST_FUNCTION + 1)]
    assert list(long_functions(ast.parse("def short():\n    return 1\n"), "m")) == []


def test_imports_are_told_apart_by_where_they_are() -> None:
    source = ("from typing import TYPE_CHECKING\nimport bot.moves\n"
              "if TYPE_CHECKING:\n    import bot.app\n"
              "def late():\n    import bot.tables\n    import asyncpg\n")
    found = [(where, ast.unparse(node)) for node, where in walk(ast.parse(source))]
    assert found == [("module", "from typing import TYPE_CHECKING"), ("module", "import bot.moves"),
                     ("type checking", "import bot.app"), ("function", "import bot.tables"),
                     ("function", "import asyncpg")]


def test_nothing_in_bot_reaches_for_the_bot_to_find_a_part() -> None:
    """Commands and components are given the parts they use (bot.parts): only the start-up
    imports the bot object, and no click asks the interaction's client for a part."""
    graph, _ = import_graph()
    importers = sorted(module for module, targets in graph.items() if "bot.app" in targets)
    assert importers == ["bot", "bot.__main__"]
    reaching = [module for module, path in KNOWN.items() if module.startswith("bot")
                and "interaction.client" in path.read_text(encoding="utf-8")]
    assert reaching == []
