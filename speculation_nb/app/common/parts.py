"""Small pieces every view of the app shares: escaping, cards and names as HTML,
buttons, and setting traits only when they change (one message, not one per trait).

A view is a class that builds its widgets once, puts them into the app's ``ui``
namespace under the name of their CSS class without ``spec-`` (``ui.next`` is
the button ``spec-next``) and redraws them in ``refresh()`` from the controller.
Views talk to the app through :class:`Shell`: the controller, ``ui``, ``guard``
(a callback that can never put a traceback in the page) and ``quietly`` (set
traits without the observers taking it for a person's action).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager
from typing import Any, Protocol

import ipywidgets as widgets  # type: ignore[import-untyped]
from ipywidgets.widgets.widget_string import HTMLStyle  # type: ignore[import-untyped]
from traitlets import Int

from ...engine.cards import Card
from ...languages.markup import Safe, bidi, escape
from ...languages.translator import Translator
from ..model import Controller

__all__ = [
    "UI",
    "NumberField",
    "Shell",
    "bidi",
    "button",
    "card_html",
    "esc",
    "html_style",
    "html_widget",
    "name_html",
    "relabel",
    "set_options",
    "set_traits",
    "shared_style",
    "show",
    "toggle_class",
    "word_buttons",
]


#: Text for HTML: escaped, unless it is :class:`~speculation_nb.languages.markup.Safe` markup (the one
#: escaping function, :func:`speculation_nb.languages.markup.escape`, under the views' short name).
esc = escape


def card_html(card: Any, t: Translator) -> Safe:
    """A card as coloured text (``Q♥``) with its name for screen readers."""
    card = Card.parse(card)
    colour = "spec-red" if card.suit.red else "spec-black"
    name = esc(t.card_name(card))
    return Safe(
        f'<span class="spec-card-text {colour}" role="img" aria-label="{name}" title="{name}">{esc(str(card))}</span>'
    )


def name_html(names: Sequence[str], seat: Any) -> Safe:
    """A seat's name in bold, bidi-isolated; ``?`` for a seat that is not at the table."""
    if isinstance(seat, int) and 0 <= seat < len(names):
        return Safe(f"<b>{bidi(names[seat])}</b>")
    return Safe("?")


_STYLES: dict[type, Any] = {}


def shared_style(kind: type) -> Any:
    """One style model of ``kind`` (``HTMLStyle``, ``ButtonStyle``) for every widget that takes
    its look from CSS classes alone, as the app's do (none sets a style trait): without it,
    each widget brings a style model of its own for the browser to make before the page shows
    (38 of the first view's 168 models)."""
    style = _STYLES.get(kind)
    if style is None or style.comm is None:  # none yet, or closed
        style = _STYLES[kind] = kind()
    return style


def html_style() -> Any:
    """The shared style model of the app's HTML widgets (see :func:`shared_style`)."""
    return shared_style(HTMLStyle)


def button(cls: str, style: str = "") -> widgets.Button:
    b = widgets.Button(button_style=style, style=shared_style(widgets.ButtonStyle))
    b.add_class("spec-button")
    b.add_class(cls)
    return b


def html_widget(cls: str, value: str = "") -> widgets.HTML:
    w = widgets.HTML(value, style=html_style())
    w.add_class(cls)
    return w


def show(widget: widgets.Widget, visible: bool) -> None:
    value = None if visible else "none"
    if widget.layout.display != value:
        widget.layout.display = value


def shown(widget: widgets.Widget) -> bool:
    return bool(widget.layout.display != "none")


def set_traits(widget: widgets.Widget, **traits: Any) -> None:
    """Set the traits that changed, in one message."""
    changed = {k: v for k, v in traits.items() if getattr(widget, k) != v}
    if not changed:
        return
    with widget.hold_sync():
        for k, v in changed.items():
            setattr(widget, k, v)


def word_buttons(t: Translator, rows: Sequence[tuple[widgets.Widget, str, str]]) -> None:
    """Each control's words in ``t``'s language: ``(widget, label key, tooltip key)``, the
    description and the tooltip from the catalogs."""
    for widget, label, tip in rows:
        set_traits(widget, description=t(label), tooltip=t(tip))


def toggle_class(widget: widgets.Widget, cls: str, on: bool) -> None:
    has = cls in widget._dom_classes
    if on and not has:
        widget.add_class(cls)
    elif not on and has:
        widget.remove_class(cls)


def set_options(w: Any, options: list[tuple[str, Any]]) -> None:
    """New options for a selection widget (only if they changed), keeping its value when it is
    still one of them, else the first (None when there is none)."""
    if list(w.options) == options:
        return
    value = w.value
    values = [v for _label, v in options]
    with w.hold_sync():
        w.options = options
        w.value = value if value in values else (values[0] if values else None)


def relabel(w: Any, labels: dict[Any, str]) -> None:
    """New labels for the options of a selection widget, keeping its value."""
    value = w.value
    options = [(labels.get(v, str(v)), v) for _, v in w.options]
    if list(w.options) != options:
        with w.hold_sync():
            w.options = options
            w.value = value


class NumberField(widgets.IntText):  # type: ignore[misc]
    """A whole-number field that is never clamped in the browser: what a person types is sent
    as typed, and the rules refuse it with the reason. ``min`` and ``max`` (kept in the kernel
    only) are the range the rules allow right now, for the views to suggest and show."""

    min = Int(1)
    max = Int(1)


class UI:
    """Every widget of the app by name (``ui.next``). Views built on first use register a
    builder with :meth:`lazy`: reading one of their names builds them (``ui.bid``)."""

    def __init__(self) -> None:
        self._lazy: dict[str, Callable[[], None]] = {}

    def lazy(self, names: Sequence[str], build: Callable[[], None]) -> None:
        for name in names:
            self._lazy[name] = build

    def __getattr__(self, name: str) -> Any:
        build = self.__dict__.get("_lazy", {}).get(name)
        if build is None:
            raise AttributeError(name)
        build()
        if name not in self.__dict__:  # pragma: no cover - a builder that forgot a name
            raise AttributeError(name)
        return self.__dict__[name]

    def __setattr__(self, name: str, value: Any) -> None:
        self.__dict__[name] = value

    def built(self) -> Iterator[Any]:
        """Every widget built so far (lists flattened)."""
        for name, value in self.__dict__.items():
            if name.startswith("_"):
                continue
            yield from value if isinstance(value, list) else [value]


class Shell(Protocol):
    """What a view needs of the app (see the module docstring)."""

    controller: Controller
    ui: UI

    def guard(self, fn: Callable[..., Any]) -> Callable[..., None]: ...

    def quietly(self) -> AbstractContextManager[None]: ...

    def confirm_new_session(self, start: Callable[[], None]) -> None: ...
