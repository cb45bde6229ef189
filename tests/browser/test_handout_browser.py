"""The handout of a moment printed by the browser (issue 25): Chromium's own PDF of the page.

The handout's HTML is opened in headless Chromium and printed with ``page.pdf()``, as "Print to
PDF" does: the PDF is not empty, has the worked answer on a page of its own, and its text (read
by ``pdftotext``, poppler's, when the machine has it) holds the question and the exact answer.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from typing import Any

import pytest

from speculation_nb import odds
from speculation_nb.engine import bank
from speculation_nb.languages.translator import translator
from speculation_nb.links.handout import handout_html

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_handout_prints_to_a_pdf_with_the_question_and_the_exact_answer(
    browser: Any, tmp_path: Any, lang: str
) -> None:
    t = translator(lang)
    q = bank.question("dozen")
    game = bank.load("dozen", seed=5)
    question = t(q.key)
    page_html = handout_html(game, t, question=question, asker=q.asker)
    context = browser.new_context()
    try:
        page = context.new_page()
        page.set_content(page_html, wait_until="load")
        assert page.locator(".spec-handout-print").is_visible()  # on screen; not on paper
        pdf = page.pdf(format="A4", print_background=True)
    finally:
        context.close()
    assert pdf.startswith(b"%PDF") and len(pdf) > 2000
    assert len(re.findall(rb"/Type\s*/Page(?!s)", pdf)) >= 2  # the worked answer on a page of its own
    if shutil.which("pdftotext") is None:
        pytest.skip("pdftotext (poppler-utils) is not installed: the PDF's text is not read")
    path = tmp_path / "handout.pdf"
    path.write_bytes(pdf)
    pages = subprocess.run(
        ["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True
    ).stdout.split("\f")
    flat = [" ".join(p.split()) for p in pages]
    first = next(i for i, p in enumerate(flat) if " ".join(question.split()) in p)
    worked = next(i for i, p in enumerate(flat) if t("class.handout.answer") in p)
    assert worked > first  # the worked answer starts a page of its own
    answer = " ".join(flat[worked:])
    hold, fair = odds.hold_probability(game), odds.fair_price(game)
    assert f"= {hold}" in answer and str(fair) in answer
    assert "C(U − h, n) / C(U, n)" in answer
    assert t("class.handout.answer") not in " ".join(flat[:worked])
