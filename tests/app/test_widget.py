"""The app's widget logic, driven from Python as a person would (``.click()``, setting ``.value``).

No browser: the widgets' traits are what a browser would show.
"""

from __future__ import annotations

import html
import re
from fractions import Fraction
from math import comb
from pathlib import Path

import pytest

from speculation_nb import IllegalAction, Rules, odds
from speculation_nb.app import Controller, SpeculationApp, app, from_request, query_settings
from speculation_nb.languages.translator import translator
from speculation_nb.rendering.cards import table_html

T = translator("en")
EVIL = "<img src=x onerror=alert(1)>"


def text(value: str) -> str:
    """What a person reads in an HTML value: tags removed, entities decoded."""
    return html.unescape(re.sub(r"<[^>]+>", "", value))


def make(**kwargs) -> SpeculationApp:
    kwargs.setdefault("charts", "static")
    return SpeculationApp(**kwargs)


def check_odds_panel(a: SpeculationApp) -> None:
    """The hero numbers shown are the odds module's numbers for the deal as shown."""
    game = a.controller.shown
    p = odds.hold_probability(game)
    assert a.ui.hold_pct.value == T.percent(p)
    assert a.ui.hold_fraction.value == (
        f"= {p.numerator}/{p.denominator}" if p.denominator != 1 else f"= {p.numerator}"
    )
    ex = odds.explain_hold(game)
    if game.over:
        assert a.ui.hold_formula.value == T("odds.settled") and p in (0, 1)
    else:
        assert a.ui.hold_formula.value == f"= C({ex.U - ex.h}, {ex.n}) / C({ex.U}, {ex.n})"
        assert Fraction(comb(ex.U - ex.h, ex.n), comb(ex.U, ex.n)) == p
    fair = T.chips(odds.fair_price(game))
    assert text(a.ui.fair_price.value) == f"fair price {fair} chip" + ("" if fair == "1" else "s")
    assert T.chips(odds.expected_pot(game)) in text(a.ui.expected_pot.value)


def test_app_displays_in_one_line_and_has_stable_classes():
    a = app(players=4, seed=1, charts="static")
    bundle = a._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle
    assert "spec-app" in a.widget._dom_classes
    for name, cls in [
        ("next", "spec-next"),
        ("back", "spec-back"),
        ("forward", "spec-forward"),
        ("now", "spec-now"),
        ("play", "spec-play"),
        ("new_deal", "spec-new-deal"),
        ("hold_pct", "spec-hold-pct"),
        ("log", "spec-log"),
        ("timeline", "spec-timeline"),
        ("table", "spec-table-view"),
        ("open_auction", "spec-open-auction"),
        ("bid", "spec-bid"),
        ("accept", "spec-accept"),
        ("decline", "spec-decline"),
        ("message", "spec-message"),
        ("settings", "spec-settings"),
    ]:
        assert cls in getattr(a.ui, name)._dom_classes, name
    # Every button has a description and a tooltip.
    import ipywidgets as widgets

    buttons = [w for w in vars(a.ui).values() if isinstance(w, widgets.Button)]
    assert len(buttons) >= 14
    for b in buttons:
        assert b.tooltip, b._dom_classes
        if b.layout.display != "none":
            assert b.description, b._dom_classes


def test_a_full_deal_stepped_through_with_next_card():
    a = make(players=5, seed=11, mode="classroom")
    ui, c = a.ui, a.controller
    check_odds_panel(a)
    steps = 0
    while not ui.next.disabled:
        before = len(c.game.history)
        ui.next.click()
        steps += 1
        assert a.last_error is None
        assert len(c.game.history) == before + 1 and c.game.history[-1].kind == "reveal"
        assert ui.timeline.max == ui.timeline.value == len(c.game.history)
        check_odds_panel(a)
        assert ui.table.value == table_html(c.game, c.names, texts=T.render_texts(), card_width=54)
    game = c.game
    assert game.over and steps == game.reveals
    assert ui.play.disabled and ui.next.disabled
    winner = c.names[game.winner] if game.winner is not None else None
    if winner:
        assert winner in ui.message.value and "spec-message-ok" in ui.message._dom_classes
        assert f"{winner} wins the pot" in text(ui.log.value)
    assert (
        text(ui.log.value).count("turns up") == game.reveals + 1
    )  # every reveal, and the turn-up ("deals and turns up")
    # Standings follow the stacks.
    assert c.session.standings()[0].name in text(ui.standings.value)


