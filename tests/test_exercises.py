"""The lessons' answer checker: equivalent forms are accepted, wrong answers get a hint."""

from fractions import Fraction

import pytest

from speculation_nb.exercises import Exercise, check, parse_answer

THREE_QUARTERS = ["3/4", " 3 / 4 ", "6/8", "0.75", ".75", "0,75", "75%", "75 %", "75,0 %", "75.00%", "75\u00a0%"]


@pytest.mark.parametrize("text", THREE_QUARTERS)
def test_equivalent_forms_are_right(text):
    assert parse_answer(text).value == Fraction(3, 4)
    assert check(text, Fraction(3, 4)).correct


@pytest.mark.parametrize("text", ["2/3", "0.7", "70%", "1", "-3/4", "7.5%"])
def test_wrong_answers_are_wrong(text):
    assert not check(text, Fraction(3, 4)).correct


@pytest.mark.parametrize("text", ["", "abc", "1/0", "3/", "75%%", "1.2.3", "0x10", "nan", "inf"])
def test_unreadable_answers_say_so(text):
    verdict = check(text, Fraction(3, 4))
    assert not verdict.correct
    assert "cannot read" in verdict.message


def test_rounded_decimals_agree_to_every_digit_given():
    exact = Fraction(703, 1035)  # 0.679227...
    for text in ["0.679", "67.9%", "0.68", "68%", "67,92 %"]:
        assert check(text, exact).correct, text
    assert not check("0.678", exact).correct
    assert not check("0.6", exact).correct


def test_too_few_digits_asks_for_more():
    verdict = check("0.7", Fraction(703, 1035))
    assert not verdict.correct
    assert "more digits" in verdict.message


def test_whole_numbers_and_fractions_must_be_exact():
    assert check("15", 15).correct
    assert not check("14", Fraction(29, 2)).correct
    assert check("29/2", Fraction(29, 2)).correct
    assert check("14.5", Fraction(29, 2)).correct


def test_hint_and_language():
    verdict = check("1/2", Fraction(3, 4), hint="count the cards above the Queen")
    assert verdict.message == "Not quite. Hint: count the cards above the Queen"
    assert check("0,75", Fraction(3, 4), lang="it").message == "Esatto!"
    assert check("1/2", Fraction(3, 4), lang="de").message.startswith("Nicht ganz")


def test_exercise_widget_checks_and_escapes():
    exercise = Exercise("What is <b>C(5,2)</b>?", 10, hint="5·4/2")
    box = exercise.widget.children[1].children[0]
    button = exercise.widget.children[1].children[1]
    assert "&lt;b&gt;" in exercise.widget.children[0].value
    box.value = "9"
    button.click()
    assert "Not quite" in exercise._verdict_html.value
    box.value = "10"
    button.click()
    assert "Right" in exercise._verdict_html.value
    assert exercise.attempts == [("9", False), ("10", True)]
