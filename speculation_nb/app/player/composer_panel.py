"""The editor of "Set up a moment" (issue 25): the view of :class:`~..composer.Composer`.

``ComposerPanel(controller).widget`` (CSS class ``spec-compose``), built on first open
(:class:`~..common.panel_opener.PanelOpener`, button ``spec-open-compose``). Every field is a plain
ipywidget (a select, a text field, a check box), so it works by keyboard (Tab, arrows, typing) and
on a tablet; each has a label. From top to bottom:

* "Open a moment from the bank" (``spec-compose-bank``, a select of the question bank's moments and
  the teacher's own) and "Open in the editor" (``spec-compose-bank-open``); the chosen moment's
  question shows under it (``spec-compose-question``);
* the rules (``spec-compose-players``, ``-preset``, ``-hand``, ``-v1``, ``-v2``), the dealer and
  the turn-up (``spec-compose-dealer``, ``-turn-up``: a card such as ``QH``);
* one row per seat (``spec-compose-seat``): the cards it has turned up, in order
  (``spec-compose-up``: ``"2S 7D"``), how many its pile still holds (``spec-compose-down``,
  "as the rules give" by default) and its chips (``spec-compose-stack``, blank: as the antes and
  payments leave them); the dead pile's count with V2 (``spec-compose-dead``);
* who holds the best trump (``spec-compose-holder``: whoever turned it up, or a seat that bought
  it) and the price paid (``spec-compose-paid``), the pot (``spec-compose-pot``), the seat due
  (``spec-compose-due``); a line of what follows (the best trump, the stock, the unseen cards:
  ``spec-compose-summary``);
* "Open this moment" (``spec-compose-open``): the moment opens in the app, its unseen cards dealt
  from a secret seed, with its odds; while the app hosts a shared table the button says "Ask the
  class about this moment" and the table shows it to the class instead (:attr:`ComposerPanel.taker`).
  A refusal (a field that cannot be read, or a rule the moment breaks, named) shows in
  ``spec-compose-message`` (+ ``spec-compose-error``); nothing typed is lost;
* the teacher's own moments: a title and a question (``spec-compose-title``, ``-ask``), "Add to my
  moments" (``spec-compose-keep``), the file to download (``spec-compose-download``) and "Open my
  moments file" (``spec-compose-upload``).

The model is :mod:`..composer`: this module only copies fields to a :class:`ComposerForm` and back.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any
from urllib.parse import quote

import ipywidgets as widgets  # type: ignore[import-untyped]

from ...assets import asset_text
from ...engine import bank
from ...engine.compose import compose
from ...engine.errors import Refusal
from ...engine.settings import MAX_PLAYERS, MIN_PLAYERS, PRESETS
from ...languages.markup import escape as esc
from ...languages.translator import error_text
from ...links.composed import MomentEntry
from ..common.panel import ControllerPanel, tagged
from ..common.parts import relabel
from ..composer import Composer, ComposerForm, FormError, build, open_moment, seat_names

__all__ = ["ComposerPanel"]

log = logging.getLogger("speculation_nb.widgets")
CSS = asset_text("composer.css")
AUTO = -1  # the selects' "as the rules give"
#: The name of each moment of the question bank in the select (catalog keys).
BANK_LABELS = {
    "dozen": "label.compose.bank_dozen",
    "dozen_six": "label.compose.bank_dozen_six",
    "knave": "label.compose.bank_knave",
    "fanny": "label.compose.bank_fanny",
}


def _select(cls: str) -> widgets.Dropdown:
    return tagged(widgets.Dropdown(options=[("", AUTO)], value=AUTO, layout={"width": "auto"}), cls)


def _text(cls: str) -> widgets.Text:
    return tagged(widgets.Text(continuous_update=False, layout={"width": "auto"}), cls)


class ComposerPanel(ControllerPanel):
    """The editor (see the module docstring). ``composer`` is its model; :meth:`compose` is
    "Open this moment" (True when it opened), :meth:`open_entry` "Open in the editor"."""

    def __init__(self, controller: Any) -> None:
        self.controller = controller
        self.composer = Composer()
        self.error: Refusal | None = None
        self.status: tuple[str, dict[str, Any]] | None = None
        self._file: str | None = None
        self._seats: int = 0
        self._filling = False
        #: Who takes a composed moment instead of this app (the shared table's poll, say): called
        #: with the :class:`MomentEntry` once the rules accept it; a ``Refusal`` it raises shows in
        #: the editor. None: the moment opens here (:func:`~..composer.open_moment`).
        self.taker: Callable[[MomentEntry], object] | None = None
        self._build()
        self.show_form(self.composer.form)
        controller.observe(lambda _c: self.guard(lambda _x: self.draw())(None), "lang")
        self.draw()

    # ---------------------------------------------------------------- building
    def _build(self) -> None:
        ui = self.ui = SimpleNamespace()
        ui.style = widgets.HTML(f"<style>{CSS}</style>")
        ui.title_line = tagged(widgets.HTML(), "spec-compose-heading")
        ui.bank = tagged(widgets.Dropdown(layout={"width": "auto"}), "spec-compose-bank")
        ui.bank_open = tagged(widgets.Button(), "spec-button", "spec-compose-bank-open")
        ui.question = tagged(widgets.HTML(), "spec-compose-question")
        ui.players = tagged(
            widgets.Dropdown(options=list(range(MIN_PLAYERS, MAX_PLAYERS + 1)), layout={"width": "auto"}),
            "spec-compose-players",
        )
        ui.preset = tagged(
            widgets.Dropdown(options=[(p, p) for p in PRESETS], layout={"width": "auto"}), "spec-compose-preset"
        )
        ui.hand = tagged(widgets.Dropdown(options=[3, 4, 5], layout={"width": "auto"}), "spec-compose-hand")
        ui.v1 = tagged(widgets.Checkbox(indent=False), "spec-compose-v1")
        ui.v2 = tagged(widgets.Checkbox(indent=False), "spec-compose-v2")
        ui.dealer = _select("spec-compose-dealer")
        ui.turn_up = _text("spec-compose-turn-up")
        ui.seats = tagged(widgets.VBox([]), "spec-compose-seats")
        ui.ups, ui.downs, ui.stacks = [], [], []  # each seat's fields (Text, Dropdown, Text)
        ui.dead = _select("spec-compose-dead")
        ui.holder = _select("spec-compose-holder")
        ui.paid = _text("spec-compose-paid")
        ui.pot = _text("spec-compose-pot")
        ui.due = _select("spec-compose-due")
        ui.summary = tagged(widgets.HTML(), "spec-compose-summary")
        ui.open = tagged(widgets.Button(button_style="primary"), "spec-button", "spec-compose-open")
        ui.message = tagged(widgets.HTML(), "spec-compose-message")
        ui.title = _text("spec-compose-title")
        ui.ask = tagged(widgets.Textarea(layout={"width": "auto"}, rows=2), "spec-compose-ask")
        ui.keep = tagged(widgets.Button(), "spec-button", "spec-compose-keep")
        ui.download = tagged(widgets.HTML(), "spec-compose-download")
        ui.upload = tagged(
            widgets.FileUpload(accept=".json,application/json", multiple=False, layout={"width": "auto"}),
            "spec-button",
            "spec-compose-upload",
        )

        def row(*parts: Any) -> Any:
            return tagged(widgets.HBox(list(parts)), "spec-compose-row")

        ui.root = tagged(
            widgets.VBox(
                [
                    ui.style,
                    ui.title_line,
                    row(ui.bank, ui.bank_open),
                    ui.question,
                    row(ui.players, ui.preset, ui.hand, ui.v1, ui.v2),
                    row(ui.dealer, ui.turn_up),
                    ui.seats,
                    row(ui.dead, ui.holder, ui.paid),
                    row(ui.pot, ui.due),
                    ui.summary,
                    row(ui.open),
                    ui.message,
                    row(ui.title, ui.ask, ui.keep),
                    row(ui.download, ui.upload),
                ]
            ),
            "spec-compose",
        )
        ui.bank_open.on_click(self.guard(lambda _b: self.open_entry(ui.bank.value)))
        ui.open.on_click(self.guard(lambda _b: self.compose()))
        ui.keep.on_click(self.guard(lambda _b: self.keep()))
        ui.upload.observe(self.guard(self._on_upload), "value")
        for w in (ui.players, ui.hand):
            w.observe(self.guard(lambda _c: self._reshape()), "value")
        for w in (ui.v2, ui.turn_up, ui.preset):
            w.observe(self.guard(lambda _c: self._redraw()), "value")

    def failed(self) -> None:
        self.error, self.status = None, ("error.unexpected", {})
        self.draw()

    # ---------------------------------------------------------------- the form
    @property
    def names(self) -> list[str]:
        """The seats' names the editor shows (the chapter's table for the bank's rules): the names
        the moment opens with (:func:`~..composer.seat_names`)."""
        form = self.composer.form
        return seat_names(form.players, form.preset)

    def read_form(self) -> ComposerForm:
        """The form the fields describe now."""
        ui = self.ui

        def opt(value: int) -> int | None:
            return None if value == AUTO else value

        return ComposerForm(
            players=ui.players.value,
            preset=ui.preset.value,
            hand_size=ui.hand.value,
            jack_five=ui.v1.value,
            dead_hand=ui.v2.value,
            dealer=max(0, ui.dealer.value),
            turn_up=ui.turn_up.value,
            face_up=[w.value for w in ui.ups],
            face_down=[opt(w.value) for w in ui.downs],
            dead=opt(ui.dead.value) if ui.v2.value else None,  # hidden without V2: not a count typed
            holder=opt(ui.holder.value),
            paid=ui.paid.value,
            stacks=[w.value for w in ui.stacks],
            pot=ui.pot.value,
            turn=opt(ui.due.value),
            other_rules=dict(self.composer.form.other_rules),
        )

    def show_form(self, form: ComposerForm) -> None:
        """Put ``form`` in the fields."""
        ui = self.ui
        self.composer.form = form
        self._filling = True
        try:
            ui.players.value, ui.preset.value, ui.hand.value = form.players, form.preset, form.hand_size
            ui.v1.value, ui.v2.value = form.jack_five, form.dead_hand
            self._rows(form.players)
            self._options()
            ui.dealer.value = form.dealer
            ui.turn_up.value = form.turn_up
            for s in range(form.players):
                ui.ups[s].value = form.face_up[s]
                ui.downs[s].value = AUTO if form.face_down[s] is None else form.face_down[s]
                ui.stacks[s].value = form.stacks[s]
            ui.dead.value = AUTO if form.dead is None else form.dead
            ui.holder.value = AUTO if form.holder is None else form.holder
            ui.paid.value, ui.pot.value = form.paid, form.pot
            ui.due.value = AUTO if form.turn is None else form.turn
        finally:
            self._filling = False
        self.draw()

    def _redraw(self) -> None:
        if self._filling:
            return
        self.composer.form = self.read_form()
        self.draw()

    def _reshape(self) -> None:
        """Players or cards each changed: the seats' rows and the counts follow, typed text kept."""
        if self._filling:
            return
        form = self.read_form()
        form.fit()
        self.show_form(form)

    def _rows(self, n: int) -> None:
        ui = self.ui
        while len(ui.ups) < n:
            ui.ups.append(_text("spec-compose-up"))
            ui.downs.append(_select("spec-compose-down"))
            ui.stacks.append(_text("spec-compose-stack"))
        if self._seats != n:
            rows = [tagged(widgets.HBox([ui.ups[s], ui.downs[s], ui.stacks[s]]), "spec-compose-seat") for s in range(n)]
            for old in ui.seats.children:
                old.close()
            ui.seats.children = rows
            self._seats = n

    def _options(self) -> None:
        ui, t, form = self.ui, self.t, self.composer.form
        n, hand = form.players, form.hand_size
        names = self.names
        auto = t("label.compose.auto")
        seats = [(names[s], s) for s in range(n)]
        counts = [(auto, AUTO), *[(str(k), k) for k in range(hand + 1)]]

        def put(w: widgets.Dropdown, options: list[tuple[str, int]]) -> None:
            keep = w.value if w.value in [v for _, v in options] else options[0][1]
            if list(w.options) != options:
                w.options = options
            w.value = keep

        put(ui.dealer, seats)
        put(ui.holder, [(t("label.compose.turner"), AUTO), *seats])
        put(ui.due, [(auto, AUTO), *seats])
        put(ui.dead, counts)
        for s in range(n):
            put(ui.downs[s], counts)
        choices = [(self._entry_label(id, entry, key), id) for id, entry, key in self.composer.entries()]
        put(ui.bank, choices)  # type: ignore[arg-type]

    def _entry_label(self, id: str, entry: MomentEntry, key: str) -> str:
        if key:
            return self.t(BANK_LABELS.get(entry.title, "label.compose.bank"))
        return self.t("label.compose.mine", title=entry.title or id.split(":")[1])

    # ---------------------------------------------------------------- actions
    def open_entry(self, id: str) -> None:
        """Fill the fields from the bank's (or the teacher's own) moment ``id``."""
        self.composer.load(id)
        self.error, self.status = None, None
        self.show_form(self.composer.form)

    def compose(self) -> bool:
        """ "Open this moment": the form's moment opens in the app (True), or the refusal shows in
        the editor, naming the rule, and nothing changes (False). With a :attr:`taker`, the
        moment goes to it instead, once the rules accept it; while a shared table holds this app's
        deal and no taker does, the moment is refused (it would replace the table's deal)."""
        form = self.composer.form = self.read_form()
        try:
            moment = build(form)
            entry = MomentEntry(moment, self.ui.title.value.strip()[:80], self._question()[:500])
            if self.taker is not None:
                compose(moment, 0)  # the rules' refusal first, naming the rule
                self.taker(entry)
            elif getattr(self.controller, "mode_held", False):  # a shared table plays this app's deal
                compose(moment, 0)
                raise Refusal("", "compose.table_open", "the class's table is open: close it first")
            else:
                open_moment(self.controller, entry, self.names)
        except Refusal as error:
            self.error, self.status = error, None
            self.draw()
            return False
        self.error, self.status = None, ("status.compose.asked" if self.taker else "status.compose.opened", {})
        self.draw()
        return True

    def _question(self) -> str:
        typed: str = self.ui.ask.value.strip()
        if typed:
            return typed
        chosen = self.composer.chosen
        if chosen.startswith("bank:"):
            return self.t(f"bank.{chosen[5:]}.question")
        if chosen.startswith("mine:"):
            return self.composer.entry(chosen)[0].question
        return ""

    def keep(self) -> bool:
        """ "Add to my moments" (a refused moment is not kept: the refusal shows)."""
        self.composer.form = self.read_form()
        try:
            self.composer.keep(self.ui.title.value, self._question())
        except Refusal as error:
            self.error, self.status = error, None
            self.draw()
            return False
        text = self.composer.file_text()
        self._file = "data:application/json;charset=utf-8," + quote(text, safe="")
        self.error, self.status = None, ("status.compose.kept", {"count": len(self.composer.mine)})
        self._options()
        self.draw()
        return True

    def load_file(self, data: bytes | str) -> bool:
        """Add the moments of a file the teacher kept; a file that is not one is refused in words."""
        from ...links.share import read_save

        try:
            loaded = read_save(data)
            if not isinstance(loaded, tuple):
                raise FormError("upload", "not_moments", "the file holds a game, not moments")
            count = self.composer.add_file(loaded)
        except Refusal as error:
            self.error, self.status = error, None
            self.draw()
            return False
        self.error, self.status = None, ("status.compose.added", {"count": count})
        self._options()
        self.draw()
        return True

    def _on_upload(self, change: Any) -> None:
        files = change["new"]
        if not files:
            return
        item = files[0]
        content = item["content"] if isinstance(item, dict) else getattr(item, "content", b"")
        try:
            self.load_file(bytes(content))
        finally:
            with contextlib.suppress(Exception):
                self.ui.upload.value = ()

    # ---------------------------------------------------------------- showing
    def summary(self) -> str:
        """What follows from the fields: the best trump, the stock and the unseen cards ("" while
        the fields do not make a moment)."""
        try:
            m = build(self.read_form())
        except Refusal:
            return ""
        t = self.t
        return t(
            "label.compose.summary",
            card=str(m.best_trump),
            name=self.names[m.holder] if m.holder < len(self.names) else "",
            stock=t.number(m.stock),
            unseen=t.number(m.unseen),
        )

    def message(self) -> str:
        """The editor's line: the refusal in words (naming the rule), or what happened."""
        if self.error is not None:
            return error_text(self.error, self.t, self.names)
        if self.status is not None:
            key, params = self.status
            return self.t(key, **params)
        return ""

    def draw(self) -> None:
        ui, t = self.ui, self.t
        self._options()
        ui.title_line.value = f"<b>{esc(t('label.compose.title'))}</b> · {esc(t('label.compose.intro'))}"
        labels = {
            "bank": "label.compose.bank",
            "players": "settings.players",
            "preset": "settings.preset",
            "hand": "settings.hand_size",
            "v1": "settings.v1",
            "v2": "settings.v2",
            "dealer": "label.compose.dealer",
            "turn_up": "label.compose.turn_up",
            "dead": "label.compose.dead",
            "holder": "label.compose.holder",
            "paid": "label.compose.paid",
            "pot": "label.compose.pot",
            "due": "label.compose.due",
            "title": "label.compose.keep_title",
            "ask": "label.compose.ask",
        }
        for name, key in labels.items():
            w = getattr(ui, name)
            if w.description != t(key):
                w.description = t(key)
        relabel(ui.preset, {p: t(f"preset.{p}") for p in PRESETS})
        ui.turn_up.placeholder = "QH"
        names = self.names
        for s, (up, down, stack) in enumerate(zip(ui.ups, ui.downs, ui.stacks)):
            name = names[s] if s < len(names) else ""
            up.description = t("label.compose.seat_up", name=name)
            up.placeholder = t("label.compose.cards_example")
            down.description = t("label.compose.seat_down")
            stack.description = t("label.compose.seat_stack")
        ui.dead.layout.display = None if ui.v2.value else "none"
        ui.bank_open.description = t("button.compose.bank_open")
        asks = self.taker is not None  # the shared table asks the class about the moment instead
        ui.open.description = t("button.compose.ask" if asks else "button.compose.open")
        ui.open.tooltip = t("tooltip.compose.ask" if asks else "tooltip.compose.open")
        ui.keep.description = t("button.compose.keep")
        ui.upload.description = t("button.compose.upload")
        chosen = self.composer.chosen
        question = ""
        if chosen:
            entry, key = self.composer.entry(chosen)
            said = t(key) if key else entry.question
            quote_ = bank.question(chosen[5:]).quote if key else ""
            question = esc(said) + (f" <i>“{esc(quote_)}”</i>" if quote_ else "")
        ui.question.value = question
        ui.summary.value = esc(self.summary())
        ui.download.value = (
            ""
            if self._file is None
            else f'<a class="spec-compose-file" download="my-moments.json" href="{esc(self._file)}">'
            f"{esc(t('label.compose.download', file='my-moments.json'))}</a>"
        )
        text = self.message()
        error = self.error is not None or (self.status is not None and self.status[0] == "error.unexpected")
        role = "alert" if error else "status"
        ui.message.value = f'<div role="{role}">{esc(text)}</div>' if text else ""
        for cls, on in (("spec-compose-error", error), ("spec-compose-ok", bool(text) and not error)):
            (ui.message.add_class if on else ui.message.remove_class)(cls)
        bad = self.error.field if isinstance(self.error, FormError) else ""
        for name, w in self._fields().items():
            (w.add_class if name == bad else w.remove_class)("spec-compose-invalid")

    def _fields(self) -> dict[str, Any]:
        ui = self.ui
        out = {"turn_up": ui.turn_up, "paid": ui.paid, "pot": ui.pot, "upload": ui.upload}
        out.update({f"up{s}": w for s, w in enumerate(ui.ups)})
        out.update({f"stack{s}": w for s, w in enumerate(ui.stacks)})
        return out

    def close(self) -> None:
        for w in [*self.ui.ups, *self.ui.downs, *self.ui.stacks]:
            w.close()
        for w in vars(self.ui).values():
            if isinstance(w, widgets.Widget):
                w.close()
