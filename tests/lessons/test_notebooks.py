"""Every notebook in notebooks/ runs top to bottom without an error.

The notebooks run two at a time (``notebook_runner``), started together when the first of these
tests asks; each test then waits for its own notebook."""

from collections.abc import Iterator
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import pytest
from notebook_runner import CELL_TIMEOUT_S, executions

NOTEBOOKS = sorted((Path(__file__).parents[2] / "notebooks").glob("*.ipynb"))


@pytest.fixture(scope="module")
def runs(request: pytest.FixtureRequest) -> Iterator[dict[Path, Future[list[dict[str, Any]]]]]:
    """The executions of the notebooks this session's selected tests check, in their order."""
    chosen = [
        item.callspec.params["path"]
        for item in request.session.items
        if isinstance(item, pytest.Function) and item.originalname == "test_notebook_runs"
    ]
    with executions(chosen) as futures:
        yield futures


@pytest.mark.notebooks
@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_runs(path: Path, runs: dict[Path, Future[list[dict[str, Any]]]]) -> None:
    errors = runs[path].result(timeout=CELL_TIMEOUT_S * 40)
    assert not errors, errors
