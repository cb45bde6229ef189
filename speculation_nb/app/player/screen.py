"""The Speculation app: the views of a :class:`~.controller.Controller`, laid out.

``SpeculationApp()`` is displayable as it is (the last line of a cell, or
``display(app)``); ``app.widget`` is its root ``VBox``. Every widget is in
``app.ui`` under the name of its CSS class without ``spec-`` (``app.ui.next`` is
the "Next card" button, class ``spec-next``); the widgets of the panels built on
first use (the auction, the settings, blind trades) are built when first read.

The views (one module each) never change the game themselves: a button calls the
controller, the controller changes the session and bumps its ``version``, and
:meth:`SpeculationApp.refresh` redraws every view from the controller's state.
Every callback is guarded: a rule refusal shows its rule and message in the
page's message line, anything unexpected a friendly line (the details go to the
``speculation_nb.app`` logger), and never a traceback. A click on a button
that was disabled or hidden by the time it arrives (a queued double click) is
ignored.

Layout: the title bar and the message line; then the table and its controls on
the left and the odds panel on the right; below them the log and standings, then
the settings. Below about 760 px wide it is one column (see :mod:`.style`).
Two further panels are built on first open (:mod:`.panel_opener`): the simulation
(:mod:`.simulation_panel`) in ``ui.odds_slot``, below the step controls (on a phone, below
the charts, as UI.md sketches), and sharing and saving
(:mod:`.share_panel`) in ``ui.share_slot``, below the settings; ``app.simulation`` and
``app.sharing`` are their openers. "Set up a moment" (:mod:`.composer_panel`, issue 25) opens in
``ui.compose_slot``, below the table's slot; ``app.composing`` is its opener, and
:meth:`SpeculationApp.open_moment` opens a composed :class:`~speculation_nb.Moment`.
Right after the table and the odds, ``ui.table_slot`` holds ``app.hosting``: "Open the table to
the class" (:mod:`.host_panel`, the shared table's teacher's side; on a projector, the odds'
column), or one line where no shared table can be opened.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets  # type: ignore[import-untyped]

from ...engine.errors import Refusal
from ...engine.settings import Rules
from ...languages.translator import Translator, error_text, translator
from ...links import query as grammar
from ...links.query import DEFAULT_DEALS, DEFAULT_PLAYERS, MODES, TEMPERAMENTS, QueryResult, query_params
from ..common.confirm import CSS as CONFIRM_CSS
from ..common.keys import make_helper
from ..common.panel_opener import PanelOpener
from ..common.parts import UI, card_html, esc, html_style, shown, toggle_class
from ..common.style import CSS
from ..model import PACE_CHOICES, Controller
from ..page_address import page_query
from ..teacher.opener import table_opener
from .auction import AuctionPanel
from .charts_view import ChartsView
from .controls import KEYS, LABELS, SUBMITS, ControlsView
from .header import HeaderView
from .log_view import LogView
from .odds_panel import OddsPanel
from .settings import SettingsView
from .share_panel import SharePanel, open_from_query
from .table_view import TableView
from .trade_view import TradeView

if TYPE_CHECKING:
    from ..student.screen import MemberApp

__all__ = ["SpeculationApp", "app", "card_html", "from_request", "query_settings", "read_query", "table_code"]

log = logging.getLogger("speculation_nb.widgets")
#: The notices the live region speaks: refusals (and failures) and the computer players' actions.
NEWS = ("error", "auto")


def simulation_panel(controller: Controller) -> Any:
    """The simulation panel, imported on its first open: it brings numpy, which the first view
    does without (a second saved at every start in a browser running Pyodide)."""
    from .simulation_panel import SimulationPanel

    return SimulationPanel(controller)


def composer_panel(controller: Controller, taker: Callable[[Any], object] | None = None) -> Any:
    """The editor of "Set up a moment" (:mod:`.composer_panel`), imported on its first open."""
    from .composer_panel import ComposerPanel

    panel = ComposerPanel(controller)
    if taker is not None:  # a shared table takes the moments: the button says so
        panel.taker = taker
        panel.draw()
    return panel


class SpeculationApp:
    """The teaching app: the table, the live odds, replay, auctions, settings.

    >>> app = SpeculationApp(players=4, seed=7, mode="classroom")   # doctest: +SKIP
    >>> app                                                          # doctest: +SKIP

    ``rules`` (a :class:`~speculation_nb.Rules`) or ``players`` (3-8, default 5);
    ``names`` the players' names; ``deals`` the length of the session (None: no
    limit); ``seed`` makes the whole session reproducible; ``mode``
    ``"play"`` (you are seat ``human``, the others are computer players of
    ``temperament`` ``"mixed"``, ``"cautious"``, ``"fair"``, ``"bold"`` or
    ``"mansfield"``) or ``"classroom"`` (the teacher drives every seat); ``lang``
    the language; ``charts`` ``"auto"`` (``SPECULATION_CHARTS``, else ``"svg"``), ``"svg"``,
    ``"ipympl"`` or ``"static"`` (matplotlib as PNG images; see :mod:`.chart_style`); ``pace``
    how fast the computer players act (``"slow"``, ``"normal"``, ``"instant"``; ``"auto"``: normal in a kernel,
    instant in a script); ``notice`` a first line for the message line; ``table_store`` the
    shared table's store (:mod:`speculation_nb.classroom.stores.base`; None: ``SPECULATION_TABLE_STORE``).
    """

    _moment_taker: Callable[[Any], object] | None  # see take_moments

    def __init__(
        self,
        rules: Rules | None = None,
        *,
        players: int | None = None,
        names: Sequence[str] | None = None,
        deals: int | None = DEFAULT_DEALS,
        seed: int | None = None,
        mode: str = "play",
        human: int = 0,
        temperament: str = "mixed",
        lang: str = "en",
        charts: str = "auto",
        pace: str = "auto",
        notice: str = "",
        table_store: Any = None,
    ) -> None:
        if rules is None:
            rules = Rules(players=players or DEFAULT_PLAYERS)
        elif players is not None and players != rules.players:
            raise ValueError(f"rules are for {rules.players} players, not {players}")
        if mode not in MODES:
            raise ValueError(f"mode is one of {', '.join(MODES)}, not {mode!r}")
        if temperament not in TEMPERAMENTS:
            raise ValueError(f"temperament is one of {', '.join(TEMPERAMENTS)}, not {temperament!r}")
        if pace not in PACE_CHOICES:
            raise ValueError(f"pace is one of {', '.join(PACE_CHOICES)}, not {pace!r}")
        self.controller = Controller(rules, names, deals, seed, mode, human, temperament, lang)
        self.controller.pace = pace
        self.last_error: BaseException | None = None
        self._busy = False
        self._heard = -1  # the controller's message_serial last spoken
        self._chance = ""  # the chance last spoken
        self.ui = UI()
        self._build(charts, table_store)
        if notice:
            self.controller.notify(notice, "error")
        self.controller.observe(self._on_change, "version")
        self.refresh()

    # ------------------------------------------------------------------ public
    @property
    def t(self) -> Translator:
        return self.controller.t

    @property
    def widget(self) -> widgets.VBox:
        """The root widget (``spec-app``)."""
        return self.ui.app

    @property
    def win_chart(self) -> Any:
        return self.charts.win_chart

    @property
    def hold_chart(self) -> Any:
        return self.charts.hold_chart

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)

    def close(self) -> None:
        """Close this app's widgets (and its chart canvases); other widgets are left alone."""
        self.controller.stop()  # no computer action arrives for closed widgets
        panel = getattr(self.hosting, "panel", None)
        if panel is not None:
            panel.close()  # stops refereeing; the table stays in its store
        self.charts.close()
        for w in self.ui.built():
            if isinstance(w, widgets.Widget):
                w.close()

    def guard(self, fn: Callable[..., Any]) -> Callable[..., None]:
        """A callback that turns any refusal or failure into a friendly line in the page."""

        @functools.wraps(fn)
        def handler(*args: Any) -> None:
            if self._busy:  # a trait set by refresh() itself, not by a person
                return
            if args and isinstance(args[0], widgets.Button) and (args[0].disabled or not shown(args[0])):
                return  # a click queued before the button was disabled or hidden
            try:
                fn(*args)
            except Refusal as error:  # the game's rules, the shared table's, a link's: worded alike
                self.last_error = error
                self.controller.notify(error_text(error, self.t, self.controller.names), "error")
            except Exception as error:  # never a traceback in the page
                self.last_error = error
                log.exception("speculation_nb app: a callback failed")
                self._fail()

        return handler

    @contextmanager
    def quietly(self) -> Iterator[None]:
        """Set traits without the observers taking it for a person's action."""
        was = self._busy
        self._busy = True
        try:
            yield
        finally:
            self._busy = was

    def confirm_new_session(self, start: Callable[[], None]) -> None:
        """Start a new session with ``start()``, asking first once something has been played."""
        self.header.ask(start)

    def call(self, fn: Callable[..., Any], *args: Any) -> None:
        """Run ``fn(*args)`` as a button would: refusals become the page's message line."""
        self.guard(lambda: fn(*args))()

    def open_moment(self, moment: Any, seed: int | None = None) -> Any:
        """Open a composed :class:`~speculation_nb.Moment` (or a
        :class:`~speculation_nb.links.composed.MomentEntry`) with its odds at once, its unseen cards
        dealt from ``seed`` (None: a secret seed); returns the :class:`~speculation_nb.Game`. An
        unreachable moment raises ``IllegalAction`` naming the rule (nothing changes)."""
        from ..composer import open_moment

        return open_moment(self.controller, moment, seed=seed)

    def take_moments(self, taker: Callable[[Any], object] | None) -> None:
        """From now on "Open this moment" gives the composed moment (a
        :class:`~speculation_nb.links.composed.MomentEntry`, once the rules accept it) to
        ``taker`` instead of opening it here: the shared table asks the class about it. None: the
        editor opens moments in this app again (refused while a table holds its deal)."""
        self._moment_taker = taker
        panel = self.composing.panel
        if panel is not None and panel.taker is not taker:
            panel.taker = taker
            panel.draw()  # the button says what it does now

    def settings_rules(self) -> Rules:
        """The :class:`Rules` the settings panel describes (raises ``ValueError`` if impossible)."""
        return self.settings.rules()

    # ---------------------------------------------------------------- building
    def _build(self, charts: str, table_store: Any = None) -> None:
        ui = self.ui
        ui.style = widgets.HTML(
            f"<style>{CSS}{CONFIRM_CSS}</style>",
            layout=widgets.Layout(display="none"),
            style=html_style(),
        )
        ui.style.add_class("spec-style")
        self.header = HeaderView(self)
        self.table = TableView(self)
        self.controls = ControlsView(self)
        self.trade = TradeView(self)
        self.log = LogView(self)
        self.auction = AuctionPanel(self)
        self.charts = ChartsView(self, charts)
        self.odds = OddsPanel(self, self.charts.widget, self.auction.widget)
        self.settings = SettingsView(self)
        self.simulation = PanelOpener(
            self, ui.odds_slot, "simulation", simulation_panel, "button.open_simulation", "tooltip.open_simulation"
        )
        self.sharing = PanelOpener(self, ui.share_slot, "share", SharePanel, "button.open_share", "tooltip.open_share")
        ui.compose_slot = widgets.VBox([])
        ui.compose_slot.add_class("spec-compose-slot")
        self._moment_taker = None
        self.composing = PanelOpener(
            self,
            ui.compose_slot,
            "compose",
            lambda c: composer_panel(c, self._moment_taker),
            "button.open_composer",
            "tooltip.open_composer",
        )
        ui.controls.children = (*ui.controls.children, ui.open_auction)  # the holder's offer, by the step buttons
        ui.left = widgets.VBox(
            [self.table.widget, *self.controls.widgets, self.trade.widget, ui.odds_slot, self.log.widget]
        )
        ui.left.add_class("spec-left")
        ui.main = widgets.HBox([ui.left, self.odds.widget])
        ui.main.add_class("spec-main")
        helper = make_helper({key: cls for key, (cls, _name) in KEYS.items()}, SUBMITS)
        self.helper = helper
        if helper is not None:
            ui.keys = helper
        top = [ui.style, *([helper] if helper is not None else []), *self.header.widgets]
        ui.table_slot = widgets.VBox([])
        ui.table_slot.add_class("spec-table-slot")
        self.hosting = table_opener(self, ui.table_slot, table_store)
        # The table's slot right after the odds: on a projector it is their column (teacher.css),
        # and the keyboard reaches the controls in the order they are read (UI.md).
        ui.app = widgets.VBox([*top, ui.main, ui.table_slot, ui.compose_slot, self.settings.widget])
        ui.app.add_class("spec-app")

    def _fail(self) -> None:
        try:
            self.controller.notify(self.t("error.unexpected"), "error")
        except Exception:  # the refresh itself failed: say so directly
            log.exception("speculation_nb app: refresh failed")
            self._busy = False
            self.ui.message.value = esc(translator("en")("error.unexpected"))

    def _on_change(self, _change: Any = None) -> None:
        try:
            self.refresh()
        except Exception as error:
            self.last_error = error
            log.exception("speculation_nb app: refresh failed")
            self._busy = False
            self.ui.message.value = esc(self.t("error.unexpected"))
            toggle_class(self.ui.message, "spec-message-error", True)

    # ------------------------------------------------------------------ refresh
    def refresh(self) -> None:
        """Redraw every view from the controller."""
        with self.quietly():
            c = self.controller
            t = c.t
            game = c.shown
            snap = c.snapshot()
            if getattr(self, "_texts_lang", None) != t.lang:
                self._texts_lang = t.lang
                views = (self.header, self.controls, self.odds, self.charts, self.auction, self.trade)
                for view in (*views, self.simulation, self.sharing, self.composing, self.hosting):
                    view.texts(t)
                self.settings.texts(t)
                if self.helper is not None:
                    self.helper.labels = {sel: t(key) for sel, key in LABELS.items()}
            self.header.refresh(c, game, t, snap)
            self.table.refresh(c, game, t)
            self.controls.refresh(c, game, t)
            auction_open = self.auction.refresh(c, game, snap, t)
            self.trade.refresh(c, game)
            self.log.refresh(c, t)
            self.odds.refresh(c, game, snap, t)
            # the auction takes the charts' place, except on a projector wide enough for both (app.css)
            toggle_class(self.ui.main, "spec-auction-open", auction_open)
            self.settings.refresh(c)
            self.charts.refresh(c, game, snap, t)
            if self.helper is not None:
                self._speak(c, self.odds.spoken(c, game, snap, t))

    def _speak(self, c: Controller, chance: str) -> None:
        """The live region: each refusal and each computer action once, as it comes (a redraw
        says nothing again), then the chance when it changed (issue 23)."""
        news = c.message if c.message_kind in NEWS and c.message_serial != self._heard else ""
        self._heard = c.message_serial
        said = " ".join(x for x in (news, "" if chance == self._chance else chance) if x)
        self._chance = chance
        if said and self.helper is not None:
            self.helper.say(said)


