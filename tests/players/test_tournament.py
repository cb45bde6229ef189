"""Tournaments (speculation_nb.players.tournament): seeded, reproducible, chips kept, accounts that add up."""

from __future__ import annotations

import math
import time

import pytest

from speculation_nb import Rules
from speculation_nb.players import CAUTIOUS, FAIR, SPIRITED, PileBuyer, RandomPlayer, mansfield_park, trading
from speculation_nb.players.tournament import COLUMNS, Tournament, play_evening, tournament

CHIP_COLUMNS = (
    "start",
    "final",
    "net",
    "deals",
    "dealt",
    "deals_won",
    "pots_won",
    "antes",
    "jack_five",
    "opened",
    "bought",
    "paid",
    "sold",
    "received",
    "trades_bought",
    "cards_bought",
    "trade_paid",
    "trades_sold",
    "cards_sold",
    "trade_received",
    "shared",
    "place",
)


def evenings_of(result: Tournament) -> dict[int, list[dict]]:
    out: dict[int, list[dict]] = {}
    for row in result.rows:
        out.setdefault(row["evening"], []).append(row)
    return out


def check_accounts(result: Tournament) -> None:
    n = result.players
    assert len(result.rows) == n * result.evenings
    for rows in evenings_of(result).values():
        assert [r["seat"] for r in rows] == list(range(n))
        assert all(set(r) == set(COLUMNS) for r in rows)
        # chips are never created or destroyed (G4), the pot left at the end is shared (G3)
        assert sum(r["final"] for r in rows) == n * result.rules.start_chips
        assert sum(r["net"] for r in rows) == 0
        assert all(r["final"] >= 0 for r in rows)
        # what one pays another receives
        assert sum(r["paid"] for r in rows) == sum(r["received"] for r in rows)
        assert sum(r["bought"] for r in rows) == sum(r["sold"] for r in rows)
        assert sum(r["trade_paid"] for r in rows) == sum(r["trade_received"] for r in rows)
        assert sum(r["cards_bought"] for r in rows) == sum(r["cards_sold"] for r in rows)
        deals = rows[0]["deals"]
        assert all(r["deals"] == deals for r in rows) and 1 <= deals <= result.deals
        assert sum(r["dealt"] for r in rows) == deals
        assert sum(r["deals_won"] for r in rows) <= deals
        for r in rows:
            # the chips, column by column, make up the net result ...
            assert r["net"] == (
                r["pots_won"]
                - r["antes"]
                - r["jack_five"]
                - r["paid"]
                + r["received"]
                - r["trade_paid"]
                + r["trade_received"]
                + r["shared"]
            )
            # ... and so do baseline, edge and luck
            assert r["baseline"] + r["edge"] + r["luck"] == pytest.approx(r["net"], abs=1e-6)
            assert r["place"] == 1 + sum(1 for o in rows if o["final"] > r["final"])
            assert r["won"] == (r["place"] == 1)


def test_a_tournament_is_reproducible_with_its_seed():
    table = ["cautious", "fair", "bold", "random"]
    a = tournament(table, evenings=8, seed=11)
    b = tournament(table, evenings=8, seed=11)
    assert a.rows == b.rows
    c = tournament(table, evenings=8, seed=12)
    assert a.rows != c.rows
    # evening e depends only on the seed and e: a shorter tournament is the start of a longer one
    assert tournament(table, evenings=3, seed=11).rows == a.first(3).rows
    with pytest.raises(ValueError):
        a.first(9)
    # the strategies, not only the cards: a random player with another seed plays otherwise
    d = tournament(["cautious", "fair", "bold", RandomPlayer(seed=99)], evenings=8, seed=11)
    assert [r["final"] for r in a.rows] != [r["final"] for r in d.rows]


def test_chips_are_conserved_and_the_accounts_add_up():
    check_accounts(tournament(["cautious", "fair", "bold", "shrewd", "spirited"], evenings=12, seed=1))


@pytest.mark.parametrize(
    "rules",
    [
        Rules(players=4, preset="hoyle1847"),
        Rules(players=5, jack_five=True, dead_hand=True),
        Rules(players=4, blind_trading=True, jack_five=True, start_chips=30),
        Rules(players=3, hand_size=5, price_cap=6, ante="uniform", uniform_ante=3),
    ],
    ids=["hoyle1847", "V1+V2", "V3+V1", "V4+V5"],
)
def test_the_accounts_add_up_in_every_preset_and_variant(rules):
    n = rules.players
    pool = [PileBuyer(), trading(CAUTIOUS), RandomPlayer(seed=4), SPIRITED, trading(FAIR)]
    result = tournament(pool[:n], rules=rules, evenings=6, deals=2 * n, seed=3)
    check_accounts(result)


