"""Share a moment in a real browser: the link of a moment reopens exactly it, on a real Voila server.

The app's own notebook (``notebooks/app.ipynb``, as served) opens the moment its
address names; the sharing and simulation panels are opened from their buttons
(``spec-open-share``, ``spec-open-simulation``), as a person does. Headless Chromium plays a few
moves with an auction and a sale, steps back, copies the link with the Copy
button, and opens it in a fresh browser context: the same table, numbers,
moment and link. A link that stops replaying opens at its last good move and says why;
a link with one character changed is refused in words. The
session's file is downloaded and opened in another page through the file upload,
and a file that is not a save is refused there at once. That page (a phone, 360 px wide)
has played a card, so the file does not replace its session at once: the panel asks,
the focus on "Keep my session"; Enter keeps everything, and Shift+Tab, Enter on
"Replace" opens the file. The simulate control runs in
the page's kernel and shows its chart.
"""

from __future__ import annotations

from urllib.parse import parse_qsl

import pytest
from voila_server import VoilaServer

NOTEBOOK = "notebooks/app.ipynb"
READY = "button.spec-next:enabled"
LINK = "input.spec-share-link"
TIMEOUT_MS = 120_000  # safety net for a page on a busy 2-core machine; the waits are for conditions

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server():
    with VoilaServer(NOTEBOOK, env={"SPECULATION_CULL_IDLE_TIMEOUT": "30", "SPECULATION_CULL_INTERVAL": "2"}) as s:
        yield s


def open_panel(page, name: str) -> None:
    """Open the panel ``name`` ("share" or "simulation") with its button, unless it is open."""
    button = page.locator(f"button.spec-open-{name}").first
    button.wait_for(timeout=TIMEOUT_MS)
    if not button.inner_text().startswith("▾"):
        button.click()


def link_value(page) -> str:
    return page.locator(LINK).first.input_value()


def open_sharing(open_page, url: str, **size: int):
    """A page of the app at ``url`` (a fresh browser context, ``width``/``height`` if given), once
    it plays, with its sharing panel open and the moment's link shown; and its PageWatch."""
    page, watch = open_page(url, **size)
    page.wait_for_selector(READY, timeout=TIMEOUT_MS)
    open_panel(page, "share")
    page.wait_for_selector(LINK, timeout=TIMEOUT_MS)
    return page, watch


def wait_for_link(page, link: str) -> None:
    """Wait until the page's link of the moment is ``link``."""
    page.wait_for_function(
        "([sel, link]) => { const el = document.querySelector(sel); return el && el.value === link; }",
        arg=[LINK, link],
        timeout=TIMEOUT_MS,
    )


def act(page, selector: str) -> None:
    """Click ``selector`` and wait until the moment's link changes (the kernel answered)."""
    before = link_value(page)
    page.locator(selector).first.click()
    page.wait_for_function(
        "([sel, before]) => { const el = document.querySelector(sel); return el && el.value !== before; }",
        arg=[LINK, before],
        timeout=TIMEOUT_MS,
    )


def upload(page, path) -> None:
    """Choose ``path`` in the file upload, as a person does through the file dialog."""
    with page.expect_file_chooser() as chooser:
        page.locator(".spec-share-open").first.click()
    chooser.value.set_files(str(path))


def shown(page) -> dict[str, str]:
    """What a person sees of the moment: the table, the odds, the step, the link."""
    return {
        sel: page.locator(sel).first.inner_text()
        for sel in (".spec-table-view", ".spec-hold-pct", ".spec-timeline-label", ".spec-deal-info")
    } | {"link": link_value(page)}


