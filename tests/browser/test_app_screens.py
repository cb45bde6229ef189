"""The app on every screen and by keyboard alone (issue 11), in a real Voila page.

One Voila server serves the whole module (computer players at the instant pace). Each
screen size opens its own page: no horizontal scroll, "Next card" visible and working,
buttons at least 44 px tall on touch screens, the phone layout in the order of UI.md,
at 1280x800 the table, the controls, the odds panel and both charts above the fold.
Screenshots go to ``tests/artifacts/app-screen-<w>x<h>-*.png`` (look at them).
The keyboard: every control in a sensible order and left again, a 3 px focus ring,
the keys named in the help line, the live region speaking the new chance.
"""

from __future__ import annotations

from typing import Any

import pytest
from browser_fixtures import PageWatch, click_until_changed
from voila_server import REPO, VoilaServer

APP = "notebooks/app.ipynb"
ARTIFACTS = REPO / "tests" / "artifacts"
READY = "button.spec-next:enabled"
#: The app is shown and answers: "Next card", or "New deal" when the deal ended as it was dealt
#: (an Ace turned up, S5), as a deal from no seed can.
SHOWN = "button.spec-next:enabled, button.spec-new-deal:enabled"
PAGE_TIMEOUT_MS = 120_000
QUERY = "?mode=classroom&seed=42"
SCREENS = [(360, 640), (390, 844), (1024, 768), (1280, 800), (1920, 1080)]
PHONE = 760


@pytest.fixture(scope="module")
def server():
    if not (REPO / APP).is_file():
        pytest.skip(f"{APP} does not exist yet")
    with VoilaServer(APP, env={"SPECULATION_PACE": "instant"}) as running:
        yield running


@pytest.fixture
def open_app(open_page):
    def open_(query: str = QUERY, width: int = 1280, height: int = 800, ready: str = READY) -> tuple[Any, PageWatch]:
        touch = width < PHONE
        page, watch = open_page(
            server_url[0] + query, width, height, has_touch=touch, is_mobile=touch, device_scale_factor=1
        )
        page.locator(ready).first.wait_for(state="visible", timeout=PAGE_TIMEOUT_MS)
        page.wait_for_function("() => document.querySelector('.spec-keys .spec-live') !== null", timeout=30_000)
        page.wait_for_timeout(300)
        return page, watch

    return open_


server_url: list[str] = [""]


@pytest.fixture(autouse=True)
def _url(server):
    server_url[0] = server.url


