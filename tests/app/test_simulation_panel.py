"""The simulate control (widgets/simulation_panel.py) and the share panel, without a browser.

The simulated frequencies (O1, O2) must land within 4 standard errors of the exact
numbers for a seed, the same seed must give the same endings, a run must stop when
asked and never keep the app from answering, and bad run sizes or seeds are
refused in words. The share panel's link, files and refusals are checked here too;
tests/browser/test_share_browser.py opens the link in a real browser.
"""

from __future__ import annotations

import asyncio
import json
from datetime import datetime, timezone
from fractions import Fraction
from urllib.parse import parse_qsl, unquote

import pytest
from loops import run_loop

from speculation_nb import Game, Rules, Session, odds, simulate
from speculation_nb.app.model import Controller
from speculation_nb.app.player.share_panel import SharePanel, open_from_query
from speculation_nb.app.player.simulation_panel import MAX_RUNS, SimulationPanel, batches, parse_runs
from speculation_nb.languages.translator import translator


def controller(**kwargs) -> Controller:
    options = dict(rules=Rules(players=5), seed=3, mode="classroom")
    options.update(kwargs)
    return Controller(**options)


def run_to_end(panel: SimulationPanel) -> None:
    """Start a run inside an event loop (as ipykernel and Pyodide have one) and wait for it."""

    async def main() -> None:
        task = panel.run()
        assert task is not None
        await task

    run_loop(main)


def test_batches_cover_the_run_and_grow():
    assert list(batches(100)) == [100]
    assert sum(batches(MAX_RUNS)) == MAX_RUNS
    sizes = list(batches(50_000))
    assert sizes[:4] == [100, 200, 400, 800] and max(sizes) == simulate.CHUNK


@pytest.mark.parametrize("seed", [1, 7])
def test_O1_O2_the_simulated_frequencies_meet_the_exact_numbers(seed):
    c = controller()
    for _ in range(4):
        c.next_card()
    panel = SimulationPanel(c, pause=0)
    panel.ui.runs.value = "20,000"
    panel.ui.seed.value = str(seed)
    run_to_end(panel)
    r = panel.result
    assert r is not None and r.runs == 20_000 and not r.stopped and r.seed == seed
    game = c.shown
    exact_hold = odds.hold_probability(game)
    assert abs(r.hold - float(exact_hold)) < 4 * r.hold_se
    for seat, p in odds.win_probabilities(game).items():
        assert abs(r.win[seat] - float(p)) < 4 * r.win_se[seat] + 1e-12, seat
    # the running estimate ends at the estimate, and the table shows every seat and the exact value
    assert r.curve[-1][0] == 20_000 and r.curve[-1][1] == r.hold
    html = panel.ui.result.value
    assert 'data-row="hold"' in html and all(f'data-row="seat-{s}"' in html for s in range(5))
    assert translator("en").percent(Fraction(exact_hold)) in html
    assert "<svg" in panel.ui.chart.value and "polyline" in panel.ui.chart.value


def test_the_same_seed_plays_the_same_endings():
    c = controller()
    c.next_card()
    results = []
    for _ in range(2):
        panel = SimulationPanel(c, pause=0)
        panel.ui.runs.value = "3000"
        panel.ui.seed.value = "99"
        run_to_end(panel)
        results.append(panel.result)
        panel.close()
    assert results[0] == results[1]


def test_a_blank_seed_draws_one_and_says_it():
    c = controller()
    panel = SimulationPanel(c, pause=0)
    panel.ui.runs.value = "100"
    run_to_end(panel)
    assert panel.result is not None and str(panel.result.seed) in panel.ui.status.value


def test_the_run_stops_when_asked_and_the_app_answers_meanwhile():
    c = controller()
    panel = SimulationPanel(c, pause=0.01)
    panel.ui.runs.value = str(MAX_RUNS)
    panel.ui.seed.value = "5"
    seen: dict[str, object] = {}

    async def main() -> None:
        task = panel.run()
        assert task is not None and panel.ui.run.disabled and not panel.ui.stop.disabled
        while panel.result is None:  # the first batch is in
            await asyncio.sleep(0)
        seen["running"] = panel.running
        panel.ui.stop.click()
        await task

    run_loop(main)
    r = panel.result
    assert seen["running"] and r is not None and r.stopped and 0 < r.runs < MAX_RUNS
    assert not panel.running and not panel.ui.run.disabled and panel.ui.stop.disabled
    assert "Stopped" in panel.ui.status.value