def test_back_forward_slider_and_back_to_now():
    a = make(players=4, seed=5, mode="classroom")
    ui, c = a.ui, a.controller
    for _ in range(5):
        ui.next.click()
    last = c.last
    assert ui.now.disabled and ui.forward.disabled and not ui.back.disabled
    ui.back.click()
    assert c.moment == last - 1 and not c.live
    past = c.game.at(last - 1)
    assert ui.table.value == table_html(past, c.names, texts=T.render_texts(), card_width=54)
    check_odds_panel(a)
    # Live controls are disabled while looking at the past; "now" is offered.
    assert ui.next.disabled and ui.play.disabled and not ui.now.disabled
    assert "spec-message-past" in ui.message._dom_classes and "step 4 of 5" in ui.message.value.replace(
        "Looking back at ", ""
    )
    assert ui.open_auction.layout.display == "none"
    ui.back.click()
    ui.back.click()
    assert c.moment == last - 3
    ui.forward.click()
    assert c.moment == last - 2
    check_odds_panel(a)
    # The slider moves the whole view.
    ui.timeline.value = 0
    assert c.moment == 0 and ui.back.disabled
    check_odds_panel(a)
    assert text(ui.log.value).count("turns up") == 1  # only the turn-up at moment 0
    ui.timeline.value = 3
    assert c.moment == 3
    check_odds_panel(a)
    ui.now.click()
    assert c.live and c.moment == last and not ui.next.disabled
    check_odds_panel(a)
    assert ui.forward.disabled  # nothing to go forward to


def auction_app(mode: str = "classroom", seed: int = 3, players: int = 4) -> SpeculationApp:
    a = make(players=players, seed=seed, mode=mode)
    return a


def test_an_auction_with_accept_in_classroom_mode():
    a = auction_app()
    ui, c = a.ui, a.controller
    ui.next.click()  # past the turn-up auction (P1 allows only the best offer)
    game = c.game
    holder = game.holder
    assert ui.open_auction.layout.display != "none"
    assert game.best_trump.rank_text in ui.open_auction.description
    ui.open_auction.click()
    assert game.auction == {}
    assert ui.next.disabled and ui.play.disabled  # no reveal during an auction
    # Every other seat's break-even is shown.
    table = ui.auction_table.value
    for seat in range(4):
        if seat != holder:
            assert f"data-seat='{seat}'" in table
            assert T.chips(odds.break_even(game, seat)) in table
            assert T.chips(odds.seller_break_even(game, seat)) in table
    # Two people bid through the controls.
    bidders = [s for s in range(4) if s != holder][:2]
    ui.bid_seat.value = bidders[0]
    low, high = game.bid_range(bidders[0])
    assert (ui.bid_amount.min, ui.bid_amount.max) == (low, high)
    ui.bid_amount.value = 3
    ui.bid.click()
    ui.bid_seat.value = bidders[1]
    ui.bid_amount.value = 5
    ui.bid.click()
    assert game.auction == {bidders[0]: 3, bidders[1]: 5}
    assert a.last_error is None
    stacks = game.stacks
    ui.accept_seat.value = bidders[0]  # not the best offer: allowed after the first reveal (P2)
    ui.accept.click()
    assert a.last_error is None
    assert game.holder == bidders[0] and game.auction is None
    assert game.stacks[bidders[0]] == stacks[bidders[0]] - 3 and game.stacks[holder] == stacks[holder] + 3
    assert f"{c.names[holder]} sells" in text(ui.log.value) and "for 3 chips" in text(ui.log.value)
    assert not ui.next.disabled
    check_odds_panel(a)


def test_an_auction_declined_and_a_withdrawn_bid():
    a = auction_app(seed=8)
    ui, c = a.ui, a.controller
    game = c.game
    ui.open_auction.click()  # the turn-up auction (P1)
    assert "turn-up" in text(ui.auction_title.value)
    bidder = next(s for s in range(4) if s != game.holder)
    ui.bid_seat.value = bidder
    ui.bid_amount.value = ui.bid_amount.min
    ui.bid.click()
    assert not ui.withdraw.disabled
    ui.withdraw.click()
    assert game.auction == {}
    assert "withdraws" in text(ui.log.value)
    ui.bid.click()
    stacks = game.stacks
    ui.decline.click()
    assert game.auction is None and game.stacks == stacks
    assert f"{c.names[game.holder]} keeps the card." in text(ui.log.value)


