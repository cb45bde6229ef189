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

__all__ = ["WORDS_CELL", "HTMLText", "Plain", "Tools", "html_table", "lines_html", "pyplot", "word_table"]


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


#: The cells of a table of words (:func:`word_table`): left-aligned.
WORDS_CELL = "text-align:left;padding:3px 12px"


def _head_body(header: Iterable[Any], rows: Iterable[Sequence[Any]], cell: str) -> str:
    """A table's ``<thead>`` and ``<tbody>``, every cell of style ``cell`` and escaped."""
    head = "".join(f"<th style='{cell}'>{html.escape(str(x))}</th>" for x in header)
    body = "".join(
        "<tr>" + "".join(f"<td style='{cell}'>{html.escape(str(x))}</td>" for x in row) + "</tr>" for row in rows
    )
    return f"<thead><tr>{head}</tr></thead><tbody>{body}</tbody>"


def html_table(header: Sequence[Any], rows: Iterable[Sequence[Any]], caption: str | None = None) -> HTMLText:
    """A small HTML table of numbers (right-aligned, ruled), every cell escaped."""
    cell = "padding:3px 10px;border-bottom:1px solid #ccc;text-align:right"
    cap = ""
    if caption:
        cap = f"<caption style='caption-side:top;text-align:left;font-weight:bold'>{html.escape(caption)}</caption>"
    return HTMLText(
        f"<table style='border-collapse:collapse;margin:6px 0'>{cap}{_head_body(header, rows, cell)}</table>"
    )


def word_table(header: Sequence[str], rows: Iterable[Sequence[Any]], cell: str = WORDS_CELL) -> HTMLText:
    """A plain HTML table whose header is already in words, every cell escaped."""
    return HTMLText(f"<table>{_head_body(header, rows, cell)}</table>")


def lines_html(*lines: str) -> HTMLText:
    """Printed lines, as HTML (escaped)."""
    return HTMLText("".join(f"<p style='margin:2px 0'>{html.escape(line)}</p>" for line in lines))


def pyplot() -> Any:
    """matplotlib's pyplot with the lessons' look (imported only when a lesson plots)."""
    import matplotlib.pyplot as plt

    plt.rcParams.update({"figure.dpi": 100, "axes.grid": True, "grid.alpha": 0.3, "font.size": 11})
    return plt


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
