"""Where the page's address reaches the kernel: the query string of the app's page.

Each way of serving the app hands the kernel the page's query differently:

* **Voila**, one kernel per page: the ``QUERY_STRING`` environment variable.
* **Voila with preheated kernels** (``VOILA_PREHEAT`` set): the kernel starts before
  its page is asked for, and the query arrives only through
  ``voila.utils.wait_for_request()``, which sets ``QUERY_STRING`` when it returns.
* **The static site** (``./scripts/build-site``: Voici, Python in the browser with
  Pyodide): no server sees the request, and the kernel runs in a web worker whose own
  address is not the page's. The page's script (``site/page.js``) reads the page's
  address before Python starts and hands it to Pyodide's ``env`` option, so
  ``QUERY_STRING`` (with Voila's other CGI variables) is in ``os.environ`` from the first
  line of Python on; it also sets ``SPECULATION_STATIC_SITE``.

:func:`page_query` hides the difference; the app's query parsing never asks how.
:func:`static_site` tells whether the app runs with no server, for the features that need
one (they are hidden there, with the catalog's ``app.site.server_only`` line in their place).
"""

from __future__ import annotations

import os
import sys

__all__ = ["page_query", "static_site"]


def static_site() -> bool:
    """Whether this kernel runs in the browser (Pyodide) with no server behind the page."""
    return sys.platform == "emscripten" or os.environ.get("SPECULATION_STATIC_SITE", "") == "1"


def page_query() -> str:
    """The page's query string without the ``?`` (``"lang=de&seed=42"``), or ``""``."""
    # Only a preheated kernel has a request to wait for: wait_for_request() returns at
    # once unless VOILA_PREHEAT is set, and importing voila.utils loads Voila's whole
    # server stack (jupyter_server, jupyterlab_server, jsonschema...): about 40 MiB and
    # several CPU-seconds per kernel, for nothing in a kernel started for its page.
    # Under Pyodide there is no Voila to import: the page put QUERY_STRING in os.environ.
    if os.environ.get("VOILA_PREHEAT", "False") != "False" and sys.platform != "emscripten":
        try:
            from voila.utils import wait_for_request  # type: ignore[import-untyped]

            wait_for_request()
        except Exception:  # not under Voila, or no request to wait for
            pass
    return os.environ.get("QUERY_STRING", "")