def shoot(page, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    size = page.viewport_size
    page.screenshot(path=str(ARTIFACTS / f"app-screen-{size['width']}x{size['height']}-{name}.png"))


def next_card(page) -> None:
    """Press "Next card" and wait until the log has one line more."""
    before = page.locator(".spec-log li").count()
    page.locator(READY).first.click()
    page.wait_for_function("n => document.querySelectorAll('.spec-log li').length > n", arg=before, timeout=30_000)


_WIDER_JS = """() => {
  const w = document.documentElement.clientWidth;
  const out = [];
  for (const el of document.querySelectorAll('.spec-app *')) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    if (el.closest('.spec-sr-only, .spec-chart-alt, .spec-keys')) continue;
    const name = el.className && el.className.baseVal === undefined ? el.className : el.tagName;
    if (r.right > w + 1 || r.left < -1) out.push(name + ' ' + Math.round(r.left) + '..' + Math.round(r.right));
  }
  return {scroll: document.documentElement.scrollWidth, width: w, wider: out.slice(0, 8)};
}"""


def box(page, selector: str) -> dict:
    return page.locator(selector).first.bounding_box()


def above_the_fold(page, height: int) -> None:
    """The table, the controls, the odds panel and both charts end above the fold."""
    for sel in (".spec-table-view", ".spec-controls", ".spec-odds", ".spec-hold-chart-box", ".spec-win-chart-box"):
        b = box(page, sel)
        assert b["y"] + b["height"] <= height + 1, f"{sel} ends at {b['y'] + b['height']:.0f} px"


@pytest.mark.browser
@pytest.mark.parametrize(("width", "height"), SCREENS, ids=[f"{w}x{h}" for w, h in SCREENS])
def test_every_screen_fits_and_next_card_works(open_app, width, height) -> None:
    page, watch = open_app(QUERY, width, height)
    shoot(page, "start")
    if (width, height) == (1280, 800):
        above_the_fold(page, height)
    found = page.evaluate(_WIDER_JS)
    assert found["scroll"] <= found["width"], f"horizontal scroll at {width}: {found}"
    assert not found["wider"], f"wider than the screen at {width}: {found['wider']}"
    button = box(page, READY)
    assert button and button["y"] + button["height"] <= height, f"Next card below the fold: {button}"
    next_card(page)
    next_card(page)
    found = page.evaluate(_WIDER_JS)
    assert found["scroll"] <= found["width"] and not found["wider"], found
    if width < PHONE:  # touch: every visible button 44 px tall at least
        heights = page.evaluate(
            "() => [...document.querySelectorAll('.spec-app button')].filter(b => b.offsetParent)"
            ".map(b => [b.className, b.getBoundingClientRect().height])"
        )
        short = [h for h in heights if h[1] < 43.5]
        assert not short, short
        # One column in the order of UI.md: headline, controls, seats, odds, charts, log.
        order = [".spec-headline", ".spec-controls", ".spec-table-view", ".spec-odds", ".spec-charts", ".spec-log"]
        tops = [box(page, sel)["y"] for sel in order]
        assert tops == sorted(tops), dict(zip(order, tops))
        assert box(page, ".spec-table-view")["width"] > width * 0.8  # the table is not squeezed to nothing
    if (width, height) == (1280, 800):
        above_the_fold(page, height)
    shoot(page, "two-cards")
    watch.assert_clean()


#: Settings whose parts overlap (a field taller than its row, a label over its help line), or
#: that overflow their box.
_SETTINGS_JS = """() => {
  const out = [];
  for (const field of document.querySelectorAll('.spec-settings-grid .spec-field')) {
    const box = field.getBoundingClientRect();
    const parts = [...field.children].filter(c => c.offsetParent).map(c => c.getBoundingClientRect());
    for (let i = 0; i + 1 < parts.length; i++) {
      if (parts[i].bottom > parts[i + 1].top + 1) out.push('overlap: ' + field.textContent.trim().slice(0, 30));
    }
    for (const el of field.querySelectorAll('input, select, label')) {
      const r = el.getBoundingClientRect();
      if (r.width && (r.right > box.right + 1 || r.bottom > box.bottom + 1)) {
        out.push('outside: ' + el.tagName + ' ' + field.textContent.trim().slice(0, 30));
      }
    }
  }
  return out;
}"""


@pytest.mark.browser
def test_a_small_phone_shows_the_settings_and_the_simulation_whole(open_app) -> None:
    """360 px (issue 23): every setting's label, field and help line in order, none over another
    or out of its box; the simulation's table within the screen; screenshots to look at."""
    page, watch = open_app(QUERY, 360, 740)
    page.locator(".spec-settings .jupyter-widget-Collapse-header").first.click()
    page.locator(".spec-set-v1").first.wait_for(state="visible", timeout=30_000)
    page.wait_for_function("() => document.querySelectorAll('.spec-settings-grid .spec-field').length > 10")
    assert page.evaluate(_SETTINGS_JS) == []
    found = page.evaluate(_WIDER_JS)
    assert found["scroll"] <= found["width"] and not found["wider"], found
    page.locator(".spec-set-v1").first.scroll_into_view_if_needed()
    shoot(page, "settings-variants")
    page.locator(".spec-settings .jupyter-widget-Collapse-header").first.click()
    page.locator("button.spec-open-simulation").first.click()
    page.locator("button.spec-sim-run:enabled").first.click()
    page.locator(".spec-sim-table").first.wait_for(state="visible", timeout=60_000)
    # The table is drawn again as the endings come in: measured once the run is over.
    page.locator("button.spec-sim-run:enabled").first.wait_for(timeout=60_000)
    found = page.evaluate(_WIDER_JS)
    assert found["scroll"] <= found["width"] and not found["wider"], found
    page.locator(".spec-sim-table").first.scroll_into_view_if_needed()
    shoot(page, "simulation")
    watch.assert_clean()


@pytest.mark.browser
def test_phone_auction_by_touch(open_app) -> None:
    page, watch = open_app(QUERY, 390, 844)
    for _ in range(3):
        next_card(page)
    page.locator("button.spec-open-auction").first.tap()
    page.locator(".spec-bid-row").first.wait_for(state="visible", timeout=30_000)
    for name, amount in (("Mary", "10"), ("William", "20")):
        page.locator(".spec-bid-seat select").first.select_option(label=name)
        field = page.locator(".spec-bid-amount input").first
        field.fill(amount)
        page.locator("button.spec-bid").first.tap()
        page.wait_for_function(
            "a => [...document.querySelectorAll('.spec-standing-bid')].some(td => td.textContent === a)",
            arg=amount,
            timeout=30_000,
        )
    accept = page.locator("button.spec-accept").first
    page.wait_for_function(
        "() => (document.querySelector('button.spec-accept') || {}).textContent === 'Sell to William for 20'",
        timeout=30_000,
    )
    found = page.evaluate(_WIDER_JS)
    assert found["scroll"] <= found["width"] and not found["wider"], found
    page.locator(".spec-auction").first.scroll_into_view_if_needed()
    shoot(page, "auction")
    accept.tap()
    page.wait_for_function(
        "() => [...document.querySelectorAll('.spec-log li')].some(li => li.textContent.includes('for 20 chips'))",
        timeout=30_000,
    )
    watch.assert_clean()


FOCUSED_JS = """() => {
  const el = document.activeElement;
  if (!el || el === document.body) return null;
  const owner = el.closest('[class*="spec-"]');
  const cls = owner ? [...owner.classList].filter(c => c.startsWith('spec-') && c !== 'spec-button').join(' ') : '';
  const style = getComputedStyle(el);
  return {tag: el.tagName, cls, inCharts: !!el.closest('.spec-charts'), inApp: !!el.closest('.spec-app'),
          outline: style.outlineWidth, outlineStyle: style.outlineStyle};
}"""


@pytest.mark.browser
def test_the_keyboard_alone(open_app) -> None:
    """Tab reaches every control in order and leaves the charts; the focus ring is 3 px; the
    keys of the help line act; the settings header opens with Enter; the live region speaks."""
    page, watch = open_app(QUERY, 1280, 800)
    help_line = page.locator(".spec-keys-help").first.inner_text()
    assert "N" in help_line and "Next card" in help_line
    page.locator(".spec-title").first.click()  # start from the top of the app
    seen = []
    for _ in range(60):
        page.keyboard.press("Tab")
        f = page.evaluate(FOCUSED_JS)
        if f is None or not f["inApp"]:
            break
        assert not f["inCharts"], f"the focus went into a chart after {seen}"
        assert f["outline"] == "3px" and f["outlineStyle"] != "none", f
        seen.append(f["cls"])
    classes = " | ".join(seen)
    for expected in ("spec-seed", "spec-new-session", "spec-next", "spec-play", "spec-timeline", "spec-settings"):
        assert expected in classes, f"{expected} never focused: {classes}"
    assert classes.index("spec-next") < classes.index("spec-timeline") < classes.index("spec-settings")
    # Shift+Tab goes back the same way.
    page.keyboard.press("Shift+Tab")
    back = page.evaluate(FOCUSED_JS)
    assert back is not None and back["cls"] == seen[-1], (back, seen[-1])
    # The keys: N turns up a card, B looks back, F forward.
    page.locator(".spec-title").first.click()
    before = page.locator(".spec-log li").count()
    page.keyboard.press("n")
    page.wait_for_function("n => document.querySelectorAll('.spec-log li').length > n", arg=before, timeout=30_000)
    live = page.locator(".spec-live").first
    page.wait_for_function("() => /\\d%/.test(document.querySelector('.spec-live').textContent)", timeout=30_000)
    assert "chance that" in live.text_content()
    assert live.get_attribute("aria-live") == "polite"
    page.wait_for_selector("button.spec-back:enabled", timeout=30_000)
    page.keyboard.press("b")
    page.wait_for_function("() => document.querySelector('.spec-message-past') !== null", timeout=30_000)
    page.wait_for_selector("button.spec-forward:enabled", timeout=30_000)
    page.keyboard.press("f")
    page.wait_for_function("() => document.querySelector('.spec-message-past') === null", timeout=30_000)
    # The settings header takes the focus and opens with Enter.
    header = page.locator(".spec-settings .jupyter-widget-Collapse-header").first
    assert header.get_attribute("tabindex") == "0" and header.get_attribute("aria-expanded") == "false"
    header.focus()
    page.keyboard.press("Enter")
    page.locator(".spec-set-players").first.wait_for(state="visible", timeout=30_000)
    page.wait_for_function(
        "() => document.querySelector('.spec-settings .jupyter-widget-Collapse-header')"
        ".getAttribute('aria-expanded') === 'true'",
        timeout=10_000,
    )
    assert page.locator(".spec-help").count() >= 17
    page.locator(".spec-set-players").first.scroll_into_view_if_needed()
    shoot(page, "settings")
    watch.assert_clean()


@pytest.mark.browser
@pytest.mark.parametrize(
    ("query", "refused", "ace"),
    [
        ("?players=%C2%B2&seed=abc", ["players “²” is not a number", "seed “abc” is not a number"], None),
        ("?players=%C2%B2&seed=5", ["players “²” is not a number"], True),  # seed 5 turns up an Ace (S5)
    ],
    ids=["chance-deal", "ace-turned-up"],
)
def test_a_bad_link_opens_the_app_and_says_so(open_app, query, refused, ace) -> None:
    """A refused seed leaves the deal to chance, and one deal in thirteen turns up an Ace and
    ends as dealt (S5): the app then offers "New deal" instead of "Next card". ``ace``: the
    deal is known to turn up an Ace (None: left to chance)."""
    page, watch = open_app(query, 1024, 768, ready=SHOWN)
    message = page.locator(".spec-message").first.inner_text()
    assert all(reason in message for reason in refused), message
    if ace:
        assert page.locator(READY).count() == 0 and page.locator("button.spec-new-deal:enabled").count() == 1
    if page.locator(READY).count():
        next_card(page)
    else:
        click_until_changed(page, "button.spec-new-deal", ".spec-deal-info")
    watch.assert_clean()


#: Records every announcement of the live region (``window.said``) and every computer bid or offer
#: the message line shows (``window.auto``), from now on.
LISTEN_JS = """() => {
  const live = document.querySelector('.spec-live');
  const message = document.querySelector('.spec-message');
  window.said = [];
  window.auto = [];
  new MutationObserver(() => window.said.push(live.textContent.trim()))
    .observe(live, {childList: true, characterData: true, subtree: true});
  new MutationObserver(() => {
    const text = message.textContent.trim();
    if (/ bids \\d+| asks for bids/.test(text) && window.auto.at(-1) !== text) window.auto.push(text);
  }).observe(message, {childList: true, characterData: true, subtree: true, attributes: true});
}"""


def bid_by_enter(page, amount: str) -> None:
    field = page.locator(".spec-bid-amount input").first
    field.fill(amount)
    field.press("Enter")


@pytest.mark.browser
def test_a_refusal_is_announced_once_and_again_when_repeated(open_app) -> None:
    """Issue 23: a refusal ("Rule P2: ...") is spoken by the live region once; a redraw that
    follows (a good bid, which changes no chance) says nothing; the same refusal again is said again."""
    page, watch = open_app(QUERY, 1280, 800)
    page.locator("button.spec-open-auction:enabled").first.click()
    page.locator(".spec-bid-row").first.wait_for(state="visible", timeout=30_000)
    page.evaluate(LISTEN_JS)
    bid_by_enter(page, "9999")
    page.wait_for_selector(".spec-message-error", timeout=30_000)
    refusal = page.locator(".spec-message").first.inner_text().strip()
    assert refusal.startswith("Rule P2"), refusal
    page.wait_for_function("r => window.said.includes(r)", arg=refusal, timeout=30_000)
    bid_by_enter(page, "1")  # a good bid: the message line clears, the chance is the same
    page.wait_for_function(
        "() => [...document.querySelectorAll('.spec-standing-bid')].some(td => td.textContent === '1')",
        timeout=30_000,
    )
    page.wait_for_selector(".spec-message-error", state="detached", timeout=30_000)
    bid_by_enter(page, "9999")
    page.wait_for_function("() => window.said.length >= 2", timeout=30_000)
    said = page.evaluate("() => window.said")
    assert said == [refusal, refusal], said  # once each time, nothing in between
    watch.assert_clean()


@pytest.mark.browser
def test_computer_players_act_one_at_a_time_in_the_page(open_app) -> None:
    """Play mode at the slow pace (``?pace=slow``): after a card, the computers' actions
    arrive one by one, each announced in the message line and once by the live region (issue 23),
    and the page answers meanwhile."""
    page, watch = open_app("?seed=9&pace=slow", 1280, 800)
    page.evaluate(LISTEN_JS)
    message = page.locator(".spec-message").first
    for _ in range(6):  # turn up cards until a computer holder asks for bids
        next_card(page)
        if page.locator("button.spec-next:enabled").count() == 0:
            break
    page.wait_for_function(
        "() => /asks for bids/.test(document.querySelector('.spec-message').textContent)", timeout=60_000
    )
    assert page.locator("button.spec-next").first.is_disabled()  # the person waits for the computers
    page.wait_for_function(
        "() => / bids \\d+/.test(document.querySelector('.spec-message').textContent)", timeout=60_000
    )
    first_bid = message.inner_text()
    assert "spec-message-auto" in (message.get_attribute("class") or "")
    bids_js = (
        "() => [...document.querySelectorAll('.spec-log li')].filter(li => / bids \\d+/.test(li.textContent)).length"
    )
    page.wait_for_function(f"({bids_js})() >= 1", timeout=30_000)
    assert page.evaluate(bids_js) == 1, "the bids arrive one at a time"
    page.locator("button.spec-back").first.click()  # the page answers while the computers act
    page.wait_for_function("() => document.querySelector('.spec-message-past') !== null", timeout=30_000)
    page.locator("button.spec-now").first.click()
    page.wait_for_function(
        "m => document.querySelector('.spec-message').textContent !== m", arg=first_bid, timeout=60_000
    )
    live = page.locator(".spec-live").first.text_content()
    assert "bids" in live or "sells" in live or "chance" in live
    # each computer action shown is spoken, once
    page.wait_for_function(
        "() => window.auto.length >= 2 && window.auto.every(a => window.said.some(s => s.startsWith(a)))",
        timeout=60_000,
    )
    said, auto = page.evaluate("() => [window.said, window.auto]")
    for action in auto:
        assert sum(s.startswith(action) for s in said) == 1, (action, said)
    watch.assert_clean()
