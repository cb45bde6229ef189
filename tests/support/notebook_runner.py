"""Execute notebooks two at a time, in processes of their own, while the tests read the results.

``tests/lessons/test_notebooks.py`` keeps one test per notebook; what each test waits for is
the execution this pool started for it, in the tests' order, so the first notebook's test ends
as soon as its notebook does. Each notebook runs in a kernel of its own (nbclient starts one),
driven from a process started with ``spawn``: nothing of the test process (Playwright's loop and
threads after the browser tests) is shared with it.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

#: Notebooks executed at once: each keeps one core busy in its kernel, and the machine has two.
WORKERS = max(1, min(2, os.cpu_count() or 1))
#: Seconds one cell may take.
CELL_TIMEOUT_S = 300


def execute(path: str) -> list[dict[str, Any]]:
    """Run the notebook at ``path`` top to bottom in a fresh kernel, in its own folder; the error
    outputs its cells printed (an empty list when every cell ran)."""
    import nbformat
    from nbclient import NotebookClient

    notebook = nbformat.read(path, as_version=4)
    NotebookClient(
        notebook,
        timeout=CELL_TIMEOUT_S,
        kernel_name="python3",
        resources={"metadata": {"path": str(Path(path).parent)}},
    ).execute()
    return [
        dict(output)
        for cell in notebook.cells
        if cell.cell_type == "code"
        for output in cell.get("outputs", [])
        if output.get("output_type") == "error"
    ]


@contextmanager
def executions(paths: Iterable[Path]) -> Iterator[dict[Path, Future[list[dict[str, Any]]]]]:
    """Start executing ``paths``, in their order, :data:`WORKERS` at a time; each path's future
    gives :func:`execute`'s result. Leaving the block cancels what has not started."""
    pool = ProcessPoolExecutor(max_workers=WORKERS, mp_context=multiprocessing.get_context("spawn"))
    try:
        yield {path: pool.submit(execute, str(path)) for path in paths}
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