def test_an_engine_refusal_is_a_friendly_line_and_the_app_stays_usable():
    a = auction_app()
    ui, c = a.ui, a.controller
    ui.open_auction.click()
    holder = c.game.holder
    a.call(c.bid, holder, 3)  # the controls never offer this; the engine refuses it (P2)
    assert isinstance(a.last_error, IllegalAction)
    assert ui.message.value.startswith("Rule P2: ")
    assert html.escape(c.names[holder]) in ui.message.value and "cannot bid" in ui.message.value
    assert "spec-message-error" in ui.message._dom_classes
    assert "Traceback" not in ui.message.value
    ui.decline.click()  # still usable; the message goes away with the next action
    assert "spec-message-error" not in ui.message._dom_classes
    ui.next.click()
    assert len(c.game.history) == 3


def test_an_unexpected_failure_never_shows_a_traceback(monkeypatch, caplog):
    a = make(players=3, seed=2, mode="classroom")

    def broken(*_args, **_kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(a.controller.game, "reveal", broken)
    a.ui.next.click()
    assert isinstance(a.last_error, RuntimeError)
    assert a.ui.message.value == html.escape(T("error.unexpected"))
    assert "boom" not in a.ui.message.value and "Traceback" not in a.ui.message.value


def test_names_are_shown_as_text_never_as_html():
    names = [EVIL, "Fanny & Edmund", "Mary", "Henry"]
    a = make(players=4, seed=4, mode="classroom", names=names)
    ui = a.ui
    ui.next.click()
    escaped = html.escape(EVIL)
    for value in (ui.table.value, ui.standings.value, ui.deal_info.value + ui.log.value + ui.hold_label.value):
        assert "<img" not in value
    assert escaped in ui.table.value and escaped in ui.standings.value
    assert EVIL in text(ui.table.value)  # it appears literally
    ui.open_auction.click()
    assert "<img" not in ui.auction_table.value + ui.auction_title.value
    assert escaped in ui.auction_table.value + ui.auction_title.value
    assert all("<img" not in o[0] for o in ui.bid_seat.options)  # Dropdown labels are text anyway


def test_play_mode_computer_players_act():
    a = make(players=4, seed=0, mode="play", human=0)
    ui, c = a.ui, a.controller
    game = c.game
    for _ in range(40):
        if game.auction is not None or game.over:
            break
        ui.next.click()
    assert game.auction is not None, "a computer holder opens an auction"
    holder = game.holder
    assert holder != 0
    kinds = [(e.kind, e.get("seat")) for e in game.events]
    assert ("auction_open", holder) in kinds
    assert any(k == "bid" and s not in (0, holder) for k, s in kinds)  # computers bid at once
    # The person may bid, or let the holder decide; no seat dropdown in play mode.
    assert ui.bid_row.layout.display != "none" and ui.bid_seat.layout.display == "none"
    assert ui.let_decide.layout.display != "none" and c.names[holder] in ui.let_decide.description
    assert ui.accept.layout.display == "none"
    low, high = game.bid_range(0)
    assert (ui.bid_amount.min, ui.bid_amount.max) == (low, high)
    ui.let_decide.click()
    assert a.last_error is None and game.auction is None
    assert any(e.kind in ("sale", "decline") for e in game.events)
    ui.play.click()
    assert a.last_error is None
    # Play to the end stops only where the person is needed.
    while not game.over:
        if c.waiting_for_person():
            (ui.let_decide if game.holder != 0 else ui.decline).click()
        else:
            ui.play.click()
        assert a.last_error is None
    assert game.over


def test_play_mode_person_holds_and_computers_bid():
    a = make(players=5, seed=21, mode="play", human=0)
    ui, c = a.ui, a.controller
    game = c.game
    for _ in range(30):
        if game.holder == 0 and not game.over and game.auction is None:
            break
        if c.waiting_for_person():
            (ui.let_decide if game.holder != 0 else ui.decline).click()
        else:
            ui.next.click()
    if game.holder != 0:
        pytest.skip("this deal never makes the person the holder")
    ui.open_auction.click()
    assert game.auction is not None
    assert set(game.auction) <= {1, 2, 3, 4}
    assert ui.accept.layout.display != "none" and ui.let_decide.layout.display == "none"
    if game.acceptable():
        buyer = game.acceptable()[0]
        price = game.auction[buyer]
        before = game.stacks[0]
        ui.accept_seat.value = buyer
        ui.accept.click()
        assert game.holder == buyer and game.stacks[0] == before + price
    else:
        assert ui.accept.disabled
        ui.decline.click()


def test_classroom_mode_nothing_happens_by_itself():
    a = make(players=4, seed=0, mode="classroom")  # the seed where a computer would open an auction
    ui, c = a.ui, a.controller
    while not ui.next.disabled:
        ui.next.click()
    assert all(action.kind == "reveal" for action in c.game.history)
    assert c.game.over
    # Switching to play mode hands the other seats to the computer.
    ui.set_mode.value = "play"
    assert c.mode == "play" and not ui.set_you.disabled


def test_settings_produce_the_right_rules():
    a = make(players=5, seed=1)
    ui, c = a.ui, a.controller
    assert ui.settings.selected_index is None  # collapsed
    ui.set_players.value = 6
    assert ui.set_names[5].layout.display != "none" and ui.set_names[6].layout.display == "none"
    ui.set_names[5].value = "Lady Bertram"
    ui.set_v1.value = True
    ui.set_v2.value = True
    ui.set_v4.value = True
    ui.set_cap.value = 12
    ui.set_hand.value = 4
    ui.set_ante.value = "uniform"
    ui.set_uniform.value = 5
    ui.set_chips.value = 80
    ui.set_deals.value = 3
    ui.set_mode.value = "classroom"
    ui.seed.value = "99"
    ui.apply.click()
    assert a.last_error is None
    assert c.rules == Rules(
        players=6,
        hand_size=4,
        jack_five=True,
        dead_hand=True,
        price_cap=12,
        ante="uniform",
        uniform_ante=5,
        start_chips=80,
    )
    assert c.names[5] == "Lady Bertram" and c.session.deals == 3 and c.session.seed == 99
    assert c.mode == "classroom"
    assert "Deal 1 of 3" in ui.deal_info.value and "seed 99" in ui.deal_info.value
    assert ui.seed.value == ""
    # Hoyle's preset allows no variant: the form switches them off.
    ui.set_preset.value = "hoyle1847"
    assert ui.set_v1.disabled and ui.set_hand.disabled and ui.set_ante.disabled
    ui.apply.click()
    assert c.rules == Rules(players=6, start_chips=80, preset="hoyle1847")
    # S1: the starting stack can never be below the largest ante: refused in words, kept as typed.
    ui.set_preset.value = "cardrules"
    ui.set_hand.value = 5
    ui.set_chips.value = 1
    least = Rules(players=6, hand_size=5).dealer_ante
    assert ui.set_chips.value == 1 and ui.set_chips.min == least
    ui.apply.click()
    assert f"1 is not possible here: type a whole number from {least} to" in c.message
    assert c.rules == Rules(players=6, start_chips=80, preset="hoyle1847")


def test_language_selector_is_wired():
    a = make(players=3, seed=1)
    assert ("English", "en") in a.ui.set_lang.options
    a.ui.set_lang.value = "en"
    assert a.controller.lang == "en"
    assert a.ui.next.description == T("button.next_card")


def test_new_deal_with_a_seed_is_reproducible_and_the_session_goes_on():
    a = make(players=4, mode="classroom")
    b = make(players=4, mode="classroom")
    for x in (a, b):  # nothing has happened yet: a new session starts without asking
        x.ui.seed.value = "2024"
        x.ui.new_session.click()
    assert a.controller.game.layout() == b.controller.game.layout()
    assert a.controller.session.seed == 2024 and "seed 2024" in a.ui.deal_info.value
    assert a.ui.seed.value == ""
    # Once the deal is over, "New deal" deals the session's next deal (standings carry).
    a.ui.play.click()
    assert a.controller.game.over
    stacks = a.controller.game.stacks
    a.ui.new_deal.click()
    assert a.controller.session.deal_number == 2 and a.controller.game.dealer == 1
    assert "Deal 2 of 10" in a.ui.deal_info.value
    assert sum(a.controller.game.stacks) + a.controller.game.pot == sum(stacks)  # G4
    # The same seed in another app gives the same second deal.
    b.ui.play.click()
    b.ui.new_deal.click()
    assert a.controller.game.layout() == b.controller.game.layout()
    # A seed that is not a number is refused politely.
    a.ui.seed.value = "forty-two"
    a.ui.new_session.click()
    assert "is not a seed" in a.ui.message.value and a.controller.session.deal_number == 2


def test_charts_follow_the_deal():
    a = make(players=4, seed=6, mode="classroom")
    png = a.ui.win_chart.value
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    a.ui.next.click()
    a.ui.next.click()
    assert a.ui.win_chart.value != png
    bars = [round(b.get_height(), 6) for b in a.win_chart._bars]
    win = odds.win_probabilities(a.controller.game)
    assert bars == [round(float(win[s]), 6) for s in range(4)]
    assert a.hold_chart.line.get_xdata()[-1] == a.controller.game.reveals


def test_dead_hand_shows_the_carried_over_bar():
    a = make(rules=Rules(players=3, dead_hand=True), seed=2, mode="classroom")
    assert len(a.win_chart._bars) == 4  # three seats and "nobody"
    a.ui.play.click()
    assert a.controller.game.over
    check_odds_panel(a)


@pytest.mark.parametrize("charts", ["ipympl", "static"])
def test_both_chart_backends_build(charts):
    a = SpeculationApp(players=3, seed=1, charts=charts)
    assert f"spec-chart-{charts}" in a.ui.win_chart._dom_classes
    a.ui.next.click()
    assert a.last_error is None


def test_query_settings_read_only_what_they_understand():
    assert query_settings("lang=en&seed=42&mode=classroom&players=4&charts=static") == {
        "lang": "en",
        "seed": 42,
        "mode": "classroom",
        "players": 4,
        "charts": "static",
    }
    assert query_settings("lang=xx&seed=abc&mode=evil&players=99&charts=<b>") == {}
    assert query_settings("lang=en-GB") == {"lang": "en"}
    a = from_request("seed=5&mode=classroom&charts=static")
    assert a.controller.session.seed == 5 and a.controller.mode == "classroom"


def test_controller_alone_has_no_widgets():
    import sys

    c = Controller(Rules(players=3), seed=1, mode="classroom")
    c.next_card()
    assert c.snapshot().odds.hold == odds.hold_probability(c.game)
    # The engine and odds never import the widgets.
    import speculation_nb.engine.game
    import speculation_nb.odds

    for mod in (speculation_nb.engine.game, speculation_nb.odds):
        assert "ipywidgets" not in Path(mod.__file__).read_text(encoding="utf-8")
    assert "ipywidgets" in sys.modules  # (imported by this test module, not by the engine)


def test_blind_trades_with_v3():
    a = make(rules=Rules(players=4, blind_trading=True), seed=3, mode="classroom")
    ui, c = a.ui, a.controller
    assert ui.trade_row.layout.display != "none"
    game = c.game
    ui.trade_buyer.value = 1
    ui.trade_seller.value = 2
    assert ui.trade_count.max == game.face_down[2] and ui.trade_price.max == game.stacks[1]
    ui.trade_count.value = 2
    ui.trade_price.value = 3
    before = game.stacks
    ui.trade.click()
    assert a.last_error is None
    assert game.face_down[1] == 5 and game.face_down[2] == 1
    assert game.stacks[1] == before[1] - 3 and game.stacks[2] == before[2] + 3
    assert "buys 2 cards from" in text(ui.log.value)
    ui.open_auction.click()
    assert ui.trade_row.layout.display == "none"  # no trades while an auction is open (P2)
    # In play mode the computer side may refuse: nothing happens and the page says so.
    b = make(rules=Rules(players=4, blind_trading=True), seed=3, mode="play", human=0)
    b.ui.trade_buyer.value = 0
    b.ui.trade_seller.value = 1
    stacks = b.controller.game.stacks
    b.ui.trade.click()
    assert b.controller.game.stacks == stacks
    assert "does not agree" in b.ui.message.value


def test_without_v3_there_is_no_trade_row():
    a = make(players=4, seed=3)
    assert a.ui.trade_row.layout.display == "none"


def test_every_css_class_is_listed_for_the_browser_tests():
    import ast
    from pathlib import Path

    import speculation_nb.app as package

    folder = Path(package.__file__).parent
    used = set()
    for path in folder.rglob("*.py"):
        if path.name == "style.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and re.fullmatch(r"spec-[a-z0-9-]*[a-z0-9]", node.value)
            ):
                used.add(node.value)  # (f-string prefixes such as "spec-chart-" are listed expanded)
    assert len(used) > 60
    listed = set(re.findall(r"``(spec-[a-z0-9-]+)``", package.__doc__))
    assert sorted(used - listed) == []


def test_close_closes_only_this_app():
    import ipywidgets as widgets

    other = widgets.Button()
    a = make(players=3, seed=1)
    a.close()
    assert a.widget.comm is None and a.ui.next.comm is None
    assert other.comm is not None


def test_the_mansfield_park_cast_plays_in_the_app():
    """?cast=mansfield seats the characters of vol. II, ch. 7 with their own strategies."""
    from speculation_nb import players
    from speculation_nb.app.player.screen import SpeculationApp, query_settings

    settings = query_settings("cast=mansfield&seed=1814")
    assert settings == {"temperament": "mansfield", "players": 6, "seed": 1814}
    app = SpeculationApp(**settings)
    cast = players.mansfield_park(6)
    assert app.controller.names == list(cast.names)
    strategies = players.table_strategies(6, "mansfield", people=[0])
    assert [type(strategies[s]).__name__ for s in range(1, 6)] == [type(x).__name__ for x in cast.strategies[1:]]
    assert app.ui.set_temperament.value == "mansfield"
