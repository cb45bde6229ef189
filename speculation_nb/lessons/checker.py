"""The lessons' answer checker: a student types a number and is told, in words, how it stands.

Answers are read the way people write numbers: ``3/4``, ``0.75``, ``.75``, ``75%``,
``75,0 %`` and ``0,75`` are all three quarters, and a unit may follow (``12.5 chips``,
``12,5 fiches``, ``22 Chips``).

- The exact value (a fraction, a whole number, a decimal that is exactly it) is right.
- A decimal that is the exact value correctly rounded, with at least ``digits``
  significant digits, is right too, with a note giving the exact value
  (``0.68`` for 703/1035 = 0.67923...). With fewer digits the student is asked for more.
- A whole number is exact when the answer is whole; when it is not, ``20`` is read as
  the answer rounded to whole chips (142/7 = 20.29...), on the same terms.
- A wrong answer is told which way it is off (too high, too low), or that it looks like a
  probability given as a percentage (or the other way round).

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
import re
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import Any

from ..languages.translator import Translator, translator

__all__ = ["TRIES", "UNITS", "Answer", "Exercise", "Verdict", "check", "exact_text", "parse_answer", "unit_words"]

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


def exact_text(value: Fraction, t: Translator) -> str:
    """``703/1035 ≈ 0.6792`` (four significant digits), ``29/2 = 14.5``, or a whole number alone."""
    value = Fraction(value)
    if value.denominator == 1:
        return t.number(value.numerator)
    size = abs(value)
    lead = 0
    while size >= 10:
        size, lead = size / 10, lead + 1
    while size < 1:
        size, lead = size * 10, lead - 1
    digits = min(max(3 - lead, 0), 10)
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


def _is_rounding(given: Answer, target: Fraction) -> bool:
    """Is ``given`` the target correctly rounded at the precision it was written with (half up)?"""
    error = given.value - target
    return abs(error) < given.half_unit or (abs(error) == given.half_unit and error > 0)


def check(
    answer: Any,
    expected: Any,
    *,
    digits: int = 2,
    hint: str | None = None,
    unit: str | None = None,
    lang: str = "en",
) -> Verdict:
    """Is ``answer`` (text) the number ``expected`` (exact: a Fraction or an int)?"""
    t = translator(lang)
    target = Fraction(expected)
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
    if given.value == target:
        return Verdict(True, t("lesson.check.right"), kind="right")
    whole_answer = target.denominator == 1
    rounding = not (given.exact and whole_answer) and given.half_unit > 0 and _is_rounding(given, target)
    if rounding:
        if given.significant >= digits:
            return Verdict(True, t("lesson.check.rounded", given=shown, exact=exact_text(target, t)), kind="rounded")
        return Verdict(False, t("lesson.check.more_digits", given=shown, digits=digits), kind="more_digits")
    direction = "high" if given.value > target else "low"
    kind, message = direction, t(f"lesson.check.too_{direction}", given=shown)
    for factor in (Fraction(100), Fraction(1, 100)):
        scaled = Answer(given.value / factor, given.exact, given.half_unit / factor, given.significant)
        if target != 0 and (scaled.value == target or _is_rounding(scaled, target)):
            kind, message = "percent", t("lesson.check.percent", given=shown)
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
    ``explain`` (or the solution) as the reason.
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
        verdict = check(text, self.answer, digits=self.digits, hint=self.hint, unit=self.unit, lang=self.lang)
        self.attempts.append((text, verdict.correct))
        if self._parts is not None:
            self._show(verdict)
        if self.on_check:
            self.on_check(verdict)
        return verdict

    def worked_solution(self) -> str:
        """The worked solution and the exact answer, in words."""
        t = translator(self.lang)
        answer = t("lesson.check.the_answer", value=exact_text(self.answer, t))
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
