"""The lessons' answer checker (speculation_nb.lessons.checker, also importable as speculation_nb.exercises):
right, rounded, whole, unit-bearing and wrong answers; the worked solution after a few tries."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from speculation_nb.exercises import Exercise, check, parse_answer
from speculation_nb.languages.translator import catalog
from speculation_nb.lessons import checker

LANGS = ("en", "it", "pt", "de")
THREE_QUARTERS = ["3/4", " 3 / 4 ", "6/8", "0.75", ".75", "0,75", "75%", "75 %", "75,0 %", "75.00%", "75\u00a0%"]


def test_the_old_module_is_the_new_checker():
    assert check is checker.check and Exercise is checker.Exercise


@pytest.mark.parametrize("text", THREE_QUARTERS)
def test_right_answers_in_every_form(text):
    assert parse_answer(text).value == Fraction(3, 4)
    verdict = check(text, Fraction(3, 4))
    assert verdict.correct and verdict.kind == "right" and verdict.message == "Right!"


def test_rounded_answers_are_accepted_with_a_note_giving_the_exact_value():
    exact = Fraction(703, 1035)  # 0.679227...
    for text in ["0.679", "67.9%", "0.68", "68%", "67,92 %"]:
        verdict = check(text, exact)
        assert verdict.correct and verdict.kind == "rounded", text
        assert verdict.message == f"Right: {text} is the exact value, 703/1035 ≈ 0.6792, rounded."
    # a wrong rounding is wrong, and says which way it is off
    assert check("0.678", exact).direction == "low"
    assert check("0.6793", exact).direction == "high"
    # too few digits: the rounding is right, but more digits are asked for
    verdict = check("0.7", exact)
    assert not verdict.correct and verdict.kind == "more_digits" and "at least 2 significant digits" in verdict.message
    assert check("0.68", exact, digits=3).kind == "more_digits"
    assert check("0.680", exact, digits=3).direction == "high"  # 0.680 claims three digits: 0.679
    assert check("0.679", exact, digits=3).correct


def test_rounding_goes_half_up():
    assert check("15", Fraction(29, 2)).kind == "rounded"  # 14.5 rounds to 15 (O4: whole chips, half up)
    assert check("14", Fraction(29, 2)).direction == "low"
    assert check("0.13", Fraction(1, 8)).correct and check("0.12", Fraction(1, 8)).direction == "low"


def test_whole_numbers():
    assert check("22", 22).kind == "right"
    assert check("22.0", 22).kind == "right"
    assert check("21", 22).direction == "low" and check("23", 22).direction == "high"
    # the answer is not whole: a whole number is read as the answer rounded to whole chips
    assert check("20", Fraction(142, 7)).kind == "rounded"
    assert check("21", Fraction(142, 7)).direction == "high"
    # ... on the same terms: one significant digit is not enough
    assert check("7", Fraction(34, 5)).kind == "more_digits"  # 6.8 to one significant digit
    # but 1 is no rounding of 3/4 (one significant digit gives 0.8): plainly too high
    assert check("1", Fraction(3, 4)).message == "Not quite: 1 is too high."


def test_answers_with_units():
    assert check("12.5 chips", Fraction(25, 2), unit="chips").kind == "right"
    assert check("12,5 fiches", Fraction(25, 2), unit="chips", lang="it").message == "Esatto!"
    assert check("12,5 Chips", Fraction(25, 2), unit="chips", lang="de").correct
    assert check("12,5 fichas", Fraction(25, 2), unit="chips", lang="pt").correct
    assert check("22 chips", 22, unit="chips", lang="de").correct  # an English unit in a German class
    assert check("1 chip", 1, unit="chips").correct
    assert check("20 chips", Fraction(142, 7), unit="chips").kind == "rounded"
    assert check("13 chips", Fraction(25, 2), unit="chips").kind == "rounded"  # 12.5 rounds half up to 13
    assert check("14 chips", Fraction(25, 2), unit="chips").direction == "high"
    wrong_unit = check("12.5 cards", Fraction(25, 2), unit="chips")
    assert not wrong_unit.correct and wrong_unit.kind == "unit" and "chips" in wrong_unit.message
    assert check("3 cards", 3, unit="cards").correct
    assert check("12.5 chips", Fraction(25, 2)).kind == "unreadable"  # this question has no unit


def test_wrong_answers_say_which_way_they_are_off():
    assert check("1/2", Fraction(3, 4)).message == "Not quite: 1/2 is too low."
    assert check("0.9", Fraction(3, 4)).message == "Not quite: 0.9 is too high."
    assert check("-3/4", Fraction(3, 4)).direction == "low"
    assert check("1/2", Fraction(3, 4), lang="pt").message == "Não exatamente: 1/2 é baixo demais."
    assert check("1/2", Fraction(3, 4), lang="de").message == "Nicht ganz: 1/2 ist zu niedrig."
    assert check("0,9", Fraction(3, 4), lang="it").message == "Non proprio: 0,9 è troppo alto."


def test_a_percentage_typed_as_a_probability_is_named():
    for text, way in [("75", "high"), ("0.0075", "low"), ("68", "high"), ("14", "high"), ("0.14%", "low")]:
        verdict = check(text, Fraction(3, 4) if text in ("75", "0.0075") else Fraction(703, 1035))
        if text in ("14", "0.14%"):
            verdict = check(text, Fraction(1, 7))
        assert not verdict.correct and verdict.kind == "percent" and verdict.direction == way, text
        assert f"is 100 times too {way}" in verdict.message
    # not for a number of chips: 2160 chips is too high, not a percentage
    assert check("2160", Fraction(108, 5), unit="chips").kind == "high"


# The cases of issue 24: a wrong answer is told which way it is off; "rounded" only for a
# rounding the student could have meant at the precision asked; a percentage mix-up only for a
# non-zero answer 100 times off.
@pytest.mark.parametrize(
    ("text", "target", "direction"),
    [
        ("0", Fraction(1, 7), "low"),  # l3a.ace_extra's misconception: the Ace costs nothing extra
        ("0.0", Fraction(1, 7), "low"),  # zero is no percentage of anything
        ("0 chips", Fraction(1, 7), "low"),
        ("1", Fraction(205, 294), "high"),  # 0.697: one significant digit gives 0.7, not 1
        ("1", Fraction(17, 20), "high"),  # 0.85 -> 0.9
        ("0", Fraction(17, 20), "low"),
        ("0.0", Fraction(17, 20), "low"),
        ("0.1", Fraction(1, 7), "low"),  # 0.142... to one significant digit: a rounding, more digits asked
    ],
)
def test_a_wrong_answer_is_told_which_way_it_is_off(text, target, direction):
    verdict = check(text, target, unit="chips" if "chips" in text else None)
    if text == "0.1":
        assert verdict.kind == "more_digits" and "at least 2 significant digits" in verdict.message
        return
    assert not verdict.correct and verdict.kind == direction and verdict.direction == direction
    assert verdict.message.startswith(f"Not quite: {text} is too {direction}."), verdict.message
    assert "rounded" not in verdict.message and "100" not in verdict.message


def test_rounded_means_a_rounding_the_student_could_have_meant():
    assert check("1", Fraction(24, 25)).kind == "more_digits"  # 0.96 to one significant digit is 1
    assert check("0.7", Fraction(205, 294)).kind == "more_digits"
    assert check("0.70", Fraction(205, 294)).correct
    assert check("100", Fraction(997, 10)).kind == "rounded"  # 99.7 to two significant digits: 1.0e2
    assert checker.round_significant(Fraction(697, 1000), 1) == Fraction(7, 10)
    assert checker.round_significant(Fraction(96, 100), 1) == 1
    assert checker.round_significant(Fraction(-25, 10), 1) == -2  # half up, toward +infinity
    assert checker.round_significant(Fraction(0), 3) == 0


def test_an_answer_that_is_not_exact_is_checked_against_a_range():
    """within=(low, high): every value the question's figures allow, and every rounding of one, is right;
    the value is shown as a decimal at the precision asked."""
    low, high = Fraction(215995680086, 10**10), Fraction(216021602160, 10**10)
    target = Fraction(180000, 8333)
    for text in ["108/5", "21.601", "21.6", "21.60", "21.5997", "21.6 chips"]:
        verdict = check(text, target, digits=3, within=(low, high), unit="chips")
        assert verdict.correct and verdict.kind == "rounded", text
        assert "≈ 21.6" in verdict.message and "8333" not in verdict.message
    assert check("22", target, digits=3, within=(low, high)).kind == "more_digits"
    assert check("21.59", target, digits=3, within=(low, high)).direction == "low"
    assert check("21.61", target, digits=3, within=(low, high)).direction == "high"
    assert check("43/2", target, digits=3, within=(low, high)).direction == "low"
    exercise = Exercise("?", target, digits=3, within=(low, high))
    assert exercise.worked_solution() == "The answer: ≈ 21.6."
    t = checker.translator("de")
    assert checker.decimal_text(Fraction(45943555, 10**10), 2, t) == "0,0046"
    assert checker.decimal_text(Fraction(2160086, 10**5), 3, t) == "21,6"


@pytest.mark.parametrize("text", ["", "abc", "1/0", "3/", "75%%", "1.2.3", "0x10", "nan", "inf"])
def test_unreadable_answers_say_so(text):
    verdict = check(text, Fraction(3, 4))
    assert not verdict.correct and verdict.kind == "unreadable"
    assert "cannot read" in verdict.message


def test_the_hint_follows_a_wrong_answer():
    verdict = check("1/2", Fraction(3, 4), hint="count the cards above the Queen")
    assert verdict.message == "Not quite: 1/2 is too low. Hint: count the cards above the Queen"
    assert check("3/4", Fraction(3, 4), hint="x").message == "Right!"


@given(st.fractions(min_value=Fraction(1, 1000), max_value=9), st.integers(min_value=2, max_value=6))
def test_the_exact_value_rounded_half_up_is_always_right(value, digits):
    """Property: the answer written with any number of significant digits >= ``digits``, rounded
    half up, is accepted; one unit of the last digit off is not."""
    from decimal import ROUND_HALF_UP, Decimal

    exact = Decimal(value.numerator) / Decimal(value.denominator)
    quantum = Decimal(1).scaleb(exact.adjusted() - digits + 1)
    text = format(exact.quantize(quantum, rounding=ROUND_HALF_UP), "f")
    assert check(text, value, digits=digits).correct, text
    off = format(Decimal(text) + quantum, "f")
    if Fraction(Decimal(off)) != value:
        assert not check(off, value, digits=digits).correct, off


def test_the_worked_solution_is_offered_after_three_wrong_tries():
    exercise = Exercise("What is C(5, 2)?", 10, hint="5·4/2", solution="C(5, 2) = 5·4/2 = 10.")
    root = exercise.widget
    box, button = root.children[1].children
    offer = root.children[3]
    assert "&lt;" not in root.children[0].value and offer.layout.display == "none"
    for wrong in ("9", "11", "12"):
        assert not exercise.solution_offered
        box.value = wrong
        button.click()
    assert exercise.wrong_tries == 3 and exercise.solution_offered
    assert offer.layout.display is None and "3 tries so far" in exercise._verdict_html.value
    offer.click()
    shown = root.children[4].value
    assert "Worked solution" in shown and "C(5, 2) = 5·4/2 = 10." in shown and "The answer: 10." in shown
    box.value = "10"
    button.click()
    assert "Right" in exercise._verdict_html.value
    assert exercise.attempts == [("9", False), ("11", False), ("12", False), ("10", True)]


def test_no_solution_before_the_tries_are_up():
    exercise = Exercise("?", Fraction(1, 3), solution="one in three")
    assert exercise.widget.children[4].value == ""
    exercise.submit("0.5")
    exercise._open_solution()
    assert exercise.widget.children[4].value == ""
    assert exercise.submit("1/3").correct and exercise.solution_offered  # a right answer may see it too


def test_the_question_is_escaped():
    exercise = Exercise("What is <b>C(5,2)</b>?", 10)
    assert "&lt;b&gt;" in exercise.widget.children[0].value


@pytest.mark.parametrize("lang", LANGS)
def test_the_checker_speaks_every_language(lang):
    keys = [k for k in catalog("en") if k.startswith(("lesson.check.", "lesson.unit"))]
    assert len(keys) >= 20
    assert all(k in catalog(lang) for k in keys)
    exercise = Exercise("?", Fraction(3, 4), lang=lang)
    assert exercise.widget.children[1].children[1].description == catalog(lang)["lesson.check.button"]
