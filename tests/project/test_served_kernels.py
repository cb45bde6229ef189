"""The served kernels' manager (speculation_nb.served_kernels): the culler and a starting kernel.

jupyter_server's culler visits every kernel each ``cull_interval`` seconds, a kernel still
starting included, and read its ``last_activity`` before the server had set it: a traceback in
the log per visit (seen in CI on a busy machine, failing the load test's clean-log check).
"""

from __future__ import annotations

import asyncio
import logging

import pytest
from loops import run_loop
from voila_server import REPO

from speculation_nb.serve import KERNEL_MANAGER_CLASS, voila_args

kernelmanager = pytest.importorskip("jupyter_server.services.kernels.kernelmanager")


def test_the_served_app_and_the_hub_run_their_kernels_under_it() -> None:
    assert f"--MappingKernelManager.kernel_manager_class={KERNEL_MANAGER_CLASS}" in voila_args(env={})
    hub_config = (REPO / "deploy" / "jupyterhub_config.py").read_text()
    assert f'"--MappingKernelManager.kernel_manager_class={KERNEL_MANAGER_CLASS}"' in hub_config


def test_the_culler_meets_a_starting_kernel_without_an_error(caplog) -> None:
    """A real kernel started, and the culler run while it starts: no error logged, nothing
    culled; once started, its last activity is the server's own (the start)."""

    async def start_and_cull() -> object:
        manager = kernelmanager.AsyncMappingKernelManager(
            kernel_manager_class=KERNEL_MANAGER_CLASS, cull_idle_timeout=120, cull_interval=1
        )
        manager.log = logging.getLogger("test_served_kernels")
        starting = asyncio.ensure_future(manager.start_kernel(kernel_name="python3"))
        try:
            met: list[str] = []
            while not starting.done():
                ids = manager.list_kernel_ids()
                if ids and not met:
                    met = ids
                    await manager.cull_kernels()  # the culler's visit, the kernel not yet started
                # Every turn of the event loop: the kernel is in the server's list a turn or two
                # before the server sets its last activity, and a visit then met it without one.
                await asyncio.sleep(0)
            kernel_id = await starting
            assert met == [kernel_id], "the culler never met the kernel while it started"
            assert manager.list_kernel_ids() == [kernel_id], "the starting kernel was culled"
            return manager.get_kernel(kernel_id).last_activity
        finally:
            await manager.shutdown_all(now=True)

    with caplog.at_level(logging.DEBUG, logger="test_served_kernels"):
        last_activity = run_loop(start_and_cull, timeout=120)
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, errors
    assert last_activity is not None


def test_a_manager_not_yet_started_counts_as_active_since_it_was_made() -> None:
    from datetime import datetime, timedelta, timezone

    from speculation_nb.served_kernels import ServedKernelManager

    before = datetime.now(timezone.utc)
    made = ServedKernelManager()
    assert before <= made.last_activity <= datetime.now(timezone.utc) + timedelta(seconds=1)
