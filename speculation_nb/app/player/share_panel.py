"""Share a moment, save and open a game or a session: the app's sharing view.

``SharePanel(controller).widget`` (CSS class ``spec-share``) shows:

* the link of the moment shown (:func:`speculation_nb.links.share.moment_query`) in a
  read-only text field, to select and copy, with a Copy button that copies it
  where the browser lets a page do so (the clipboard API in a secure page, else
  the older copy command) and says when it could not;
* "Save the deal" and "Save the session": each makes a download link (a
  ``data:`` URL in an ``<a download>``, the JSON of ``to_json``), no clipboard and
  no server needed, so it works under Voila and under Pyodide alike;
* "Open a saved file" (an ``ipywidgets.FileUpload``): a saved session opens in
  the app; anything that is not a valid save is refused at once with the reason in
  words (:func:`speculation_nb.links.share.read_save`), and the game shown stays as it was.
  A valid file replaces the session shown at once only while nothing has been played
  in it (``Controller.started``); otherwise the panel first asks, in words, naming
  what would be lost (the deal and its actions, the deals played and the standings)
  and what the file holds, with "Replace" and "Keep my session" (:mod:`.confirm`).
  Keep leaves everything as it was and says so.

:func:`apply_moment` opens a :class:`~speculation_nb.links.share.SharedMoment` (read from
a page's address by :func:`~speculation_nb.links.share.read_shared_moment`) in a controller;
:func:`open_from_query` is what the app's query code does with a page's address.

CSS classes: ``spec-share`` (the root), ``spec-share-title``, ``spec-share-link-box``
(inside it ``input.spec-share-link``, ``button.spec-share-copy``, ``span.spec-share-copied``),
``spec-share-save-deal``, ``spec-share-save-session`` (buttons, also ``spec-button``),
``spec-share-download`` (inside it ``a.spec-share-file``), ``spec-share-open`` (the
file upload), ``spec-share-ask`` (the question before a file replaces a played session:
``spec-share-ask-text``, ``button.spec-share-ask-yes`` "Replace", ``button.spec-share-ask-no``
"Keep my session"), ``spec-share-message`` (+ ``spec-share-error`` / ``spec-share-ok``).
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Mapping
from types import SimpleNamespace
from typing import Any
from urllib.parse import quote

import ipywidgets as widgets  # type: ignore[import-untyped]

from ... import players
from ...assets import asset_text
from ...engine.errors import Refusal
from ...engine.game import Game
from ...engine.session import Session
from ...languages.markup import escape as esc
from ...languages.translator import error_text
from ...links.check import verify_check
from ...links.composed import MomentEntry, composed_query, moments_json, read_composed
from ...links.query import query_params
from ...links.share import (
    SharedMoment,
    ShareError,
    moment_link,
    moment_query,
    read_save,
    read_shared_link,
    read_shared_moment,
    save_name,
)
from ..common.confirm import CSS as CONFIRM_CSS
from ..common.confirm import ConfirmRow
from ..common.panel import ControllerPanel, tagged
from ..composer import composed_entry, open_moment, public_entry
from ..model import DEFAULT_NAMES

__all__ = ["SharePanel", "apply_moment", "default_names", "open_from_query"]

log = logging.getLogger("speculation_nb.widgets")

#: The panel's look (``speculation_nb/assets/share_panel.css``).
CSS = asset_text("share_panel.css")

#: The Copy button's script (``speculation_nb/assets/copy_link.js``): select the field, then copy
#: where the browser allows it. It reads the link from the field only; its words come from data- attributes.
_COPY_JS = asset_text("copy_link.js")


def default_names(players_count: int, temperament: str) -> list[str]:
    """The names the app gives the seats when nobody typed any (the novel's cast with
    ``temperament="mansfield"``)."""
    if temperament == "mansfield":
        return list(players.mansfield_park(players_count).names)
    return list(DEFAULT_NAMES[:players_count])


def apply_moment(controller: Any, moment: SharedMoment) -> None:
    """Open a shared moment in ``controller``: its app settings, its session, its step."""
    app = moment.app
    if "temperament" in app:
        controller.temperament = app["temperament"]
    if "mode" in app:
        controller.mode = app["mode"]
    if "human" in app:
        controller.human = min(max(0, int(app["human"])), moment.rules.players - 1)
    session = moment.session(default_names(moment.rules.players, controller.temperament))
    controller.replace_session(session, moment.step)


def open_from_query(controller: Any, query: str | Mapping[str, str]) -> bool:
    """What the app's query code does with a page's address: open the moment it names
    (True), or do nothing when it names none (False). A link whose check character does not
    match, or that cannot be read, is refused with one line in the page (``controller.notify``),
    and the app starts as the rest of the address says. A link whose replay stops at a move the
    rules refuse opens at the last move that replays, and the line says why it stopped there.
    A composed moment's link (:mod:`speculation_nb.links.composed`) opens that moment, its unseen
    cards dealt afresh from a secret seed (or is refused, naming the rule)."""
    try:
        if isinstance(query, str):
            verify_check(query)
            params = query_params(query)
        else:
            params = dict(query)
        composed = read_composed(params)  # a composed moment: its unseen cards dealt afresh, secretly
        if composed is not None:
            open_moment(controller, composed)
            return True
        if isinstance(query, str):
            moment = read_shared_link(query)
        else:
            moment = read_shared_moment(params, stop=True)
        if moment is None:
            return False
        apply_moment(controller, moment)
    except Refusal as error:  # a link that does not replay, a composed moment the rules refuse
        controller.notify(controller.t("error.share.refused", reason=error_text(error, controller.t)), "error")
        return False
    if moment.stopped is not None:
        reason = error_text(moment.stopped, controller.t, controller.names)
        controller.notify(controller.t("error.share.stopped", reason=reason), "error")
    return True


def _data_url(text: str) -> str:
    return "data:application/json;charset=utf-8," + quote(text, safe="")


class SharePanel(ControllerPanel):
    """The sharing view (see the module docstring): ``SharePanel(controller).widget``."""

    def __init__(self, controller: Any) -> None:
        self.controller = controller
        self.link = ""
        self.message_key = ""
        self.message_params: dict[str, Any] = {}
        self.message_kind = ""
        self._file: tuple[str, str, str] | None = None  # (key of the button's words, file name, data URL)
        self._file_moment: tuple[Any, ...] | None = None
        self._waiting: Game | Session | tuple[MomentEntry, ...] | None = (
            None  # a file read, waiting for the answer to the question
        )
        self._message_class = ""
        self._build()
        controller.observe(self._on_change, "version")
        controller.observe(self._on_change, "lang")
        self._on_change()

    # ---------------------------------------------------------------- building
    def _build(self) -> None:
        ui = self.ui = SimpleNamespace()
        ui.style = widgets.HTML(f"<style>{CSS}{CONFIRM_CSS}</style>")
        ui.title = tagged(widgets.HTML(), "spec-share-title")
        ui.link = tagged(widgets.HTML(), "spec-share-link-box")
        ui.save_deal = tagged(widgets.Button(), "spec-button", "spec-share-save-deal")
        ui.save_session = tagged(widgets.Button(), "spec-button", "spec-share-save-session")
        ui.download = tagged(widgets.HTML(), "spec-share-download")
        ui.open = tagged(
            widgets.FileUpload(accept=".json,application/json", multiple=False, layout={"width": "auto"}),
            "spec-button",
            "spec-share-open",
        )
        ui.message = tagged(widgets.HTML(), "spec-share-message")
        self.asker = ConfirmRow("spec-share-ask", self.guard)
        ui.ask, ui.ask_text, ui.ask_replace, ui.ask_keep = self.asker.widgets
        row = tagged(widgets.HBox([ui.save_deal, ui.save_session, ui.open]), "spec-share-row")
        parts = [ui.style, ui.title, ui.link, row, ui.ask, ui.download, ui.message]
        ui.root = tagged(widgets.VBox(parts), "spec-share")
        ui.save_deal.on_click(self.guard(lambda _b: self.save("deal")))
        ui.save_session.on_click(self.guard(lambda _b: self.save("session")))
        ui.open.observe(self.guard(self._on_upload), "value")

    def failed(self) -> None:
        self._say("error.unexpected", "error")

    def _say(self, key: str, kind: str, **params: Any) -> None:
        self.message_key, self.message_kind, self.message_params = key, kind, params
        self._draw()

    # ---------------------------------------------------------------- actions
    def _moment(self) -> tuple[Any, ...]:
        c = self.controller
        return (id(c.session), c.session.deal_number, len(c.game.history), c.session.over)

    def query(self) -> str:
        """The query of the moment shown (see :func:`speculation_nb.links.share.moment_query`); of a
        composed moment, its public view only (:func:`speculation_nb.links.composed.composed_query`)."""
        c = self.controller
        entry = public_entry(c)
        if entry is not None:
            return composed_query(entry, {"lang": c.lang})
        settings = {"mode": c.mode, "human": getattr(c, "human", 0), "temperament": c.temperament, "lang": c.lang}
        names = default_names(c.rules.players, c.temperament)
        return moment_query(c.session, c.moment, settings, names)

    @property
    def hidden(self) -> bool:
        """True while a shared table holds the game: a link or a file holds the seed, which
        rebuilds every face-down card (issue 27), so neither is made until the table closes."""
        return bool(getattr(self.controller, "mode_held", False))

    def save(self, what: str) -> str:
        """Make the download link of the live deal (``"deal"``) or of the whole session
        (``"session"``); returns the JSON it holds (``""``, nothing made, while :attr:`hidden`)."""
        c = self.controller
        if self.hidden:
            self._say("class.host.share_hidden", "error")
            return ""
        entry = public_entry(c)
        if entry is not None:  # a composed moment: its public view, never the cards dealt for it
            text = moments_json([entry])
            self._file = ("label.share.download_moment", "speculation-moment.json", _data_url(text))
            self._file_moment = self._moment()
            self._say("", "")
            return text
        thing: Game | Session = c.game if what == "deal" else c.session
        text = thing.to_json()
        key = "label.share.download_deal" if what == "deal" else "label.share.download_session"
        self._file = (key, save_name(thing), _data_url(text))
        self._file_moment = self._moment()
        self._say("", "")
        return text

    @property
    def asking(self) -> bool:
        """True while a file read waits for the answer to "Replace this session?"."""
        return self.asker.asking

    def load(self, data: bytes | str) -> bool:
        """Open the bytes of a saved file: a session opens in the app, and so does a deal
        saved alone (as a session of that one deal, :meth:`Session.from_game`); anything
        else is refused at once with the reason in the message line, and nothing changes
        (False). A valid file (True) opens at once while the session shown is untouched;
        once something has been played in it, the panel asks first (:attr:`asking`) and
        the file opens on :meth:`replace`, or not at all on :meth:`keep`."""
        try:
            loaded = read_save(data)
        except ShareError as error:
            log.info("speculation_nb share panel: a file was refused: %s", error)
            self._drop_question()
            self._say("error.save.refused", "error", reason=error_text(error, self.t))
            return False
        if not self.controller.started:
            self._drop_question()
            self._open(loaded)
            return True
        self._waiting = loaded
        self._say("", "")  # the question's words first, then the question shows
        self.asker.ask(self._replace_answered, self._keep_answered)
        return True

    def replace(self) -> None:
        """The answer "Replace": the file waiting opens (as the button does)."""
        self.asker.answer(True)

    def keep(self) -> None:
        """The answer "Keep my session": the file is dropped, the session stays as it was."""
        self.asker.answer(False)

    def _replace_answered(self) -> None:
        loaded, self._waiting = self._waiting, None
        if loaded is not None:
            self._open(loaded)

    def _keep_answered(self) -> None:
        self._waiting = None
        self._say("confirm.share.kept", "ok")

    def _drop_question(self) -> None:
        self._waiting = None
        self.asker.drop()

    def _open(self, loaded: Game | Session | tuple[MomentEntry, ...]) -> None:
        if isinstance(loaded, tuple):  # a file of composed moments: the first opens, dealt afresh
            open_moment(self.controller, loaded[0])
            self._say("status.share.opened_moment", "ok", count=len(loaded))
            return
        if isinstance(loaded, Game):
            names = (
                self.controller.session.names if len(self.controller.session.names) == loaded.rules.players else None
            )
            self.controller.replace_session(Session.from_game(loaded, names), None)
            self._say("status.share.opened_deal", "ok", moves=len(loaded.history))
            return
        self.controller.replace_session(loaded, None)
        self._say("status.share.opened", "ok", deal=loaded.deal_number, seed=loaded.seed)

    def _on_upload(self, change: Any) -> None:
        files = change["new"]
        if not files:
            return
        item = files[0]
        content = item["content"] if isinstance(item, dict) else getattr(item, "content", b"")
        try:
            self.load(bytes(content))
        finally:
            with contextlib.suppress(Exception):  # if it cannot be cleared, the next file replaces it
                self.ui.open.value = ()

    # ---------------------------------------------------------------- showing
    def question(self) -> str:
        """ "Replace this session?" in words: what the session shown would lose, what the file
        waiting holds ("" when no file waits)."""
        t, session, waiting = self.t, self.controller.session, self._waiting
        if waiting is None:
            return ""
        game = session.game
        played = session.deal_number - 1 + (1 if game.over else 0)
        if played == 0:
            lost = t.plural("confirm.share.lost_deal", len(game.history), deal=t.number(session.deal_number))
        else:
            best = session.standings()[0]
            lost = t.plural(
                "confirm.share.lost_session",
                played,
                deal=t.number(session.deal_number),
                name=self.controller.names[best.seat],
                chips=t.number(best.stack),
            )
        if isinstance(waiting, tuple):
            opened = t.plural("confirm.share.opens_moments", len(waiting))
        elif isinstance(waiting, Game):
            opened = t.plural("confirm.share.opens_deal", len(waiting.history))
        else:
            opened = t("confirm.share.opens_session", deal=t.number(waiting.deal_number), seed=waiting.seed)
        return t("confirm.share.ask", lost=lost, opened=opened)

    def _on_change(self, _change: Any = None) -> None:
        try:
            if self._file is not None and self._file_moment != self._moment():
                self._file = None  # the file no longer holds what is shown
            if self.hidden:
                self._file = None
            self.link = "" if self.hidden else moment_link(self.query())
            self._draw()
        except Exception:
            log.exception("speculation_nb share panel: redraw failed")

    def _draw(self) -> None:
        t, ui = self.t, self.ui
        ui.title.value = esc(t("label.share.title"))
        for part in (ui.save_deal, ui.save_session):
            part.layout.display = "none" if self.hidden else None
        if self.hidden:
            ui.link.value = f'<span class="spec-share-hidden">{esc(t("class.host.share_hidden"))}</span>'
        else:
            ui.link.value = (
                f'<input class="spec-share-link" type="text" readonly value="{esc(self.link)}" '
                f'aria-label="{esc(t("label.share.link"))}" onfocus="this.select()">'
                f'<button class="spec-share-copy" type="button" data-done="{esc(t("status.share.copied"))}" '
                f'data-manual="{esc(t("status.share.copy_by_hand"))}" onclick="{esc(_COPY_JS)}">'
                f"{esc(t('button.share.copy'))}</button>"
                f'<span class="spec-share-copied" aria-live="polite"></span>'
            )
        composed = composed_entry(self.controller) is not None
        ui.save_deal.description = t("button.share.save_moment" if composed else "button.share.save_deal")
        ui.save_session.description = t("button.share.save_session")
        if composed:  # a composed session's file would hold the cards dealt for it: the moment only
            ui.save_session.layout.display = "none"
        ui.open.description = t("button.share.open")
        ui.open.tooltip = t("tooltip.share.open")
        self.asker.words(
            self.question(),
            yes=t("confirm.button.replace"),
            yes_tip=t("confirm.tooltip.replace"),
            no=t("confirm.button.keep"),
            no_tip=t("confirm.tooltip.keep"),
        )
        if self._file is None:
            ui.download.value = ""
        else:
            key, name, url = self._file
            ui.download.value = (
                f'<a class="spec-share-file" download="{esc(name)}" href="{esc(url)}">{esc(t(key, file=name))}</a>'
            )
        kind = f"spec-share-{self.message_kind}" if self.message_key else ""
        if kind != self._message_class:
            if self._message_class:
                ui.message.remove_class(self._message_class)
            if kind:
                ui.message.add_class(kind)
            self._message_class = kind
        ui.message.value = esc(t(self.message_key, **self.message_params)) if self.message_key else ""
