"""The settings panel (collapsed at first; built the first time it is opened).

Three groups, each control with its explanation written under it (not only in a
tooltip): the table (players and names, rules, deals, chips, antes), the variants
(V1-V4, cards each), and the app (mode, your seat, the computer players and their
pace, the language). Table settings and variants take effect in a new session
("Apply", confirmed once something has been played); the app settings at once.

Choosing Hoyle's Games (1847) switches the variants off, shows 3 cards each and
says what Hoyle's rules change. ``ui.share_slot`` (below the panel) is where a
further panel goes (the share panel).
"""

from __future__ import annotations

from typing import Any

import ipywidgets as widgets  # type: ignore[import-untyped]

from ...engine.checks import MAX_CHIPS, parse_seed
from ...engine.errors import Refusal
from ...engine.saving import MAX_DEALS
from ...engine.settings import MAX_PLAYERS, MIN_PLAYERS, PRESETS, Rules
from ...languages.translator import Translator, available_languages, error_text
from ...links.query import DEFAULT_PLAYERS, MODES, TEMPERAMENTS
from ..common.parts import NumberField, Shell, button, esc, html_widget, relabel, set_traits, show
from ..model import DEFAULT_NAMES, PACE_CHOICES, Controller

__all__ = ["SettingsView"]

DEFAULT_UNIFORM_ANTE: int = Rules.__dataclass_fields__["uniform_ante"].default  # type: ignore[assignment]

#: The widgets built when the panel is first opened.
LAZY = (
    "set_players",
    "set_names",
    "names_box",
    "set_preset",
    "set_v1",
    "set_v2",
    "set_v3",
    "set_v4",
    "set_cap",
    "set_hand",
    "set_ante",
    "set_uniform",
    "set_chips",
    "set_deals",
    "set_mode",
    "set_you",
    "set_temperament",
    "set_pace",
    "set_lang",
    "apply",
    "set_note",
    "hoyle_note",
    "settings_body",
)

#: Each control's label and explanation (catalog keys).
FIELDS = {
    "set_players": ("settings.players", "tooltip.set_players"),
    "set_preset": ("settings.preset", "tooltip.set_preset"),
    "set_v1": ("settings.v1", "tooltip.set_v1"),
    "set_v2": ("settings.v2", "tooltip.set_v2"),
    "set_v3": ("settings.v3", "tooltip.set_v3"),
    "set_v4": ("settings.v4", "tooltip.set_v4"),
    "set_cap": ("settings.cap", "tooltip.set_cap"),
    "set_hand": ("settings.hand_size", "tooltip.set_hand"),
    "set_ante": ("settings.ante", "tooltip.set_ante"),
    "set_uniform": ("settings.uniform_ante", "tooltip.set_uniform"),
    "set_chips": ("settings.start_chips", "tooltip.set_chips"),
    "set_deals": ("settings.deals", "tooltip.set_deals"),
    "set_mode": ("settings.mode", "tooltip.set_mode"),
    "set_you": ("settings.you", "tooltip.set_you"),
    "set_temperament": ("settings.temperament", "tooltip.set_temperament"),
    "set_pace": ("settings.pace", "tooltip.set_pace"),
    "set_lang": ("settings.language", "tooltip.set_lang"),
}


