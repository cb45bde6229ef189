"""Ask before throwing away what a person built: a question in words and two answers.

Anything that replaces the session shown (a new session, a saved file opened) loses its
deals and standings. Once there is something to lose (an action taken, a deal played:
``Controller.started``), :class:`ConfirmRow` shows, where the person acted, the question
naming what would be lost and what would come instead, with two buttons: the one that goes
ahead and the one that keeps everything as it is. Nothing changes until one is pressed.

The row is one ``HBox`` (CSS class ``cls``, also ``spec-ask``) of the question
(``<cls>-text``, an alert for screen readers) and the buttons ``<cls>-yes`` and
``<cls>-no``. They are real ``<button>`` elements, so Tab reaches them and the app's
3 px focus ring shows on them; when the question appears, the focus goes to the
button that keeps (the safe answer), so Enter or Space never throws anything away by
surprise. Both buttons say what they do in words; colour only repeats it. The row
wraps: the question takes a line of its own on a 360 px screen, the buttons the next.

>>> row = ConfirmRow("spec-share-ask", guard=lambda fn: fn)
>>> row.words("Replace this session?", yes="Replace", no="Keep my session")
>>> row.ask(lambda: print("replaced"), lambda: print("kept"))
>>> row.asking
True
>>> row.answer(False)
kept
>>> row.asking
False
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import ipywidgets as widgets  # type: ignore[import-untyped]

from ...assets import asset_text
from ...languages.translator import escape
from .parts import button, html_widget, set_traits, show

__all__ = ["CSS", "ConfirmRow"]

#: The row's look (``speculation_nb/assets/confirm.css``): in the app's stylesheet, and in each
#: panel's own (a panel may be shown alone).
CSS = asset_text("confirm.css")


class ConfirmRow:
    """``ConfirmRow(cls, guard)``: the question row (see the module docstring). ``guard``
    wraps the buttons' callbacks (the panel's or the app's, so that a failure becomes a
    line in words). :meth:`words` sets what it says, :meth:`ask` shows it, :meth:`answer`
    (a button) hides it and runs the answer chosen."""

    def __init__(self, cls: str, guard: Callable[[Callable[[Any], object]], Callable[[Any], None]]) -> None:
        self.text = html_widget(f"{cls}-text")
        self.yes = button(f"{cls}-yes", "danger")
        self.no = button(f"{cls}-no")
        self.root = widgets.HBox([self.text, self.yes, self.no])
        self.root.add_class(cls)
        self.root.add_class("spec-ask")
        show(self.root, False)
        self._answers: tuple[Callable[[], None], Callable[[], None] | None] | None = None
        self.yes.on_click(guard(lambda _b: self.answer(True)))
        self.no.on_click(guard(lambda _b: self.answer(False)))

    @property
    def widgets(self) -> tuple[widgets.HBox, widgets.HTML, widgets.Button, widgets.Button]:
        """The root, the question and the two buttons (to close them with their owner)."""
        return (self.root, self.text, self.yes, self.no)

    @property
    def asking(self) -> bool:
        """True while the question waits for an answer."""
        return self._answers is not None

    def words(self, question: str, *, yes: str, no: str, yes_tip: str = "", no_tip: str = "") -> None:
        """What the row says (plain text, escaped here): the question and the buttons' words."""
        text = f'<span role="alert">{escape(question)}</span>'
        if self.text.value != text:
            self.text.value = text
        set_traits(self.yes, description=yes, tooltip=yes_tip or None)
        set_traits(self.no, description=no, tooltip=no_tip or None)

    def ask(self, on_yes: Callable[[], None], on_no: Callable[[], None] | None = None) -> None:
        """Show the question: ``on_yes()`` runs if the person goes ahead, ``on_no()`` if they keep.
        A second question replaces a first one still open (its answers are dropped)."""
        self._answers = (on_yes, on_no)
        show(self.root, True)
        self.no.focus()

    def answer(self, yes: bool) -> None:
        """The person answered: hide the row and run that answer (a stale click does nothing)."""
        answers, self._answers = self._answers, None
        show(self.root, False)
        if answers is None:
            return
        on_yes, on_no = answers
        if yes:
            on_yes()
        elif on_no is not None:
            on_no()

    def drop(self) -> None:
        """Forget the question without running either answer (something else replaced it)."""
        self._answers = None
        show(self.root, False)
