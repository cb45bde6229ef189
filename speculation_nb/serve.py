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

**The page's template** (``--VoilaConfiguration.template=speculation``): Voila's lab page less
the stylesheets it links from another host (Font Awesome, from a CDN: in a classroom without
internet that request can hold the page). It lives in the package, in
``speculation_nb/share/jupyter/voila/templates/speculation`` (package data); Voila finds
templates under the Jupyter data directories, so every command that serves the app puts
:data:`TEMPLATE_ROOT` first on ``JUPYTER_PATH`` (:func:`voila_environment`): the template of the
package that is running is the one used, installed or in a checkout, editable or not.

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

``SPECULATION_CLASS``
    ``1`` does what ``--class`` does (below); ``0`` or unset, not.
``SPECULATION_TABLE_ADDRESS``
    the students' link the teacher's shared table shows; set by ``--class``,
    or, when already set, kept and shown as it is (a name students can type
    rather than an address, a proxy's address).
``SPECULATION_TABLE_STORE``
    where the kernels' shared tables meet (``speculation_nb.classroom.stores.base``);
    when already set (a ``redis://`` URL on JupyterHub) it is kept.

**A classroom network** (``--class`` or ``SPECULATION_CLASS=1``): the app
listens on ``0.0.0.0``, every interface (``--host`` or ``SPECULATION_HOST``
choose another), and the serve command finds the address the students'
devices reach this machine at (:func:`network_address`: the interface the
default route goes through, never loopback). It prints ``Students open
http://<address>:<port>/`` and gives the kernels
``SPECULATION_TABLE_ADDRESS=http://<address>:<port>/``: the link (and QR code)
the teacher's table shows. A machine with only loopback cannot serve a class:
``--class`` then stops and says so. There is no login: anyone on that network
can open the app.

**The shared table's store**, class or not (a teacher may try a table on
loopback first): unless ``SPECULATION_TABLE_STORE`` is set, the serve command
makes the directory ``$XDG_STATE_HOME/speculation_nb``
(``~/.local/state/speculation_nb`` without ``XDG_STATE_HOME``), mode 0700 so
only this user reads it, and gives the kernels
``SPECULATION_TABLE_STORE=sqlite:///<that directory>/tables.sqlite3``: every
kernel of this server (the teacher's and each student's) opens that one file.
The kernels inherit the Voila server's environment, which is how these
settings reach them.

This module imports nothing beyond the standard library.
"""

from __future__ import annotations

import argparse
import ipaddress
import os
import socket
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = [
    "APP_NOTEBOOK",
    "CULL_IDLE_TIMEOUT",
    "CULL_INTERVAL",
    "DEFAULT_HOST",
    "DEFAULT_PORT",
    "IOPUB_TIMEOUT",
    "KERNEL_MANAGER_CLASS",
    "POOL_FILL_DELAY",
    "POOL_SIZE",
    "STARTUP_TIMEOUT",
    "TEMPLATE",
    "TEMPLATE_ROOT",
    "NoNetworkAddress",
    "ServePlan",
    "class_mode",
    "main",
    "network_address",
    "serve_host",
    "serve_plan",
    "store_directory",
    "voila_args",
    "voila_command",
    "voila_environment",
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
#: The kernels' manager: jupyter_server's, with a last activity while a kernel starts
#: (:mod:`speculation_nb.served_kernels`).
KERNEL_MANAGER_CLASS = "speculation_nb.served_kernels.ServedKernelManager"
#: Preheated kernels kept waiting (0: none).
POOL_SIZE = 0
#: Seconds before a taken preheated kernel is replaced (only with a pool).
POOL_FILL_DELAY = 120
#: Listening on every interface (a classroom network).
ALL_INTERFACES = "0.0.0.0"
CLASS_SETTING = "SPECULATION_CLASS"
TABLE_ADDRESS_SETTING = "SPECULATION_TABLE_ADDRESS"
#: The same name as ``speculation_nb.classroom.stores.base.STORE_SETTING`` (not imported: this module
#: loads the standard library only).
TABLE_STORE_SETTING = "SPECULATION_TABLE_STORE"
#: Addresses in the private ranges a UDP socket is "connected" to, to learn which interface
#: the system would send from (no packet is sent): one in each range, since a classroom
#: network without a default route may still route one of them.
PROBE_ADDRESSES = ("10.255.255.255", "172.31.255.255", "192.168.255.255")
_LOOPBACK_NAMES = ("localhost",)
#: The Voila template the app's pages are drawn with (the module docstring says why).
TEMPLATE = "speculation"
#: The Jupyter data directory, inside the package, that holds it (``voila/templates/speculation``).
TEMPLATE_ROOT = Path(__file__).resolve().parent / "share" / "jupyter"


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


def voila_environment(env: Mapping[str, str] | None = None) -> dict[str, str]:
    """``env`` (the process's environment by default) with :data:`TEMPLATE_ROOT` first on
    ``JUPYTER_PATH``, where Voila looks for :data:`TEMPLATE`; the directories already there follow.

    >>> voila_environment({"JUPYTER_PATH": "/x"})["JUPYTER_PATH"] == os.pathsep.join([str(TEMPLATE_ROOT), "/x"])
    True
    """
    env = dict(os.environ if env is None else env)
    others = [p for p in env.get("JUPYTER_PATH", "").split(os.pathsep) if p and p != str(TEMPLATE_ROOT)]
    env["JUPYTER_PATH"] = os.pathsep.join([str(TEMPLATE_ROOT), *others])
    return env


def serve_host(host: str | None = None, env: Mapping[str, str] | None = None) -> str:
    """The address to listen on: ``host``, else ``SPECULATION_HOST``, else loopback."""
    env = os.environ if env is None else env
    return host or env.get("SPECULATION_HOST", "").strip() or DEFAULT_HOST


def class_mode(flag: bool | None = None, env: Mapping[str, str] | None = None) -> bool:
    """Serve a classroom network? ``flag`` (``--class``) if given, else ``SPECULATION_CLASS``:
    ``1``/``true``/``yes``/``on`` or ``0``/``false``/``no``/``off``/empty, any case; anything
    else is refused with the reason (never guessed)."""
    if flag is not None:
        return flag
    env = os.environ if env is None else env
    text = env.get(CLASS_SETTING, "").strip().lower()
    if text in ("1", "true", "yes", "on"):
        return True
    if text in ("", "0", "false", "no", "off"):
        return False
    raise ValueError(f"{CLASS_SETTING} is 1 (serve a classroom network) or 0, not {text!r}")


class NoNetworkAddress(RuntimeError):
    """This machine has no address other devices can reach (only loopback)."""


def _is_loopback(host: str) -> bool:
    if host.lower() in _LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def network_address(make_socket: Callable[[], socket.socket] | None = None) -> str:
    """The IPv4 address of the interface this machine's default route goes through: the one
    the students' devices on the same network reach it at.

    A UDP socket is ``connect``-ed to an address in a private range: for UDP, connecting only
    asks the system which route (so which interface and source address) it would use; no
    packet is sent. A loopback or unspecified answer, or no route at all, means no address
    another device can reach: :class:`NoNetworkAddress`, which says so.
    ``make_socket`` makes the socket (tests give a fake one).
    """

    def udp() -> socket.socket:
        return socket.socket(socket.AF_INET, socket.SOCK_DGRAM)

    make = udp if make_socket is None else make_socket
    for probe in PROBE_ADDRESSES:
        sock = make()
        try:
            sock.connect((probe, 1))
            address = str(sock.getsockname()[0])
        except OSError:
            continue
        finally:
            sock.close()
        if address and not _is_loopback(address) and not ipaddress.ip_address(address).is_unspecified:
            return address
    raise NoNetworkAddress(
        "this machine has no network address other devices can reach, only loopback (127.0.0.1): "
        "connect it to the classroom's network (Wi-Fi or cable) and start again, or serve without --class"
    )


def store_directory(env: Mapping[str, str] | None = None) -> Path:
    """Where the shared table's SQLite store lives: ``$XDG_STATE_HOME/speculation_nb``, or
    ``~/.local/state/speculation_nb`` when ``XDG_STATE_HOME`` is unset or not an absolute path
    (the XDG base directory rule). Only names it: :func:`serve_plan` makes it."""
    env = os.environ if env is None else env
    state = env.get("XDG_STATE_HOME", "").strip()
    if not state or not os.path.isabs(state):
        home = env.get("HOME", "").strip() or str(Path.home())
        state = os.path.join(home, ".local", "state")
    return Path(state) / "speculation_nb"


@dataclass(frozen=True)
class ServePlan:
    """What the serve command runs: the Voila command line, the environment of the server (where
    Voila finds the template: :func:`voila_environment`) and of its kernels, and the lines it prints
    first."""

    command: list[str]
    env: dict[str, str]
    lines: list[str]


def serve_plan(
    notebook: str = APP_NOTEBOOK,
    *,
    port: int = DEFAULT_PORT,
    host: str | None = None,
    classroom: bool | None = None,
    env: Mapping[str, str] | None = None,
    find_address: Callable[[], str] = network_address,
) -> ServePlan:
    """The serve command's plan (``main`` prints its lines and runs its command).

    The host: ``host``, else ``SPECULATION_HOST``, else ``0.0.0.0`` for a class and loopback
    otherwise. For a class, a loopback host is refused (ValueError) and the students' link is
    ``SPECULATION_TABLE_ADDRESS`` if set, else the host itself if it names one address, else
    ``http://<network_address()>:<port>/`` (:class:`NoNetworkAddress` when there is none). The
    table's store is set as the module docstring says (its directory made, mode 0700).
    """
    env = os.environ if env is None else env
    classroom = class_mode(classroom, env)
    host = host or env.get("SPECULATION_HOST", "").strip() or (ALL_INTERFACES if classroom else DEFAULT_HOST)
    command = voila_command(notebook, port=port, host=host, env=env)
    kernel_env = voila_environment(env)
    if classroom:
        if _is_loopback(host):
            raise ValueError(f"--class serves other devices: it cannot listen on loopback ({host}) only")
        everywhere = host in (ALL_INTERFACES, "::")
        link = env.get(TABLE_ADDRESS_SETTING, "").strip()
        if not link:
            address = find_address() if everywhere else host
            link = f"http://{f'[{address}]' if ':' in address else address}:{port}/"
        kernel_env[TABLE_ADDRESS_SETTING] = link
        lines = [
            f"Students open {link} (on this network; the teacher's table shows this link as a QR code)",
            f"The teacher opens it too{f', or http://127.0.0.1:{port}/ on this machine' if everywhere else ''}."
            "  (Ctrl-C to stop)",
        ]
    else:
        lines = [f"Speculation app: http://{host}:{port}/  (Ctrl-C to stop)"]
    if not _is_loopback(host):
        lines.append(
            f"Serving on {host}: anyone who can reach this machine on port {port} can use the app (there is no login)."
        )
    if not env.get(TABLE_STORE_SETTING, "").strip():
        directory = store_directory(env)
        directory.mkdir(mode=0o700, parents=True, exist_ok=True)
        directory.chmod(0o700)  # mkdir's mode passes through the umask, and an older directory may be wider
        kernel_env[TABLE_STORE_SETTING] = f"sqlite:///{(directory / 'tables.sqlite3').as_posix().lstrip('/')}"
    return ServePlan(command, kernel_env, lines)


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
        # Voila's lab page less its CDN stylesheets; found through JUPYTER_PATH (voila_environment)
        f"--VoilaConfiguration.template={TEMPLATE}",
        f"--MappingKernelManager.cull_idle_timeout={timeout}",
        f"--MappingKernelManager.cull_interval={interval}",
        "--MappingKernelManager.cull_connected=False",
        # The app's first display sends a few hundred widget messages; when a
        # whole class opens the page at once on a small server they arrive
        # after nbclient's default 4 s wait, and Voila would send a page
        # without the app (benchmarks/load_test.py; voila-dashboards/voila#920).
        f"--VoilaExecutor.iopub_timeout={IOPUB_TIMEOUT}",
        f"--VoilaExecutor.startup_timeout={STARTUP_TIMEOUT}",
        # A kernel still starting has no last activity, and the culler logged a traceback for
        # each one it met (speculation_nb.served_kernels says why).
        f"--MappingKernelManager.kernel_manager_class={KERNEL_MANAGER_CLASS}",
    ]
    if os.name == "posix":
        # Kernels talk to the server over Unix sockets, not loopback TCP ports: with TCP,
        # jupyter_client picks a kernel's five ports before the kernel binds them, and when a
        # class's kernels start at once another process can take one in between ("Address
        # already in use": the kernel dies, its student gets an error page).
        args.append("--KernelManager.transport=ipc")
    if pool:
        args += [f"--VoilaKernelManager.fill_delay={fill_delay}", "--preheat_kernel=True", f"--pool_size={pool}"]
    return args


def voila_command(notebook: str = APP_NOTEBOOK, **options: Any) -> list[str]:
    """The whole command line: this Python, ``-m voila``, then :func:`voila_args`."""
    return [sys.executable, "-m", "voila", *voila_args(notebook, **options)]


def main(argv: Sequence[str] | None = None, *, find_address: Callable[[], str] = network_address) -> None:
    """Serve the app in this process (``python -m speculation_nb.serve [port] [--class] [--host H]``)."""
    parser = argparse.ArgumentParser(
        prog="python -m speculation_nb.serve",
        description="Serve the Speculation app with Voila (loopback by default, with kernel culling).",
    )
    parser.add_argument("port", nargs="?", type=int, default=DEFAULT_PORT, help=f"default {DEFAULT_PORT}")
    parser.add_argument("--notebook", default=APP_NOTEBOOK, help=f"default {APP_NOTEBOOK}")
    parser.add_argument(
        "--class",
        dest="classroom",
        action="store_true",
        default=None,
        help=f"serve the classroom network: listen on {ALL_INTERFACES} and print the students' link "
        f"(also {CLASS_SETTING}=1)",
    )
    parser.add_argument(
        "--host",
        default=None,
        help=f"the address to listen on (default SPECULATION_HOST, else {DEFAULT_HOST}; {ALL_INTERFACES} for --class)",
    )
    options = parser.parse_args(argv)
    if not os.path.isfile(options.notebook):
        parser.error(f"no notebook at {options.notebook!r}: run this from the repository root")
    try:
        plan = serve_plan(
            options.notebook,
            port=options.port,
            host=options.host,
            classroom=options.classroom,
            find_address=find_address,
        )
    except (ValueError, NoNetworkAddress, OSError) as error:
        parser.error(str(error))
    for line in plan.lines:
        print(line, flush=True)
    os.execve(plan.command[0], plan.command, plan.env)


if __name__ == "__main__":
    main()
