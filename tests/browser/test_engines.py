"""The app in the other engines students have: Firefox and WebKit (every iPhone browser), at a
phone's and a laptop's size, served by a real Voila server and from the static site.

One deal each: the app opens, "Next card" turns up a card and the chance changes (the kernel
answered through that engine's websocket and widget rendering; on the site, Python ran in that
engine's Pyodide), with no page error and no request beyond loopback. Screenshots go to
``tests/artifacts/engine-<engine>-<w>x<h>.png`` and ``engine-site-<engine>-<w>x<h>.png``.
Chromium is tested everywhere else (``test_app_browser.py``, ``test_app_screens.py``,
``test_site.py``).

One browser per engine for the module (both tests use it), one Voila server for the module,
and the site built once for the whole run (``site_fixtures.built_site``, shared with
``test_site*.py``).
"""

from __future__ import annotations

import json
import time

import pytest
from engines import ENGINES, EngineMissing, EnginePage
from voila_server import REPO, VoilaServer

APP = "notebooks/app.ipynb"
ARTIFACTS = REPO / "tests" / "artifacts"
QUERY = "?mode=classroom&seed=42"
READY = "button.spec-next"
SIZES = [(390, 844), (1280, 800)]
#: Seconds for the site's app to come alive: Pyodide, the app's wheels and its first cell. A bound,
#: not a measure: on a 2-core machine at a load average of 15 to 17, WebKit took 136 to 190 s,
#: Firefox 27 to 40 s (Chromium, test_site.py, is allowed 300 s).
SITE_LOAD_TIMEOUT = 600
#: The site's live app: the painted first view is gone (site/page.js) and Next card answers.
SITE_LIVE = (
    "!document.getElementById('spec-painted')"
    f" && !!document.querySelector({json.dumps(READY)})"
    f" && !document.querySelector({json.dumps(READY)}).disabled"
)
SITE_STATE = """({
  painted: !!document.getElementById('spec-painted'),
  loading: (document.getElementById('loading_text') || {}).textContent || null,
  times: window.SPECULATION_TIMES || null,
  errors: [...document.querySelectorAll('.jp-OutputArea-output[data-mime-type*="stderr"],'
    + ' .jp-OutputArea-output[data-mime-type*="error"]')].map(e => e.textContent.slice(0, 500)),
})"""

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server():
    with VoilaServer(APP, env={"SPECULATION_PACE": "instant"}) as running:
        yield running


def text_of(selector: str) -> str:
    return f"(document.querySelector({json.dumps(selector)}) || {{}}).textContent || ''"


@pytest.fixture(scope="module", params=sorted(ENGINES))
def page(request):
    """One browser of each engine for the module: the Voila test and the site test share it."""
    try:
        opened = ENGINES[request.param]()
    except EngineMissing as missing:
        pytest.skip(str(missing))
    yield opened
    opened.close()


def turn_a_card(page: EnginePage, width: int, height: int, name: str) -> None:
    """The app on the page is live: check the deal, turn a card, see the chance, no sideways
    scroll; a screenshot ``name-<w>x<h>.png``."""
    assert "42" in page.evaluate(text_of(".spec-deal-info"))
    page.wait_for(f"!document.querySelector({json.dumps(READY)}).disabled", timeout=60)
    before = page.evaluate(text_of(".spec-timeline-label"))
    page.click(READY)
    page.wait_for(f"{text_of('.spec-timeline-label')} !== {json.dumps(before)}", timeout=60)
    assert page.evaluate(text_of(".spec-hold-pct")).strip().endswith("%")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1"), "no sideways scroll"
    page.screenshot(ARTIFACTS / f"{name}-{width}x{height}.png")


def test_a_deal_plays_in_every_engine(server, page):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for width, height in SIZES:
        page.viewport(width, height)
        page.goto(server.url + QUERY)
        page.wait(READY)
        turn_a_card(page, width, height, f"engine-{page.name}")
    # the app's Voila template links nothing from a CDN (issue 23): no request may leave loopback
    assert page.problems() == []


def test_the_static_site_plays_a_deal_in_every_engine(site_url, page):
    """The static site's app, Python in the engine's own Pyodide: opened at a phone's size, it
    comes alive, a card turns and the chance shows; then the same page at a laptop's size turns
    the next card. One load per engine, not one per size: Pyodide starts in about 40 s in Firefox
    and about 190 s in WebKit on a loaded 2-core machine (measured), so a second load would double
    the cost for a layout the Voila test already sees at both sizes. On failure the message says
    how far the page got (its loading line, site/page.js's times, any Python error shown) and the
    engine's console."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (width, height), *others = SIZES
    page.viewport(width, height)
    started = time.monotonic()
    page.goto(f"{site_url}index.html{QUERY}", timeout=SITE_LOAD_TIMEOUT)
    try:
        page.wait_for(SITE_LIVE, timeout=SITE_LOAD_TIMEOUT)
    except AssertionError as error:
        state = page.evaluate(SITE_STATE)
        raise AssertionError(
            f"{page.name} {page.version()}: the site's app was not live after {SITE_LOAD_TIMEOUT} s "
            f"at {width}x{height}; the page: {json.dumps(state)}; console: {page.console()[-30:]}; "
            f"problems: {page.problems()}"
        ) from error
    live = time.monotonic() - started
    turn_a_card(page, width, height, f"engine-site-{page.name}")
    for width, height in others:
        page.viewport(width, height)
        turn_a_card(page, width, height, f"engine-site-{page.name}")
    print(f"\n{page.name} {page.version()}: the site's app live in {live:.0f} s")
    assert page.problems() == []
