"""The app in the other engines students have: Firefox and WebKit (every iPhone browser), at a
phone's and a laptop's size, served by a real Voila server.

One deal each: the app opens, "Next card" turns up a card and the chance changes (the kernel
answered through that engine's websocket and widget rendering), with no page error and no
request beyond loopback. Screenshots go to ``tests/artifacts/engine-<engine>-<w>x<h>.png``.
Chromium is tested everywhere else (``test_app_browser.py``, ``test_app_screens.py``).
"""

from __future__ import annotations

import json

import pytest
from engines import ENGINES, EngineMissing
from voila_server import REPO, VoilaServer

APP = "notebooks/app.ipynb"
ARTIFACTS = REPO / "tests" / "artifacts"
QUERY = "?mode=classroom&seed=42"
READY = "button.spec-next"
SIZES = [(390, 844), (1280, 800)]

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server():
    with VoilaServer(APP, env={"SPECULATION_PACE": "instant"}) as running:
        yield running


def text_of(selector: str) -> str:
    return f"(document.querySelector({json.dumps(selector)}) || {{}}).textContent || ''"


@pytest.fixture(params=sorted(ENGINES))
def page(request):
    try:
        opened = ENGINES[request.param]()
    except EngineMissing as missing:
        pytest.skip(str(missing))
    yield opened
    opened.close()


def test_a_deal_plays_in_every_engine(server, page):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for width, height in SIZES:
        page.viewport(width, height)
        page.goto(server.url + QUERY)
        page.wait(READY)
        page.wait_for(f"!document.querySelector({json.dumps(READY)}).disabled", timeout=60)
        assert "42" in page.evaluate(text_of(".spec-deal-info"))
        before = page.evaluate(text_of(".spec-timeline-label"))
        page.click(READY)
        page.wait_for(f"{text_of('.spec-timeline-label')} !== {json.dumps(before)}", timeout=60)
        assert page.evaluate(text_of(".spec-hold-pct")).strip().endswith("%")
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1"), "no sideways scroll"
        page.screenshot(ARTIFACTS / f"engine-{page.name}-{width}x{height}.png")
    # the app's Voila template links nothing from a CDN (issue 23): no request may leave loopback
    assert page.problems() == []
