"""Austen's words are quoted exactly: every quotation of *Mansfield Park* in any lesson, in any
language, is found verbatim in the chapter (vol. II, ch. 7; the public-domain text is in
``docs/sources/mansfield_park_chapter_25.txt``).

The convention the lessons follow (notebooks/LESSONS_FORMAT.md, "Austen"): a quotation of the novel is
written in curly double quotation marks, “like this”, which the lessons use for nothing else.
In the Italian, Portuguese and German lessons Austen's English stays in “…” and the project's
own translation follows in the language's other marks («…» or »…«), marked as such
("traduzione nostra", "tradução nossa", "unsere Übersetzung"). The runtime catalogs' lesson 5
words (``lesson.l5.*``) and the cast's reasons (``Cast.why_in``, from engine.po's
``cast.why.*``) quote the chapter too and are checked the same way.

Comparison ignores line breaks and runs of spaces, Project Gutenberg's underscores for italics
and Markdown's asterisks; every other character (commas, apostrophes, dashes) must match.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from speculation_nb.languages.translator import catalog
from speculation_nb.players import mansfield_park

ROOT = Path(__file__).parents[2]
NOTEBOOKS = ROOT / "notebooks"
CHAPTER_FILE = ROOT / "docs" / "sources" / "mansfield_park_chapter_25.txt"
QUOTE = re.compile(r"“([^“”]+)”")
MARKERS = {"it": "traduzione nostra", "pt": "tradução nossa", "de": "unsere Übersetzung"}


def _plain(text: str) -> str:
    return re.sub(r"\s+", " ", text.replace("_", "").replace("*", "")).strip()


@pytest.fixture(scope="module")
def chapter() -> str:
    text = CHAPTER_FILE.read_text(encoding="utf-8")
    return _plain(text[text.index("CHAPTER XXV") :])  # the chapter itself, not the file's own header


def _markdown(path: Path) -> list[tuple[str, str]]:
    """``(cell id, text)`` of every markdown cell, blockquote marks taken off."""
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return [
        (c.get("id", ""), re.sub(r"(?m)^\s*>\s?", "", "".join(c["source"])))
        for c in cells
        if c["cell_type"] == "markdown"
    ]


def _quotes(text: str) -> list[str]:
    return [_plain(q) for q in QUOTE.findall(text)]


LESSONS = sorted(p for p in NOTEBOOKS.glob("[0-9][0-9]*.ipynb"))


@pytest.mark.parametrize("path", LESSONS, ids=[p.stem for p in LESSONS])
def test_every_quotation_in_a_lesson_is_in_the_chapter(path: Path, chapter: str) -> None:
    missing = [(cell, q) for cell, text in _markdown(path) for q in _quotes(text) if q not in chapter]
    assert not missing, f"{path.name}: not verbatim in the chapter (cell, quotation): {missing}"


def test_lesson_5_quotes_the_chapter_s_evening(chapter: str) -> None:
    """The passages the lesson is built on are there, exactly (so the test above is not vacuous)."""
    found = {
        q for p in NOTEBOOKS.glob("05[ab]_*.ipynb") if "." not in p.stem for _, t in _markdown(p) for q in _quotes(t)
    }
    needed = [
        "a dozen is more than it is worth",
        "You have bought her too dearly, and your brother does not offer half her value",
        "securing his knave at an exorbitant rate",
        "The game was hers, and only did not pay her for what she had given to secure it.",
        "Poor Fanny! not allowed to cheat herself as she wishes!",
        "sharpen her avarice, and harden her heart",
        "the remaining six, under Miss Crawford's direction, were arranged round the other",
    ]
    for passage in needed:
        assert passage in chapter
        assert any(passage in q for q in found), passage
    assert len(found) >= 20


@pytest.mark.parametrize("lang", sorted(MARKERS))
def test_a_translated_quotation_keeps_austen_s_english_and_marks_the_translation(lang: str, chapter: str) -> None:
    """In it/pt/de, a translated cell that quotes Austen keeps her English (checked above) and says the
    translation beside it is the project's own. Cells still in English (not yet translated) are skipped."""
    for source in (p for p in LESSONS if "." not in p.stem):
        built = source.with_name(f"{source.stem}.{lang}.ipynb")
        if not built.is_file():
            continue
        english = dict(_markdown(source))
        for cell, text in _markdown(built):
            if _quotes(text) and text != english.get(cell):
                assert MARKERS[lang] in text, f"{built.name}, cell {cell}: a translation of Austen is not marked"


@pytest.mark.parametrize("lang", ["en", "it", "pt", "de"])
def test_the_lesson_5_catalog_and_the_cast_s_reasons_quote_exactly(lang: str, chapter: str) -> None:
    """Lesson 5's runtime words and the cast's reasons (engine.po ``cast.why.*``, ``Cast.why_in``)."""
    words = {k: v for k, v in catalog(lang).items() if k.startswith(("lesson.l5.", "lesson.l5a.", "lesson.l5b."))}
    assert words, lang
    cast = mansfield_park(6)
    words.update({f"cast.why {name}": why for name, why in zip(cast.names, cast.why_in(lang))})
    quotes = [(k, q) for k, v in words.items() for q in _quotes(v)]
    assert len(quotes) >= 8
    assert [(k, q) for k, q in quotes if q not in chapter] == []
    if lang != "en":
        for key, value in words.items():
            if _quotes(value):
                assert MARKERS[lang] in value, (lang, key)


def test_every_character_of_the_round_table_has_a_reason_from_the_chapter(chapter: str) -> None:
    cast = mansfield_park(6)
    assert cast.why == cast.why_in("en")
    quoted = [name for name, why in zip(cast.names, cast.why) if _quotes(why)]
    assert quoted == [n for n in cast.names if n != "Edmund Bertram"]  # the chapter shows none of Edmund's play
