"""The lessons' machinery.

- :mod:`.build`: the one-source build of the translated notebooks (``python -m speculation_nb.lessons.build``);
- :mod:`.checker`: the answer checker and its :class:`Exercise` widget;
- :mod:`.questions`: the exercises, their answers computed here, their words in ``lessons.po``;
- :mod:`.answers`: the teacher's answer key (``python -m speculation_nb.lessons.answers``);
- :mod:`.common`: what every lesson's cells use (:class:`Tools`);
- :mod:`.lesson1`, :mod:`.lesson2`, :mod:`.lesson3`: each lesson's deals, helpers, scaffolds and questions.
"""

from __future__ import annotations

from .checker import Exercise, Verdict, check, parse_answer
from .common import Tools, html_table
from .questions import Question, ask, questions

__all__ = ["Exercise", "Question", "Tools", "Verdict", "ask", "check", "html_table", "parse_answer", "questions"]
