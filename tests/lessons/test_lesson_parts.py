"""Every part of every lesson, in every language, is one a student finishes in 45 minutes (issue 24,
"Honest times"; notebooks/LESSONS_FORMAT.md, "A part's size"): at most about 1,500 words of prose
and at most six exercises, its time stated in its introduction and in the README's lesson table."""

from __future__ import annotations

import json
import re
from itertools import pairwise
from pathlib import Path

import pytest

from speculation_nb.lessons import build

NOTEBOOKS = build.NOTEBOOKS
README = (NOTEBOOKS.parent / "README.md").read_text(encoding="utf-8")
SOURCES = build.sources()
LANGS = ("en", *build.LANGUAGES)
#: The guide: words of prose (markdown cells; a word is a run of characters holding a letter) and
#: exercises (``ask(...)`` cells, and "Your turn" cells where the student writes a ``my_`` function).
MAX_WORDS, MAX_EXERCISES, MAX_MINUTES = 1500, 6, 45
ASK = re.compile(r"""\bask\(\s*["']([a-z0-9_.]+)["']""")
YOUR_TURN = re.compile(r"^def my_\w+\(", re.M)
TIME = re.compile(r"\*\*Time:\*\* about (\d+) minutes")


def path(source: Path, lang: str) -> Path:
    return source if lang == "en" else build.built_path(source, lang)


def measure(notebook: Path) -> tuple[int, int]:
    """``(words of prose, exercises)`` of a notebook."""
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    prose = ["".join(c["source"]) for c in cells if c["cell_type"] == "markdown"]
    code = ["".join(c["source"]) for c in cells if c["cell_type"] == "code"]
    words = sum(1 for text in prose for word in text.split() if re.search(r"[^\W\d_]", word))
    exercises = sum(len(ASK.findall(text)) + len(YOUR_TURN.findall(text)) for text in code)
    return words, exercises


def test_the_measure_counts_words_and_exercises(tmp_path):
    notebook = {
        "cells": [
            {"cell_type": "markdown", "source": ["# A title\n", "Two words, 3 = 3, and `n·h/U`."]},
            {"cell_type": "code", "source": ['ask("l1.x", LANG)\n', "def my_hold(U, h, n):\n", "    return None"]},
        ]
    }
    (tmp_path / "n.ipynb").write_text(json.dumps(notebook), encoding="utf-8")
    assert measure(tmp_path / "n.ipynb") == (6, 2)  # A, title, Two, words, and, `n·h/U`


def test_every_lesson_part_is_measured():
    assert len(SOURCES) >= 14 and all(path(s, lang).is_file() for s in SOURCES for lang in LANGS)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("source", SOURCES, ids=[s.stem for s in SOURCES])
def test_each_part_keeps_to_1500_words_and_six_exercises(source, lang):
    words, exercises = measure(path(source, lang))
    assert words <= MAX_WORDS, f"{path(source, lang).name}: {words} words of prose (at most {MAX_WORDS}): split it"
    assert exercises <= MAX_EXERCISES, f"{path(source, lang).name}: {exercises} exercises (at most {MAX_EXERCISES})"


@pytest.mark.parametrize("source", SOURCES, ids=[s.stem for s in SOURCES])
def test_each_part_states_its_time_here_and_in_the_readme(source):
    intro = json.loads(source.read_text(encoding="utf-8"))["cells"][0]["source"]
    minutes = TIME.search("".join(intro))
    assert minutes, f"{source.name}: the introduction states no **Time:** about N minutes"
    assert int(minutes.group(1)) <= MAX_MINUTES
    row = next(line for line in README.splitlines() if line.startswith(f"| `{source.stem}` |"))
    assert f"| {minutes.group(1)} min |" in row, (source.stem, minutes.group(1), row)


@pytest.mark.parametrize(
    ("first", "later"),
    [
        ("02a_will_the_queen_hold", ["02a_will_the_queen_hold_2"]),
        ("03a_what_is_a_card_worth", ["03a_what_is_a_card_worth_2"]),
        ("04a_more_cards_out", ["04a_more_cards_out_2"]),
        ("04b_trading_and_old_rules", ["04b_trading_and_old_rules_2"]),
        ("05a_the_evening_in_the_chapter", ["05a_the_evening_in_the_chapter_2", "05a_the_evening_in_the_chapter_3"]),
        ("05b_many_evenings", ["05b_many_evenings_2"]),
    ],
)
def test_a_split_lesson_keeps_its_first_name_and_each_part_points_to_the_next(first, later):
    """Links already sent keep working: the first part has the old name; the next parts follow it in
    order, and each part but the last ends by naming the next."""
    stems = [s.stem for s in SOURCES]
    assert stems.index(first) + 1 == stems.index(later[0])
    for before, after in pairwise([first, *later]):
        cells = json.loads((NOTEBOOKS / f"{before}.ipynb").read_text(encoding="utf-8"))["cells"]
        assert f"`{after}`" in "".join(cells[-1]["source"]), before


def test_no_module_of_the_lessons_is_over_500_lines():
    """Issue 24: no module of speculation_nb/lessons/ over 500 lines (lesson3.py was 529)."""
    package = NOTEBOOKS.parent / "speculation_nb" / "lessons"
    long = {p.name: n for p in package.glob("*.py") if (n := len(p.read_text(encoding="utf-8").splitlines())) > 500}
    assert not long, long
