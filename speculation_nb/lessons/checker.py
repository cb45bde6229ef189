"""The lessons' answer checker: a student types a number and is told, in words, how it stands.

Answers are read the way people write numbers: ``3/4``, ``0.75``, ``.75``, ``75%``,
``75,0 %`` and ``0,75`` are all three quarters, and a unit may follow (``12.5 chips``,
``12,5 fiches``, ``22 Chips``).

- The exact value (a fraction, a whole number, a decimal that is exactly it) is right.
- A decimal that is the exact value correctly rounded, with at least ``digits``
  significant digits, is right too, with a note giving the exact value
  (``0.68`` for 703/1035 = 0.67923...). A rounding the student could have meant with
  fewer digits (``0.7``) is asked for more digits. A whole number is read as the answer
  rounded to whole chips (``20`` for 142/7 = 20.29...) on the same terms.
- "A rounding the student could have meant" is the answer rounded to some number of
  significant digits: ``0`` is no rounding of 1/7 (zero has no significant digit) and ``1``
  none of 0.697 (one significant digit gives 0.7), so both are plainly wrong.
- Every wrong answer is told which way it is off (too high, too low); a non-zero answer
  that is the answer 100 times too high or too low is also asked whether it is a
  percentage given for a probability (or the other way round); not when the answer is a
  number of chips or cards.
- When the answer is not a fraction (a square root) or the question gives its figures
  rounded (``q ≈ 0.1667``), the question passes ``within``: the values its own figures
  allow. Any answer in that range, or a rounding of one of them, is right, and the value is
  shown as a decimal at the precision asked (:func:`decimal_text`), never as a fraction.

>>> check("75,0 %", Fraction(3, 4)).correct
True
>>> check("0.68", Fraction(703, 1035)).correct
True
>>> check("0.6", Fraction(703, 1035)).direction
'low'

Every word comes from the ``lesson.check.*`` keys of the runtime catalogs
(``locale/<lang>/LC_MESSAGES/lessons.po``). :class:`Exercise` is the widget: a question,
an answer box, a Check button; after a wrong answer the hint, and after ``tries`` wrong
answers a button that opens the worked solution.
"""

from __future__ import annotations

import html
import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import Any

from ..languages.translator import Translator, translator

__all__ = [
    "TRIES",
    "UNITS",
    "Answer",
    "Exercise",
    "Verdict",
    "check",
    "decimal_text",
    "exact_text",
    "parse_answer",
    "round_significant",
    "unit_words",
]

#: Wrong answers after which the worked solution is offered.
TRIES = 3
#: The units an answer may carry; their words (in every language) are ``lesson.unit.<name>``.
UNITS = ("chips", "cards")
_LANGUAGES = ("en", "it", "pt", "de")

_FRACTION = re.compile(r"^([+-]?\d+)\s*/\s*(\d+)$")
_DECIMAL = re.compile(r"^[+-]?(\d+([.,]\d*)?|[.,]\d+)$")
_WITH_WORD = re.compile(r"^(?P<number>.*?[\d%])\s*(?P<word>[^\W\d_][^\W\d]*)\.?$")


@dataclass(frozen=True)
class Answer:
    """A number read from a student's text, and how precisely it was written."""

    value: Fraction
    exact: bool  # written as a whole number or a fraction: no rounding implied
    half_unit: Fraction  # half a unit of the last digit written (1/2 for a whole number)
    significant: int  # significant digits written
    word: str = ""  # the word after the number ("chips"), if any
    text: str = ""  # the answer as typed, stripped


def _significant(number: Decimal) -> int:
    digits = number.as_tuple().digits
    text = "".join(map(str, digits)).lstrip("0")
    return len(text) or 1


