"""The page's address as the browser shows it: a tiny anywidget that rewrites the ``table=`` of
the address bar (its ES module, ``speculation_nb/assets/address_bar.js``, goes with the widget's
state, like :mod:`.device_memory`'s).

A student who joined a table by typing its code (not through its link or QR code) is on the
app's plain address; a reload would bring back the app, not the table. Once the table has the
student, the page's address becomes the table's link (``?table=ABCDE-FGHJK``, the page's other
parameters kept: :func:`~speculation_nb.classroom.codes.table_link`'s form), with
``history.replaceState`` (nothing reloads, the back button is unchanged): a reload, or the address
opened again after a lost connection, opens the student's screen of that table, which rejoins
with what the device kept (T8). The address carries the code only, never a secret: the seat
comes back only with the rejoin token the browser kept, which the referee checks.

``AddressBar()`` has a synced ``table``: ``None`` leaves the address alone (the default, and what
a page first drawn says), a code (as shown) puts it in, ``""`` takes ``table=`` out ("Leave the
table"). Without anywidget it is an empty hidden HTML widget: the address stays as it was.
"""

from __future__ import annotations

import logging
from typing import Any

import ipywidgets as widgets  # type: ignore[import-untyped]
from traitlets import Unicode

from ...assets import widget_file

__all__ = ["AddressBar"]

log = logging.getLogger("speculation_nb.widgets")

try:
    import anywidget

    _Base: Any = anywidget.AnyWidget
    HAVE_ANYWIDGET = True
except Exception:  # anywidget missing: the address stays as it was
    _Base = widgets.HTML
    HAVE_ANYWIDGET = False


class AddressBar(_Base):  # type: ignore[misc]
    """The ``table=`` of the page's address (see the module docstring)."""

    _esm = widget_file("address_bar.js")
    #: The code the address names (as shown: ``"ABCDE-FGHJK"``); ``""``: none; None: as it is.
    table = Unicode(None, allow_none=True).tag(sync=True)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.add_class("spec-address-bar")
        self.layout.display = "none"
