"""Where the page's address reaches the kernel: the query string of the app's page.

Each way of serving the app hands the kernel the page's query differently:

* **Voila**, one kernel per page: the ``QUERY_STRING`` environment variable.
* **Voila with preheated kernels** (``VOILA_PREHEAT`` set): the kernel starts before
  its page is asked for, and the query arrives only through Voila's query socket
  (``/voila/query/<kernel id>``), which :func:`wait_for_request` reads; it then sets
  ``QUERY_STRING`` (and ``SERVER_NAME``, ``SCRIPT_NAME``...) as Voila does.
* **The static site** (``./scripts/build-site``: Voici, Python in the browser with
  Pyodide): no server sees the request, and the kernel runs in a web worker whose own
  address is not the page's. The page's script (``site/page.js``) reads the page's
  address before Python starts and hands it to Pyodide's ``env`` option, so
  ``QUERY_STRING`` (with Voila's other CGI variables) is in ``os.environ`` from the first
  line of Python on; it also sets ``SPECULATION_STATIC_SITE``.

:func:`page_query` hides the difference; the app's query parsing never asks how.
:func:`in_kernel` tells whether the code runs in a kernel whose event loop serves the page
(paced computer players, a student's follow task). :func:`static_site` tells whether the app
runs with no server, for the features that need one (they are hidden there, with the
catalog's ``app.site.server_only`` line in their place).
"""

from __future__ import annotations

import contextlib
import json
import os
import sys

__all__ = ["in_kernel", "page_query", "static_site", "wait_for_request"]

#: Seconds a preheated kernel may take to reach Voila's query socket: the pool fills
#: while the server is busiest (voila.utils allows 5 s, and then the query is lost).
OPEN_TIMEOUT = 120.0
_received = False


def wait_for_request() -> None:
    """In a preheated kernel, wait for the page it is kept for and put the page's request in
    the environment; at once otherwise. Does what ``voila.utils.wait_for_request`` does
    without importing ``voila.utils``, which loads Voila's whole server stack (jupyter_server,
    jupyterlab_server, jsonschema...): 2.6 CPU-seconds and 46 MiB in every pooled kernel, for
    one websocket message (benchmarks/load_test.py, deploy/README.md)."""
    global _received
    env = os.environ
    if _received or env.get("VOILA_PREHEAT", "False") == "False" or not env.get("VOILA_KERNEL_ID"):
        return
    from websockets.sync.client import connect  # a Voila dependency; 0.02 CPU-s to import

    protocol = env.get("VOILA_WS_PROTOCOL", "ws")
    host = env.get("VOILA_APP_IP", "127.0.0.1")
    port = env.get("VOILA_APP_PORT", "8866")
    base = env.get("VOILA_WS_BASE_URL", env.get("VOILA_SERVER_URL", "/"))
    url = f"{protocol}://{host}:{port}{base}voila/query/{env['VOILA_KERNEL_ID']}"
    with connect(url, open_timeout=OPEN_TIMEOUT, max_size=2**20) as socket:
        message = socket.recv()
    for name, value in json.loads(message).items():
        if isinstance(name, str) and isinstance(value, str):
            os.environ[name] = value
    _received = True  # Voila sends a kernel its page once: a second wait would never end


def in_kernel() -> bool:
    """True in a Jupyter kernel (Voila, JupyterLab, the static site's Pyodide kernel), whose event
    loop serves the page: the computers' paced actions and a student's follow task run on it. Not
    merely "an event loop is running": a script or a test may have one that nobody serves
    (Playwright's sync API keeps one, for one)."""
    if "pyodide" in sys.modules:
        return True
    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None else None
    return getattr(shell, "kernel", None) is not None


def static_site() -> bool:
    """Whether this kernel runs in the browser (Pyodide) with no server behind the page."""
    return sys.platform == "emscripten" or os.environ.get("SPECULATION_STATIC_SITE", "") == "1"


def page_query() -> str:
    """The page's query string without the ``?`` (``"lang=de&seed=42"``), or ``""``."""
    # Under Pyodide there is no Voila: the page put QUERY_STRING in os.environ.
    if sys.platform != "emscripten":
        with contextlib.suppress(Exception):  # not under Voila, or no request came: the address says nothing
            wait_for_request()
    return os.environ.get("QUERY_STRING", "")