def test_the_link_of_a_moment_reopens_it_in_another_browser(server, browser, open_page) -> None:
    page, watch = open_sharing(open_page, server.url + "?mode=classroom&seed=42&players=4")
    act(page, READY)
    act(page, READY)
    act(page, "button.spec-open-auction")
    act(page, "button.spec-bid")  # a person's bid: it does not follow from the seed
    act(page, "button.spec-accept")  # and a sale
    act(page, READY)
    act(page, "button.spec-back")  # a moment in the past
    link = link_value(page)
    query = dict(parse_qsl(link.split("?", 1)[1]))
    assert link.startswith(server.url + "?")
    assert query["moves"].startswith("r2ob") and "a" in query["moves"] and query["step"] == "5", query
    before = shown(page)

    # The Copy button: the clipboard where the page may use it (granted here), and a word of it.
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.locator("button.spec-share-copy").first.click()
    page.wait_for_function("() => document.querySelector('.spec-share-copied').textContent !== ''")
    assert page.locator(".spec-share-copied").first.inner_text() == "Copied."
    assert page.evaluate("navigator.clipboard.readText()") == link

    # A fresh browser context (another person) opens the link: the same moment.
    other, other_watch = open_page(link)
    other.wait_for_selector(LINK, timeout=TIMEOUT_MS)
    wait_for_link(other, link)
    assert shown(other) == before
    assert other.locator("button.spec-next").first.is_disabled()  # in the past: the live controls wait
    act(other, "button.spec-now")
    assert dict(parse_qsl(link_value(other).split("?", 1)[1]))["moves"] == query["moves"]
    watch.assert_clean()
    other_watch.assert_clean()


def test_the_link_opens_in_a_preheated_kernel_too(server, open_page) -> None:
    """With a pool (SPECULATION_POOL_SIZE), the kernel has started before its page is asked
    for; the page's address reaches it over Voila's query socket (widgets/page_address.py)."""
    page, _ = open_sharing(open_page, server.url + "?mode=classroom&seed=5&players=3")
    act(page, READY)
    act(page, READY)
    link = link_value(page)
    before = shown(page)
    with VoilaServer(NOTEBOOK, pool_size=2, env={"SPECULATION_POOL_FILL_DELAY": "1"}) as pooled:
        assert "--preheat_kernel=True" in pooled.command and "--pool_size=2" in pooled.command
        other, watch = open_page(pooled.url + "?" + link.split("?", 1)[1])
        other.wait_for_selector(LINK, timeout=TIMEOUT_MS)
        other.wait_for_function(
            "([sel, q]) => { const el = document.querySelector(sel); return el && el.value.endsWith(q); }",
            arg=[LINK, "?" + link.split("?", 1)[1]],
            timeout=TIMEOUT_MS,
        )
        after = shown(other)
        assert link_value(other) == pooled.url + "?" + link.split("?", 1)[1]  # the pooled page's own address
        assert {k: v for k, v in after.items() if k != "link"} == {k: v for k, v in before.items() if k != "link"}
        watch.assert_clean()
        other.close(run_before_unload=True)


def test_a_link_that_stops_replaying_opens_at_the_last_good_move_and_says_why(server, open_page) -> None:
    """Issue 23: the moment before the refused move (two cards turned up), the rule in words."""
    page, watch = open_page(server.url + "?mode=classroom&seed=42&deal=1&moves=r2d")
    page.wait_for_selector(".spec-message-error", timeout=TIMEOUT_MS)
    text = page.locator(".spec-message").first.inner_text()
    assert text.startswith("This link stops early: move 3 of deal 1 does not replay. Rule P2"), text
    page.wait_for_selector(READY, timeout=TIMEOUT_MS)  # and the app plays on from there:
    page.wait_for_selector("button.spec-back:enabled", timeout=TIMEOUT_MS)  # two cards already turned up
    watch.assert_clean()


def test_a_link_with_one_character_changed_is_refused(server, open_page) -> None:
    page, watch = open_page(server.url + "?check=K&players=4&seed=43&deal=1&moves=r3")  # written with seed=42
    page.wait_for_selector(".spec-message-error", timeout=TIMEOUT_MS)
    text = page.locator(".spec-message").first.inner_text()
    assert text.startswith("This link cannot be opened: one of its characters was changed"), text
    page.wait_for_selector(READY, timeout=TIMEOUT_MS)
    watch.assert_clean()


