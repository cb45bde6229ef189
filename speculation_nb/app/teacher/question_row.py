"""The teacher's question deals (issue 25) in the table panel: a moment of the question bank shown to
the class outside the standings, and its table drawn on the projector.

:func:`build` adds to the panel's ``ui`` the row ``spec-host-question-row`` (the moment to ask
about, ``spec-host-question-pick``; "Ask the class about this moment", ``spec-host-question-open``;
"Back to the deal", ``spec-host-question-end``) and ``spec-host-question-table`` (while a question
deal is shown: the words saying no chip moves and the question; its table, odds and fair price are
the app's main view then, :meth:`~speculation_nb.app.model.Controller.show_question`); :func:`draw`
words and shows them. Every check is the referee's (:meth:`.Referee.open_question`).

While the table is open, :class:`EditorLend` makes the app's "Set up a moment" editor ask the class
about the moment composed there (:meth:`~speculation_nb.app.player.screen.SpeculationApp.take_moments`,
:meth:`.HostSession.open_composed`, the teacher's question shown as typed, escaped); once the
table is closed (or the panel), the editor opens moments in the app again.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import quote

import ipywidgets as widgets  # type: ignore[import-untyped]

from ...engine import bank
from ...engine.errors import Refusal
from ...languages.translator import Translator
from ..common.panel import tagged
from ..common.parts import esc, set_traits, show
from ..composer import moment_names

__all__ = ["EditorLend", "build", "draw", "files_html", "open_bank"]


def build(ui: Any, session: Callable[[], Any], guard: Callable[..., Any]) -> widgets.Widget:
    """The question row and table (see the module docstring); ``session()`` gives the panel's
    :class:`~speculation_nb.classroom.host_session.HostSession`."""
    ui.question_pick = tagged(widgets.Dropdown(options=[]), "spec-host-question-pick")
    ui.question_open = tagged(widgets.Button(), "spec-button", "spec-host-question-open")
    ui.question_end = tagged(widgets.Button(), "spec-button", "spec-host-question-end")
    ui.question_table = tagged(widgets.HTML(), "spec-host-question-table")
    ui.question_open.on_click(guard(lambda _b: open_bank(session(), ui.question_pick.value)))
    ui.question_end.on_click(guard(lambda _b: session().end_question()))
    row = tagged(widgets.HBox([ui.question_pick, ui.question_open, ui.question_end]), "spec-host-row")
    ui.question_row = row
    return widgets.VBox([row, ui.question_table])


def draw(ui: Any, t: Translator, question: Any) -> None:
    """Word the row in ``t``'s language; ``question``: the question deal shown (None: the deal)."""
    options = [(_short(t(q.key)), q.id) for q in bank.QUESTIONS]
    if [tuple(o) for o in ui.question_pick.options] != options:
        value = ui.question_pick.value
        with ui.question_pick.hold_sync():
            ui.question_pick.options = options
            ui.question_pick.value = value if value in [v for _, v in options] else options[0][1]
    set_traits(ui.question_pick, description=t("class.host.question_pick"))
    set_traits(ui.question_open, description=t("class.host.question_open"), tooltip=t("class.host.question_open_tip"))
    set_traits(ui.question_end, description=t("class.host.question_end"))
    show(ui.question_end, question is not None)
    if question is None:
        ui.question_table.value = ""
        return
    words = t(f"bank.{question.question}.question") if question.question else question.words
    ui.question_table.value = f'<p role="status"><b>{esc(t("class.host.question_shown"))}</b></p><p>{esc(words)}</p>'


def open_bank(session: Any, question: str) -> bool:
    """Show the bank's moment ``question`` to the class, its seats named as the editor names them
    (the chapter's cast at the chapter's table: :func:`~speculation_nb.app.composer.moment_names`)."""
    return bool(session.open_question(question, moment_names(bank.question(question).to_moment())))


class EditorLend:
    """While ``session`` (the panel's :class:`~speculation_nb.classroom.host_session.HostSession`)
    referees a table, ``app``'s editor gives its moments to the table; else they open in ``app``.
    :meth:`follow` after each change of the session (it hands the editor over only when that changes)."""

    def __init__(self, app: Any, session: Any) -> None:
        self.app, self.session, self.lent = app, session, False

    def follow(self) -> None:
        take = getattr(self.app, "take_moments", None)
        lend = bool(self.session.open)
        if callable(take) and lend != self.lent:
            self.lent = lend
            take(self.ask if lend else None)

    def ask(self, entry: Any) -> None:
        """The editor's moment to the class; a refusal (the referee's) shows in the editor too."""
        session = self.session
        refusal = None if session.open_composed(entry, moment_names(entry.moment)) else session.notice.refusal
        if isinstance(refusal, Refusal):
            raise refusal


def files_html(t: Translator, answers: Any, handout: Any) -> str:
    """The download links of the answers' CSV and the handout (``Export``s, None when not made)."""
    files = [
        f'<a class="spec-host-file" download="{esc(f.name)}" href="data:{kind};charset=utf-8,'
        f'{quote(f.text, safe="")}">{esc(t(key))}</a>'
        for f, kind, key in (
            (answers, "text/csv", "class.host.answers_download"),
            (handout, "text/html", "class.host.handout_download"),
        )
        if f is not None
    ]
    return " ".join(files)


def _short(text: str, limit: int = 72) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"
