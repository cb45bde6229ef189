"""Issue 11's defects, each as a regression test, driven from Python as a person would.

No browser (tests/browser/test_app_browser.py has the layout and the keyboard): the widgets'
traits are what a browser would show. Rule numbers as in RULES.md.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import html
import itertools
import os
import re
import subprocess
import sys

import ipywidgets as widgets
import pytest
from ipywidgets.widgets.widget import _instances

from speculation_nb import Rules, odds
from speculation_nb.app import SpeculationApp, from_request, query_settings, read_query
from speculation_nb.app import model as controller_module
from speculation_nb.app.common.keys import ESM
from speculation_nb.languages.translator import available_languages, catalog, translator
from speculation_nb.players import pacing

T = translator("en")


def text(value: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", value))


def make(**kwargs) -> SpeculationApp:
    kwargs.setdefault("charts", "static")
    return SpeculationApp(**kwargs)


def class_auction(a: SpeculationApp, bids: dict[str, int]) -> None:
    ui, c = a.ui, a.controller
    ui.open_auction.click()
    for name, amount in bids.items():
        ui.bid_seat.value = c.names.index(name)
        ui.bid_amount.value = amount
        ui.bid.click()
        assert a.last_error is None


# ------------------------------------------------------------ 3. the best offer
def test_p2_the_decision_defaults_to_the_best_offer_and_says_so():
    a = from_request("mode=classroom&seed=42", charts="static")
    ui, c = a.ui, a.controller
    for _ in range(3):
        ui.next.click()
    holder = c.game.holder
    assert c.names[holder] not in ("Mary", "Henry", "William")
    class_auction(a, {"Mary": 10, "Henry": 13, "William": 20})
    william = c.names.index("William")
    assert c.game.best_offer == william
    assert "spec-best-offer" in re.search(rf"<tr[^>]*data-seat='{william}'", ui.auction_table.value).group(0)
    assert ui.accept_seat.value == william
    assert ui.accept.description == "Sell to William for 20"
    before = c.game.stacks
    ui.accept.click()
    assert c.game.holder == william
    assert c.game.stacks[william] == before[william] - 20 and c.game.stacks[holder] == before[holder] + 20
    # A person may still choose another offer; the button says which.
    b = from_request("mode=classroom&seed=42", charts="static")
    for _ in range(3):
        b.ui.next.click()
    class_auction(b, {"Mary": 10, "William": 20})
    b.ui.accept_seat.value = b.controller.names.index("Mary")
    assert b.ui.accept.description == "Sell to Mary for 10"


# ------------------------------------------------------- 4. bids never changed
@pytest.mark.parametrize(
    ("typed", "rule", "words"),
    [
        (500, "P2", "has 56 chips and cannot bid 500"),
        (9, "P2", "already bids 10"),
        (999_999_999, "P2", "cannot bid 999,999,999"),
        (0, "P2", "at least 1 chip"),
    ],
)
def test_p2_a_bid_the_rules_refuse_is_refused_in_words_not_changed(typed, rule, words):
    a = from_request("mode=classroom&seed=42", charts="static")
    for _ in range(3):
        a.ui.next.click()
    class_auction(a, {"Mary": 10})
    mary = a.controller.names.index("Mary")
    a.ui.bid_seat.value = mary
    a.ui.bid_amount.value = typed
    a.ui.bid.click()
    assert a.controller.game.auction == {mary: 10}  # nothing placed
    assert a.ui.message.value.startswith(f"Rule {rule}:") and words in text(a.ui.message.value)
    assert "spec-message-error" in a.ui.message._dom_classes
    assert a.ui.bid_amount.value == typed  # the field keeps what was typed


def test_v4_a_bid_above_the_cap_is_refused_with_the_cap():
    a = make(rules=Rules(players=5, price_cap=12), seed=42, mode="classroom")
    for _ in range(3):
        a.ui.next.click()
    a.ui.open_auction.click()
    seat = next(s for s in range(5) if s != a.controller.game.holder)
    a.ui.bid_seat.value = seat
    assert a.ui.bid_amount.max == 12
    a.ui.bid_amount.value = 20
    a.ui.bid.click()
    assert a.controller.game.auction == {}
    assert a.ui.message.value.startswith("Rule V4:") and "12" in a.ui.message.value


# -------------------------------------------------- 5. the session not thrown away
def test_g1_new_deal_continues_and_a_new_session_is_confirmed():
    a = make(players=4, seed=77, mode="classroom")
    ui, c = a.ui, a.controller
    ui.next.click()
    assert ui.new_deal.layout.display == "none"  # no "New deal" while the deal runs
    ui.new_deal.click()  # a queued click on the hidden button does nothing
    assert c.session.seed == 77 and len(c.game.history) == 1
    ui.new_session.click()  # something has happened: asked first
    assert ui.confirm.layout.display != "none" and c.session.seed == 77 and len(c.game.history) == 1
    ui.confirm_no.click()
    assert ui.confirm.layout.display == "none" and c.session.seed == 77 and len(c.game.history) == 1
    # Enter in the seed field asks the same, and deals that seed once confirmed.
    ui.seed.value = "2025"
    ui.seed._handle_custom_msg({"event": "submit"}, [])
    assert ui.confirm.layout.display != "none" and c.session.seed == 77
    ui.confirm_yes.click()
    assert c.session.seed == 2025 and c.session.deal_number == 1 and ui.confirm.layout.display == "none"
    assert "New session, seed 2025" in ui.message.value
    # A double click on "New deal" after the deal ends plays one next deal, in the same session.
    ui.play.click()
    assert c.game.over
    ui.new_deal.click()
    ui.new_deal.click()
    assert c.session.seed == 2025 and c.session.deal_number == 2 and not c.game.over
    # "Apply" in the settings asks too once something was played.
    ui.next.click()
    ui.set_players.value = 5
    ui.apply.click()
    assert c.rules.players == 4 and ui.confirm.layout.display != "none"
    ui.confirm_yes.click()
    assert c.rules.players == 5


def test_enter_in_the_seed_field_of_a_fresh_app_deals_that_seed_at_once():
    a = make(players=4, mode="classroom")
    a.ui.seed.value = "31"
    a.ui.seed._handle_custom_msg({"event": "submit"}, [])
    assert a.controller.session.seed == 31 and a.ui.confirm.layout.display == "none"


# ------------------------------------------------------------ 6. settings explained
def test_every_setting_is_explained_on_the_page_and_hoyle_shows_what_it_plays():
    a = make(players=5, seed=1)
    ui = a.ui
    ui.settings.selected_index = 0
    helps = [w for w in a.settings.widget.children[0].children[0].children if isinstance(w, widgets.VBox)]
    assert helps == [ui.settings_body]
    fields = [
        box
        for grid in ui.settings_body.children
        if isinstance(grid, widgets.GridBox) and "spec-settings-grid" in grid._dom_classes
        for box in grid.children
    ]
    assert len(fields) == 17
    for box in fields:
        control, help_ = box.children
        assert "spec-help" in help_._dom_classes and len(text(help_.value)) > 10, control._dom_classes
        assert text(help_.value) == control.tooltip
    ui.set_v1.value = ui.set_v4.value = True
    ui.set_hand.value = 5
    assert ui.hoyle_note.layout.display == "none"
    ui.set_preset.value = "hoyle1847"
    assert not (ui.set_v1.value or ui.set_v2.value or ui.set_v3.value or ui.set_v4.value)
    assert ui.set_hand.value == 3 and ui.set_ante.value == "traditional"
    assert ui.hoyle_note.layout.display != "none" and "3 cards each" in ui.hoyle_note.value
    assert a.settings_rules() == Rules(players=5, preset="hoyle1847")


# ---------------------------------------------------------------- 7. two prices
def test_o4_each_price_says_what_it_means():
    a = from_request("mode=classroom&seed=42", charts="static")
    note = text(a.ui.fair_note.value)
    assert note.startswith("Fair price: ") and "whole chips" in note and "expected pot" in note
    for _ in range(3):
        a.ui.next.click()
    a.ui.open_auction.click()
    words = text(a.ui.price_note.value)
    assert words.startswith("Break-even: the most a buyer should pay")
    assert "The break-even can sit below the fair price: " in words
    # basic game: the seller's break-even always equals the buyer's, so it is neither shown nor defined
    assert "Seller's break-even" not in words and "Seller's break-even" not in text(a.ui.auction_table.value)


# ----------------------------------------------------- 8. computer players visible
class FakeLoop:
    """An event loop whose timers run only when the test says: each tick is one step."""

    def __init__(self) -> None:
        self.timers: list[tuple[float, object]] = []

    def call_later(self, delay, callback):
        loop = self

        class Handle:
            def cancel(self) -> None:
                loop.timers = [t for t in loop.timers if t[1] is not callback]

        self.timers.append((delay, callback))
        return Handle()

    def tick(self) -> None:
        _delay, callback = self.timers.pop(0)
        callback()


@pytest.fixture
def loop(monkeypatch):
    fake = FakeLoop()
    monkeypatch.setattr(pacing.asyncio, "get_running_loop", lambda: fake)
    monkeypatch.delenv("SPECULATION_PACE", raising=False)
    return fake


def test_computer_players_act_one_at_a_time_and_each_is_announced(loop):
    """In a kernel the computers act one action per tick of the event loop, each announced in
    the message line, and the page stays usable meanwhile (here: looking back and forth)."""
    a = make(players=5, seed=9, mode="play", pace="slow", temperament="mixed")
    c = a.controller
    announced = []
    while not loop.timers:
        a.ui.next.click()
    assert c.acting and a.ui.next.disabled and a.ui.play.disabled
    assert loop.timers[0][0] == controller_module.PACES["slow"]
    a.ui.back.click()  # the page answers while the computers wait their turn
    assert not c.acting and not loop.timers and not c.live
    a.ui.now.click()
    assert c.acting and len(loop.timers) == 1
    while loop.timers:
        before = len(c.game.history)
        loop.tick()
        assert len(c.game.history) == before + 1  # one action per tick
        assert c.message_kind == "auto" and text(a.ui.message.value) == c.message
        assert c.message in a.helper.text  # and spoken
        announced.append(c.message)
    assert not c.acting
    assert re.match(r"\w+ asks for bids: ", announced[0])  # the engine's reasons (players.next_move)
    assert any(re.match(r"\w+ bids \d+", m) for m in announced)
    assert c.waiting_for_person() and not a.ui.let_decide.disabled
    a.ui.let_decide.click()
    assert "sells" in a.ui.message.value or "keeps" in a.ui.message.value or c.game.auction is None


def test_a_person_acting_meanwhile_first_lets_the_computers_finish(loop):
    a = make(players=5, seed=9, mode="play", pace="normal", temperament="mixed")
    c = a.controller
    while not loop.timers:
        a.ui.next.click()
    a.call(c.bid, c.human, 30)  # a direct call while the computers act: their turn is played first
    assert a.last_error is None and c.game.auction is not None and c.game.auction.get(c.human) == 30
    computer_bids = [x for x in c.game.history if x.kind == "bid" and x["seat"] != c.human]
    assert computer_bids and c.game.history[-1].kind == "bid" and c.game.history[-1]["seat"] == c.human


def test_on_a_real_event_loop_the_computers_finish_by_themselves(monkeypatch):
    monkeypatch.setitem(controller_module.PACES, "normal", 0.001)
    monkeypatch.delenv("SPECULATION_PACE", raising=False)

    async def run() -> list[str]:
        a = make(players=5, seed=9, mode="play", pace="normal", temperament="mixed")
        c = a.controller
        said: list[str] = []
        while not c.acting:
            a.ui.next.click()
        for _ in range(20_000):  # a safety net only: the loop ends when the computers have acted
            if not c.acting:
                break
            if c.message_kind == "auto" and c.message not in said:
                said.append(c.message)
            await asyncio.sleep(0)
        assert not c.acting
        return said

    # In a thread of its own: the test process may hold a running loop of its own (Playwright's).
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        assert pool.submit(asyncio.run, run()).result(timeout=600)


def test_without_an_event_loop_the_computers_act_at_once(monkeypatch):
    """A script or a test has no event loop: "auto" is instant, and even "normal" cannot wait."""
    monkeypatch.delenv("SPECULATION_PACE", raising=False)
    a = make(players=5, seed=9, mode="play", temperament="mixed")
    assert a.controller.pace == "auto" and a.controller.delay == 0.0
    a.controller.pace = "normal"
    assert a.controller.delay == controller_module.PACES["normal"]
    c = a.controller

    def play() -> None:
        while not (c.game.over or c.waiting_for_person()):
            a.ui.next.click()

    # In a thread of its own, which has no event loop: the test process may hold a running loop
    # that nobody serves (Playwright's sync API, after the browser tests).
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        pool.submit(play).result(timeout=600)
    assert not c.acting  # every computer action happened inside the clicks
    assert c.game.over or any(x.kind == "open_auction" for x in c.game.history)


def test_the_pace_of_the_link_and_of_the_environment(monkeypatch):
    assert from_request("pace=slow", charts="static").controller.delay == controller_module.PACES["slow"]
    monkeypatch.setenv("SPECULATION_PACE", "instant")
    assert make(players=3, seed=1).controller.delay == 0.0


def test_a_bid_above_the_break_even_says_why_in_the_log():
    """A bold player (appetite 5/4) bids above its break-even: the log says it is its temperament."""
    for seed in range(1, 40):
        a = make(players=4, seed=seed, mode="play", temperament="bold", pace="instant")
        c = a.controller
        for _ in range(20):
            if c.game.over or c.notes:
                break
            if c.waiting_for_person():
                a.call(c.decline) if c.game.holder == c.human else a.ui.let_decide.click()
            elif not a.ui.next.disabled:
                a.ui.next.click()
            else:
                break
        if c.notes:
            break
        a.close()
    assert c.notes, "some seed has a bold bid above its break-even"
    (_deal, step), (key, params) = next(iter(c.notes.items()))
    assert key == "reason.bid.above.bold" and params["amount"] > params["worth"]
    line = re.search(rf'<li[^>]*data-step="{step}">(.*?)</li>', a.ui.log.value).group(1)
    assert "spec-log-why" in line and "bold, they pay up to a quarter more than their break-even" in text(line)


# ------------------------------------------------------------------ 9. bad links
@pytest.mark.parametrize(
    ("query", "said"),
    [
        ("players=²", "players “²” is not a number"),
        ("players=³&seed=7", "players “³” is not a number"),
        ("seed=abc", "seed “abc” is not a number"),
        ("players=20", "players 20 is not 3 to 8 (S1)"),
        ("lang=fr", "language “fr” is not one of en, de, it, pt"),
        ("mode=teacher", "mode “teacher” is not one of play, classroom"),
        ("seed=%FF%FE&players=%E2%80%AE", "seed “"),
    ],
)
def test_a_bad_link_opens_the_app_and_says_what_was_ignored(query, said):
    a = from_request(query, charts="static")
    assert said in text(a.ui.message.value)
    assert "spec-message-error" in a.ui.message._dom_classes
    c = a.controller
    assert c.rules.players == 5 and "spec-table" in a.ui.table.value
    assert not a.ui.next.disabled or c.game.auction is not None or c.game.over  # (a random deal)
    a.ui.play.click()
    assert a.last_error is None


def test_good_links_say_nothing():
    assert read_query("lang=de&seed=42&mode=classroom&players=4").ignored == []
    assert query_settings("players=%204%20") == {"players": 4}
    a = from_request("seed=5&mode=classroom", charts="static")
    assert "ignored" not in a.ui.message.value and "link" not in a.ui.message.value


# ---------------------------------------------------------------------- 10. the rest
def test_the_mansfield_cast_names_do_not_overlap_on_the_bar_chart():
    a = from_request("cast=mansfield&seed=1814", charts="static")
    ax = a.win_chart.ax
    canvas = a.win_chart.figure.canvas
    canvas.draw()
    renderer = canvas.get_renderer()
    boxes = [t.get_window_extent(renderer) for t in ax.get_xticklabels() if t.get_text()]
    assert len(boxes) == 6
    for left, right in itertools.pairwise(boxes):
        assert left.x1 + 2 <= right.x0, [t.get_text() for t in ax.get_xticklabels()]
    assert all(b.x0 >= 0 and b.x1 <= a.win_chart.width_px for b in boxes)


def seed_with_ace_turn_up(players: int = 4) -> int:
    from speculation_nb import Session

    for seed in range(2000):
        s = Session(Rules(players=players), seed=seed)
        if s.game.over and s.game.end_rule == "S5":
            return seed
    raise AssertionError("no seed turns up an Ace")


def test_s5_a_deal_that_ends_at_once_says_why():
    seed = seed_with_ace_turn_up()
    a = make(players=4, mode="classroom")
    a.ui.seed.value = str(seed)
    a.ui.new_session.click()
    words = text(a.ui.message.value)
    assert words.startswith(f"New session, seed {seed}") and "An Ace was turned up" in words and "(S5)" in words


def test_p7_queued_next_clicks_after_the_end_leave_the_winner_line():
    a = make(players=3, seed=4, mode="classroom")
    while not a.controller.game.over:
        a.ui.next.click()
    line = a.ui.message.value
    for _ in range(50):
        a.ui.next.click()  # a click queued before the button was disabled
    assert a.ui.message.value == line and "P7" not in line and a.last_error is None


def test_let_decide_is_only_offered_when_a_computer_holds():
    a = make(players=4, seed=3, mode="play", human=0, pace="instant")
    c = a.controller
    for _ in range(30):  # until the person holds the best trump
        if c.game.holder == c.human or c.game.over:
            break
        if c.waiting_for_person():
            a.ui.let_decide.click()
        else:
            a.ui.next.click()
    if c.game.holder == c.human and not c.game.over:
        if c.game.auction is None:
            a.ui.open_auction.click()
        assert a.ui.let_decide.layout.display == "none"
        a.ui.let_decide.click()  # a stale click does nothing
        assert a.last_error is None
    a.call(c.let_holder_decide)
    assert "No auction is open" not in a.ui.message.value or c.game.auction is None


def test_a_right_to_left_override_in_a_name_stays_inside_the_name():
    evil = "\u202eyraM"
    a = make(players=3, seed=2, mode="classroom", names=["Fanny", evil, "Tom"])
    a.ui.play.click()
    for value in (a.ui.log.value, a.ui.standings.value, a.ui.hold_label.value):
        if evil in value:
            assert f"<bdi>{evil}</bdi>" in value
            assert value.count(evil) == value.count(f"<bdi>{evil}</bdi>")
    assert f"<bdi>{evil}</bdi>" in a.ui.log.value


def test_the_snapshot_cache_is_bounded_over_many_deals():
    a = make(rules=Rules(players=4, start_chips=2000), seed=5, mode="classroom", deals=None)
    c = a.controller
    for _ in range(40):
        a.ui.play.click()
        a.ui.back.click()
        a.ui.now.click()
        a.ui.new_deal.click()
    assert c.session.deal_number == 41
    assert c.cached_snapshots <= controller_module.SNAPSHOT_LIMIT
    assert c.cached_snapshots <= 3 * 4 + 2  # only this deal's moments are kept between deals


# ---------------------------------------------------------- keyboard and readers
def test_the_keys_are_named_and_the_live_region_speaks_the_new_chance():
    a = make(players=4, seed=6, mode="classroom")
    help_line = text(a.ui.keys_help.value)
    for key in "NDEBF":
        assert key in help_line
    assert a.helper is not None and "spec-keys" in a.helper._dom_classes
    a.ui.next.click()
    p = odds.hold_probability(a.controller.game)
    assert T.percent(p) in a.helper.text and "fair price" in a.helper.text
    alt = text(a.ui.chart_alt.value)
    assert "Chance of the pot" in alt or T("chart.win.title") in alt
    assert T.percent(p) in alt


def test_a_refusal_is_said_once_and_again_when_repeated_and_a_redraw_says_nothing():
    """Issue 23: the live region speaks each refusal once (a ``say``), not again on a redraw."""
    a = make(players=4, seed=6, mode="classroom")
    c, helper = a.controller, a.helper
    assert helper is not None
    c.open_auction()
    bidder = next(s for s in range(4) if s != c.game.holder)
    said = helper.said
    a.call(c.bid, bidder, 9999)  # more than their stack: refused (P2)
    assert helper.said == said + 1 and helper.text.startswith("Rule P2") and helper.text == c.message
    a.refresh()
    a.refresh()  # a redraw: nothing said again
    assert helper.said == said + 1
    a.call(c.bid, bidder, 9999)  # the same refusal again: said again
    assert helper.said == said + 2 and helper.text == c.message
    a.call(c.bid, bidder, 1)  # a good bid: no news, and the chance has not changed
    assert helper.said == said + 2


def test_the_key_module_fetches_nothing():
    assert "http" not in ESM and "import " not in ESM.replace("export default", "")


# ------------------------------------------------------------------------ start-up
def models() -> int:
    return len(_instances)


def test_the_first_view_builds_only_what_it_shows():
    before = models()
    a = make(players=5, seed=42, mode="classroom", charts="svg")  # the default charts
    first = models() - before
    built = set(vars(a.ui))
    for name in ("set_players", "set_lang", "bid", "accept", "auction_table", "trade"):
        assert name not in built, name
    a.ui.settings.selected_index = 0  # opening the settings builds them
    after_settings = models() - before
    assert "set_players" in vars(a.ui) and after_settings > first + 60
    for _ in range(3):
        a.ui.next.click()
    a.ui.open_auction.click()
    assert "bid" in vars(a.ui) and models() - before > after_settings
    print(f"\nwidget models at first display: {first}; with the settings open: {after_settings}")
    assert first <= 135  # 279 when every panel was built at start-up, 178 with a style model per widget


def test_the_first_view_shares_one_style_model_per_kind():
    """Every HTML widget and every button of the first view takes its look from CSS classes:
    they share one style model each (parts.shared_style), a model per widget fewer to send."""
    a = make(players=4, seed=3, charts="svg")
    found = [w for w in vars(a.ui).values() if isinstance(w, (widgets.HTML, widgets.Button))]
    assert len([w for w in found if isinstance(w, widgets.HTML)]) > 10
    for kind in (widgets.HTML, widgets.Button):
        assert len({w.style.model_id for w in found if isinstance(w, kind)}) == 1, kind
    a.close()


def test_the_first_view_imports_neither_matplotlib_nor_numpy():
    """The default charts are SVG and the simulation panel is imported on its first open: a
    kernel starts without matplotlib (about a second) and a browser running Pyodide without
    numpy too (about a second more). Opening the simulation panel brings numpy."""
    code = (
        "import sys\n"
        "from speculation_nb.app import from_request\n"
        "a = from_request('seed=3&mode=classroom')\n"
        "a.ui.next.click()\n"
        "assert a.last_error is None and 'spec-chart-svg' in a.ui.win_chart._dom_classes\n"
        "heavy = ('matplotlib', 'ipympl', 'PIL', 'numpy')\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & set(heavy)))\n"
        "a.simulation.button.click()\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & set(heavy)))\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "SPECULATION_CHARTS"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env)
    assert out.stdout.split("\n")[:2] == ["[]", "['numpy']"], out.stdout


def test_every_new_word_is_in_the_four_languages():
    english = catalog("en")
    for lang in available_languages():
        cat = catalog(lang)
        for key in (
            "button.new_session",
            "status.confirm_new_session",
            "odds.fair_note",
            "auction.price_note",
            "label.keys",
        ):
            assert cat.get(key), (lang, key)
        assert set(english) <= set(cat) | set(), lang


def test_replace_session_shows_another_session_at_a_moment():
    """``Controller.replace_session`` (a loaded save, a shared link): the whole page follows."""
    from speculation_nb import Session

    a = make(players=4, seed=1, mode="classroom")
    a.ui.settings.selected_index = 0
    session = Session(Rules(players=5, start_chips=80), ["Ann", "Bob", "Cy", "Di", "Ed"], 6, seed=123)
    for _ in range(4):
        session.game.reveal()
    a.controller.replace_session(session, moment=2)
    c = a.controller
    assert c.session is session and c.moment == 2 and not c.live
    assert "seed 123" in a.ui.deal_info.value and "Deal 1 of 6" in a.ui.deal_info.value
    assert a.ui.timeline.value == 2 and a.ui.timeline.max == 4
    assert "spec-message-past" in a.ui.message._dom_classes
    assert a.ui.set_players.value == 5 and a.ui.set_chips.value == 80 and a.ui.set_names[0].value == "Ann"
    a.ui.now.click()
    assert c.live and a.ui.hold_pct.value == T.percent(odds.hold_probability(session.game))


def test_a_running_loop_outside_a_kernel_does_not_pace_the_computers(monkeypatch):
    """ "auto" paces the computers only in a Jupyter kernel: a script's or a test's own loop
    (Playwright's sync API keeps one running) may never serve the timers."""
    monkeypatch.delenv("SPECULATION_PACE", raising=False)

    async def delay() -> float:
        return make(players=3, seed=1).controller.delay

    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        assert pool.submit(asyncio.run, delay()).result(timeout=120) == 0.0


@pytest.mark.parametrize(
    ("field", "typed", "range_"),
    [("set_players", 20, "3 to 8"), ("set_chips", 2, "6 to 1,000,000,000"), ("set_deals", 20_000, "0 to 10,000")],
)
def test_a_setting_out_of_range_is_refused_in_words_and_kept_as_typed(field, typed, range_):
    """S1 and the settings' limits: what a person types is never clamped or changed; applying
    says why it cannot be, and the session (its seed, its standings) is kept."""
    a = make(players=4, seed=3, mode="classroom")
    a.ui.next.click()
    before = a.controller.session.to_json()
    getattr(a.ui, field).value = typed
    a.settings._apply()
    assert a.controller.message_kind == "error"
    assert f"{typed:,} is not possible here" in a.controller.message and range_ in a.controller.message
    assert getattr(a.ui, field).value == typed
    assert a.controller.session.to_json() == before


def test_a_shared_tables_names_are_every_views_names():
    """While a shared table names the seats (issue 27), the standings, the log and the session's
    last line say the same names as the table (one idea, one name), and the session's own names
    come back when it closes."""
    app = make(players=3, deals=1, seed=4)
    shown = ["Ann", "Ben", "Cai"]
    app.controller.show_seat_names(shown)
    app.controller.play_to_end()
    standings = text(app.ui.standings.value)
    assert all(name in standings for name in shown), standings
    assert not any(name in standings for name in app.controller.session.names), standings
    assert any(name in text(app.ui.log.value) for name in shown)
    assert any(name in app.ui.message.value for name in shown), app.ui.message.value
    app.controller.show_seat_names(None)
    assert all(name in text(app.ui.standings.value) for name in app.controller.session.names)
