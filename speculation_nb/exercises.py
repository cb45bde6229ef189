"""Exercises for the lessons: a student types an answer and is told right or wrong.

Answers are read generously, the way people write numbers: ``3/4``, ``0.75``,
``.75``, ``75%``, ``75 %``, ``75,0 %`` and ``0,75`` are all three quarters.

An answer is right when it is exactly the expected value, or when it is a
decimal that agrees with the expected value to every digit the student gave
(``67.9%`` for 703/1035 = 67.92...%) and gives at least ``digits`` significant
digits. A near miss gets a hint to give more digits.

>>> check("75,0 %", Fraction(3, 4)).correct
True
>>> check("0.68", Fraction(703, 1035)).correct
True
>>> check("0.6", Fraction(703, 1035)).correct
False
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import Any

__all__ = ["Exercise", "Verdict", "check", "parse_answer"]

_FRACTION = re.compile(r"^([+-]?\d+)\s*/\s*(\d+)$")
_DECIMAL = re.compile(r"^[+-]?(\d+([.,]\d*)?|[.,]\d+)$")

TEXTS = {
    "en": {
        "right": "Right!",
        "wrong": "Not quite.",
        "unreadable": "I cannot read {answer!r} as a number: try 3/4, 0.75 or 75%.",
        "more_digits": "Close: give a few more digits.",
        "hint": "Hint: {hint}",
        "check": "Check",
        "answer": "Your answer",
        "shown": "The answer: {value}",
        "placeholder": "3/4, 0.75, 75%",
    },
    "it": {
        "right": "Esatto!",
        "wrong": "Non proprio.",
        "unreadable": "Non riesco a leggere {answer!r} come numero: prova 3/4, 0,75 o 75%.",
        "more_digits": "Quasi: aggiungi qualche cifra.",
        "hint": "Suggerimento: {hint}",
        "check": "Verifica",
        "answer": "La tua risposta",
        "shown": "La risposta: {value}",
        "placeholder": "3/4, 0,75, 75%",
    },
    "pt": {
        "right": "Certo!",
        "wrong": "Não exatamente.",
        "unreadable": "Não consigo ler {answer!r} como número: tente 3/4, 0,75 ou 75%.",
        "more_digits": "Quase: dê mais algumas casas decimais.",
        "hint": "Dica: {hint}",
        "check": "Verificar",
        "answer": "Sua resposta",
        "shown": "A resposta: {value}",
        "placeholder": "3/4, 0,75, 75%",
    },
    "de": {
        "right": "Richtig!",
        "wrong": "Nicht ganz.",
        "unreadable": "{answer!r} ist keine lesbare Zahl: versuchen Sie 3/4, 0,75 oder 75 %.",
        "more_digits": "Fast: geben Sie ein paar Stellen mehr an.",
        "hint": "Tipp: {hint}",
        "check": "Prüfen",
        "answer": "Ihre Antwort",
        "shown": "Die Antwort: {value}",
        "placeholder": "3/4, 0,75, 75 %",
    },
}


@dataclass(frozen=True)
class Answer:
    """A number read from a student's text, and how precisely it was written."""

    value: Fraction
    exact: bool  # written as a whole number or a fraction
    half_unit: Fraction  # half a unit of the last digit written (0 when exact)
    significant: int  # significant digits written


def parse_answer(text: Any) -> Answer:
    """Read ``3/4``, ``0.75``, ``75%``, ``75,0 %``...; ``ValueError`` if it is not a number."""
    if isinstance(text, (int, Fraction)) and not isinstance(text, bool):
        return Answer(Fraction(text), True, Fraction(0), 99)
    if not isinstance(text, str):
        raise ValueError(f"not a number: {text!r}")
    s = text.strip().replace("\u00a0", " ").replace("\u2212", "-")
    scale = Fraction(1)
    if s.endswith("%"):
        s, scale = s[:-1].strip(), Fraction(1, 100)
    match = _FRACTION.match(s)
    if match:
        num, den = int(match.group(1)), int(match.group(2))
        if den == 0:
            raise ValueError("division by zero")
        return Answer(Fraction(num, den) * scale, True, Fraction(0), 99)
    if not _DECIMAL.match(s):
        raise ValueError(f"not a number: {text!r}")
    s = s.replace(",", ".")
    try:
        number = Decimal(s)
    except InvalidOperation:
        raise ValueError(f"not a number: {text!r}") from None
    exponent = number.as_tuple().exponent
    assert isinstance(exponent, int)
    digits = len(str(abs(number)).replace(".", "").lstrip("0")) or 1
    exact = exponent >= 0 and scale == 1
    half = Fraction(0) if exponent >= 0 and scale == 1 else Fraction(1, 2) * Fraction(10) ** exponent * scale
    return Answer(Fraction(number) * scale, exact, half, digits)