def test_luck_averages_out_and_the_spirited_buyer_pays_for_it():
    """A spirited buyer pays more than the cards are worth to her: her edge is negative; the
    luck of the cards averages out (exact expected values)."""
    result = tournament(
        [SPIRITED, FAIR, FAIR, CAUTIOUS], rules=Rules(players=4, preset="hoyle1847"), evenings=120, seed=5
    )
    check_accounts(result)
    for line in result.summary(("net", "edge", "luck", "paid", "worth_bought")):
        assert line["luck_low"] < 0 < line["luck_high"] or abs(line["luck_mean"]) < 4 * line["luck_se"]
    mary = result.summary(("edge", "paid", "worth_bought"))[0]
    assert mary["edge_high"] < 0
    assert mary["paid_mean"] > mary["worth_bought_mean"]


def test_single_deals_move_the_deal_round_the_table():
    result = tournament(["fair"] * 5, evenings=10, deals=1, seed=2)
    dealers = [next(r["seat"] for r in rows if r["dealt"]) for rows in evenings_of(result).values()]
    assert dealers == [e % 5 for e in range(10)]
    fixed = tournament(["fair"] * 5, evenings=4, deals=1, seed=2, rotate_dealer=False)
    assert all(r["dealt"] == (r["seat"] == 0) for r in fixed.rows)


def test_an_evening_ends_when_someone_cannot_ante():
    session, rows = play_evening([SPIRITED, SPIRITED, FAIR], Rules(players=3, start_chips=10), deals=50, seed=1)
    assert session.over and session.ended == "ante"
    assert rows[0]["deals"] == len(session.games) < 50
    assert sum(r["final"] for r in rows) == 30


def test_the_mansfield_evening():
    cast = mansfield_park()
    session, rows = play_evening(cast, Rules(players=6, preset="hoyle1847"), seed=1814)
    assert session.names == list(cast.names)
    assert [r["name"] for r in rows] == list(cast.names)
    assert [r["strategy"] for r in rows] == ["undecided", "shrewd", "coached", "haggler", "spirited", "fair"]
    assert all(g.over for g in session.games) and len(session.games) == rows[0]["deals"]
    result = tournament(cast, rules=Rules(players=6, preset="hoyle1847"), evenings=5, seed=1814)
    assert result.names == cast.names
    check_accounts(result)


def test_the_result_table():
    result = tournament(["cautious", "fair", "bold"], evenings=10, seed=7)
    assert result.column("net", 1) == [r["net"] for r in result.rows if r["seat"] == 1]
    assert len(result.column("net")) == 30
    with pytest.raises(KeyError):
        result.column("wealth")
    summary = result.summary()
    assert [line["seat"] for line in summary] == [0, 1, 2]
    for line in summary:
        assert line["net_low"] <= line["net_mean"] <= line["net_high"]
        assert line["net_mean"] == pytest.approx(result.mean("net", line["seat"]))
        low, high = result.interval("net", line["seat"])
        assert (low, high) == pytest.approx((line["net_low"], line["net_high"]))
        assert 0 <= line["won"] <= 1
    assert sum(line["net_mean"] for line in summary) == pytest.approx(0, abs=1e-9)
    assert "<table" in result._repr_html_() and "cautious" in repr(result)
    quick = tournament(["cautious", "fair", "bold"], evenings=3, seed=7, accounting=False)
    assert all(math.isnan(r["edge"]) for r in quick.rows)
    assert [r["final"] for r in quick.rows] == [r["final"] for r in result.rows[:9]]


def test_the_garbage_collector_is_left_as_it_was():
    import gc

    assert gc.isenabled()
    tournament(["fair", "fair", "fair"], evenings=2, seed=1)
    assert gc.isenabled()
    gc.disable()
    try:
        tournament(["fair", "fair", "fair"], evenings=2, seed=1)
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_bad_tournaments_are_refused():
    with pytest.raises(ValueError):
        tournament(["fair", "fair", "fair"], evenings=0)
    with pytest.raises(ValueError):
        tournament(["fair", "fair", "fair"], rules=Rules(players=4))
    with pytest.raises(ValueError):
        tournament(["fair", "fair", "nonsense"])
    with pytest.raises(ValueError):
        tournament(["fair", "fair", 3])
    with pytest.raises(ValueError):
        tournament({0: FAIR, 2: FAIR, 3: FAIR})


def test_a_tournament_is_quick():
    """Lesson 5 plays thousands of evenings: a hundred six-deal evenings of the novel's table take a
    few seconds (well under 20 s even on a busy machine)."""
    start = time.process_time()
    tournament(mansfield_park(), rules=Rules(players=6, preset="hoyle1847"), evenings=100, seed=3)
    assert time.process_time() - start < 20


def test_an_evenings_seed_is_pinned():
    """A tournament's seed means the same evenings in every version from now on: the salt of the
    evenings' shuffles is data, not a module path (the layout move changed it once; CHANGELOG)."""
    from speculation_nb.players.tournament import EVENING_SALT, evening_seed

    assert EVENING_SALT == "speculation_nb.players.tournament"
    assert (evening_seed(25, 0), evening_seed(1, 3)) == (267141281340443, 251258762559364)
