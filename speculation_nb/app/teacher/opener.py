"""Where the app offers the shared table: the ``table`` opener in ``ui.table_slot``, or one line.

:func:`table_opener` puts, in the app's ``ui.table_slot``, a :class:`~.panel_opener.PanelOpener`
named ``table`` whose first press builds a :class:`~.panel.HostPanel`; on the static site (no
server: :func:`~.page_address.static_site`) or when no table store is configured
(``SPECULATION_TABLE_STORE``, :func:`~speculation_nb.classroom.host_session.store_configured`) it
puts one line instead (:class:`ServerOnlyLine`), saying what the shared table needs.

The host secret's browser memory (DeviceMemory ``speculation_nb.host``) is in the slot from the
start: when the teacher reloads with a table open (T9), the page opens the panel and referees the
table again, without the teacher looking for it.
"""

from __future__ import annotations

from typing import Any

import ipywidgets as widgets  # type: ignore[import-untyped]

from ...classroom.host_session import store_configured
from ...languages.translator import Translator
from ..common.device_memory import DeviceMemory
from ..common.panel import tagged
from ..common.panel_opener import PanelOpener
from ..common.parts import Shell, esc
from ..model import Controller
from ..page_address import static_site
from .panel import MEMORY_KEY, HostPanel

__all__ = ["ServerOnlyLine", "table_available", "table_opener"]


def table_available() -> bool:
    """Whether this kernel may open a shared table: a server runs it and a store is configured."""
    return not static_site() and store_configured()


class ServerOnlyLine:
    """What the table slot shows where no shared table can be opened: one line, in words."""

    def __init__(self, slot: widgets.Box) -> None:
        self.line = tagged(widgets.HTML(), "spec-host-unavailable")
        self.key = "class.host.needs_site_server" if static_site() else "class.host.needs_store"
        slot.children = (self.line,)

    def texts(self, t: Translator) -> None:
        self.line.value = esc(t(self.key))


def table_opener(app: Shell, slot: widgets.Box, store: Any = None) -> PanelOpener | ServerOnlyLine:
    """The table slot's content: the ``table`` opener, or the one line (see the module docstring).
    ``store``: the table store (None: the configured one, opened on the panel's first open)."""
    if store is None and not table_available():
        return ServerOnlyLine(slot)

    memory = DeviceMemory(MEMORY_KEY)

    def build(controller: Controller) -> HostPanel:
        return HostPanel(controller, store, app, memory)

    opener = PanelOpener(app, slot, "table", build, "class.host.open_panel", "class.host.open_panel_tip")
    slot.children = (*slot.children, memory)

    def resume_kept(change: Any) -> None:
        """The teacher reloaded with a table open (T9): open the panel and referee it again."""
        if not change["new"] or memory.kept() is None or opener.panel is not None:
            return
        opener.toggle(True)
        panel = built_panel(opener)
        if isinstance(panel, HostPanel) and panel.session.kept is not None:
            panel.resume_table()

    memory.observe(app.guard(resume_kept), "loaded")
    return opener


def built_panel(opener: PanelOpener) -> Any:
    """The panel ``opener`` has built (None before its first open)."""
    return opener.panel
