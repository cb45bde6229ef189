"""What every lesson's code cells use: the table, numbers in the lesson's language, small tables.

``lesson = Tools(LANG, NAMES)`` in a lesson's first code cell; then ``lesson.table(game)``
shows the table, ``lesson.show(p)`` writes a probability as ``205/294 ≈ 0.6973 (69.7%)`` the
way the language writes numbers, ``lesson.ask("l2a.king_holds")`` shows an exercise. Every
word comes from the catalogs (``lesson.*`` keys of ``lessons.po``, and the app's own keys).
Runs under Pyodide: no threads, no subprocesses.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import Any

from ..languages.translator import Translator, translator
from ..rendering.cards import table_html
from .checker import Exercise
from .questions import ask

__all__ = ["HTMLText", "Plain", "Tools", "html_table"]


class Plain(str):
    """Text a notebook shows as it is (without the quotes of a string's repr)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return str(self)


class HTMLText(str):
    """A piece of HTML that a notebook shows as HTML (and a test can read as text)."""

    __slots__ = ()

    def _repr_html_(self) -> str:
        return str(self)


def html_table(header: Sequence[Any], rows: Iterable[Sequence[Any]], caption: str | None = None) -> HTMLText:
    """A small HTML table, every cell escaped."""
    cell = "padding:3px 10px;border-bottom:1px solid #ccc;text-align:right"
    head = "".join(f"<th style='{cell}'>{html.escape(str(x))}</th>" for x in header)
    body = "".join(
        "<tr>" + "".join(f"<td style='{cell}'>{html.escape(str(x))}</td>" for x in row) + "</tr>" for row in rows
    )
    cap = ""
    if caption:
        cap = f"<caption style='caption-side:top;text-align:left;font-weight:bold'>{html.escape(caption)}</caption>"
    return HTMLText(
        f"<table style='border-collapse:collapse;margin:6px 0'>{cap}<thead><tr>{head}</tr></thead>"
        f"<tbody>{body}</tbody></table>"
    )


class Tools:
    """A lesson's helpers, speaking ``lang``, for the players ``names``."""

    def __init__(self, lang: str = "en", names: Sequence[str] = ()) -> None:
        self.lang = lang
        self.t: Translator = translator(lang)
        self.names = list(names)

    # ------------------------------------------------------------------ words
    def __call__(self, key: str, **params: Any) -> str:
        """The lesson's message ``lesson.<key>`` in the lesson's language."""
        return self.t(f"lesson.{key}", **params)

    def ask(self, key: str) -> Exercise:
        """The exercise ``key`` (its answer computed by the package, never typed in a cell)."""
        return ask(key, self.lang)

    # ---------------------------------------------------------------- numbers
    def number(self, x: float | int | Fraction, digits: int = 0) -> Plain:
        return Plain(self.t.number(x, digits=digits))

    def percent(self, p: Fraction | float, digits: int = 1) -> Plain:
        return Plain(self.t.percent(p, digits))

    def show(self, p: Fraction | int) -> Plain:
        """A probability as an exact fraction, its decimal and its percentage."""
        p = Fraction(p)
        if p.denominator == 1:
            return Plain(f"{p.numerator} ({self.t.percent(p, 0)})")
        return Plain(f"{p.numerator}/{p.denominator} ≈ {self.t.number(p, digits=4)} ({self.t.percent(p)})")

    def chips(self, x: Fraction | int) -> Plain:
        """A number of chips: the exact fraction beside its decimal (only the decimal when the
        fraction is unreadably long)."""
        x = Fraction(x)
        if x.denominator == 1:
            return Plain(self.t.plural("unit.chips", x.numerator))
        if x.denominator < 10**6:
            text = f"{x.numerator}/{x.denominator} ≈ {self.t.number(x, digits=3)}"
        else:
            text = f"≈ {self.t.number(x, digits=3)}"
        return Plain(self("chips", value=text))

    # ----------------------------------------------------------------- tables
    def table(self, game: Any, card_width: float = 54) -> HTMLText:
        """The table as it stands (the ★ and the gold frame mark the best trump)."""
        return HTMLText(
            table_html(game, self.names, texts=self.t.render_texts(), number=self.t.number, card_width=card_width)
        )

    def html_table(self, header: Sequence[Any], rows: Iterable[Sequence[Any]], caption: str | None = None) -> HTMLText:
        return html_table(header, rows, caption)

    def name(self, seat: int | None) -> str:
        if seat is None:
            return self("nobody")
        return self.names[seat] if 0 <= seat < len(self.names) else self.t("seat.number", n=seat)
