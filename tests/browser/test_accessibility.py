"""WCAG 2.2 AA in every state a lesson passes through, at a phone's, a laptop's and a
projector's size (issue 23), audited by axe-core (npm's, injected: no outside request).

One Voila server for the module, one Chromium page per size, walking the states in a lesson's
order: the start, mid-deal (one Next card), the auction open with a bid placed by Enter in the
Chips field, the settings open, a simulation run, the share panel open, the teacher's table
panel open (before a table is opened), a student's page at a table, and the teacher's panel with
the table open, a student in it and a poll asked, then revealed. In each state axe-core's WCAG rules (2.0, 2.1,
2.2, levels A and AA) find nothing, and after every action the focus is still on a control
(never dropped to the page). Screenshots: ``tests/artifacts/a11y-<w>x<h>-<state>.png``.
"""

from __future__ import annotations

import contextlib
import json
from typing import Any

import pytest
from engines import AXE
from voila_server import REPO, VoilaServer

from speculation_nb import Rules, Session
from speculation_nb.classroom.stores.base import STORE_SETTING

APP = "notebooks/app.ipynb"
ARTIFACTS = REPO / "tests" / "artifacts"
SIZES = [(390, 844), (1280, 800), (1920, 1080)]
PHONE = 760
TIMEOUT_MS = 120_000
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
_AXE_JS = (
    "tags => axe.run(document, {runOnly: {type: 'tag', values: tags}})"
    ".then(r => r.violations.map(v => v.id + ' (' + v.help + '): '"
    " + v.nodes.slice(0, 4).map(n => n.target.join(' ')).join(', ')))"
)
#: The focus is on a control of the page (not the page itself) and that control is shown.
_FOCUS_ON_A_CONTROL = (
    "() => { const a = document.activeElement; return !!a && a !== document.body"
    " && !!(a.offsetWidth || a.offsetHeight || a.getClientRects().length); }"
)

pytestmark = pytest.mark.browser


def seed_with_an_auction_at_once() -> int:
    """A seed whose first deal (the app's 5 players) lets its holder offer at once (A1)."""
    for seed in range(1, 500):
        session = Session(Rules(players=5), None, 10, seed)
        game = session.game
        if not game.over and game.can_open_auction():
            return seed
    raise AssertionError("no such seed below 500")


@pytest.fixture(scope="module")
def server(tmp_path_factory: Any):
    store = f"sqlite:///{tmp_path_factory.mktemp('tables')}/tables.sqlite3"
    with VoilaServer(APP, env={"SPECULATION_PACE": "instant", STORE_SETTING: store}) as running:
        yield running


#: True when every shown select, text field and button has a name a screen reader would read.
_FIELDS_NAMED = """() => [...document.querySelectorAll('select, input, textarea, button')]
  .filter((el) => el.offsetParent !== null && el.type !== 'hidden')
  .every((el) => (el.labels && el.labels.length) || el.getAttribute('aria-label')
    || el.getAttribute('aria-labelledby') || el.getAttribute('title')
    || (el.tagName === 'BUTTON' && el.textContent.trim()))"""


class Walk:
    """One page walking the states, collecting what axe finds in each."""

    def __init__(self, page: Any, size: tuple[int, int]) -> None:
        self.page = page
        self.size = size
        self.found: dict[str, list[str]] = {}
        self.focus_lost: list[str] = []

    def audit(self, state: str, page: Any = None) -> None:
        page = page or self.page
        # The keys helper names controls after the kernel draws them (assets/keys.js): wait until
        # every shown field has a name, then audit (a field still nameless after that is axe's find).
        with contextlib.suppress(Exception):
            page.wait_for_function(_FIELDS_NAMED, timeout=10_000)
        if not page.evaluate("() => typeof axe !== 'undefined'"):
            page.add_script_tag(path=str(AXE))
        violations = page.evaluate(_AXE_JS, TAGS)
        if violations:
            self.found[state] = violations
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"a11y-{self.size[0]}x{self.size[1]}-{state}.png"))

    def press(self, selector: str, then: str, what: str) -> None:
        """Focus and press the control (Enter, as a keyboard user does), wait for ``then``, and
        check that the focus is still on a control."""
        control = self.page.locator(selector).first
        control.wait_for(state="visible", timeout=TIMEOUT_MS)
        control.focus()
        control.press("Enter")
        self.page.wait_for_function(then, timeout=TIMEOUT_MS)
        self.keeps_focus(what)

    def keeps_focus(self, what: str) -> None:
        """The focus is on a control again within 5 s (the helper may wait a moment for the
        kernel to draw the area that replaced the pressed control)."""
        try:
            self.page.wait_for_function(_FOCUS_ON_A_CONTROL, timeout=5_000)
        except Exception:
            self.focus_lost.append(what)