def parse_answer(text: Any) -> Answer:
    """Read ``3/4``, ``0.75``, ``75%``, ``75,0 %``, ``12.5 chips``...; ``ValueError`` if it is not a number."""
    if isinstance(text, (int, Fraction)) and not isinstance(text, bool):
        return Answer(Fraction(text), True, Fraction(0), 99, "", str(text))
    if not isinstance(text, str):
        raise ValueError(f"not a number: {text!r}")
    s = text.strip().replace("\u00a0", " ").replace("\u202f", " ").replace("\u2212", "-")
    original, word = s, ""
    match = _WITH_WORD.match(s)
    if match:
        s, word = match.group("number").strip(), match.group("word")
    scale = Fraction(1)
    if s.endswith("%"):
        s, scale = s[:-1].strip(), Fraction(1, 100)
    fraction = _FRACTION.match(s)
    if fraction:
        num, den = int(fraction.group(1)), int(fraction.group(2))
        if den == 0:
            raise ValueError("division by zero")
        return Answer(Fraction(num, den) * scale, True, Fraction(0), 99, word, original)
    if not _DECIMAL.match(s):
        raise ValueError(f"not a number: {text!r}")
    try:
        number = Decimal(s.replace(",", "."))
    except InvalidOperation:
        raise ValueError(f"not a number: {text!r}") from None
    exponent = number.as_tuple().exponent
    assert isinstance(exponent, int)
    whole = exponent >= 0 and scale == 1
    half = Fraction(1, 2) * Fraction(10) ** min(exponent, 0) * scale
    return Answer(Fraction(number) * scale, whole, half, _significant(number), word, original)


def unit_words(unit: str) -> set[str]:
    """The words accepted after a number in ``unit`` ("chips", "fiches", "Chips"...), lower case."""
    out: set[str] = set()
    for lang in _LANGUAGES:
        raw = translator(lang).raw(f"lesson.unit.{unit}")
        out |= {w.strip().lower() for w in raw.split(",") if w.strip() and not w.startswith("lesson.")}
    return out


def _leading(value: Fraction) -> int:
    """The power of ten of the leading digit of ``value`` (non-zero): 0.697 -> -1, 20.29 -> 1."""
    size, lead = abs(value), 0
    while size >= 10:
        size, lead = size / 10, lead + 1
    while size < 1:
        size, lead = size * 10, lead - 1
    return lead


def exact_text(value: Fraction, t: Translator) -> str:
    """``703/1035 ≈ 0.6792`` (four significant digits), ``29/2 = 14.5``, or a whole number alone."""
    value = Fraction(value)
    if value.denominator == 1:
        return t.number(value.numerator)
    digits = min(max(3 - _leading(value), 0), 10)
    shown = t.number(value, digits=digits)
    sign = "=" if value * 10**digits == int(value * 10**digits) else "≈"
    if sign == "=":
        shown = shown.rstrip("0")
    return f"{value.numerator}/{value.denominator} {sign} {shown}"


@dataclass(frozen=True)
class Verdict:
    """How an answer stands: ``correct``, the ``message`` to show, and for a wrong answer
    the ``direction`` it is off (``"high"``, ``"low"`` or ``""``)."""

    correct: bool
    message: str
    direction: str = ""
    kind: str = ""  # right, rounded, more_digits, high, low, percent, unreadable, unit


def round_significant(value: Fraction, digits: int) -> Fraction:
    """``value`` rounded half up to ``digits`` significant digits: (0.697, 1) -> 0.7, (0.96, 1) -> 1."""
    value = Fraction(value)
    if value == 0:
        return value
    unit = Fraction(10) ** (_leading(value) - digits + 1)
    return Fraction(math.floor(value / unit + Fraction(1, 2))) * unit


def decimal_text(value: Fraction, digits: int, t: Translator) -> str:
    """``0.0046``: a value that is not a fraction (or not known exactly), at ``digits`` significant digits."""
    value = Fraction(value)
    if value == 0:
        return t.number(0)
    places = max(digits - 1 - _leading(value), 0)
    return t.number(round_significant(value, digits), digits=places)


def _rounds_into(given: Answer, low: Fraction, high: Fraction) -> bool:
    """Is ``given`` some value of ``[low, high]`` rounded half up at the precision it was written with?"""
    return given.value - given.half_unit <= high and given.value + given.half_unit > low


def _could_mean(given: Answer, low: Fraction, high: Fraction) -> bool:
    """Is ``given`` a rounding a student could have meant of a value of ``[low, high]``?

    It must round into the range at the precision written, and be the nearest such value
    rounded to some number of significant digits: ``0`` is no rounding of 1/7 (zero has no
    significant digit), ``1`` none of 0.697 (one significant digit gives 0.7) but one of 0.96.
    """
    if given.value == 0 or given.half_unit == 0 or not _rounds_into(given, low, high):
        return False
    nearest = min(max(given.value, low), high)
    return any(round_significant(nearest, k) == given.value for k in range(1, given.significant + 2))


