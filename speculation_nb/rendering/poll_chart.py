"""The answers to "What would you pay?" (T7) as the projector shows them: HTML bars and words.

:func:`poll_html` draws a :class:`speculation_nb.classroom.poll.Poll`: a sentence with every
number (how many answered, the median answer beside the fair price of that moment, each seat's
break-even, both in the whole chips every screen shows, and once the deal ended what the best
trump turned out to be worth), the sentence saying why the break-even can sit below the fair
price, the exact values as fractions, then a table of price ranges (following the answers'
spread, with "more than X" for far answers: :meth:`~speculation_nb.classroom.poll.Poll.bins`),
each with its bar, its count in figures and, in words, which of the numbers above fall in it.
Until the teacher reveals the answers (T7: open, then locked), only how many answered is shown.
Its title names the poll by the deal and step asked about, or a question deal's by its number
("Question 2: the answers", issue 25).
The bars are decoration (``aria-hidden``): the counts and marks are text, so nothing is told by
colour or length alone. With ``names`` the answers are listed by name (the teacher chose to show
them); otherwise they stay anonymous. Everything typed by a student is escaped.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from ..assets import asset_text
from ..languages.markup import bidi
from ..languages.markup import escape as esc
from ..languages.translator import Translator

__all__ = ["BINS", "CSS", "poll_html", "price_text"]

#: How many price ranges the histogram has (fewer when the answers span fewer chips).
BINS = 8

#: The chart's look (``speculation_nb/assets/poll_chart.css``), in the teacher's panel's stylesheet.
CSS = asset_text("poll_chart.css")


def price_text(value: Fraction | int, t: Translator) -> str:
    """A median answer in chips: whole numbers as they are, others with one decimal (the odds'
    prices are shown through the poll's :attr:`~speculation_nb.classroom.poll.Poll.prices`)."""
    value = Fraction(value)
    return t.number(value, 0 if value.denominator == 1 else 1)


def chips_text(value: Fraction | int, t: Translator, exact: bool = False) -> str:
    """``value`` with the word for chips in the plural form the language gives it ("1 chip",
    "8 chips"): written as :func:`price_text` does, or as a fraction when ``exact``."""
    value = Fraction(value)
    whole = value.denominator == 1
    key = t.plural_key("unit.chips", int(value)) if whole else "unit.chips.other"
    return t(key, count=str(value) if exact and not whole else price_text(value, t))


def _marks(poll: Any, seat_names: Sequence[str], t: Translator) -> list[tuple[Fraction, str]]:
    marks: list[tuple[Fraction, str]] = []
    median = poll.median()
    if median is not None:
        marks.append((Fraction(median), t("class.host.poll.mark_median")))
    prices = poll.prices  # whole chips, as every screen shows them
    marks.append((Fraction(prices.fair), t("class.host.poll.mark_fair")))
    for seat, value in sorted(prices.break_even.items()):
        name = seat_names[seat] if 0 <= seat < len(seat_names) else str(seat)
        marks.append((Fraction(value), t("class.host.poll.mark_break_even", name=name)))
    return marks


def _summary(poll: Any, seat_names: Sequence[str], t: Translator) -> str:
    count = len(poll.answers)
    parts = [t.plural("class.host.poll.answers", count)]
    median = poll.median()
    if median is not None:
        parts.append(t("class.host.poll.median", price=chips_text(median, t)))
    prices = poll.prices  # whole chips, as every screen shows them
    parts.append(t("class.host.poll.fair", price=chips_text(prices.fair, t)))
    for seat, value in sorted(prices.break_even.items()):
        name = seat_names[seat] if 0 <= seat < len(seat_names) else str(seat)
        parts.append(t("class.host.poll.break_even", name=name, price=chips_text(value, t)))
    if poll.worth is not None:
        parts.append(t("class.host.poll.worth", worth=chips_text(int(poll.worth), t)))
    return " · ".join(parts)


def _exact(poll: Any, seat_names: Sequence[str], t: Translator) -> str:
    """The exact values (O4) as fractions: the fair price and each seat's break-even."""
    parts = [t("class.host.poll.exact", fair=chips_text(poll.fair, t, exact=True))]
    for seat, value in sorted(poll.break_even.items()):
        name = seat_names[seat] if 0 <= seat < len(seat_names) else str(seat)
        parts.append(t("class.host.poll.exact_break_even", name=name, price=chips_text(value, t, exact=True)))
    return " · ".join(parts)


def poll_html(
    poll: Any, seat_names: Sequence[str], t: Translator, names: Mapping[str, str] | None = None, bins: int = BINS
) -> str:
    """The poll as HTML (see the module docstring). ``seat_names``: the seats' names;
    ``names``: member id -> name, to list the answers by name (None: anonymous)."""
    state = getattr(poll, "state", "open" if poll.open else "revealed")
    asked = int(getattr(poll, "question_deal", 0) or 0)
    if asked:  # a question deal (issue 25): a question of the lesson, not a step of the session's deals
        title_key = {"open": "class.host.poll.question_open", "locked": "class.host.poll.question_locked"}.get(
            state, "class.host.poll.question_revealed"
        )
        title = t(title_key, n=t.number(asked))
    else:
        title_key = {"open": "class.host.poll.title_open", "locked": "class.host.poll.title_locked"}.get(
            state, "class.host.poll.title_revealed"
        )
        title = t(title_key, deal=poll.deal, step=poll.step)
    out = [
        f'<div class="spec-poll-chart" data-state="{esc(state)}">',
        f'<div class="spec-poll-head"><b>{esc(title)}</b></div>',
    ]
    if state != "revealed":  # T7: until the reveal, the count only (the projector is the class's)
        count = t.plural("class.host.poll.answers", len(poll.answers))
        out.append(f'<div class="spec-poll-sum">{esc(count)} · {esc(t("class.host.poll.hidden"))}</div></div>')
        return "".join(out)
    out.append(f'<div class="spec-poll-sum">{esc(_summary(poll, seat_names, t))}</div>')
    if poll.break_even:  # the fair price and the break-evens side by side: why they differ
        out.append(f'<div class="spec-poll-why">{esc(t("odds.why_below"))}</div>')
    out.append(f'<div class="spec-poll-exact">{esc(_exact(poll, seat_names, t))}</div>')
    binned = poll.bins(bins) if poll.answers else None
    rows = list(binned.rows) if binned is not None else []
    if rows:
        top = max(count for _lo, _hi, count in rows) or 1
        marks = _marks(poll, seat_names, t)
        out.append(
            f'<table aria-label="{esc(t("class.host.poll.table"))}"><thead><tr>'
            f"<th>{esc(t('class.host.poll.col_price'))}</th><th aria-hidden='true'></th>"
            f"<th>{esc(t('class.host.poll.col_count'))}</th><th>{esc(t('class.host.poll.col_marks'))}</th>"
            "</tr></thead><tbody>"
        )
        last = len(rows) - 1
        for i, (lo, hi, count) in enumerate(rows):
            inside = [
                words
                for value, words in marks
                if (i == 0 and value < lo) or (lo <= value < hi + 1) or (i == last and value >= hi + 1)
            ]
            if i == last and binned is not None and binned.overflow:
                span = t("class.host.poll.more_than", price=t.number(int(lo) - 1))
            elif lo == hi:
                span = t.number(int(lo))
            else:
                span = t("class.host.poll.range", low=t.number(int(lo)), high=t.number(int(hi)))
            width = round(100 * count / top)
            empty = " spec-poll-empty" if count == 0 else ""
            out.append(
                f'<tr><td class="spec-poll-range">{esc(span)}</td>'
                f'<td class="spec-poll-barcell" aria-hidden="true"><div class="spec-poll-bar{empty}" '
                f'style="width:{width}%"></div></td>'
                f'<td class="spec-poll-count">{esc(t.number(int(count)))}</td>'
                f'<td class="spec-poll-marks">{esc("; ".join(inside))}</td></tr>'
            )
        out.append("</tbody></table>")
    if names is not None and poll.answers:
        listed = sorted(poll.answers.items(), key=lambda item: (item[1], names.get(item[0], "")))
        shown = ", ".join(f"{bidi(names.get(member, '?'))} {esc(t.number(int(price)))}" for member, price in listed)
        out.append(f'<div class="spec-poll-names">{esc(t("class.host.poll.by_name"))} {shown}</div>')
    out.append("</div>")
    return "".join(out)
