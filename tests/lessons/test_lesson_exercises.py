"""The lessons' exercises and cells (notebooks/LESSONS_FORMAT.md, issue 14 "Students doing the work"):
every exercise a notebook asks is registered with its computed answer, no answer or English
text sits in a code cell, cells are short, parts take at most 45 minutes, and each lesson has
an answer key in every language."""

from __future__ import annotations

import ast
import re
from fractions import Fraction
from pathlib import Path

import nbformat
import pytest

from speculation_nb.languages.translator import catalog
from speculation_nb.lessons import answers, build
from speculation_nb.lessons.questions import questions

LANGS = ("en", "it", "pt", "de")
MINE = re.compile(r"^0[1-3][a-z]?_")
SOURCES = [p for p in build.sources() if MINE.match(p.name)]
ASK = re.compile(r"""\bask\(\s*["']([a-z0-9_.]+)["']""")
# The string literals a lesson's code cell may hold: the language, exercise keys, card codes, dict keys.
ALLOWED = re.compile(r"^(en|l\d[a-z]?\.[a-z0-9_]+|(10|[2-9JQKA])[SHDC]|[a-z_]+)$")


def code_cells(path: Path) -> list[nbformat.NotebookNode]:
    return [c for c in nbformat.read(path, as_version=4).cells if c.cell_type == "code"]


def asked(path: Path) -> list[str]:
    return [key for cell in code_cells(path) for key in ASK.findall(cell.source)]


def test_my_lessons_exist():
    assert [p.stem[:2] for p in SOURCES][:1] == ["01"] and {p.stem[:2] for p in SOURCES} == {"01", "02", "03"}


@pytest.mark.parametrize("source", SOURCES, ids=[p.stem for p in SOURCES])
def test_every_exercise_asked_is_registered_for_its_lesson(source):
    keys = asked(source)
    assert keys, f"{source.name} asks no exercise"
    registered = {q.key: q for q in questions()}
    for key in keys:
        assert key in registered, key
        assert registered[key].lesson == source.stem, key
    assert sorted(keys) == sorted(q.key for q in questions(source.stem)), "every question of the lesson is asked once"


@pytest.mark.parametrize("source", SOURCES, ids=[p.stem for p in SOURCES])
def test_no_answer_and_no_english_in_a_code_cell(source):
    """Code cells hold code: exercises by key (their answers computed in the package), words in
    the catalogs. The only string literals allowed are keys, card codes and the language."""
    for cell in code_cells(source):
        tree = ast.parse("\n".join(line for line in cell.source.splitlines() if not line.startswith("%")))
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                assert ALLOWED.match(node.value), (cell.id, node.value)
            assert not isinstance(node, (ast.FunctionDef, ast.ClassDef)), (
                f"{cell.id}: helper code belongs in the package"
            )
        assert len(cell.source.splitlines()) <= 16, f"{cell.id} is long: move its helpers into the package"


@pytest.mark.parametrize("source", SOURCES, ids=[p.stem for p in SOURCES])
def test_each_part_takes_at_most_45_minutes(source):
    intro = nbformat.read(source, as_version=4).cells[0].source
    minutes = re.search(r"\*\*Time:\*\* about (\d+) minutes", intro)
    assert minutes, "the intro states the time"
    assert int(minutes.group(1)) <= 45


def test_every_question_has_its_words_in_every_language():
    for question in questions():
        for part in ("question", "hint", "solution"):
            key = f"lesson.{question.key}.{part}"
            for lang in LANGS:
                assert key in catalog(lang), (lang, key)


@pytest.mark.parametrize("lang", LANGS)
def test_an_answer_key_per_lesson_and_language(lang, capsys):
    stems = [p.stem for p in SOURCES]
    assert set(stems) <= set(answers.lessons())
    for stem in stems:
        text = answers.answer_key(stem, lang)
        found = questions(stem)
        assert text.count("\n## ") == len(found)
        for question in found:
            assert question.texts(lang)["question"] in text
            assert question.texts(lang)["solution"] in text
    assert answers.main([stems[0], "--lang", lang]) == 0
    assert catalog(lang)["lesson.key.answer"] in capsys.readouterr().out


