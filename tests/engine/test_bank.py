"""The question bank (speculation_nb.engine.bank): every moment loads into a Game whose exact odds
are those of the lesson's own moment, its question is worded in every language, and Austen's words
are quoted exactly from the chapter."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from speculation_nb import Moment, odds
from speculation_nb.engine import bank
from speculation_nb.languages.translator import available_languages, translator
from speculation_nb.lessons import evening

CHAPTER = Path(__file__).parents[2] / "docs" / "sources" / "mansfield_park_chapter_25.txt"
LESSON = {
    "dozen": lambda: evening.queen_for_lady_bertram(0),
    "dozen_six": lambda: evening.queen_for_lady_bertram(6),
    "knave": lambda: evening.william_knave(3),
    "fanny": lambda: evening.fanny_queen(4),
}


@pytest.mark.parametrize("question", bank.QUESTIONS, ids=lambda q: q.id)
def test_each_moment_loads_with_the_lessons_exact_odds(question):
    game = bank.load(question.id, seed=3)
    lesson = LESSON[question.id]()
    assert Moment.of(game) == Moment.of(lesson) == question.to_moment()
    assert odds.hold_probability(game) == odds.hold_probability(lesson)
    assert odds.win_probabilities(game) == odds.win_probabilities(lesson)
    assert odds.fair_price(game) == odds.fair_price(lesson)
    assert odds.break_even(game, question.asker) == odds.break_even(lesson, question.asker)
    assert odds.seller_break_even(game, question.asker) == odds.seller_break_even(lesson, question.asker)
    assert json.loads(json.dumps(question.moment)) == question.moment


def test_the_chapters_worth_of_a_dozen_and_of_fannys_queen():
    assert odds.break_even(bank.load("dozen"), evening.LADY) < evening.DOZEN  # "a dozen is more than it is worth"
    assert odds.seller_break_even(bank.load("fanny"), evening.WILLIAM) == evening.queen_value(4)


@pytest.mark.parametrize("question", bank.QUESTIONS, ids=lambda q: q.id)
def test_each_question_is_worded_in_every_language_and_quotes_exactly(question):
    for lang in available_languages():
        assert translator(lang).has(question.key), (lang, question.key)
    if question.quote:
        assert question.quote in " ".join(CHAPTER.read_text(encoding="utf-8").split())


def test_an_unknown_question_is_a_value_error():
    with pytest.raises(ValueError):
        bank.question("no such moment")
