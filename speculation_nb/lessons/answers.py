"""A teacher's answer key for each lesson, in each language, computed from the package.

    python -m speculation_nb.lessons.answers                     # every lesson, English, to the screen
    python -m speculation_nb.lessons.answers 02a_will_the_queen_hold --lang it
    python -m speculation_nb.lessons.answers --lang de --out keys/   # one Markdown file per lesson

The key is generated rather than kept beside the notebooks, so it is never out of date and is
not served to the students with the lessons.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

from ..languages.translator import translator
from .questions import questions, texts

__all__ = ["answer_key", "lessons", "main"]


def lessons() -> list[str]:
    """The lesson stems that have exercises, in order."""
    return sorted({q.lesson for q in questions()})


def answer_key(lesson: str, lang: str = "en") -> str:
    """The answer key of one lesson as Markdown: each question, its exact answer, its worked solution."""
    t = translator(lang)
    found = questions(lesson)
    if not found:
        raise KeyError(f"no exercises for lesson {lesson!r}; lessons: {', '.join(lessons())}")
    lines = [f"# {t('lesson.key.title', lesson=lesson)}", ""]
    for number, question in enumerate(found, 1):
        words = texts(question, t)
        lines += [f"## {number}. {words['question']}", ""]
        lines += [f"**{t('lesson.key.answer')}:** {question.answer_text(t)}", ""]
        if words["solution"]:
            lines += [words["solution"], ""]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m speculation_nb.lessons.answers", description=__doc__.split("\n")[0]
    )
    parser.add_argument("stems", nargs="*", help="lessons (default: all)")
    parser.add_argument("--lang", default="en", choices=["en", "it", "pt", "de"])
    parser.add_argument("--out", type=Path, help="write <stem>.<lang>.md files into this folder")
    args = parser.parse_args(argv)
    for stem in args.stems or lessons():
        text = answer_key(stem, args.lang)
        if args.out:
            args.out.mkdir(parents=True, exist_ok=True)
            path = args.out / f"{stem}.{args.lang}.md"
            path.write_text(text + "\n", encoding="utf-8")
            print(path)
        else:
            print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
