"""What a page keeps on the person's device across reloads: one ``localStorage`` entry, as
a tiny anywidget (its ES module, ``speculation_nb/assets/device_memory.js``, goes with the widget's
state, like :mod:`.keys`'s: nothing is fetched).

``DeviceMemory(key)`` has a synced ``value``, a JSON string (``""`` when nothing is kept):

* when its view renders, the browser reads ``localStorage[key]`` into ``value`` and then
  sets ``loaded=True``; the kernel learns the device's value only then, so observe
  ``loaded`` (``memory.observe(fn, "loaded")``) before trusting ``value``;
* setting ``value`` from Python writes it to ``localStorage[key]`` (``""`` removes it). A
  value set before the page rendered (or while no page shows the widget) is kept in the
  kernel (``pending``) and written when a view renders, instead of being replaced by what
  the device had; ``confirmed`` tells when the browser has stored the kernel's value;
* where the browser keeps nothing (private mode, storage switched off) nothing fails:
  ``loaded`` turns True, ``available`` False, and ``value`` stays the kernel's (``""``
  unless the kernel set one).

Without anywidget it is an empty HTML widget that says at once that the device keeps
nothing (``loaded`` True, ``available`` False): the page works, only a reload forgets.

What goes in ``value`` is readable by anyone using the device (and by the page's scripts):
keep there only what the person's own browser may hold (a rejoin token, a host secret of
the teacher's own browser), never a seat secret.
"""

from __future__ import annotations

import json
import logging
from typing import Any

import ipywidgets as widgets  # type: ignore[import-untyped]
from traitlets import Bool, Unicode, validate

from ...assets import asset_text, widget_file

__all__ = ["ESM", "HAVE_ANYWIDGET", "DeviceMemory", "dump_memory", "read_memory"]

log = logging.getLogger("speculation_nb.widgets")

#: The ES module (``speculation_nb/assets/device_memory.js``), as text.
ESM = asset_text("device_memory.js")

try:
    import anywidget

    HAVE_ANYWIDGET = True
    _Base: Any = anywidget.AnyWidget
except Exception:  # anywidget missing: the device keeps nothing, the page still works
    HAVE_ANYWIDGET = False
    _Base = widgets.HTML


class DeviceMemory(_Base):  # type: ignore[misc]
    """One ``localStorage`` entry of the person's browser (see the module docstring).

    >>> memory = DeviceMemory("speculation_nb.table.ABCDEFGHJK")   # doctest: +SKIP
    >>> memory.observe(lambda change: print(memory.value), "loaded")  # doctest: +SKIP
    """

    _esm = widget_file("device_memory.js")
    #: The ``localStorage`` key (fixed when made).
    key = Unicode("").tag(sync=True)
    #: The kept JSON text; ``""``: nothing kept.
    value = Unicode("").tag(sync=True)
    #: True once a browser view has read (or written) the entry.
    loaded = Bool(False).tag(sync=True)
    #: False when the browser keeps nothing (private mode, no anywidget).
    available = Bool(True).tag(sync=True)
    #: The kernel set ``value`` and no browser has stored it yet.
    pending = Bool(False).tag(sync=True)
    #: The value the browser last read or stored (its confirmation).
    written = Unicode("").tag(sync=True)

    def __init__(self, key: str, **kwargs: Any) -> None:
        if not isinstance(key, str) or not key:
            raise ValueError("a device memory needs a key (a non-empty string)")
        super().__init__(key=key, **kwargs)
        self.add_class("spec-device-memory")
        self.layout.display = "none" if not HAVE_ANYWIDGET else None
        if not HAVE_ANYWIDGET:
            log.info("anywidget is not available: the device keeps nothing across reloads")
            self.set_trait("available", False)
            self.set_trait("loaded", True)

    @validate("value")
    def _check_value(self, proposal: dict[str, Any]) -> str:
        # A browser's own report sets value and written together (one message, validation held
        # until both are set), so a value that differs from written is the kernel's: pending,
        # sent before the value itself so that the browser's confirmation clears it.
        value = str(proposal["value"])
        if value != self.written and not self.pending:
            self.pending = True
        return value

    @property
    def confirmed(self) -> bool:
        """True when the browser holds the kernel's ``value`` (it read or stored it)."""
        return bool(self.loaded and not self.pending and self.written == self.value)

    def keep(self, record: dict[str, Any] | None) -> None:
        """Keep ``record`` as JSON (None: forget)."""
        self.value = "" if record is None else dump_memory(record)

    def kept(self) -> dict[str, Any] | None:
        """The kept record (:func:`read_memory` of ``value``)."""
        return read_memory(self.value)


def dump_memory(record: dict[str, Any]) -> str:
    """``record`` as the compact JSON a device memory keeps."""
    return json.dumps(record, separators=(",", ":"), sort_keys=True, ensure_ascii=False)


def read_memory(text: str) -> dict[str, Any] | None:
    """The JSON object in ``text``; None for ``""`` or anything else (a device's entry may be
    anything: another page may have written it)."""
    if not text:
        return None
    try:
        value = json.loads(text)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None
