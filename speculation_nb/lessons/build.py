"""One source per lesson: the translated notebooks are built from the English one.

The English notebook ``notebooks/NN_name.ipynb`` is the source. Its translatable units are

- each markdown cell (its whole source),
- each comment of a code cell (the text after ``# ``, one line each),
- the notebook's ``title`` metadata.

Their translations live in one gettext file per lesson and language,
``notebooks/locale/<lang>/NN_name.po``: ``msgid`` the exact English text of a unit, ``msgstr``
its translation (a missing, empty or fuzzy ``msgstr`` means "not translated"). The build copies
the code cells, replaces markdown and comments, writes the language into the ``LANG = "en"``
line of the first code cell and clears every output::

    python -m speculation_nb.lessons.build              # write notebooks/NN_name.<lang>.ipynb
    python -m speculation_nb.lessons.build --check      # exit 1 if a built file is out of date
    python -m speculation_nb.lessons.build --stale it   # the Italian units still to translate
    python -m speculation_nb.lessons.build --update it  # add the new units to the Italian .po files

``--update`` keeps every translation whose English is unchanged; a unit whose English changed
gets its old translation back marked ``fuzzy`` (not used until a translator removes the flag).
Any command takes lesson stems to work on only those (``--check 01_how_to_play``).

For translators, lesson by lesson (``it`` here; ``pt`` and ``de`` the same way):

1. ``python -m speculation_nb.lessons.build --update it`` adds the lesson's new units to
   ``notebooks/locale/it/<stem>.po`` (a unit whose English changed comes back ``fuzzy``, with
   its old translation to revise);
2. ``python -m speculation_nb.lessons.build --stale it <stem>`` lists what is left to translate;
3. in ``notebooks/locale/it/<stem>.po`` fill each empty ``msgstr`` (and for a fuzzy one, revise
   it and delete its ``#, fuzzy`` line), keeping Markdown, formulas, code in backticks and
   ``{placeholders}`` as they are, with the terms of ``speculation_nb/locale/glossary.csv``;
4. ``python -m speculation_nb.lessons.build`` writes ``notebooks/<stem>.it.ipynb``, and
   ``--check`` must then say nothing; commit the ``.po`` file and the built notebook together.

The words the lessons' code cells show at run time (exercise questions, hints and worked
solutions, chart labels, table headers) are in ``speculation_nb/locale/<lang>/LC_MESSAGES/lessons.po``.

Only the standard library, :mod:`nbformat` and :mod:`babel` are used.
"""

from __future__ import annotations

import argparse
import copy
import io
import re
import sys
import tokenize
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import nbformat
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po

__all__ = [
    "LANGUAGES",
    "NOTEBOOKS",
    "Unit",
    "build_notebook",
    "check",
    "comments",
    "main",
    "orphans",
    "read_translations",
    "sources",
    "stale",
    "units",
    "update_catalog",
    "write_all",
]

#: The languages the lessons are built in (English is the source).
LANGUAGES = ("it", "pt", "de")
#: The lessons' folder: ``notebooks/`` beside the package.
NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"

# nbformat has no type annotations: its functions are called through this name.
_nbf: Any = nbformat

_SOURCE = re.compile(r"^\d\d[a-z]?_[a-z0-9_]+\.ipynb$")
_LANG_LINE = re.compile(r"""^LANG = (["'])en\1""", re.M)
_MAGIC = re.compile(r"^\s*[%!]")


@dataclass(frozen=True)
class Unit:
    """One translatable piece of a lesson: where it is (``cell`` id, ``kind``) and its English."""

    cell: str
    kind: str  # "title", "markdown" or "comment"
    text: str

    def where(self) -> str:
        return "title" if self.kind == "title" else f"cell {self.cell} ({self.kind})"


def sources(folder: Path = NOTEBOOKS, stems: Sequence[str] = ()) -> list[Path]:
    """The English lessons, ``NN_name.ipynb`` (``NNa_name.ipynb`` for parts), in order."""
    found = sorted(p for p in folder.glob("*.ipynb") if _SOURCE.match(p.name))
    if stems:
        unknown = set(stems) - {p.stem for p in found}
        if unknown:
            raise SystemExit(f"no such lesson in {folder}: {', '.join(sorted(unknown))}")
        found = [p for p in found if p.stem in stems]
    return found


def comments(source: str) -> list[tuple[int, int, str]]:
    """The comments of a code cell: ``(line index, column of '#', text after '# ')``.

    Found with :mod:`tokenize`, so a ``#`` inside a string is not a comment. Lines of IPython
    magics (``%matplotlib``, ``!pip``) are skipped.
    """
    lines = source.splitlines(keepends=True)
    plain = "".join("\n" if _MAGIC.match(line) else line for line in lines)
    out: list[tuple[int, int, str]] = []
    try:
        for token in tokenize.generate_tokens(io.StringIO(plain).readline):
            if token.type == tokenize.COMMENT:
                text = token.string[1:].strip()
                if text:
                    out.append((token.start[0] - 1, token.start[1], text))
    except (tokenize.TokenError, IndentationError, SyntaxError) as exc:
        raise ValueError(f"cannot read the code cell: {exc}") from None
    return out


