"""Helpers shared by the lessons' tests (test_lesson_2 to test_lesson_5)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from speculation_nb import Game, Rules
from speculation_nb.lessons.questions import Question

LANGUAGES = ("en", "it", "pt", "de")


def live_moments(rules: Rules, seeds: Iterable[int]) -> Iterator[Game]:
    """Every moment of the seeded deals at which a card is still to turn up (the same game, moved
    on by one reveal after each)."""
    for seed in seeds:
        game = Game.deal(rules, seed=seed)
        while not game.over:
            yield game
            game.reveal()


def assert_worded(question: Question) -> None:
    """An exercise has its question, hint and solution in each of the four languages, with no
    placeholder left unfilled."""
    for lang in LANGUAGES:
        words = question.texts(lang)
        assert words["question"] and words["hint"] and words["solution"], (question.key, lang)
        assert "{" not in "".join(words.values()), (question.key, lang)
