"""A screen draws; it does not run the table (issue 22): a module of ``speculation_nb/app/`` that
imports ipywidgets imports no table store (``classroom.stores.*``) and no referee
(``classroom.referee``), nor the ``classroom`` package itself (which re-exports both). It
observes a session (``classroom.host_session``, ``classroom.member_session``) or the app's model.

Every import statement counts, those under ``if TYPE_CHECKING:`` and inside functions too: the
modules are read as text (``ast``), not imported.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "speculation_nb"
FORBIDDEN = ("speculation_nb.classroom.stores", "speculation_nb.classroom.referee")


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(source: str, name: str, is_package: bool = False) -> list[str]:
    """Every module an import of ``source`` (the module ``name``) may bring in, absolute: for
    ``from X import a``, both ``X`` and ``X.a`` (``a`` may be a submodule)."""
    package = name if is_package else name.rpartition(".")[0]
    found: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                target = ".".join([*base, node.module] if node.module else base)
            else:
                target = node.module or ""
            found.append(target)
            found += [f"{target}.{alias.name}" for alias in node.names]
    return found


def draws(modules: list[str]) -> bool:
    return any(m == "ipywidgets" or m.startswith("ipywidgets.") for m in modules)


def forbidden(modules: list[str]) -> list[str]:
    """The imports a screen may not make (see the module docstring)."""
    return sorted(
        {
            m
            for m in modules
            if m == "speculation_nb.classroom" or any(m == f or m.startswith(f + ".") for f in FORBIDDEN)
        }
    )


def test_the_checker_sees_a_relative_absolute_and_type_checking_import() -> None:
    """The check would catch what it is for (else the test below could pass by seeing nothing)."""
    source = (
        "from typing import TYPE_CHECKING\nimport ipywidgets as widgets\n"
        "from ...classroom.stores.base import open_store\n"
        "if TYPE_CHECKING:\n    from ...classroom.referee import Referee\n"
        "def f():\n    from speculation_nb.classroom import Referee\n"
        "from ...classroom.host_session import HostSession\n"
    )
    modules = imported(source, "speculation_nb.app.teacher.panel")
    assert draws(modules)
    assert forbidden(modules) == [
        "speculation_nb.classroom",
        "speculation_nb.classroom.referee",
        "speculation_nb.classroom.referee.Referee",
        "speculation_nb.classroom.stores.base",
        "speculation_nb.classroom.stores.base.open_store",
    ]
    assert forbidden(imported("from .. import classroom\nfrom ..classroom import stores\n", "speculation_nb.x.y")) == [
        "speculation_nb.classroom",
        "speculation_nb.classroom.stores",
    ]


SCREENS = sorted(PACKAGE.joinpath("app").rglob("*.py"))


def test_the_app_has_screens_to_check() -> None:
    drawing = [p for p in SCREENS if draws(imported(p.read_text(encoding="utf-8"), module_name(p)))]
    assert len(drawing) >= 20 and PACKAGE / "app" / "teacher" / "panel.py" in drawing
    assert PACKAGE / "app" / "student" / "screen.py" in drawing


@pytest.mark.parametrize("path", SCREENS, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_a_screen_imports_no_store_and_no_referee(path: Path) -> None:
    modules = imported(path.read_text(encoding="utf-8"), module_name(path), path.name == "__init__.py")
    if draws(modules):
        assert forbidden(modules) == [], f"{path.relative_to(PACKAGE)} draws and imports {forbidden(modules)}"