def units(nb: nbformat.NotebookNode) -> list[Unit]:
    """Every translatable unit of a notebook, in reading order."""
    out: list[Unit] = []
    title = nb.metadata.get("title")
    if title:
        out.append(Unit("", "title", title))
    for cell in nb.cells:
        if cell.cell_type == "markdown" and cell.source.strip():
            out.append(Unit(cell.id, "markdown", cell.source))
        elif cell.cell_type == "code":
            out.extend(Unit(cell.id, "comment", text) for _, _, text in comments(cell.source))
    return out


def po_path(source: Path, lang: str) -> Path:
    return source.parent / "locale" / lang / f"{source.stem}.po"


def built_path(source: Path, lang: str) -> Path:
    return source.with_name(f"{source.stem}.{lang}.ipynb")


def read_translations(path: Path) -> dict[str, str]:
    """``{English: translation}`` from a lesson's ``.po`` file (empty and fuzzy entries left out)."""
    if not path.is_file():
        return {}
    with path.open("rb") as handle:
        catalog = read_po(handle)
    return {
        m.id: m.string
        for m in catalog
        if m.id and isinstance(m.id, str) and isinstance(m.string, str) and m.string and not m.fuzzy
    }


def _translate_code(source: str, lang: str, translations: dict[str, str], first: bool) -> tuple[str, list[str]]:
    """The code cell in ``lang``: comments translated and, in the first code cell, ``LANG`` set."""
    lines = source.splitlines(keepends=True)
    missing: list[str] = []
    for row, col, text in comments(source):
        if text in translations:
            line = lines[row]
            end = "\n" if line.endswith("\n") else ""
            lines[row] = line[:col] + "# " + translations[text] + end
        else:
            missing.append(text)
    out = "".join(lines)
    if first:
        out = _LANG_LINE.sub(lambda m: f"LANG = {m.group(1)}{lang}{m.group(1)}", out, count=1)
    return out, missing


def build_notebook(
    nb: nbformat.NotebookNode, lang: str, translations: dict[str, str], source_name: str = ""
) -> tuple[nbformat.NotebookNode, list[Unit]]:
    """The lesson ``nb`` in ``lang``, and the units that had no translation (left in English)."""
    out = copy.deepcopy(nb)
    missing: list[Unit] = []
    title = out.metadata.get("title")
    if title:
        if title in translations:
            out.metadata["title"] = translations[title]
        else:
            missing.append(Unit("", "title", title))
    out.metadata["speculation_nb"] = {"lang": lang, "built_from": source_name}
    first_code = True
    for cell in out.cells:
        if cell.cell_type == "markdown":
            if not cell.source.strip():
                continue
            if cell.source in translations:
                cell.source = translations[cell.source]
            else:
                missing.append(Unit(cell.id, "markdown", cell.source))
        elif cell.cell_type == "code":
            cell.source, gaps = _translate_code(cell.source, lang, translations, first_code)
            missing.extend(Unit(cell.id, "comment", text) for text in gaps)
            first_code = False
            cell.outputs = []
            cell.execution_count = None
    return out, missing


def _read(source: Path) -> nbformat.NotebookNode:
    node: nbformat.NotebookNode = _nbf.read(source, as_version=4)
    return node


def source_problems(source: Path) -> list[str]:
    """What is wrong with an English source itself (ids, the LANG line, outputs)."""
    nb = _read(source)
    out: list[str] = []
    code = [c for c in nb.cells if c.cell_type == "code"]
    if (nb.nbformat, nb.nbformat_minor) < (4, 5) or any(not c.get("id") for c in nb.cells):
        out.append(f"{source.name}: every cell needs an id (nbformat 4.5)")
    if len({c.get("id") for c in nb.cells}) != len(nb.cells):
        out.append(f"{source.name}: two cells share an id")
    if code and not _LANG_LINE.search(code[0].source):
        out.append(f'{source.name}: the first code cell has no line LANG = "en"')
    for cell in code:
        if cell.outputs or cell.execution_count is not None:
            out.append(f"{source.name}: cell {cell.id} has outputs (clear them before committing)")
        try:
            comments(cell.source)
        except ValueError as exc:
            out.append(f"{source.name}: cell {cell.id}: {exc}")
    return out


def _built(source: Path, lang: str) -> tuple[str, list[Unit]]:
    nb, missing = build_notebook(_read(source), lang, read_translations(po_path(source, lang)), source.name)
    return str(_nbf.writes(nb)) + "\n", missing


def write_all(folder: Path = NOTEBOOKS, langs: Iterable[str] = LANGUAGES, stems: Sequence[str] = ()) -> list[Path]:
    """Write every translated notebook; return the files that changed."""
    changed: list[Path] = []
    for source in sources(folder, stems):
        for lang in langs:
            text, _ = _built(source, lang)
            target = built_path(source, lang)
            if not target.is_file() or target.read_text(encoding="utf-8") != text:
                target.write_text(text, encoding="utf-8")
                changed.append(target)
    return changed