def test_answer_key_files(tmp_path):
    assert answers.main(["01_how_to_play", "--lang", "it", "--out", str(tmp_path)]) == 0
    text = (tmp_path / "01_how_to_play.it.md").read_text(encoding="utf-8")
    assert text.startswith("# Soluzioni: 01_how_to_play") and "**Risposta:** 22" in text
    with pytest.raises(KeyError):
        answers.answer_key("99_nothing")


def test_the_readme_lists_every_lesson_with_its_time_and_four_binder_links():
    readme = (build.NOTEBOOKS.parent / "README.md").read_text(encoding="utf-8")
    definitions = dict(re.findall(r"^\[([^\]]+)\]: (\S+)$", readme, re.M))
    for source in build.sources():
        row = next((line for line in readme.splitlines() if line.startswith(f"| `{source.stem}` |")), None)
        assert row, f"README's lessons table has no row for {source.stem}"
        labels = re.findall(r"\[(en|it|pt|de)\]\[([^\]]+)\]", row)
        assert [lang for lang, _ in labels] == list(LANGS), row
        for lang, label in labels:
            name = source.name if lang == "en" else f"{source.stem}.{lang}.ipynb"
            assert definitions[label] == (
                f"https://mybinder.org/v2/gh/OWNER/speculation_nb/main?urlpath=lab/tree/notebooks/{name}"
            )
        if MINE.match(source.name):
            intro = nbformat.read(source, as_version=4).cells[0].source
            minutes = re.search(r"\*\*Time:\*\* about (\d+) minutes", intro).group(1)
            assert f"| {minutes} min |" in row, (source.stem, minutes, row)


@pytest.mark.parametrize("lang", LANGS)
def test_irrational_answers_are_shown_as_decimals_at_the_precision_asked(lang):
    """l2b.one_se and l2b.two_se are √(p(1 − p)/N): a decimal at two significant digits, never a fraction."""
    from speculation_nb.lessons.questions import ask, get

    for key, shown in (("l2b.one_se", "0.0046"), ("l2b.two_se", "0.0092")):
        question = get(key)
        low, high = question.within()
        p = Fraction(205, 294)
        assert low * low <= 4 ** (key == "l2b.two_se") * p * (1 - p) / 10_000 <= high * high
        words = question.texts(lang)
        if lang != "en":
            shown = shown.replace(".", ",")
        assert f"≈ {shown}" in words["solution"] and "/10000000" not in words["solution"]
        assert f"≈ {shown}" in answers.answer_key("02b_simulating_the_queen", lang)
        exercise = ask(key, lang)
        assert exercise.submit(shown).correct and exercise.submit(shown.replace("46", "45")).direction in ("", "low")
        assert f"≈ {shown}" in exercise.worked_solution()


def test_answers_are_checked_against_the_figures_the_question_states():
    """l4a.long_run gives q ≈ 0.1667 and l5a.dozen_start 0.5095 and 0.0976: an answer those figures
    give is right (108/5 is 18/(1 − 1/6), 10.7094 = 26 × (0.5095 − 0.0976))."""
    from speculation_nb.lessons.questions import ask, get

    long_run = get("l4a.long_run")
    assert long_run.answer() == Fraction(180_000, 8_333)  # 18/(1 − 0.1667)
    assert "q ≈ 0.1667" in long_run.texts()["question"]
    for text in ("108/5", "21.601", "21.6", "21.60 chips", "21.5997"):
        assert ask("l4a.long_run").submit(text).correct, text
    assert ask("l4a.long_run").submit("21.59").direction == "low"
    assert ask("l4a.long_run").submit("21.61").direction == "high"
    dozen = get("l5a.dozen_start")
    assert dozen.answer() == Fraction(107094, 10_000)
    assert "0.5095" in dozen.texts()["question"] and "0.0976" in dozen.texts()["question"]
    for text in ("10.7094", "10.71", "10.709", "10.7"):
        assert ask("l5a.dozen_start").submit(text).correct, text
    assert ask("l5a.dozen_start").submit("10.72").direction == "high"
    low, high = dozen.within()
    assert low < Fraction(18479150404, 1725580325) < high  # the exact break-even is inside the range
    assert "≈ 10.7" in dozen.texts()["solution"] and "≈ 21.6" in long_run.texts()["solution"]