class SettingsView:
    def __init__(self, app: Shell) -> None:
        self.app = app
        ui = app.ui
        ui.settings_holder = widgets.VBox([])
        ui.settings = widgets.Accordion(children=[ui.settings_holder], selected_index=None)
        ui.settings.add_class("spec-settings")
        ui.share_slot = widgets.VBox([])  # a further panel: ui.share_slot.children = (panel.widget,)
        ui.share_slot.add_class("spec-share-slot")
        self.widget = widgets.VBox([ui.settings, ui.share_slot])
        self.widget.add_class("spec-settings-area")
        self.built = False
        self._synced: object = None
        self._helps: dict[str, widgets.HTML] = {}
        ui.lazy(LAZY, self.build)
        ui.settings.observe(app.guard(self._on_open), "selected_index")

    def _on_open(self, change: Any) -> None:
        if change["new"] is not None:
            self.build()
            ui = self.app.ui
            if not ui.settings_holder.children:
                ui.settings_holder.children = [ui.settings_body]

    # ----------------------------------------------------------------- building
    def build(self) -> None:
        if self.built:
            return
        self.built = True
        ui = self.app.ui
        L = widgets.Layout
        style = {"description_width": "150px"}

        def tag(w: Any, cls: str) -> Any:
            w.add_class(cls)
            return w

        ui.set_players = tag(
            NumberField(value=DEFAULT_PLAYERS, min=MIN_PLAYERS, max=MAX_PLAYERS, style=style), "spec-set-players"
        )
        ui.set_names = [
            tag(
                widgets.Text(value=DEFAULT_NAMES[i], style={"description_width": "60px"}, layout=L(width="auto")),
                f"spec-set-name-{i}",
            )
            for i in range(8)
        ]
        for w in ui.set_names:
            w.add_class("spec-set-name")
        ui.names_box = tag(widgets.GridBox(ui.set_names), "spec-names")
        ui.set_preset = tag(
            widgets.Dropdown(options=[("-", p) for p in PRESETS], value=PRESETS[0], style=style), "spec-set-preset"
        )
        ui.set_v1 = tag(widgets.Checkbox(value=False, indent=False), "spec-set-v1")
        ui.set_v2 = tag(widgets.Checkbox(value=False, indent=False), "spec-set-v2")
        ui.set_v3 = tag(widgets.Checkbox(value=False, indent=False), "spec-set-v3")
        ui.set_v4 = tag(widgets.Checkbox(value=False, indent=False), "spec-set-v4")
        ui.set_cap = tag(NumberField(value=12, min=1, max=MAX_CHIPS, style=style), "spec-set-cap")
        ui.set_hand = tag(
            widgets.Dropdown(options=[("3", 3), ("4", 4), ("5", 5)], value=3, style=style), "spec-set-hand"
        )
        ui.set_ante = tag(
            widgets.Dropdown(options=[("-", "traditional"), ("-", "uniform")], value="traditional", style=style),
            "spec-set-ante",
        )
        ui.set_uniform = tag(NumberField(value=4, min=1, max=MAX_CHIPS, style=style), "spec-set-uniform")
        ui.set_chips = tag(NumberField(value=60, min=6, max=MAX_CHIPS, style=style), "spec-set-chips")
        ui.set_deals = tag(NumberField(value=10, min=0, max=MAX_DEALS, style=style), "spec-set-deals")
        ui.set_mode = tag(
            widgets.ToggleButtons(options=[("-", m) for m in MODES], value="play", style=style), "spec-set-mode"
        )
        ui.set_you = tag(widgets.Dropdown(options=[("-", 0)], value=0, style=style), "spec-set-you")
        ui.set_temperament = tag(
            widgets.Dropdown(options=[("-", x) for x in TEMPERAMENTS], value="mixed", style=style),
            "spec-set-temperament",
        )
        ui.set_pace = tag(
            widgets.Dropdown(options=[("-", x) for x in PACE_CHOICES], value="auto", style=style), "spec-set-pace"
        )
        ui.set_lang = tag(
            widgets.Dropdown(options=[(x, x) for x in available_languages()], value="en", style=style), "spec-set-lang"
        )
        ui.apply = button("spec-apply", "success")
        ui.set_note = html_widget("spec-settings-note")
        ui.hoyle_note = html_widget("spec-hoyle-note")
        self._groups = [html_widget("spec-settings-group") for _ in range(3)]

        def field(name: str) -> widgets.VBox:
            help_ = html_widget("spec-help")
            self._helps[name] = help_
            box = widgets.VBox([getattr(ui, name), help_])
            box.add_class("spec-field")
            return box

        def grid(names: list[str]) -> widgets.GridBox:
            return tag(widgets.GridBox([field(n) for n in names]), "spec-settings-grid")

        ui.settings_body = widgets.VBox(
            [
                self._groups[0],
                grid(["set_players", "set_preset", "set_deals", "set_chips", "set_ante", "set_uniform"]),
                ui.hoyle_note,
                ui.names_box,
                self._groups[1],
                grid(["set_v1", "set_v2", "set_v3", "set_v4", "set_cap", "set_hand"]),
                ui.apply,
                ui.set_note,
                self._groups[2],
                grid(["set_mode", "set_you", "set_temperament", "set_pace", "set_lang"]),
            ]
        )
        if self.app.ui.settings.selected_index is not None:  # shown once opened (see _on_open)
            ui.settings_holder.children = [ui.settings_body]

        g = self.app.guard
        for w in (ui.set_players, ui.set_preset, ui.set_ante, ui.set_v4, ui.set_hand, ui.set_uniform, *ui.set_names):
            w.observe(g(self._on_form), "value")
        ui.apply.on_click(g(lambda _b: self._apply()))
        ui.set_mode.observe(g(self._on_mode), "value")
        ui.set_you.observe(g(self._on_mode), "value")
        ui.set_temperament.observe(g(self._on_temperament), "value")
        ui.set_pace.observe(g(lambda ch: setattr(self.app.controller, "pace", ch["new"])), "value")
        ui.set_lang.observe(g(lambda ch: self.app.controller.set_lang(ch["new"])), "value")
        self._texts_lang: str | None = None
        with self.app.quietly():
            self.texts(self.app.controller.t)
            self.sync()

    # ---------------------------------------------------------------- callbacks
    def _on_form(self, _change: Any) -> None:
        with self.app.quietly():
            self.form()

    def _on_mode(self, _change: Any) -> None:
        self._on_form(None)
        ui = self.app.ui
        self.app.controller.set_mode(ui.set_mode.value, ui.set_you.value)

    def _on_temperament(self, _change: Any) -> None:
        c = self.app.controller
        c.temperament = self.app.ui.set_temperament.value
        c.set_mode(c.mode)

    def rules(self) -> Rules:
        """The :class:`Rules` the panel describes (raises ``ValueError`` if impossible)."""
        self.build()
        ui = self.app.ui
        hoyle = ui.set_preset.value == "hoyle1847"
        ante = "traditional" if hoyle else ui.set_ante.value
        return Rules(
            players=ui.set_players.value,
            hand_size=3 if hoyle else ui.set_hand.value,
            jack_five=False if hoyle else ui.set_v1.value,
            dead_hand=False if hoyle else ui.set_v2.value,
            blind_trading=False if hoyle else ui.set_v3.value,
            price_cap=(ui.set_cap.value if ui.set_v4.value and not hoyle else None),
            ante=ante,
            uniform_ante=ui.set_uniform.value if ante == "uniform" else DEFAULT_UNIFORM_ANTE,
            start_chips=ui.set_chips.value,
            preset=ui.set_preset.value,
        )

    def _apply(self) -> None:
        ui = self.app.ui
        c = self.app.controller
        for w in (ui.set_players, ui.set_deals, ui.set_chips, ui.set_uniform, ui.set_cap):
            if not w.disabled and not w.min <= w.value <= w.max:  # refused in words, never changed
                label = w.description.rstrip(": ")
                t = c.t
                words = {"value": t.number(w.value), "low": t.number(w.min), "high": t.number(w.max)}
                c.notify(t("error.setting_range", setting=label, **words), "error")
                return
        try:
            rules = self.rules()
        except Refusal as error:
            c.notify(c.t("error.settings", detail=error_text(error, c.t)), "error")
            return
        try:
            seed = parse_seed(ui.seed.value)
        except ValueError:
            c.notify(c.t("error.bad_seed", text=ui.seed.value.strip()[:30]), "error")
            return
        names = [w.value for w in ui.set_names[: rules.players]]
        deals = ui.set_deals.value or None
        mode, temperament, human = ui.set_mode.value, ui.set_temperament.value, ui.set_you.value

        def start() -> None:
            if not c.mode_held:  # the shared table keeps its classroom mode (T9)
                c.mode = mode
            c.temperament = temperament
            c.new_session(rules, names, deals, seed, human=human)
            with self.app.quietly():
                self.sync()

        self.app.confirm_new_session(start)

    # ------------------------------------------------------------------ refresh
    def texts(self, t: Translator) -> None:
        ui = self.app.ui
        ui.settings.set_title(0, t("settings.title"))
        if not self.built or self._texts_lang == t.lang:
            return
        self._texts_lang = t.lang
        for w, key in zip(self._groups, ("settings.group.table", "settings.group.variants", "settings.group.app")):
            w.value = esc(t(key))
        ui.set_note.value = esc(t("settings.note"))
        ui.hoyle_note.value = esc(t("settings.hoyle_note"))
        set_traits(ui.apply, description=t("button.apply"), tooltip=t("tooltip.apply"))
        for name, (label, tip) in FIELDS.items():
            set_traits(getattr(ui, name), description=t(label), tooltip=t(tip))
            self._helps[name].value = esc(t(tip))
        for i, w in enumerate(ui.set_names):
            set_traits(w, description=t("settings.name", n=i + 1), tooltip=t("tooltip.set_name"))
        relabel(ui.set_preset, {p: t(f"preset.{p}") for p in PRESETS})
        relabel(ui.set_ante, {"traditional": t("ante.traditional"), "uniform": t("ante.uniform")})
        relabel(ui.set_mode, {m: t(f"mode.{m}") for m in MODES})
        ui.set_mode.tooltips = [t(f"tooltip.mode.{m}") for m in MODES]
        relabel(ui.set_temperament, {x: t(f"temperament.{x}") for x in TEMPERAMENTS})
        relabel(ui.set_pace, {x: t(f"settings.pace.{x}") for x in PACE_CHOICES})
        relabel(ui.set_lang, {x: t.language_name(x) for x in available_languages()})

    def refresh(self, c: Controller) -> None:
        """The controller changed (mode, language, a new session from elsewhere)."""
        if not self.built:
            return
        ui = self.app.ui
        if c.session is not self._synced:  # a new session from elsewhere (a loaded save, a shared link)
            with self.app.quietly():
                self.sync()
            return
        if ui.set_lang.value != c.lang or ui.set_mode.value != c.mode or ui.set_pace.value != c.pace:
            with self.app.quietly():
                ui.set_lang.value = c.lang
                ui.set_mode.value = c.mode
                ui.set_pace.value = c.pace
                self.form()

    def sync(self) -> None:
        """The form shows the controller's settings."""
        ui = self.app.ui
        c = self.app.controller
        self._synced = c.session
        r = c.rules
        ui.set_players.value = r.players
        for i, w in enumerate(ui.set_names):
            w.value = c.session.names[i] if i < r.players else (w.value or DEFAULT_NAMES[i])
        ui.set_preset.value = r.preset
        ui.set_v1.value = r.jack_five
        ui.set_v2.value = r.dead_hand
        ui.set_v3.value = r.blind_trading
        ui.set_v4.value = r.price_cap is not None
        if r.price_cap is not None:
            ui.set_cap.value = r.price_cap
        ui.set_hand.value = r.hand_size
        ui.set_ante.value = r.ante
        ui.set_uniform.value = r.uniform_ante
        ui.set_chips.min = 1
        ui.set_chips.value = r.start_chips
        ui.set_deals.value = c.session.deals or 0
        ui.set_mode.value = c.mode
        ui.set_temperament.value = c.temperament
        ui.set_pace.value = c.pace
        ui.set_lang.value = c.lang
        self.form()
        ui.set_you.value = c.human

    def form(self) -> None:
        """Keep the form consistent: no impossible combination can be applied; Hoyle's rules
        show what they play (no variants, 3 cards each, the traditional antes)."""
        ui = self.app.ui
        n = min(max(ui.set_players.value, 3), 8)  # the names shown; the number typed stays as typed
        for i, w in enumerate(ui.set_names):
            show(w, i < n)
        hoyle = ui.set_preset.value == "hoyle1847"
        if hoyle:
            ui.set_v1.value = ui.set_v2.value = ui.set_v3.value = ui.set_v4.value = False
            ui.set_hand.value = 3
            ui.set_ante.value = "traditional"
        for w in (ui.set_v1, ui.set_v2, ui.set_v3, ui.set_v4, ui.set_hand, ui.set_ante):
            w.disabled = hoyle
        show(ui.hoyle_note, hoyle)
        ui.set_cap.disabled = hoyle or not ui.set_v4.value
        ui.set_uniform.disabled = hoyle or ui.set_ante.value != "uniform"
        try:  # the smallest starting stack that pays the largest ante (S1)
            probe = Rules(
                players=n,
                hand_size=3 if hoyle else ui.set_hand.value,
                ante="traditional" if hoyle else ui.set_ante.value,
                uniform_ante=ui.set_uniform.value,
                start_chips=100_000,
                preset=ui.set_preset.value,
            )
            least = max(probe.dealer_ante, probe.player_ante)
        except ValueError:
            least = 1
        ui.set_chips.min = least  # a smaller stack is refused when the settings are applied
        options = [(ui.set_names[i].value.strip() or DEFAULT_NAMES[i], i) for i in range(n)]
        if list(ui.set_you.options) != options:
            current = ui.set_you.value
            with ui.set_you.hold_sync():
                ui.set_you.options = options
                ui.set_you.value = current if current is not None and current < n else 0
        ui.set_you.disabled = ui.set_mode.value != "play"
        ui.set_temperament.disabled = ui.set_mode.value != "play"
        ui.set_pace.disabled = ui.set_mode.value != "play"