def shown(selector: str) -> str:
    return (
        f"() => {{ const e = document.querySelector({json.dumps(selector)});"
        " return !!e && !!(e.offsetWidth || e.offsetHeight); }"
    )


@pytest.mark.parametrize(("width", "height"), SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_wcag_22_aa_in_every_state_of_a_lesson(server: Any, browser: Any, width: int, height: int) -> None:
    touch = width < PHONE
    context = browser.new_context(
        viewport={"width": width, "height": height}, has_touch=touch, is_mobile=touch, device_scale_factor=1
    )
    try:
        page = context.new_page()
        page.goto(f"{server.url}?mode=classroom&seed={seed_with_an_auction_at_once()}", wait_until="commit")
        page.locator("button.spec-next:enabled").first.wait_for(state="visible", timeout=TIMEOUT_MS)
        walk = Walk(page, (width, height))
        walk.audit("start")

        walk.press("button.spec-open-auction:enabled", shown(".spec-bid-amount input"), "Offer")
        amount = page.locator(".spec-bid-amount input").first
        amount.fill("2")
        amount.press("Enter")  # Enter in the Chips field places the bid
        page.wait_for_function("() => !!document.querySelector('.spec-best-offer')", timeout=30_000)
        walk.keeps_focus("Enter in Chips")
        walk.audit("auction")
        walk.press("button.spec-decline:enabled", shown("button.spec-next:enabled"), "Decline")
        walk.press(
            "button.spec-next:enabled",
            "() => document.querySelectorAll('.spec-log li').length > 0",
            "Next card",
        )
        walk.audit("mid-deal")

        walk.press(".spec-settings .jupyter-widget-Collapse-header", shown(".spec-settings-grid"), "Settings")
        walk.audit("settings")
        walk.press(".spec-settings .jupyter-widget-Collapse-header", "() => true", "Settings closed")

        walk.press("button.spec-open-simulation", shown("button.spec-sim-run:enabled"), "Simulation")
        walk.press("button.spec-sim-run:enabled", shown(".spec-sim-result"), "Run")
        page.wait_for_function(shown("button.spec-sim-run:enabled"), timeout=TIMEOUT_MS)
        walk.audit("simulation")

        walk.press("button.spec-open-share", shown(".spec-share-link-box"), "Share")
        walk.audit("share")

        walk.press("button.spec-open-table", shown("button.spec-host-open"), "Table")
        walk.audit("host")
        walk.press(
            "button.spec-host-open",
            "() => /[2-9A-Z]{5}-[2-9A-Z]{5}/.test(document.querySelector('.spec-host-code')?.innerText || '')",
            "Open the table",
        )
        link = page.locator("input.spec-host-address").first.input_value()
        student = context.new_page()
        student.goto(link if link.startswith("http") else f"{server.url}?{link.split('?')[-1]}", wait_until="commit")
        student.locator(".spec-member-join").first.wait_for(state="visible", timeout=TIMEOUT_MS)
        walk.audit("student", student)

        # The teacher's panel with the table open, a student in it and a poll asked (issue 23): the
        # placing row's two selects and button, Ask, Time is up, Reveal and Show names.
        student.locator(".spec-member-name input").first.fill("Fanny")
        student.locator("button.spec-member-join").first.click()
        page.bring_to_front()
        page.wait_for_function(shown("button.spec-host-place"), timeout=TIMEOUT_MS)
        walk.press("button.spec-host-ask:enabled", shown("button.spec-host-close-poll"), "Ask")
        walk.audit("host-table")
        walk.press("button.spec-host-close-poll", shown("button.spec-host-reveal-poll"), "Time is up")
        walk.press("button.spec-host-reveal-poll", shown(".spec-host-show-names input"), "Reveal")
        names = page.locator(".spec-host-show-names input").first
        names.focus()
        page.keyboard.press("Space")
        page.wait_for_function("() => document.querySelector('.spec-host-show-names input').checked", timeout=30_000)
        walk.audit("host-poll-revealed")

        assert walk.found == {}, "axe-core found:\n" + "\n".join(
            f"{state}: {v}" for state, found in walk.found.items() for v in found
        )
        assert walk.focus_lost == [], f"the focus dropped to the page after: {walk.focus_lost}"
    finally:
        context.close()
