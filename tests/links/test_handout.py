"""The printable handout of a moment (issue 25): the table, the question, then the worked answer."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest

from speculation_nb import odds
from speculation_nb.engine import bank
from speculation_nb.languages.translator import translator
from speculation_nb.links.handout import handout_html, handout_name
from speculation_nb.odds import shown_chips


@pytest.mark.parametrize("lang", ["en", "it", "pt", "de"])
def test_the_handout_asks_the_question_then_works_the_answer_on_its_own_page(lang):
    t = translator(lang)
    q = bank.question("dozen")
    game = bank.load("dozen", seed=3)
    question = t(q.key)
    page = handout_html(game, t, question=question, names=["Lady <b>Bertram</b>", *"BCDEF"], asker=q.asker)
    moment, answer = page.split('<section class="spec-handout-answer">')
    assert question.replace("'", "&#x27;") in moment or question in moment
    assert "Lady &lt;b&gt;Bertram&lt;/b&gt;" in moment and "<b>Bertram" not in page  # names escaped
    hold, fair = odds.hold_probability(game), odds.fair_price(game)
    assert "C(U − h, n) / C(U, n)" in answer
    assert f"= {hold}" in answer and str(fair) in answer and str(Fraction(fair)) not in moment
    spread = odds.break_even(game, q.asker)
    assert str(spread) in answer
    assert re.search(r"\.spec-handout-answer \{ break-before: page; page-break-before: always; \}", page)
    assert f'lang="{lang}"' in page and not re.search(r"\bclass\.handout\.", page)
    assert str(shown_chips(fair)) in answer
    assert handout_name(1, 4) == "speculation-handout-deal-1-step-4.html"
