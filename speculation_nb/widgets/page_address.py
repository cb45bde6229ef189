"""Where the page's address reaches the kernel: the query string of the app's page.

Each way of serving the app hands the kernel the page's query differently:

* **Voila**, one kernel per page: the ``QUERY_STRING`` environment variable.
* **Voila with preheated kernels** (``VOILA_PREHEAT`` set): the kernel starts before
  its page is asked for, and the query arrives only through
  ``voila.utils.wait_for_request()``, which sets ``QUERY_STRING`` when it returns.

:func:`page_query` hides the difference; the app's query parsing never asks how.
"""

from __future__ import annotations

import os

__all__ = ["page_query"]


def page_query() -> str:
    """The page's query string without the ``?`` (``"lang=de&seed=42"``), or ``""``."""
    # Only a preheated kernel has a request to wait for: wait_for_request() returns at
    # once unless VOILA_PREHEAT is set, and importing voila.utils loads Voila's whole
    # server stack (jupyter_server, jupyterlab_server, jsonschema...): about 40 MiB and
    # several CPU-seconds per kernel, for nothing in a kernel started for its page.
    if os.environ.get("VOILA_PREHEAT", "False") != "False":
        try:
            from voila.utils import wait_for_request  # type: ignore[import-untyped]

            wait_for_request()
        except Exception:  # not under Voila, or no request to wait for
            pass
    return os.environ.get("QUERY_STRING", "")
