"""The static site's first view painted at once (issue 26), before Python runs in the browser.

The site built once for the session (``tests/support/site_fixtures.py``) and served on loopback,
headless Chromium with every request outside loopback refused and counted (0):

- the plain link in Italian: the app's first view (built at build time from the real app) is on
  the page while no Next card button is live yet, its controls disabled and its message line
  saying that Python is starting, in Italian; then the live app replaces it, and continues the
  very deal that was painted (its seed went to Python with the page's address);
- a link with ``?seed=`` on a phone: a neutral view (the deal's faces hidden), the same words.

How fast the view is painted is measured in ``benchmarks/bench_site.py``, not asserted here.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from site_fixtures import BuiltSite, OutsideCounter, offline_page
from test_site import STEP_TIMEOUT_MS, artifacts, wait_live

from speculation_nb.languages.translator import catalog

PAINTED = "#spec-painted .spec-app"


def painted_state(page: Any) -> dict[str, Any]:
    """What the painted view shows, read in one go (the live app may replace it any moment)."""
    return dict(
        page.evaluate(
            """() => {
              const painted = document.querySelector('#spec-painted');
              const text = sel => (painted.querySelector(sel) || {}).innerText || '';
              return {
                neutral: painted.classList.contains('spec-painted-neutral'),
                live: document.querySelectorAll('button.spec-next:enabled').length,
                next: text('button.spec-next'),
                disabled: painted.querySelectorAll('button:enabled, input:enabled').length,
                note: text('.spec-painted-note'),
                info: text('.spec-deal-info'),
                table: text('.spec-table-view'),
              };
            }"""
        )
    )


def test_the_first_views_are_built_from_the_app_in_four_languages(built_site: BuiltSite) -> None:
    """Three prebuilt deals per language, each the app's first view in that language's words with
    its controls disabled; their seeds are in the app's page, for Python; ipywidgets' stylesheet
    is in the site (the painted widgets look as the live ones)."""
    folder = built_site.path / "static" / "first-view"
    app = (built_site.path / "voici" / "render" / "app.html").read_text(encoding="utf-8")
    for lang in ("en", "it", "pt", "de"):
        words = catalog(lang)
        for n in range(3):
            view = (folder / f"{lang}-{n}.html").read_text(encoding="utf-8")
            assert view.startswith('<div class="lm-Widget lm-Panel jupyter-widgets') and "spec-app" in view
            assert words["button.next_card"] in view and words["app.site.loading_python"] in view
            assert "<button" in view and " disabled" in view and "<button class" in view
            assert not re.search(r"<button(?![^>]*\bdisabled\b)[^>]*>", view), "a painted button is live"
    assert '"firstView": {"seeds": [' in app and "static/first-view/widgets.css" in app
    assert ".jupyter-button" in (folder / "widgets.css").read_text(encoding="utf-8")


@pytest.mark.browser
def test_the_first_view_is_painted_before_python_and_the_live_app_continues_its_deal(
    site_browser: Any, site_url: str, outside: OutsideCounter
) -> None:
    italian = catalog("it")
    opened = offline_page(site_browser, site_url.rstrip("/"))
    page = opened.page
    try:
        page.goto(f"{site_url}index.html?lang=it", wait_until="commit")
        page.locator(PAINTED).wait_for(state="visible", timeout=STEP_TIMEOUT_MS)
        painted = painted_state(page)
        page.screenshot(path=str(artifacts() / "site-painted-laptop.png"))
        assert painted["live"] == 0, "Python answered before the first view was painted"
        assert not painted["neutral"] and painted["disabled"] == 0
        assert painted["next"].strip() == italian["button.next_card"]
        assert painted["note"].strip() in {italian["app.site.loading_python"], italian["app.site.loading_app"]}
        assert "Traceback" not in painted["table"] and painted["info"]
        wait_live(page)
        assert page.locator(".spec-deal-info").first.inner_text() == painted["info"]  # the painted deal's seed
        assert page.locator(".spec-table-view").first.inner_text() == painted["table"]  # and its cards
        page.screenshot(path=str(artifacts() / "site-live-laptop.png"))
    finally:
        opened.close()
    assert opened.aborted == [] and outside.from_pages == [], (opened.aborted, outside.from_pages)
    opened.watch.assert_clean()


@pytest.mark.browser
def test_a_link_with_its_own_seed_is_painted_neutral_on_a_phone(
    site_browser: Any, site_url: str, outside: OutsideCounter
) -> None:
    """``?seed=42&lang=de`` cannot be built in advance: the frame, face-down piles and the German
    words are painted, with the deal's faces hidden; Python is not needed for that."""
    german = catalog("de")
    opened = offline_page(site_browser, site_url.rstrip("/"), 390, 844)
    page = opened.page
    try:
        page.goto(f"{site_url}index.html?seed=42&lang=de", wait_until="commit")
        page.locator(PAINTED).wait_for(state="visible", timeout=STEP_TIMEOUT_MS)
        painted = painted_state(page)
        page.screenshot(path=str(artifacts() / "site-painted-phone.png"))
        assert painted["neutral"] and painted["live"] == 0
        assert painted["next"].strip() == german["button.next_card"]
        hidden = page.locator("#spec-painted .spec-card").first.evaluate("e => getComputedStyle(e).visibility")
        assert hidden == "hidden"  # the prebuilt deal's face-up card is not shown for another deal
        assert page.locator("#spec-painted .spec-back").first.is_visible()  # the face-down piles are
    finally:
        opened.close()
    assert opened.aborted == [] and outside.from_pages == [], (opened.aborted, outside.from_pages)
