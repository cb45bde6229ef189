"""Take the answers home (T7, T10): the polls of a table as a CSV file, one row per answer.

:func:`answers_csv` reads a table's export (:func:`.record.table_export`, plain data, so a saved
export file gives the same rows) and writes, with the standard :mod:`csv` module, for one poll or
for every poll of the lesson, one row per member's last answer: the poll's number, its question
(a bank moment's in the file's language, a composed moment's as the teacher typed it), the deal
and step, a link that reopens the moment (its public view,
:func:`~speculation_nb.links.composed.composed_query`: no seed), the student's name or an
anonymous id (``Student 3``: the member's place in the order of joining, the same in every poll
of the table), the seat they answered from (empty for a spectator), the answer, its time (UTC),
the fair price of the moment exact (``36/7``) and rounded half up to whole chips (O4, as the app
shows it), the answering seat's break-even price likewise where it has one (not the holder's, nor
a spectator's; nor anyone's about a question deal, issue 25: nobody of the class sits at its table,
and its seats are not the session's), and the card's worth once the deal has ended (empty before).

The header is worded in the file's language (``class.poll.csv.*``); the values are plain (digits,
``p/q``), so that a spreadsheet reads the same numbers in every language.

A text cell (:data:`TEXT_COLUMNS`: the question, the link, the student's name or id, the time) that
begins with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return is written with a single quote
``'`` before it (:func:`text_cell`, OWASP's "CSV injection"), so that Excel, LibreOffice or Sheets
show the text a person typed instead of running it as a formula (a name typed
``=HYPERLINK(...)``, a question typed ``-3 chips?``). The number columns are never changed: an
answer, ``-3/4`` or a negative break-even stay numbers.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from ..engine.compose import Moment
from ..engine.session import Session
from ..languages.translator import Translator
from ..links.composed import MomentEntry, composed_query
from ..odds import shown_chips
from .poll import Poll

__all__ = ["COLUMNS", "TEXT_COLUMNS", "answer_rows", "answers_csv", "answers_name", "text_cell"]

#: The columns, in order (each header is ``class.poll.csv.<column>`` of the catalogs).
COLUMNS = (
    "poll",
    "question",
    "deal",
    "step",
    "moment",
    "student",
    "seat",
    "answer",
    "time",
    "fair",
    "fair_rounded",
    "break_even",
    "break_even_rounded",
    "worth",
)
#: The columns of text (what a person typed may be there); the others hold numbers only.
TEXT_COLUMNS = frozenset({"question", "moment", "student", "time"})
#: What a spreadsheet reads as the start of a formula.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def text_cell(text: str) -> str:
    """``text`` as a spreadsheet shows it, never as a formula: ``'`` before a formula's start."""
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def _question(export: Mapping[str, Any], poll: Poll, t: Translator) -> str:
    """The question asked: a bank moment's in ``t``'s language, a composed moment's as the teacher
    typed it (its question deal's ``words``), else "what would you pay?"."""
    if poll.question:
        return t(f"bank.{poll.question}.question")
    asked = [q for q in export.get("questions", []) if isinstance(q, Mapping) and q.get("id") == poll.question_deal]
    words = str(asked[0].get("words", "")) if poll.question_deal and asked else ""
    return words or t("class.member.poll_question")


def _link(export: Mapping[str, Any], poll: Poll, base: str, t: Translator) -> str:
    """The link that reopens the moment asked about, as its public view only
    (:func:`~speculation_nb.links.composed.composed_query`: the face-down cards dealt afresh at
    each opening, no seed, so the file may go to students while the table plays on): for a
    question deal its composed moment, else the session's deal at the poll's step."""
    try:
        if poll.question_deal:
            asked = next(q for q in export.get("questions", []) if q["id"] == poll.question_deal)
            moment = Moment.from_dict(asked["moment"])
        else:
            deal, step, session = poll.deal, poll.step, export.get("session", {})
            upto = {**session, "games": list(session["games"])[:deal], "ended": None}
            moment = Moment.of(Session.from_json(json.dumps(upto)).game.at(step))
        entry = MomentEntry(moment, question=_question(export, poll, t))
        return f"{base}?{composed_query(entry, {'lang': t.lang})}"
    except (KeyError, TypeError, ValueError, StopIteration):  # a moment that does not replay has no link
        return ""


def _money(value: Fraction | None) -> tuple[str, str]:
    return ("", "") if value is None else (str(value), str(shown_chips(value)))


def answer_rows(
    export: Mapping[str, Any], t: Translator, *, named: bool = False, poll: int | None = None, base: str = ""
) -> list[dict[str, str]]:
    """The rows of :func:`answers_csv` as dicts by :data:`COLUMNS` (strings, as written: the text
    cells guarded by :func:`text_cell`)."""
    members = list(export.get("members", []))
    order = {str(m["id"]): i + 1 for i, m in enumerate(members)}
    names = {str(m["id"]): str(m["name"]) for m in members}
    rows = []
    for data in export.get("polls", []):
        p = Poll.from_dict(data)
        if poll is not None and p.id != poll:
            continue
        link = _link(export, p, base, t)
        fair, fair_rounded = _money(p.fair)
        for member, price in sorted(p.answers.items(), key=lambda item: (order.get(item[0], 0), item[0])):
            seat = None if p.question_deal else p.seats.get(member)  # nobody sits at a question's table
            spread, spread_rounded = _money(p.break_even.get(seat) if seat is not None else None)
            who = names.get(member, member) if named else t("class.poll.anonymous", n=order.get(member, 0))
            row = {
                "poll": str(p.id),
                "question": _question(export, p, t),
                "deal": str(p.deal),
                "step": str(p.step),
                "moment": link,
                "student": who,
                "seat": "" if seat is None else str(seat + 1),
                "answer": str(price),
                "time": p.times.get(member, ""),
                "fair": fair,
                "fair_rounded": fair_rounded,
                "break_even": spread,
                "break_even_rounded": spread_rounded,
                "worth": "" if p.worth is None else str(p.worth),
            }
            rows.append({c: text_cell(v) if c in TEXT_COLUMNS else v for c, v in row.items()})
    return rows


def answers_csv(
    export: Mapping[str, Any], t: Translator, *, named: bool = False, poll: int | None = None, base: str = ""
) -> str:
    """The CSV text (see the module docstring): ``named`` writes the students' names (else the
    anonymous ids); ``poll`` keeps one poll (None: the whole lesson); ``base`` is the app's address
    the moment links start with."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow([t(f"class.poll.csv.{c}") for c in COLUMNS])
    for row in answer_rows(export, t, named=named, poll=poll, base=base):
        writer.writerow([row[c] for c in COLUMNS])
    return out.getvalue()


def answers_name(code: str, poll: int | None = None) -> str:
    """The file's name: ``speculation-table-<code>-answers.csv`` (``-poll-2`` for one poll)."""
    return f"speculation-table-{code}-answers{'' if poll is None else f'-poll-{poll}'}.csv"
