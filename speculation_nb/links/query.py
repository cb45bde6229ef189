"""The page's address as app settings: ``?lang=de&seed=42&mode=classroom&players=4``.

:func:`read_query` never raises: a value it does not understand is left out, and
said so in one line of the page ("seed 'abc' is not a number"), so that a student
whose link was mistyped knows why their deal differs from the class's. The query
comes only through :func:`~speculation_nb.app.page_address.page_query`.

Understood: ``lang`` (en, it, pt, de; ``de_AT`` and ``pt-BR`` too), ``seed``
(a whole number 0..2**63-1), ``mode`` (play, classroom), ``players`` (3-8),
``cast=mansfield`` (the novel's card table), ``charts`` (auto, svg, ipympl, static),
``pace`` (slow, normal, instant).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs

from ..app.model import MODES, PACE_CHOICES
from ..app.page_address import page_query
from ..engine.checks import parse_seed
from ..languages.translator import Translator, available_languages
from ..rendering.chart_style import BACKENDS

__all__ = ["Ignored", "QueryResult", "query_settings", "read_query"]

KNOWN = ("lang", "seed", "mode", "players", "cast", "charts", "pace")


@dataclass(frozen=True)
class Ignored:
    """One value of the address that was left out: its catalog key and parameters."""

    key: str
    params: dict[str, Any]

    def text(self, t: Translator) -> str:
        return t(self.key, **self.params)


@dataclass
class QueryResult:
    settings: dict[str, Any] = field(default_factory=dict)
    ignored: list[Ignored] = field(default_factory=list)


def _shown(value: str) -> str:
    """A value as the notice quotes it: printable and short."""
    value = "".join(ch if ch.isprintable() else "?" for ch in value)
    return value if len(value) <= 24 else value[:23] + "…"


def read_query(query: str | None = None) -> QueryResult:
    """The settings of ``query`` (or of the page's own address) and what was ignored."""
    if query is None:
        query = page_query()
    out = QueryResult()
    try:
        params = {k: v[-1] for k, v in parse_qs(query or "", keep_blank_values=True).items() if v}
    except Exception:  # parse_qs is lenient; anything odd is no setting at all
        params = {}
    s, bad = out.settings, out.ignored

    def ignore(key: str, value: str, **extra: Any) -> None:
        bad.append(Ignored(key, {"value": _shown(value), **extra}))

    lang = params.get("lang")
    if lang is not None:
        code = lang.strip().replace("-", "_")
        if code in available_languages():
            s["lang"] = code
        elif code.split("_")[0].lower() in available_languages():  # "de_AT", "pt-BR", "IT"
            s["lang"] = code.split("_")[0].lower()
        else:
            ignore("error.query_bad_lang", lang, choices=", ".join(available_languages()))
    mode = params.get("mode")
    if mode is not None:
        if mode.strip() in MODES:
            s["mode"] = mode.strip()
        else:
            ignore("error.query_bad_mode", mode, choices=", ".join(MODES))
    cast = params.get("cast")
    if cast is not None:
        if cast.strip() == "mansfield":  # the novel's card party, chapter 7
            s["temperament"] = "mansfield"
            s.setdefault("players", 6)
        else:
            ignore("error.query_bad_cast", cast)
    charts = params.get("charts")
    if charts is not None:
        if charts.strip() in BACKENDS:
            s["charts"] = charts.strip()
        else:
            ignore("error.query_bad_charts", charts)
    pace = params.get("pace")
    if pace is not None:
        if pace.strip() in PACE_CHOICES:
            s["pace"] = pace.strip()
        else:
            ignore("error.query_bad_pace", pace)
    seed = params.get("seed")
    if seed is not None:
        try:
            value = parse_seed(seed)
        except ValueError:
            ignore("error.query_bad_seed", seed)
        else:
            if value is not None:
                s["seed"] = value
    players = params.get("players")
    if players is not None:
        text = players.strip()
        # isdigit() accepts "²" and "٣"; only ASCII digits are a number of players here
        if not (text.isascii() and text.isdigit()) or len(text) > 3:
            ignore("error.query_bad_players_text", players)
        elif not 3 <= int(text) <= 8:
            ignore("error.query_bad_players", players)
        else:
            s["players"] = int(text)
    return out  # other names are left alone: a host (Voila, JupyterLite) may add its own


def query_settings(query: str | None = None) -> dict[str, Any]:
    """App settings from a page's query string (``?lang=de&seed=42&mode=classroom``).

    Read from ``query``, or else from the page's own address
    (:func:`~speculation_nb.app.page_address.page_query`). Unknown or malformed
    values are left out (:func:`read_query` says which).
    """
    return read_query(query).settings