def check(
    answer: Any,
    expected: Any,
    *,
    digits: int = 2,
    hint: str | None = None,
    unit: str | None = None,
    lang: str = "en",
    within: tuple[Any, Any] | None = None,
) -> Verdict:
    """Is ``answer`` (text) the number ``expected`` (exact: a Fraction or an int)?

    ``within=(low, high)``: ``expected`` is not exact (an irrational value, or a result of
    figures the question gives rounded); any answer in ``[low, high]``, or a rounding of one,
    with at least ``digits`` significant digits, is right.
    """
    t = translator(lang)
    target = Fraction(expected)
    low, high = (Fraction(within[0]), Fraction(within[1])) if within else (target, target)
    try:
        given = parse_answer(answer)
    except ValueError:
        return Verdict(False, t("lesson.check.unreadable", answer=str(answer).strip()), kind="unreadable")
    if given.word:
        word = given.word.lower()
        if unit is None or word not in unit_words(unit):
            if unit is None:
                return Verdict(False, t("lesson.check.unreadable", answer=given.text), kind="unreadable")
            return Verdict(
                False, t("lesson.check.unit", word=given.word, unit=t(f"lesson.unit_name.{unit}")), kind="unit"
            )
    shown = given.text
    if within is None and given.value == target:
        return Verdict(True, t("lesson.check.right"), kind="right")
    if within is not None and (low <= given.value <= high or _could_mean(given, low, high)):
        if given.half_unit == 0 or given.significant >= digits:
            exact = "≈ " + decimal_text(target, digits, t)
            return Verdict(True, t("lesson.check.agrees", given=shown, exact=exact, digits=digits), kind="rounded")
        return Verdict(False, t("lesson.check.more_digits", given=shown, digits=digits), kind="more_digits")
    whole_answer = target.denominator == 1 and within is None
    if not (given.exact and whole_answer) and _could_mean(given, low, high):
        if given.significant >= digits:
            return Verdict(True, t("lesson.check.rounded", given=shown, exact=exact_text(target, t)), kind="rounded")
        return Verdict(False, t("lesson.check.more_digits", given=shown, digits=digits), kind="more_digits")
    direction = "high" if given.value > high else "low"
    kind, message = direction, t(f"lesson.check.too_{direction}", given=shown)
    for factor in (Fraction(100), Fraction(1, 100)) if unit is None else ():
        scaled = Answer(given.value / factor, given.exact, given.half_unit / factor, given.significant)
        if given.value != 0 and (low <= scaled.value <= high or _could_mean(scaled, low, high)):
            kind, message = "percent", t(f"lesson.check.percent_{direction}", given=shown)
    if hint:
        message += " " + t("lesson.check.hint", hint=hint)
    return Verdict(False, message, direction=direction, kind=kind)


@dataclass
class _Parts:
    question: Any = None
    box: Any = None
    button: Any = None
    verdict: Any = None
    solution_button: Any = None
    solution: Any = None
    root: Any = None