def test_another_moment_cancels_the_run_and_clears_its_numbers():
    c = controller()
    panel = SimulationPanel(c, pause=0.01)
    panel.ui.runs.value = str(MAX_RUNS)
    panel.ui.seed.value = "5"

    async def main() -> None:
        task = panel.run()
        assert task is not None
        while panel.result is None:
            await asyncio.sleep(0)
        c.next_card()  # the app acts while the run goes on: the run was of the moment before
        with pytest.raises(asyncio.CancelledError):
            await task

    run_loop(main)
    assert panel.result is None and not panel.running and panel.ui.result.value == ""
    assert len(c.game.history) == 1


@pytest.mark.parametrize("text", ["", "abc", "99", "100001", "1e5", "-500", "10.5k"])
def test_a_run_size_out_of_range_is_refused_in_words(text):
    c = controller()
    panel = SimulationPanel(c, pause=0)
    panel.ui.runs.value = text
    assert panel.run() is None and panel.result is None
    assert "is not a number of endings" in panel.ui.status.value and "100,000" in panel.ui.status.value


def test_run_sizes_people_type():
    assert parse_runs("1,000") == parse_runs("1000") == parse_runs(" 1 000 ") == 1000
    assert parse_runs("100000") == MAX_RUNS


def test_a_bad_seed_is_refused_in_words():
    panel = SimulationPanel(controller(), pause=0)
    panel.ui.seed.value = "seven"
    assert panel.run() is None
    assert "is not a seed" in panel.ui.status.value


def test_a_finished_deal_has_nothing_to_simulate():
    c = controller()
    c.play_to_end()
    panel = SimulationPanel(c, pause=0)
    assert c.game.over and panel.ui.run.disabled
    assert panel.run() is None and "nothing is left to simulate" in panel.ui.status.value


@pytest.mark.parametrize("lang", ["it", "pt", "de"])
def test_the_panel_speaks_the_language(lang):
    c = controller()
    panel = SimulationPanel(c, pause=0)
    english = (panel.ui.run.description, panel.ui.title.value, panel.ui.status.value)
    c.set_lang(lang)
    assert panel.ui.run.description == translator(lang)("button.sim.run")
    assert (panel.ui.run.description, panel.ui.title.value, panel.ui.status.value) != english
    panel.ui.runs.value = "100"
    panel.ui.seed.value = "1"
    run_to_end(panel)
    assert translator(lang)("label.sim.simulated") in panel.ui.result.value


def test_the_panel_has_its_css_class():
    assert "spec-simulation" in SimulationPanel(controller()).widget._dom_classes


# --------------------------------------------------------------------- the share panel
def test_the_share_panel_shows_the_link_of_the_moment_shown():
    c = controller(rules=Rules(players=4), seed=42)
    panel = SharePanel(c)
    assert "spec-share" in panel.widget._dom_classes
    for _ in range(3):
        c.next_card()
    c.back()
    query = dict(parse_qsl(panel.link.split("?", 1)[1]))
    assert query.pop("check") and panel.link.split("?", 1)[1].startswith("check=")  # first (issue 23)
    assert query == {"mode": "classroom", "players": "4", "seed": "42", "deal": "1", "moves": "r3", "step": "2"}
    html = panel.ui.link.value
    assert 'readonly value="?check=z&amp;mode=classroom&amp;players=4' in html and "spec-share-copy" in html


def test_the_link_reopens_the_moment_in_a_new_app():
    c = controller(rules=Rules(players=4, blind_trading=True), seed=8)
    c.next_card()
    c.next_card()
    if c.game.can_open_auction():
        c.open_auction()
        bidder = next(s for s in range(4) if s != c.game.holder and c.game.bid_range(s))
        c.bid(bidder, c.game.bid_range(bidder)[0])
        c.accept(bidder)
    c.next_card()
    panel = SharePanel(c)
    other = Controller(Rules(players=5), seed=1)
    assert open_from_query(other, panel.link.split("?", 1)[1])
    assert other.session.to_json() == c.session.to_json() and other.mode == "classroom"
    assert other.moment == c.moment and other.shown.to_json() == c.shown.to_json()


def test_a_link_that_stops_replaying_opens_at_the_last_good_move_and_says_why():
    """Issue 23: not a fresh deal, the moment before the refused move, with the rule in words."""
    c = Controller(Rules(players=5), seed=1)
    assert open_from_query(c, "mode=classroom&seed=42&deal=1&moves=r2d")
    assert c.session.seed == 42 and len(c.game.history) == 2 and c.live
    assert c.message_kind == "error"
    assert c.message.startswith("This link stops early: move 3 of deal 1 does not replay. Rule P2")
    assert c.message.endswith("It opens at the last move that replays.")
    c.set_lang("de")
    assert open_from_query(c, "mode=classroom&seed=42&deal=2&moves=r2_r")  # deal 1 is not over: it stops at its end
    assert c.session.deal_number == 1 and len(c.game.history) == 2
    assert c.message.startswith("Dieser Link bricht vorzeitig ab: Runde 1 ist nicht vorbei")


