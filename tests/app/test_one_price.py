"""Issue 23, "One idea, one name, one number": every screen that shows a price shows the same
whole number, the half-up rounding (RULES.md O4, :func:`speculation_nb.odds.shown_chips`) of the
exact Fraction the odds give, under the same name.

Driven from Python, no browser: the projector's odds panel and headline, the live region, the
auction table and its note, the log's reasons, the student's page (drawn from the published
moment) and the poll (its HTML), at several moments, ``?seed=7`` with the turn-up offered at
once among them (where the table said 4, the log "3.5" and the phones "≈ 9.5"-like fractions).
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from typing import Any

import pytest

from speculation_nb import Rules, odds
from speculation_nb.app import SpeculationApp, from_request
from speculation_nb.app.student.view import odds_value
from speculation_nb.classroom.moment import public_moment, read_public_moment
from speculation_nb.classroom.poll import Poll
from speculation_nb.languages.translator import translator
from speculation_nb.rendering.poll_chart import poll_html

T = translator("en")


def text(value: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", value))


def chips(n: int) -> str:
    return T.plural("unit.chips", n)


def table_column(table: str, cls: str) -> dict[int, int]:
    """``{seat: number}`` of one column of the auction table (``spec-break-even`` ...)."""
    out = {}
    for seat, row in re.findall(r"<tr[^>]*data-seat='(\d+)'>(.*?)</tr>", table):
        found = re.search(rf"class='spec-num {cls}'>([^<]*)<", row)
        if found:
            out[int(seat)] = int(found.group(1).replace(",", ""))
    return out


def seed_7_offered_at_once() -> SpeculationApp:
    """``?seed=7``: Fanny (the person) deals the 9♣ and offers it at once; the computers bid."""
    a = from_request("seed=7&pace=instant", charts="static")
    a.ui.open_auction.click()
    assert a.controller.game.auction, "the computers bid"
    return a


def classroom_auction(rules: Rules, seed: int, reveals: int) -> SpeculationApp:
    a = SpeculationApp(rules=rules, seed=seed, mode="classroom", charts="static")
    for _ in range(reveals):
        a.ui.next.click()
    a.ui.open_auction.click()
    assert a.controller.game.auction is not None
    return a


MOMENTS = {
    "seed 7, offered at once": seed_7_offered_at_once,
    "seed 42, three cards": lambda: classroom_auction(Rules(players=5), 42, 3),
    "Jack and Five": lambda: classroom_auction(Rules(players=4, jack_five=True), 11, 2),
    "dead pile, seller differs": lambda: classroom_auction(Rules(players=4, dead_hand=True), 1, 7),
}


@pytest.fixture(params=list(MOMENTS))
def app(request: Any) -> Iterator[SpeculationApp]:
    a = MOMENTS[request.param]()
    yield a
    a.close()


def test_o4_every_screen_shows_one_whole_number_for_each_price(app: SpeculationApp) -> None:
    a, ui, c = app, app.ui, app.controller
    game = c.shown
    holder = game.holder
    fair = odds.shown_chips(odds.fair_price(game))
    buyers = [s for s in range(game.rules.players) if s != holder]
    be = {s: odds.shown_chips(odds.break_even(game, s)) for s in buyers}
    sbe = {s: odds.shown_chips(odds.seller_break_even(game, s)) for s in buyers}
    assert c.snapshot().odds.prices.fair == fair and dict(c.snapshot().odds.prices.break_even) == be

    # the projector: the odds panel, the headline and the live region
    assert T(T.plural_key("odds.fair_price", fair), value=T.number(fair)) in text(ui.fair_price.value)
    assert re.findall(r"<b>([^<]*)</b>", ui.headline.value)[-1] == T.number(fair)
    assert a.helper is not None and f"; fair price {T.number(fair)}." in a.helper.text

    # the auction table: the break-even of each bidder; the seller's only where it differs
    assert table_column(ui.auction_table.value, "spec-break-even") == be
    differs = any(be[s] != sbe[s] for s in buyers)
    seller_column = table_column(ui.auction_table.value, "spec-seller-break-even")
    assert seller_column == (sbe if differs else {})
    note = text(ui.price_note.value)
    assert (T("auction.col.seller") in text(ui.auction_table.value)) == differs
    assert (T("auction.seller_note", seller=c.names[holder]) in note) == differs
    assert T("auction.price_note") in note and T("odds.why_below") in note

    # the student's page at a shared table, drawn from the published moment, for each bidder
    moment = read_public_moment(public_moment(c.session, c.moment))
    for me in buyers:
        page = text(odds_value(moment, T, me))
        assert T("class.member.fair_price", value=chips(fair)) in page
        assert T("class.member.break_even", value=chips(be[me])) in page
        assert "/" not in page.split(T("class.member.expected_pot", value=""))[1]  # no exact price
        assert T("odds.fair_note") in page and T("auction.price_note") in page and T("odds.why_below") in page

    # the poll at this moment: the same numbers, taken from the odds
    poll = Poll.at(1, game, c.session.deal_number)
    poll.reveal()  # the prices are shown once the teacher reveals the answers
    shown = text(poll_html(poll, c.names, T))
    assert T("class.host.poll.fair", price=T.number(fair)) in shown
    for s in buyers:
        assert T("class.host.poll.break_even", name=c.names[s], price=T.number(be[s])) in shown
    assert T("odds.why_below") in shown


def test_o4_the_log_names_the_break_even_the_table_shows(monkeypatch: pytest.MonkeyPatch) -> None:
    """``?seed=7``, offered at once: each computer's bid is worded with the break-even the table
    shows ("Henry bids 4; their break-even is 4", not "more than the 3.5"), and "above" means
    above that number."""
    said: list[tuple[str, dict[str, Any], str]] = []
    a = from_request("seed=7&pace=instant", charts="static")
    c = a.controller
    say = c.say

    def recording(key: str, params: Any) -> str:
        words = say(key, params)
        said.append((key, dict(params), words))
        return words

    monkeypatch.setattr(c, "say", recording)
    a.ui.open_auction.click()
    table = table_column(a.ui.auction_table.value, "spec-break-even")
    bids = [(key, params, words) for key, params, words in said if key.startswith("reason.bid")]
    assert len(bids) == len(table) == 4
    for key, params, words in bids:
        seat, amount, worth = params["seat"], params["amount"], params["worth"]
        assert worth == table[seat] == odds.shown_chips(odds.break_even(c.game, seat))
        assert key.startswith("reason.bid.above") == (amount > worth)
        assert f"break-even is {T.number(worth)}" in words or f"break-even of {T.number(worth)}" in words
        assert "." not in re.sub(r"\.$", "", words.split(":")[0])  # no "3.5": whole chips only
    henry = c.names.index("Henry")
    assert any(p["seat"] == henry and w.startswith(f"Henry bids {p['amount']}") for _k, p, w in bids)
    a.close()
