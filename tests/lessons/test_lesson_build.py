"""One source per lesson (notebooks/LESSONS_FORMAT.md): the translated notebooks are what the build writes."""

from __future__ import annotations

import json
from pathlib import Path

import nbformat
import pytest

from speculation_nb.lessons import build

SOURCES = build.sources()


@pytest.mark.parametrize("source", SOURCES, ids=[p.stem for p in SOURCES])
def test_the_translated_lessons_are_up_to_date(source: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``python -m speculation_nb.lessons.build --check <stem>``: every unit translated, every file current."""
    code = build.main(["--check", source.stem])
    assert code == 0, capsys.readouterr().out


def _lesson(tmp_path: Path) -> Path:
    nb = nbformat.v4.new_notebook()
    nb.metadata["title"] = "Lesson 9 · A test"
    nb.cells = [
        nbformat.v4.new_markdown_cell("# Lesson 9\n\nThe pot is *18* chips.", id="md-1"),
        nbformat.v4.new_code_cell('LANG = "en"  # the language\nx = "# not a comment"\n# count them\nx', id="code-1"),
        nbformat.v4.new_code_cell("%matplotlib inline\nprint(LANG)", id="code-2"),
    ]
    folder = tmp_path / "notebooks"
    folder.mkdir()
    nbformat.write(nb, folder / "09_test.ipynb")
    return folder


def test_units_are_markdown_cells_comments_and_the_title(tmp_path: Path) -> None:
    folder = _lesson(tmp_path)
    found = build.units(nbformat.read(folder / "09_test.ipynb", as_version=4))
    assert [(u.kind, u.text) for u in found] == [
        ("title", "Lesson 9 · A test"),
        ("markdown", "# Lesson 9\n\nThe pot is *18* chips."),
        ("comment", "the language"),
        ("comment", "count them"),
    ]


def test_update_stale_build_check_round_trip(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = _lesson(tmp_path)
    args = ["--notebooks", str(folder)]
    assert build.main([*args, "--update", "it"]) == 0
    po = folder / "locale" / "it" / "09_test.po"
    assert po.is_file()
    assert len(list(build.stale("it", folder))) == 4
    assert build.main([*args, "--check", "--lang", "it"]) == 1
    assert "has no translation" in capsys.readouterr().out
    text = po.read_text(encoding="utf-8")
    for english, italian in [
        ("Lesson 9 · A test", "Lezione 9 · Una prova"),
        ("the language", "la lingua"),
        ("count them", "contale"),
    ]:
        text = text.replace(f'msgid "{english}"\nmsgstr ""', f'msgid "{english}"\nmsgstr "{italian}"')
    text = text.replace(
        '"The pot is *18* chips."\nmsgstr ""',
        '"The pot is *18* chips."\nmsgstr "# Lezione 9\\n\\nIl piatto è di *18* fiches."',
    )
    po.write_text(text, encoding="utf-8")
    assert list(build.stale("it", folder)) == []
    assert build.main([*args, "--check", "--lang", "it"]) == 1  # translated, not yet built
    assert "missing" in capsys.readouterr().out
    assert build.main([*args, "--lang", "it"]) == 0
    assert build.main([*args, "--check", "--lang", "it"]) == 0
    built = nbformat.read(folder / "09_test.it.ipynb", as_version=4)
    assert built.metadata.title == "Lezione 9 · Una prova"
    assert built.metadata.speculation_nb == {"lang": "it", "built_from": "09_test.ipynb"}
    assert [c.id for c in built.cells] == ["md-1", "code-1", "code-2"]
    assert built.cells[0].source == "# Lezione 9\n\nIl piatto è di *18* fiches."
    assert built.cells[1].source == 'LANG = "it"  # la lingua\nx = "# not a comment"\n# contale\nx'
    assert built.cells[2].source == "%matplotlib inline\nprint(LANG)"

    # A change to the English leaves the translation behind: --check says so, --update marks it fuzzy.
    source = nbformat.read(folder / "09_test.ipynb", as_version=4)
    source.cells[0].source = "# Lesson 9\n\nThe pot is *22* chips."
    nbformat.write(source, folder / "09_test.ipynb")
    assert build.main([*args, "--check", "--lang", "it"]) == 1
    out = capsys.readouterr().out
    assert "cell md-1 (markdown) has no translation" in out and "out of date" in out
    assert build.main([*args, "--update", "it"]) == 0
    assert "#, fuzzy" in po.read_text(encoding="utf-8")
    assert [u.cell for _, u in build.stale("it", folder)] == ["md-1"]


def test_a_built_notebook_edited_by_hand_is_caught(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = _lesson(tmp_path)
    assert build.main(["--notebooks", str(folder), "--lang", "de"]) == 0
    target = folder / "09_test.de.ipynb"
    data = json.loads(target.read_text(encoding="utf-8"))
    data["cells"][1]["source"] = ['LANG = "de"\n', "x = 2"]
    target.write_text(json.dumps(data), encoding="utf-8")
    assert build.main(["--notebooks", str(folder), "--check", "--lang", "de"]) == 1
    assert "09_test.de.ipynb: out of date" in capsys.readouterr().out


def test_a_source_must_carry_ids_the_lang_line_and_no_outputs(tmp_path: Path) -> None:
    folder = _lesson(tmp_path)
    nb = nbformat.read(folder / "09_test.ipynb", as_version=4)
    nb.cells[1].source = "x = 1"
    nb.cells[2].outputs = [nbformat.v4.new_output("stream", text="hi")]
    nbformat.write(nb, folder / "09_test.ipynb")
    problems = build.source_problems(folder / "09_test.ipynb")
    assert any("LANG" in p for p in problems)
    assert any("code-2 has outputs" in p for p in problems)


def test_a_translation_left_behind_by_a_renamed_lesson_is_caught(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = _lesson(tmp_path)
    assert build.main(["--notebooks", str(folder), "--update", "pt"]) == 0
    (folder / "09_test.ipynb").rename(folder / "09a_test.ipynb")
    (folder / "08_gone.pt.ipynb").write_text("{}", encoding="utf-8")
    assert build.main(["--notebooks", str(folder), "--check", "--lang", "pt"]) == 1
    out = capsys.readouterr().out
    assert "08_gone.pt.ipynb: no English source" in out and "locale/pt/09_test.po: no English source" in out


def test_no_translation_is_left_behind_by_a_renamed_lesson() -> None:
    assert build.orphans() == []
