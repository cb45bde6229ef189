"""The kernel manager the served app's kernels run under (Voilà, and JupyterHub's servers).

``speculation_nb.serve`` passes ``--MappingKernelManager.kernel_manager_class=`` its dotted
name (``serve.KERNEL_MANAGER_CLASS``), and ``deploy/jupyterhub_config.py`` does the same.

Why: jupyter_server's culler visits every kernel of the server each ``cull_interval``
seconds and reads its ``last_activity``, which the server sets only once the kernel has
started. A kernel still starting has none, and the trait (``Instance(datetime)`` with no
default) raises a ``TraitError`` where the culler's ``hasattr`` expects an
``AttributeError``: an ERROR with a traceback in the server's log, once per visit. On a
busy machine a kernel takes seconds to start, so a class arriving at once met it several
times (and a test that reads the log for errors failed). Nothing was culled by it, but a
log that cries wolf hides the day something is wrong.

:class:`ServedKernelManager` gives ``last_activity`` a default: the moment the kernel's
manager was made. A kernel that is starting counts as active since then, which is true, and
the culler leaves it be until ``cull_idle_timeout`` has passed, as it would any other kernel.
"""

from __future__ import annotations

from datetime import datetime, timezone

from jupyter_server.services.kernels.kernelmanager import ServerKernelManager
from traitlets import default

__all__ = ["ServedKernelManager"]


class ServedKernelManager(ServerKernelManager):
    """jupyter_server's kernel manager, whose ``last_activity`` is its creation until the
    server sets it (at the end of the kernel's start, then at each message)."""

    @default("last_activity")
    def _made_now(self) -> datetime:
        return datetime.now(timezone.utc)
