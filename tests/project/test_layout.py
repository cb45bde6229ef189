"""The house's rules (``docs/ARCHITECTURE.md``), read from the source: each room imports only the
rooms below it, no module reads another's private names, and every module can be read at once.

Parsed with :mod:`ast`, nothing imported: a broken rule names the file, the line and the rule.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "speculation_nb"
MAX_LINES = 500  # a module a newcomer reads at once (lessons/ excepted: its own issue)
ROOT_MODULES = {"__init__.py", "serve.py", "served_kernels.py", "exercises.py"}

# The rooms, lowest first: a room may import itself and the rooms listed as below it.
BELOW: dict[str, set[str]] = {
    "engine": set(),
    "languages": {"engine"},
    "odds": {"engine", "languages"},
    "simulate": {"engine", "odds"},
    "rendering": {"engine", "languages"},
    "players": {"engine", "odds", "languages"},
    "links": {"engine", "odds", "players", "languages", "rendering"},
    "classroom": {"engine", "odds", "players", "languages", "links"},
}
UI_LIBRARIES = ("ipywidgets", "anywidget", "matplotlib", "ipympl", "IPython")


def modules() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if "__pycache__" not in p.parts)


def room(path: Path) -> str:
    rel = path.relative_to(PACKAGE)
    return rel.parts[0] if len(rel.parts) > 1 else ""


def absolute_imports(path: Path) -> list[tuple[int, str, list[str], str]]:
    """(line, module, names, enclosing function or "") for every import of ``path``, relative
    ones resolved."""
    rel = path.relative_to(PACKAGE.parent).with_suffix("")
    package = list(rel.parts[:-1]) if rel.name != "__init__" else list(rel.parts)
    found = []

    def visit(node: ast.AST, function: str) -> None:
        if isinstance(node, ast.Import):
            found.extend((node.lineno, a.name, [], function) for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            found.append((node.lineno, module, [a.name for a in node.names], function))
        for child in ast.iter_child_nodes(node):
            visit(child, node.name if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) else function)

    visit(ast.parse(path.read_text(encoding="utf-8")), "")
    return found


def test_the_root_holds_at_most_four_modules():
    assert {p.name for p in PACKAGE.glob("*.py")} <= ROOT_MODULES


@pytest.mark.parametrize("path", modules(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_a_module_is_read_at_once(path):
    if room(path) == "lessons":
        pytest.skip("lessons/ is its own issue's")
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_LINES, f"{path.relative_to(PACKAGE)} has {lines} lines"


@pytest.mark.parametrize("path", modules(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_each_room_imports_only_the_rooms_below_it(path):
    here = room(path)
    if here not in BELOW:
        return
    for line, module, _, function in absolute_imports(path):
        parts = module.split(".")
        if function.startswith("_repr_") and parts[:2] == ["speculation_nb", "rendering"]:
            continue  # a value draws itself in a notebook (as python-chess's Board._repr_svg_ does)
        if parts[0] in UI_LIBRARIES:
            pytest.fail(f"{path.relative_to(PACKAGE)}:{line} imports {module}: no UI below the app")
        if parts[0] == "speculation_nb" and len(parts) > 1 and parts[1] in {*BELOW, "app", "lessons", "widgets"}:
            allowed = {here, *BELOW[here]}
            assert parts[1] in allowed, f"{path.relative_to(PACKAGE)}:{line} imports {module} (a room above)"


@pytest.mark.parametrize("path", modules(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_module_reads_another_modules_private_names(path):
    for line, module, names, _ in absolute_imports(path):
        if module.startswith("speculation_nb"):
            private = [n for n in names if n.startswith("_") and not n.startswith("__")]
            assert not private, f"{path.relative_to(PACKAGE)}:{line} imports {private} from {module}"