def test_a_link_that_cannot_be_read_leaves_a_line_and_a_fresh_game():
    c = Controller(Rules(players=5), seed=1)
    before = c.session.to_json()
    assert not open_from_query(c, "seed=42&moves=z")
    assert c.session.to_json() == before and c.message_kind == "error"
    assert c.message.startswith("This link cannot be opened: its moves cannot be read")
    c.set_lang("de")
    assert not open_from_query(c, "seed=42&step=3")
    assert "Dieser Link lässt sich nicht öffnen" in c.message


def test_a_link_with_one_character_changed_is_refused_in_words():
    c = controller(rules=Rules(players=4), seed=42)
    for _ in range(3):
        c.next_card()
    query = SharePanel(c).link.split("?", 1)[1]
    other = Controller(Rules(players=5), seed=1)
    before = other.session.to_json()
    changed = query.replace("seed=42", "seed=43")
    assert not open_from_query(other, changed)
    assert other.session.to_json() == before
    assert other.message.startswith("This link cannot be opened: one of its characters was changed")
    assert open_from_query(other, query) and other.session.seed == 42


def test_save_and_open_a_session_round_trip():
    c = controller(seed=9)
    for _ in range(5):
        c.next_card()
    panel = SharePanel(c)
    text = panel.save("session")
    html = panel.ui.download.value
    assert 'download="speculation-session-9-deal-1.json"' in html and 'href="data:application/json' in html
    url = html.split('href="', 1)[1].split('"', 1)[0]
    assert json.loads(unquote(url.split(",", 1)[1])) == json.loads(text)
    c.next_card()  # the file no longer holds what is shown: its link goes
    assert panel.ui.download.value == ""
    other = Controller(Rules(players=3), seed=2, mode="classroom")
    opened = SharePanel(other)
    opened.ui.open.value = (
        {
            "name": "s.json",
            "type": "application/json",
            "size": len(text),
            "content": memoryview(text.encode()),
            "last_modified": datetime.now(timezone.utc),
        },
    )
    assert other.session.to_json() == Session.from_json(text).to_json()
    assert "The saved session is open" in opened.ui.message.value


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (b"\x89PNG\r\n", "it is not a text file"),
        (b"<html></html>", "not JSON"),
        (b'{"format": "speculation_nb.session", "version": 2}', "version 2"),
        (b'{"format": "speculation_nb.session", "version": 1, "games": []}', "it is damaged"),
    ],
)
def test_hostile_files_are_refused_and_nothing_changes(data, words):
    c = controller(seed=4)
    c.next_card()
    before = c.session.to_json()
    panel = SharePanel(c)
    assert not panel.load(data)
    assert c.session.to_json() == before
    assert "This file cannot be opened" in panel.ui.message.value and words in panel.ui.message.value
    assert "spec-share-error" in panel.ui.message._dom_classes


def test_a_saved_deal_alone_opens_as_a_session_of_that_deal():
    c = controller(seed=4)
    panel = SharePanel(c)
    game = Game.deal(Rules(players=5), seed=3)
    for _ in range(4):
        game.reveal()
    assert panel.load(game.to_json())
    assert c.game.to_json() == game.to_json() and c.session.deals == 1
    assert "4 actions" in panel.ui.message.value
    # its session saves and opens again, the one deal unchanged (G3: it has no next deal)
    again = Session.from_json(c.session.to_json())
    assert again.game.to_json() == game.to_json() and again.from_one_game


def test_G3_a_session_of_one_given_deal_has_no_next_deal():
    game = Game.deal(Rules(players=3), seed=11)
    session = Session.from_game(game, ["A", "B", "C"])
    while not session.game.over:
        session.game.reveal() if session.game.auction is None else session.game.decline()
    assert session.next_deal() is None and session.ended == "deals"
    assert Session.from_json(session.to_json()).ended == "deals"


def test_a_session_of_one_given_deal_refuses_a_second_deal_in_its_file():
    game = Game.deal(Rules(players=3), seed=11)
    data = json.loads(Session.from_game(game).to_json())
    data["games"].append(data["games"][0])
    with pytest.raises(ValueError, match="exactly one deal"):
        Session.from_json(json.dumps(data))
