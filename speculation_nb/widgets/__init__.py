"""The old name of :mod:`speculation_nb.app`, kept so that cells and notebooks written for 0.x
(``from speculation_nb.app import SpeculationApp``) keep working.
"""

from __future__ import annotations

from ..app import SpeculationApp, app, card_html, from_request, query_settings, read_query
from ..app.model import Controller, Snapshot

__all__ = [
    "Controller",
    "Snapshot",
    "SpeculationApp",
    "app",
    "card_html",
    "from_request",
    "query_settings",
    "read_query",
]
