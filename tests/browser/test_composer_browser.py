""" "Set up a moment" in a real browser, by keyboard alone (issue 25), on a real Voila server.

Headless Chromium opens the app, focuses "Set up a moment" and presses Enter; Tab reaches the
bank's select (its first moment is Lady Bertram's "dozen for the queen"), Tab and Enter open it in
the editor, Tab reaches "Open this moment", Enter opens it: the odds panel shows the moment's
chance at once, the same words as the app shows in a kernel for that moment. Then a card typed
twice (the turn-up in a seat's field) is refused in the editor naming the rule (S3), and the field
keeps what was typed. On a phone (390 px wide, touch), the open editor is wider than nothing and
axe-core's WCAG 2.2 AA rules find nothing in it.
"""

from __future__ import annotations

import re

import pytest
from engines import AXE
from voila_server import VoilaServer

from speculation_nb import Rules
from speculation_nb.app.player.screen import SpeculationApp
from speculation_nb.engine import bank

NOTEBOOK = "notebooks/app.ipynb"
READY = "button.spec-next:enabled"
TIMEOUT_MS = 120_000  # safety net for a page on a busy 2-core machine; the waits are for conditions

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server():
    with VoilaServer(NOTEBOOK) as s:
        yield s


def text_of(html: str) -> str:
    return re.sub(r"<[^>]+>", "", html).replace("&nbsp;", " ").strip()


def tab_to(page, selector: str, limit: int = 200) -> None:
    """Press Tab until the focus is inside ``selector``."""
    for _ in range(limit):
        if page.evaluate("(sel) => !!document.activeElement && !!document.activeElement.closest(sel)", selector):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {selector}")


def wait_for_text(page, selector: str, pattern: str) -> None:
    """Wait until the text of ``selector`` matches the regular expression ``pattern``."""
    page.wait_for_function(
        "([sel, re]) => { const el = document.querySelector(sel);"
        " return !!el && new RegExp(re).test(el.textContent.trim()); }",
        arg=[selector, pattern],
        timeout=TIMEOUT_MS,
    )


def expected_chance() -> str:
    """The chance the app shows for the dozen moment, as a kernel draws it."""
    app = SpeculationApp(rules=Rules(players=4), seed=3, mode="classroom", charts="static")
    app.open_moment(bank.question("dozen").to_moment(), seed=1)
    shown = text_of(app.ui.hold_pct.value)
    app.close()
    return shown


def test_the_dozen_for_the_queen_is_composed_by_keyboard_and_shows_its_odds(server, open_page):
    page, watch = open_page(server.url + "?mode=classroom&seed=3")
    page.wait_for_selector(READY, timeout=TIMEOUT_MS)
    opener = page.locator("button.spec-open-compose").first
    opener.focus()
    page.keyboard.press("Enter")
    page.wait_for_selector(".spec-compose-bank select", timeout=TIMEOUT_MS)
    tab_to(page, ".spec-compose-bank")
    assert "queen" in page.locator(".spec-compose-bank select").first.evaluate("s => s.options[s.selectedIndex].text")
    page.keyboard.press("Tab")
    tab_to(page, ".spec-compose-bank-open")
    page.keyboard.press("Enter")
    wait_for_text(page, ".spec-compose-question", "dozen")
    tab_to(page, ".spec-compose-open")
    page.keyboard.press("Enter")
    wait_for_text(page, ".spec-compose-message", ".")
    chance = expected_chance()
    wait_for_text(page, ".spec-hold-pct", "^" + re.escape(chance) + "$")
    names = page.locator(".spec-app").first.inner_text()
    assert "Lady Bertram" in names and "Mary Crawford" in names
    # a card twice: refused in the editor, naming the rule, with what was typed kept
    field = page.locator(".spec-compose-up input").nth(1)
    field.focus()
    page.keyboard.type("QH")
    page.keyboard.press("Tab")  # the field sends its value when it loses the focus
    tab_to(page, ".spec-compose-open")
    page.keyboard.press("Enter")
    wait_for_text(page, ".spec-compose-message", "S3")
    assert field.input_value() == "QH"
    assert page.locator(".spec-hold-pct").first.inner_text().strip() == chance  # the moment shown stays
    watch.assert_clean()


def test_on_a_phone_the_editor_fits_and_passes_axe(server, browser):
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    try:
        page = context.new_page()
        page.goto(server.url + "?mode=classroom&seed=3", wait_until="commit")
        page.locator(READY).first.wait_for(state="visible", timeout=TIMEOUT_MS)
        page.locator("button.spec-open-compose").first.tap()
        page.wait_for_selector(".spec-compose-open", timeout=TIMEOUT_MS)
        page.locator(".spec-compose-bank-open").first.tap()
        wait_for_text(page, ".spec-compose-question", "dozen")
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
        page.add_script_tag(path=str(AXE))
        found = page.evaluate(
            "tags => axe.run('.spec-compose', {runOnly: {type: 'tag', values: tags}})"
            ".then(r => r.violations.map(v => v.id + ': ' + v.nodes.slice(0, 3).map(n => n.target.join(' '))))",
            ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"],
        )
        assert found == []
    finally:
        context.close()
