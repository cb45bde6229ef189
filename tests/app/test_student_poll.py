"""Issue 25: the poll on a student's page asks the question of the question deal shown: a bank
moment's in the page's own language, or the teacher's question as typed, escaped, its direction its
own, in the live region a screen reader reads when the poll changes."""

from __future__ import annotations

import html
import re

import pytest

from speculation_nb import Rules, Session
from speculation_nb.app.student.view import asked_words, poll_html
from speculation_nb.classroom.moment import public_moment, read_public_moment
from speculation_nb.languages.markup import escape
from speculation_nb.languages.translator import translator
from speculation_nb.links.query import MAX_QUESTION

T = translator("en")
TYPED = '<script>alert(1)</script><img src=x onerror="alert(2)"> & مريم: ما الثمن؟'


def moment(state: str | None = "open", question: dict[str, str] | None = None):  # type: ignore[no-untyped-def]
    poll = None if state is None else {"id": 1, "open": state == "open", "answers": 0, "state": state}
    record = public_moment(Session(Rules(players=3), seed=1), poll=poll, question=question)
    return read_public_moment(record)


def text(value: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", " ", value))


def test_issue25_the_teachers_question_is_shown_escaped_in_its_own_direction_and_announced():
    value = poll_html(moment(question={"bank": "", "words": TYPED}), T)
    assert value.startswith('<div role="status" aria-live="polite">')
    assert escape(TYPED) in value
    assert "<script" not in value and "<img" not in value  # typed text, never markup
    assert 'dir="auto"' in value and "مريم" in value  # a right-to-left question reads right to left
    assert T("class.member.poll_question") not in text(value)  # the teacher's question, not the generic one


@pytest.mark.parametrize("state", ["locked", "revealed"])
def test_issue25_once_locked_the_state_is_said_and_the_question_stays_beneath(state):
    value = poll_html(moment(state, {"bank": "", "words": TYPED}), T)
    said = T("class.member.poll_revealed" if state == "revealed" else "class.member.poll_locked")
    assert text(value).index(said) < text(value).index("مريم")


@pytest.mark.parametrize("lang", ["en", "it", "pt", "de"])
def test_issue25_a_bank_question_is_worded_in_the_pages_language(lang):
    t = translator(lang)
    m = moment(question={"bank": "dozen", "words": ""})
    assert asked_words(m, t) == t("bank.dozen.question")
    assert escape(t("bank.dozen.question")) in poll_html(m, t)


def test_issue25_at_the_session_deal_or_for_an_unknown_bank_id_the_generic_question_is_asked():
    for m in (moment(), moment(question={"bank": "not_in_this_bank", "words": ""})):
        assert text(poll_html(m, T)).strip() == T("class.member.poll_question")
    assert poll_html(moment(None), T) == ""


def test_issue25_the_longest_question_is_shown_whole():
    words = "x" * MAX_QUESTION
    assert words in poll_html(moment(question={"bank": "", "words": words}), T)