class Exercise:
    """A question with an answer box and a Check button, for a lesson notebook.

    ``Exercise("What is C(5, 2)?", 10, hint="5·4/2", solution="C(5, 2) = 5·4/2 = 10.")``;
    display it (or ``.widget``) in a notebook. ``.submit(text)`` checks an answer without a
    browser and returns the :class:`Verdict`. After ``tries`` wrong answers the worked
    ``solution`` is offered behind a button (``.solution_offered``); a right answer shows
    ``explain`` (or the solution) as the reason. ``within``: see :func:`check` (an answer that
    is not exact, shown as a decimal).
    """

    def __init__(
        self,
        question: str,
        answer: Any,
        *,
        hint: str | None = None,
        solution: str | None = None,
        explain: str | None = None,
        digits: int = 2,
        unit: str | None = None,
        tries: int = TRIES,
        lang: str = "en",
        on_check: Callable[[Verdict], None] | None = None,
        within: tuple[Any, Any] | None = None,
    ) -> None:
        self.question = question
        self.answer = Fraction(answer)
        self.hint = hint
        self.solution = solution
        self.explain = explain
        self.digits = digits
        self.unit = unit
        self.tries = tries
        self.lang = lang
        self.on_check = on_check
        self.within = within
        self.attempts: list[tuple[str, bool]] = []
        self._parts: _Parts | None = None

    # ------------------------------------------------------------------ model
    @property
    def wrong_tries(self) -> int:
        return sum(1 for _, ok in self.attempts if not ok)

    @property
    def solved(self) -> bool:
        return any(ok for _, ok in self.attempts)

    @property
    def solution_offered(self) -> bool:
        """The worked solution is offered once the student has tried ``tries`` times (or got it)."""
        return self.solution is not None and (self.solved or self.wrong_tries >= self.tries)

    def submit(self, text: str) -> Verdict:
        verdict = check(
            text, self.answer, digits=self.digits, hint=self.hint, unit=self.unit, lang=self.lang, within=self.within
        )
        self.attempts.append((text, verdict.correct))
        if self._parts is not None:
            self._show(verdict)
        if self.on_check:
            self.on_check(verdict)
        return verdict

    def worked_solution(self) -> str:
        """The worked solution and the exact answer, in words."""
        t = translator(self.lang)
        value = "≈ " + decimal_text(self.answer, self.digits, t) if self.within else exact_text(self.answer, t)
        answer = t("lesson.check.the_answer", value=value)
        return f"{self.solution}\n{answer}" if self.solution else answer

    # ----------------------------------------------------------------- widget
    @property
    def widget(self) -> Any:
        if self._parts is None:
            import ipywidgets as w  # type: ignore[import-untyped]

            t = translator(self.lang)
            parts = _Parts()
            parts.question = w.HTML(f"<b>{html.escape(self.question)}</b>")
            parts.box = w.Text(
                placeholder=t("lesson.check.placeholder"),
                description=t("lesson.check.answer"),
                style={"description_width": "initial"},
                layout=w.Layout(width="320px"),
            )
            label = t("lesson.check.button")
            parts.button = w.Button(description=label, tooltip=label, button_style="primary", icon="check")
            parts.verdict = w.HTML()
            show = t("lesson.check.solution_button")
            parts.solution_button = w.Button(description=show, tooltip=show, layout=w.Layout(display="none"))
            parts.solution = w.HTML()
            parts.button.on_click(lambda _: self.submit(parts.box.value))
            parts.solution_button.on_click(lambda _: self._open_solution())
            parts.root = w.VBox(
                [
                    parts.question,
                    w.HBox([parts.box, parts.button]),
                    parts.verdict,
                    parts.solution_button,
                    parts.solution,
                ]
            )
            parts.root.add_class("spec-exercise")
            self._parts = parts
        return self._parts.root

    @property
    def _verdict_html(self) -> Any:
        self.widget  # noqa: B018 (builds the widget)
        assert self._parts is not None
        return self._parts.verdict

    def _open_solution(self) -> None:
        if self._parts is None or not self.solution_offered:
            return
        t = translator(self.lang)
        text = "<br>".join(html.escape(line) for line in self.worked_solution().split("\n"))
        title = html.escape(t("lesson.check.solution_title"))
        self._parts.solution.value = (
            f"<div style='border-left:3px solid #888;padding-left:8px'><b>{title}</b><br>{text}</div>"
        )

    def _show(self, verdict: Verdict) -> None:
        assert self._parts is not None
        t = translator(self.lang)
        colour = "#1e7b34" if verdict.correct else "#a4262c"
        mark = "✔" if verdict.correct else "✘"
        extra = ""
        if verdict.correct and self.explain:
            extra = f"<div>{html.escape(self.explain)}</div>"
        elif not verdict.correct and self.solution_offered:
            extra = f"<div>{html.escape(t('lesson.check.solution_offer', tries=self.wrong_tries))}</div>"
        self._parts.verdict.value = (
            f"<span style='color:{colour};font-weight:600'>{mark} {html.escape(verdict.message)}</span>{extra}"
        )
        if self.solution_offered:
            self._parts.solution_button.layout.display = None

    def _ipython_display_(self) -> None:
        from IPython import display as ipython_display

        show: Any = ipython_display.display
        show(self.widget)