@dataclass(frozen=True)
class Verdict:
    correct: bool
    message: str


def check(answer: Any, expected: Any, *, digits: int = 2, hint: str | None = None, lang: str = "en") -> Verdict:
    """Is ``answer`` (text) the number ``expected`` (exact: a Fraction or an int)?"""
    texts = TEXTS.get(lang, TEXTS["en"])
    target = Fraction(expected)
    try:
        given = parse_answer(answer)
    except ValueError:
        return Verdict(False, texts["unreadable"].format(answer=str(answer)))
    if given.value == target:
        return Verdict(True, texts["right"])
    error = abs(given.value - target)
    if not given.exact and error <= given.half_unit:
        if given.significant >= digits:
            return Verdict(True, texts["right"])
        return Verdict(False, texts["more_digits"])
    message = texts["wrong"]
    if hint:
        message += " " + texts["hint"].format(hint=hint)
    return Verdict(False, message)


class Exercise:
    """A question with an answer box and a Check button for a lesson notebook.

    ``Exercise("What is C(5, 2) / C(6, 2)?", Fraction(2, 3), hint="...")``;
    display it (or ``.widget``) in a notebook. ``.submit(text)`` checks an
    answer without a browser and returns the :class:`Verdict`.
    """

    def __init__(
        self,
        question: str,
        answer: Any,
        *,
        hint: str | None = None,
        digits: int = 2,
        lang: str = "en",
        explain: str | None = None,
        on_check: Callable[[Verdict], None] | None = None,
    ) -> None:
        self.question = question
        self.answer = Fraction(answer)
        self.hint = hint
        self.digits = digits
        self.lang = lang
        self.explain = explain
        self.on_check = on_check
        self.attempts: list[tuple[str, bool]] = []
        self._widget = None

    def submit(self, text: str) -> Verdict:
        verdict = check(text, self.answer, digits=self.digits, hint=self.hint, lang=self.lang)
        self.attempts.append((text, verdict.correct))
        if self._widget is not None:
            self._show(verdict)
        if self.on_check:
            self.on_check(verdict)
        return verdict

    @property
    def widget(self):
        if self._widget is None:
            import html

            import ipywidgets as w

            texts = TEXTS.get(self.lang, TEXTS["en"])
            question = w.HTML(f"<b>{html.escape(self.question)}</b>")
            box = w.Text(
                placeholder=texts["placeholder"],
                description=texts["answer"],
                style={"description_width": "initial"},
                layout=w.Layout(width="320px"),
            )
            button = w.Button(description=texts["check"], tooltip=texts["check"], button_style="primary", icon="check")
            verdict = w.HTML()
            button.on_click(lambda _: self.submit(box.value))
            self._verdict_html = verdict
            self._widget = w.VBox([question, w.HBox([box, button]), verdict])
            self._widget.add_class("spec-exercise")
        return self._widget

    def _show(self, verdict: Verdict) -> None:
        import html

        colour = "#1e7b34" if verdict.correct else "#a4262c"
        mark = "✔" if verdict.correct else "✘"
        extra = ""
        if verdict.correct and self.explain:
            extra = f"<div>{html.escape(self.explain)}</div>"
        self._verdict_html.value = (
            f"<span style='color:{colour};font-weight:600'>{mark} {html.escape(verdict.message)}</span>{extra}"
        )

    def _ipython_display_(self) -> None:
        from IPython.display import display

        display(self.widget)
