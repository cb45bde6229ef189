"""How the Speculation app is served with Voila: the one place that says so.

``scripts/serve`` (the README's app command), the browser tests and the
benchmarks all build the Voila command line with :func:`voila_args`, so what is
tested and measured is what a teacher runs.

What it serves: one notebook (``notebooks/app.ipynb`` by default) on loopback,
no browser opened, with kernel culling. Voila's own page-close shutdown request
is refused by its XSRF check (voila-dashboards/voila#1458), so without culling
every closed tab would leave its kernel running until the server stops.
Culling removes a kernel once it has had no connection and no activity for
``cull_idle_timeout`` seconds, checked every ``cull_interval`` seconds; a tab
left open is never culled (``cull_connected=False``), however long the class
pauses.

Environment variables (read when no explicit value is given):

``SPECULATION_HOST``
    the address to listen on, ``127.0.0.1`` by default; ``0.0.0.0`` serves a
    classroom network (with no authentication: anyone who can reach the port
    can use the app).
``SPECULATION_CULL_IDLE_TIMEOUT``, ``SPECULATION_CULL_INTERVAL``
    culling, in seconds (120 and 30 by default); the tests shorten them.
``SPECULATION_POOL_SIZE``
    keep this many preheated kernels waiting (``--preheat_kernel=True
    --pool_size=N``); 0, the default, starts a kernel when a page is opened.
    A preheated kernel has started and imported the app before its page is
    asked for (the app reads the page's address once it is: ``page_address``),
    so a class arriving at once waits only for the app to be built. Size it
    for the class (30 for 30 students): each waiting kernel holds about
    100 MiB (deploy/README.md, "A class at once", has the figures).
``SPECULATION_POOL_FILL_DELAY``
    seconds after a preheated kernel is taken before Voila starts one to take
    its place (120 by default): Voila's own default, 1 s, would start thirty
    kernels while thirty students arrive, which is the very load the pool is
    there to take away. Used only with a pool.

This module imports nothing beyond the standard library.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Mapping, Sequence
from typing import Any

__all__ = [
    "APP_NOTEBOOK",
    "CULL_IDLE_TIMEOUT",
    "CULL_INTERVAL",
    "DEFAULT_HOST",
    "DEFAULT_PORT",
    "IOPUB_TIMEOUT",
    "POOL_FILL_DELAY",
    "POOL_SIZE",
    "STARTUP_TIMEOUT",
    "main",
    "serve_host",
    "voila_args",
    "voila_command",
]

#: The app notebook, relative to the repository root.
APP_NOTEBOOK = "notebooks/app.ipynb"
DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8866
#: Seconds without a connection and without activity before a kernel is shut down.
CULL_IDLE_TIMEOUT = 120
#: Seconds between two checks for such kernels.
CULL_INTERVAL = 30
#: Seconds Voila waits for a cell's display messages once the cell has run (a safety net:
#: it waits for the kernel's "idle", which always comes; with 60, a page of a class of 30
#: arriving at once under a load average of 24 came without the app).
IOPUB_TIMEOUT = 300
#: Seconds Voila waits for a kernel to start (a safety net too: its default, 60, is close to
#: what thirty kernels starting at once take on two busy cores).
STARTUP_TIMEOUT = 180
#: Preheated kernels kept waiting (0: none).
POOL_SIZE = 0
#: Seconds before a taken preheated kernel is replaced (only with a pool).
POOL_FILL_DELAY = 120


def _setting(name: str, value: int | None, default: int, env: Mapping[str, str], minimum: int) -> int:
    """``value`` if given, else the environment variable ``name``, else ``default``."""
    if value is None:
        text = env.get(name, "").strip()
        if not text:
            return default
        try:
            value = int(text)
        except ValueError:
            raise ValueError(f"{name} must be a whole number, not {text!r}") from None
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise ValueError(f"{name} must be a whole number, at least {minimum}; not {value!r}")
    return value


def serve_host(host: str | None = None, env: Mapping[str, str] | None = None) -> str:
    """The address to listen on: ``host``, else ``SPECULATION_HOST``, else loopback."""
    env = os.environ if env is None else env
    return host or env.get("SPECULATION_HOST", "").strip() or DEFAULT_HOST


def voila_args(
    notebook: str = APP_NOTEBOOK,
    *,
    port: int = DEFAULT_PORT,
    host: str | None = None,
    cull_idle_timeout: int | None = None,
    cull_interval: int | None = None,
    pool_size: int | None = None,
    pool_fill_delay: int | None = None,
    env: Mapping[str, str] | None = None,
) -> list[str]:
    """The arguments of ``python -m voila`` that serve ``notebook``.

    Explicit keyword values win over the environment variables listed in the
    module docstring, which win over the defaults.

    >>> voila_args("notebooks/app.ipynb", port=9000, env={})[:4]
    ['notebooks/app.ipynb', '--no-browser', '--port=9000', '--Voila.ip=127.0.0.1']
    """
    env = os.environ if env is None else env
    host = serve_host(host, env)
    if isinstance(port, bool) or not isinstance(port, int) or not 0 < port < 65536:
        raise ValueError(f"the port is a whole number from 1 to 65535, not {port!r}")
    timeout = _setting("SPECULATION_CULL_IDLE_TIMEOUT", cull_idle_timeout, CULL_IDLE_TIMEOUT, env, 1)
    interval = _setting("SPECULATION_CULL_INTERVAL", cull_interval, CULL_INTERVAL, env, 1)
    pool = _setting("SPECULATION_POOL_SIZE", pool_size, POOL_SIZE, env, 0)
    fill_delay = _setting("SPECULATION_POOL_FILL_DELAY", pool_fill_delay, POOL_FILL_DELAY, env, 0)
    args = [
        notebook,
        "--no-browser",
        f"--port={port}",
        f"--Voila.ip={host}",
        f"--MappingKernelManager.cull_idle_timeout={timeout}",
        f"--MappingKernelManager.cull_interval={interval}",
        "--MappingKernelManager.cull_connected=False",
        # The app's first display sends a few hundred widget messages; when a
        # whole class opens the page at once on a small server they arrive
        # after nbclient's default 4 s wait, and Voila would send a page
        # without the app (benchmarks/load_test.py; voila-dashboards/voila#920).
        f"--VoilaExecutor.iopub_timeout={IOPUB_TIMEOUT}",
        f"--VoilaExecutor.startup_timeout={STARTUP_TIMEOUT}",
    ]
    if pool:
        args += [f"--VoilaKernelManager.fill_delay={fill_delay}", "--preheat_kernel=True", f"--pool_size={pool}"]
    return args


def voila_command(notebook: str = APP_NOTEBOOK, **options: Any) -> list[str]:
    """The whole command line: this Python, ``-m voila``, then :func:`voila_args`."""
    return [sys.executable, "-m", "voila", *voila_args(notebook, **options)]


def main(argv: Sequence[str] | None = None) -> None:
    """Serve the app in this process (``python -m speculation_nb.serve [port]``)."""
    parser = argparse.ArgumentParser(
        prog="python -m speculation_nb.serve",
        description="Serve the Speculation app with Voila (loopback by default, with kernel culling).",
    )
    parser.add_argument("port", nargs="?", type=int, default=DEFAULT_PORT, help=f"default {DEFAULT_PORT}")
    parser.add_argument("--notebook", default=APP_NOTEBOOK, help=f"default {APP_NOTEBOOK}")
    options = parser.parse_args(argv)
    if not os.path.isfile(options.notebook):
        parser.error(f"no notebook at {options.notebook!r}: run this from the repository root")
    try:
        command = voila_command(options.notebook, port=options.port)
    except ValueError as error:
        parser.error(str(error))
    host = serve_host()
    print(f"Speculation app: http://{host}:{options.port}/  (Ctrl-C to stop)", flush=True)
    if host not in ("127.0.0.1", "localhost", "::1"):
        print(
            f"Serving on {host}: anyone who can reach this machine on port {options.port} "
            "can use the app (there is no login).",
            flush=True,
        )
    os.execv(command[0], command)


if __name__ == "__main__":
    main()