def check(folder: Path = NOTEBOOKS, langs: Iterable[str] = LANGUAGES, stems: Sequence[str] = ()) -> list[str]:
    """Every reason the committed translations are not what the build writes (empty: all good)."""
    problems: list[str] = []
    langs = list(langs)
    if not stems:
        problems.extend(orphans(folder, langs))
    for source in sources(folder, stems):
        problems.extend(source_problems(source))
        for lang in langs:
            text, missing = _built(source, lang)
            target = built_path(source, lang)
            rel = target.relative_to(folder.parent) if target.is_relative_to(folder.parent) else target
            po = po_path(source, lang)
            for unit in missing:
                problems.append(f"{po.name} [{lang}]: {unit.where()} has no translation: {_short(unit.text)}")
            if not target.is_file():
                problems.append(f"{rel}: missing (run python -m speculation_nb.lessons.build)")
            elif target.read_text(encoding="utf-8") != text:
                problems.append(f"{rel}: out of date (run python -m speculation_nb.lessons.build)")
    return problems


def orphans(folder: Path = NOTEBOOKS, langs: Iterable[str] = LANGUAGES) -> list[str]:
    """Translated notebooks and ``.po`` files whose English source is gone (a renamed or split lesson)."""
    names = {p.stem for p in sources(folder)}
    out = []
    for lang in langs:
        for built in sorted(folder.glob(f"*.{lang}.ipynb")):
            if built.name[: -len(f".{lang}.ipynb")] not in names:
                out.append(f"{built.name}: no English source (delete it, or restore the lesson)")
        for po in sorted((folder / "locale" / lang).glob("*.po")):
            if po.stem not in names:
                out.append(f"locale/{lang}/{po.name}: no English source (rename it with the lesson, or delete it)")
    return out


def stale(lang: str, folder: Path = NOTEBOOKS, stems: Sequence[str] = ()) -> Iterator[tuple[Path, Unit]]:
    """The units of ``lang`` still to translate: ``(its .po file, the unit)``."""
    for source in sources(folder, stems):
        translations = read_translations(po_path(source, lang))
        seen: set[str] = set()
        for unit in units(_read(source)):
            if unit.text not in translations and unit.text not in seen:
                seen.add(unit.text)
                yield po_path(source, lang), unit


def _template(source: Path) -> Catalog:
    template = Catalog(project="speculation_nb lessons", fuzzy=False)
    for unit in units(_read(source)):
        message = template.get(unit.text)
        if message is None:
            template.add(unit.text, auto_comments=[unit.where()], locations=[(source.name, 0)])
        elif unit.where() not in message.auto_comments:
            message.auto_comments.append(unit.where())
    return template


def update_catalog(source: Path, lang: str) -> Path:
    """Bring ``notebooks/locale/<lang>/<stem>.po`` up to the source's units (new ones empty)."""
    path = po_path(source, lang)
    if path.is_file():
        with path.open("rb") as handle:
            catalog = read_po(handle, locale=lang)
    else:
        catalog = Catalog(locale=lang, project="speculation_nb lessons", fuzzy=False)
    catalog.update(_template(source), update_creation_date=False)
    path.parent.mkdir(parents=True, exist_ok=True)
    buffer = io.BytesIO()
    write_po(buffer, catalog, width=0, ignore_obsolete=True, include_previous=False, include_lineno=False)
    if not path.is_file() or path.read_bytes() != buffer.getvalue():
        path.write_bytes(buffer.getvalue())
    return path


def _short(text: str, size: int = 70) -> str:
    line = " ".join(text.split())
    return line if len(line) <= size else line[: size - 1] + "…"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m speculation_nb.lessons.build", description=__doc__.split("\n")[0])
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--check", action="store_true", help="exit 1 if a translated notebook is not up to date")
    group.add_argument("--stale", metavar="LANG", help="list the units of LANG that have no translation")
    group.add_argument("--update", metavar="LANG", help="add the new units to LANG's .po files")
    parser.add_argument("--lang", action="append", choices=LANGUAGES, help="build or check only this language")
    parser.add_argument("--notebooks", type=Path, default=NOTEBOOKS, help="the lessons' folder")
    parser.add_argument("stems", nargs="*", help="only these lessons (e.g. 01_how_to_play)")
    args = parser.parse_args(argv)
    folder: Path = args.notebooks
    langs = args.lang or list(LANGUAGES)
    if args.stale:
        count = 0
        for po, unit in stale(args.stale, folder, args.stems):
            count += 1
            print(f"{po.relative_to(folder.parent) if po.is_relative_to(folder.parent) else po}: {unit.where()}")
            print("    " + unit.text.replace("\n", "\n    "))
        print(f"{count} unit(s) of {args.stale} to translate", file=sys.stderr)
        return 0
    if args.update:
        for source in sources(folder, args.stems):
            print(update_catalog(source, args.update))
        return 0
    if args.check:
        problems = check(folder, langs, args.stems)
        for line in problems:
            print(line)
        if problems:
            print(f"{len(problems)} problem(s): the translated lessons are not up to date", file=sys.stderr)
            return 1
        print("the translated lessons are up to date", file=sys.stderr)
        return 0
    for path in write_all(folder, langs, args.stems):
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