def test_a_saved_session_downloads_and_opens_in_another_page(server, open_page, tmp_path) -> None:
    page, watch = open_sharing(open_page, server.url + "?mode=classroom&seed=7")
    for _ in range(3):
        act(page, READY)
    link = link_value(page)
    page.locator("button.spec-share-save-session").first.click()
    page.wait_for_selector("a.spec-share-file", timeout=TIMEOUT_MS)
    with page.expect_download() as info:
        page.locator("a.spec-share-file").first.click()
    download = info.value
    assert download.suggested_filename.startswith("speculation-session-7-deal-1")
    saved = tmp_path / download.suggested_filename
    download.save_as(saved)

    other, other_watch = open_sharing(open_page, server.url + "?mode=classroom&seed=1", width=360, height=780)
    act(other, READY)  # this page's session has an action in it now: a file asks before replacing it
    # A file that is not a save is refused, and the game shown stays.
    bad = tmp_path / "notes.json"
    bad.write_text("these are my notes, not a game")
    before = link_value(other)
    upload(other, bad)
    other.wait_for_selector(".spec-share-error", timeout=TIMEOUT_MS)
    assert (
        "This file cannot be opened: it is not a saved file of this app"
        in other.locator(".spec-share-message").first.inner_text()
    )
    assert link_value(other) == before
    assert not other.locator(".spec-share-ask").first.is_visible()  # a bad file is never asked about
    # A good file asks first, in words, with the focus on the answer that keeps; Enter keeps.
    upload(other, saved)
    question = other.locator(".spec-share-ask").first
    question.wait_for(state="visible", timeout=TIMEOUT_MS)
    words = other.locator(".spec-share-ask-text").first.inner_text()
    assert "You would lose deal 1, with 1 action taken" in words and "seed 7" in words
    box = question.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 360  # fits a 360 px screen
    other.wait_for_function(
        "() => document.activeElement && document.activeElement.classList.contains('spec-share-ask-no')",
        timeout=TIMEOUT_MS,
    )
    other.keyboard.press("Enter")
    other.wait_for_function(
        "() => document.querySelector('.spec-share-message').textContent.includes('your session is unchanged')",
        timeout=TIMEOUT_MS,
    )
    assert link_value(other) == before and not question.is_visible()
    # Asked again: Shift+Tab reaches "Replace", Enter opens the saved session where it was.
    upload(other, saved)
    question.wait_for(state="visible", timeout=TIMEOUT_MS)
    other.wait_for_function(
        "() => document.activeElement && document.activeElement.classList.contains('spec-share-ask-no')",
        timeout=TIMEOUT_MS,
    )
    other.keyboard.press("Shift+Tab")
    focused = other.evaluate("() => document.activeElement.className + ' ' + document.activeElement.textContent")
    assert "spec-share-ask-yes" in focused and "Replace" in focused
    other.keyboard.press("Enter")
    wait_for_link(other, link)
    other.wait_for_function(  # the link moves first (the session is replaced), then the panel says so
        "() => document.querySelector('.spec-share-message').textContent.includes('The saved session is open')",
        timeout=TIMEOUT_MS,
    )
    watch.assert_clean()
    other_watch.assert_clean()


def test_the_simulation_runs_in_the_page_and_can_be_stopped(server, open_page) -> None:
    page, watch = open_page(server.url + "?mode=classroom&seed=3")
    page.wait_for_selector(READY, timeout=TIMEOUT_MS)
    open_panel(page, "simulation")
    page.wait_for_selector("button.spec-sim-run:enabled", timeout=TIMEOUT_MS)
    page.locator(".spec-sim-seed input").fill("1")
    page.locator(".spec-sim-seed input").press("Enter")
    page.locator("button.spec-sim-run").click()
    page.wait_for_selector(".spec-sim-chart svg", timeout=TIMEOUT_MS)
    page.wait_for_function(
        "() => document.querySelector('.spec-sim-status').textContent.includes('endings played (seed 1):')",
        timeout=TIMEOUT_MS,
    )
    assert page.locator('.spec-sim-result tr[data-row="hold"]').count() == 1
    # the largest run, stopped: the app answers meanwhile, and the run stops
    page.locator(".spec-sim-runs input").fill("100000")
    page.locator(".spec-sim-runs input").press("Enter")
    page.locator("button.spec-sim-run").click()
    page.wait_for_selector("button.spec-sim-stop:enabled", timeout=TIMEOUT_MS)
    page.locator("button.spec-sim-stop").click()
    page.wait_for_function(
        "() => document.querySelector('.spec-sim-status').textContent.startsWith('Stopped after')"
        " || document.querySelector('.spec-sim-status').textContent.includes('100,000 endings played')",
        timeout=TIMEOUT_MS,
    )
    watch.assert_clean()