def read_query(query: str | None = None) -> QueryResult:
    """The app's settings that ``query`` gives, or else the page's own address
    (:func:`~speculation_nb.app.page_address.page_query`), and what was left out: the links'
    one grammar reads them (:func:`speculation_nb.links.query.read_query`)."""
    return grammar.read_query(page_query() if query is None else query)


def query_settings(query: str | None = None) -> dict[str, Any]:
    """App settings from a page's query string (``?lang=de&seed=42&mode=classroom``), or from
    the page's own address; unknown or malformed values are left out (:func:`read_query` says
    which)."""
    return read_query(query).settings


def table_code(query: str | None) -> str | None:
    """The ``table=`` of a page's query as typed (None when there is none): T1 reads it later."""
    return query_params(query).get("table")


def _member_app(code: str, query: str) -> MemberApp:
    from ..student.screen import MemberApp

    lang = read_query(query).settings.get("lang", "en")
    return MemberApp(code=code, lang=lang)


def app(**kwargs: Any) -> SpeculationApp:
    """``app(players=4, seed=7, lang="en")``: a :class:`SpeculationApp` (same arguments)."""
    return SpeculationApp(**kwargs)


def from_request(query: str | None = None, **kwargs: Any) -> SpeculationApp | MemberApp:
    """The app as the Voila page asks for it: the page's query (:func:`read_query`),
    then ``kwargs``. What the query got wrong is said in the first message line; the app
    opens with its defaults for it (it never fails to open for a bad link). A shared moment
    in the query (:func:`speculation_nb.links.share.read_shared_moment`) is opened, or refused in one line.

    A query with ``table=<code>`` (a teacher's shared table) opens the student's screen
    instead, :class:`.member_app.MemberApp`, in the query's language (``lang=``)."""
    if query is None:
        query = page_query()
    code = table_code(query)
    if code is not None:
        return _member_app(code, query)
    found = read_query(query)
    settings = found.settings
    settings.update(kwargs)
    t = translator(settings.get("lang", "en"))
    if found.ignored:
        settings["notice"] = t("error.query_ignored", what="; ".join(x.text(t) for x in found.ignored))
    try:
        made = SpeculationApp(**settings)
    except Exception:  # a combination the app refuses: the defaults, and say so
        log.exception("speculation_nb app: the page's settings were refused")
        keep = {k: v for k, v in settings.items() if k in ("lang", "charts")}
        return SpeculationApp(**keep, notice=t("error.query_refused"))
    if open_from_query(made.controller, query):
        made.sharing.toggle(True)
    return made
