"""Lesson 4's tables and plots (parts 04a and 04b), in the student's language.

Every word comes from the runtime catalog ``lessons.po`` (keys ``lesson4.*``); the numbers come
from :mod:`speculation_nb.lessons.lesson4`.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from .. import odds
from ..engine.game import Game
from ..engine.settings import Rules
from ..languages.translator import translator
from ..rendering.cards import table_html
from .common import HTMLText, lines_html, word_table
from .lesson4 import (
    HANDS,
    PLAYERS,
    Pots,
    card_values,
    carry_table,
    fair_price_table,
    long_run_pot,
    opening,
)
from .lesson4_plots import (
    plot_carry_over,
    plot_jack_five,
    plot_long_hands,
    plot_pile_purchase,
    plot_pots,
    plot_three_carry_overs,
)

__all__ = [
    "dials_table",
    "exact",
    "plot_carry_over",
    "plot_jack_five",
    "plot_long_hands",
    "plot_pile_purchase",
    "plot_pots",
    "plot_three_carry_overs",
    "show",
    "table",
]


# --------------------------------------------------------------------------- what the cells show
def exact(x: Any, digits: int = 4, lang: str = "en") -> str:
    """An exact number and its decimal, ``'247/425 ≈ 0.5812'`` (a whole number alone; only the
    decimal when the fraction is unreadably long), written the way ``lang`` writes numbers."""
    x = Fraction(x)
    t = translator(lang)
    if x.denominator == 1:
        return t.number(x.numerator)
    if x.denominator > 10**8:
        return f"≈ {t.number(float(x), digits)}"
    return f"{x.numerator}/{x.denominator} ≈ {t.number(float(x), digits)}"


def show(game: Game, names: Sequence[str] | None = None, lang: str = "en") -> HTMLText:
    """The table (face-down piles, cards turned up, pot, holder), drawn in ``lang``."""
    t = translator(lang)
    return HTMLText(table_html(game, names, texts=t.render_texts(), number=t.number))


def table(header: Sequence[str], rows: Sequence[Sequence[Any]], lang: str = "en") -> HTMLText:
    """A plain HTML table; ``header`` are catalog keys, the cells are shown as they are (escaped)."""
    t = translator(lang)
    return word_table([t(key) for key in header], rows)


def dials() -> list[tuple[str, Rules]]:
    """The same moment under every set of rules of the lesson: (catalog key of its name, rules)."""
    return [
        ("lesson.l4.dial.plain", Rules(players=4)),
        ("lesson.l4.dial.long4", Rules(players=4, hand_size=4)),
        ("lesson.l4.dial.long5", Rules(players=4, hand_size=5)),
        ("lesson.l4.dial.dead", Rules(players=4, dead_hand=True)),
        ("lesson.l4.dial.jack_five", Rules(players=4, jack_five=True)),
        ("lesson.l4.dial.hoyle", Rules(players=4, preset="hoyle1847")),
    ]


def dials_table(lang: str = "en") -> Any:
    """Four players, the Queen of hearts turned up, before the first reveal, under every set of rules."""
    t = translator(lang)
    rows = []
    for key, rules in dials():
        g = opening(rules, "QH")
        w = odds.win_probabilities(g)
        rows.append(
            [
                t(key),
                exact(odds.hold_probability(g), lang=lang),
                t.number(float(w[0]), 4),
                t.number(float(w[None]), 4),
                t.number(float(odds.expected_pot(g)), 2),
                t.number(float(odds.fair_price(g)), 2),
            ]
        )
    return table(
        [
            "lesson.l4.head.rules",
            "lesson.l4.head.o1",
            "lesson.l4.head.o2_dealer",
            "lesson.l4.head.carry",
            "lesson.l4.head.o3",
            "lesson.l4.head.o4",
        ],
        rows,
        lang,
    )


# --------------------------------------------------------------------------- part 04a
def explain(game: Game, lang: str = "en", owner: int | None = None) -> None:
    """Print O1 in words, its formula, and the pot."""
    t = translator(lang)
    print(odds.explain_hold(game, owner).words(t))
    print(t("lesson.l4.line.o1_pot", o1=exact(odds.hold_probability(game, owner), lang=lang), pot=t.number(game.pot)))


def antes_table(lang: str = "en", players: int = 5) -> Any:
    """The antes of V5 for 3, 4 and 5 cards each, and the pot at ``players`` players."""
    rows = []
    for k in HANDS:
        rules = Rules(players=players, hand_size=k)
        rows.append([k, rules.dealer_ante, rules.player_ante, sum(rules.antes(0))])
    return table(
        [
            "lesson.l4.head.cards_each",
            "lesson.l4.head.dealer_antes",
            "lesson.l4.head.other_antes",
            "lesson.l4.head.pot_five",
        ],
        rows,
        lang,
    )


def long_against_short(game: Game, lang: str = "en") -> None:
    """The long-hand deal's O1 against the same turn-up in three-card hands."""
    t = translator(lang)
    long_ = odds.explain_hold(game)
    short = odds.explain_hold(opening(Rules(players=game.rules.players), game.turn_up))
    print(t("lesson.l4.line.hand_of", count=game.rules.hand_size), long_.words(t))
    print(t("lesson.l4.line.hand_of", count=3), short.words(t))
    print(
        t(
            "lesson.l4.line.falls",
            short=exact(short.probability, lang=lang),
            long=exact(long_.probability, lang=lang),
            n_short=short.n,
            n_long=long_.n,
            U=long_.U,
            h=long_.h,
        )
    )


def fair_prices(lang: str = "en") -> None:
    """The Queen's fair price at every table size and hand size, in chips."""
    t = translator(lang)
    prices = fair_price_table()
    for i, n in enumerate(PLAYERS):
        cells = ", ".join(
            t("lesson.l4.line.price_cards", price=t.number(float(prices[k][i]), 2), count=k) for k in HANDS
        )
        print(t("lesson.l4.line.price_players", count=n, prices=cells))


def with_and_without(dead: Game, without: Game, lang: str = "en") -> None:
    t = translator(lang)
    print(t("lesson.l4.line.with_dead"), odds.explain_hold(dead).words(t))
    print(t("lesson.l4.line.without_dead"), odds.explain_hold(without).words(t))


def wins_table(game: Game, names: Sequence[str], lang: str = "en") -> Any:
    """O2: who takes the pot, with the carried-over pot as its own row."""
    t = translator(lang)
    wins = odds.win_probabilities(game)
    rows = [
        [names[seat] if seat is not None else t("lesson.l4.line.nobody"), exact(p, lang=lang)]
        for seat, p in wins.items()
    ]
    rows.append([t("lesson.l4.line.total"), exact(sum(wins.values()), lang=lang)])
    return table(["lesson.l4.head.who", "lesson.l4.head.exact_chance"], rows, lang)


def next_pot(played: Game, following: Game, lang: str = "en") -> None:
    t = translator(lang)
    cards = ", ".join(t.card_name(c) for c in played.dead_cards or [])
    print(t("lesson.l4.line.dead_was", cards=cards, rule=played.end_rule or "", pot=played.pot))
    print(
        t(
            "lesson.l4.line.next_pot",
            pot=following.pot,
            carried=played.pot,
            antes=sum(following.rules.antes(following.dealer)),
        )
    )


def session_summary(pots: Pots, lang: str = "en") -> None:
    t = translator(lang)
    q = carry_table()[3][1]
    print(
        t(
            "lesson.l4.line.long_run",
            A=pots.antes,
            q=t.number(float(q), 4),
            P=t.number(float(long_run_pot(pots.antes, q)), 2),
        )
    )
    share = sum(pots.carried) / len(pots.carried)
    print(
        t(
            "lesson.l4.line.session",
            count=len(pots.pots),
            mean=t.number(pots.mean, 2),
            share=t.percent(share),
            exact=t.percent(float(q)),
        )
    )


def rule_a_table(lang: str = "en") -> Any:
    """Lesson 3's rule A at its worst moment, for every table size and three variants."""
    from .lesson4 import rule_a_table as rows_of

    t = translator(lang)
    rows = [
        [n] + [f"{t.percent(float(p))}{' ✘' if p < Fraction(4, 5) else ''}" for p in floors] for n, *floors in rows_of()
    ]
    return table(
        [
            "lesson.l4.head.players",
            "lesson.l4.head.plain",
            "lesson.l4.head.dead",
            "lesson.l4.head.four",
            "lesson.l4.head.five",
        ],
        rows,
        lang,
    )


# --------------------------------------------------------------------------- part 04b
def trade_table(game: Game, names: Sequence[str], lang: str = "en", buyer: int = 0, seller: int = 1) -> Any:
    """The holder buys 1, 2, 3 cards of ``seller``'s pile: O1, O2, the two break-even prices, the others."""
    from .lesson4 import final_chips, trade_values

    rows = [
        [
            0,
            exact(odds.hold_probability(game), lang=lang),
            exact(odds.win_probabilities(game)[buyer], lang=lang),
            "–",
            "–",
            "–",
        ]
    ]
    others = [s for s in range(game.rules.players) if s not in (buyer, seller)]
    for k in range(1, game.face_down[seller] + 1):
        most, least, after = trade_values(game, buyer, seller, k)
        change = sum(final_chips(after, s) - final_chips(game, s) for s in others)
        rows.append(
            [
                k,
                exact(odds.hold_probability(after), lang=lang),
                exact(odds.win_probabilities(after)[buyer], lang=lang),
                exact(most, lang=lang),
                exact(least, lang=lang),
                exact(change, lang=lang),
            ]
        )
    t = translator(lang)
    header = [
        t("lesson.l4.head.cards_from", buyer=names[buyer], seller=names[seller]),
        t("lesson.l4.head.o1"),
        t("lesson.l4.head.o2_of", name=names[buyer]),
        t("lesson.l4.head.most", name=names[buyer]),
        t("lesson.l4.head.least", name=names[seller]),
        t("lesson.l4.head.others"),
    ]
    return word_table(header, rows)


def pile_lines(steps: Sequence[Game], lang: str = "en") -> None:
    """What one card and all the cards are worth, and O1, O2 at the end of the purchase."""
    t = translator(lang)
    values = card_values(steps)
    last = steps[-1]
    print(
        t(
            "lesson.l4.line.per_card",
            one=exact(values[1], lang=lang),
            count=len(steps) - 1,
            all=exact(values[-1], lang=lang),
        )
    )
    print(
        t(
            "lesson.l4.line.at_end",
            o1=exact(odds.hold_probability(last), lang=lang),
            o2=exact(odds.win_probabilities(last)[0], lang=lang),
        )
    )


def peek(game: Game, names: Sequence[str], lang: str = "en", price: int = 2) -> HTMLText:
    """Play the deal out as dealt and after the holder buys the next pile for ``price`` chips."""
    from .lesson4 import play_out

    t = translator(lang)
    as_dealt = play_out(game.copy())
    traded = game.copy()
    traded.blind_trade(0, 1, game.face_down[1], price)
    play_out(traded)
    parts = []
    for title, g in (
        (t("lesson.l4.line.as_dealt"), as_dealt),
        (t("lesson.l4.line.after_buying", seller=names[1], price=price), traded),
    ):
        winner = names[g.winner] if g.winner is not None else t("lesson.l4.line.nobody")
        parts += [
            f"<h4>{html.escape(title)}</h4>",
            show(g, names, lang),
            lines_html(
                t(
                    "lesson.l4.line.outcome",
                    name=winner,
                    card=t.card_name(g.best_trump),
                    stacks=", ".join(map(str, g.stacks)),
                )
            ),
        ]
    return HTMLText("".join(parts))


def dead_trade_table(game: Game, lang: str = "en", buyer: int = 0, seller: int = 1) -> Any:
    """With a dead pile: the buyer's most, the seller's least, the gap, and the pot times the rise in the carry-over."""
    from .lesson4 import trade_values

    t = translator(lang)
    before = odds.win_probabilities(game)[None]
    print(t("lesson.l4.line.carry_before", card=t.card_name(game.turn_up), q=exact(before, lang=lang)))
    rows = []
    for k in range(1, game.face_down[seller] + 1):
        most, least, after = trade_values(game, buyer, seller, k)
        q = odds.win_probabilities(after)[None]
        rows.append(
            [
                k,
                exact(most, lang=lang),
                exact(least, lang=lang),
                exact(least - most, lang=lang),
                exact(q, lang=lang),
                exact(game.pot * (q - before), lang=lang),
            ]
        )
    return table(
        [
            "lesson.l4.head.bought",
            "lesson.l4.head.most_buyer",
            "lesson.l4.head.least_seller",
            "lesson.l4.head.gap",
            "lesson.l4.head.carry_after",
            "lesson.l4.head.pot_rise",
        ],
        rows,
        lang,
    )


def jack_five_lines(game: Game, lang: str = "en") -> None:
    from .lesson4 import jack_five_bound

    t = translator(lang)
    antes = sum(game.rules.antes(game.dealer))
    expected = odds.expected_pot(game)
    print(t("lesson.l4.line.pot_now", pot=game.pot, antes=antes, extra=game.pot - antes))
    print(
        t(
            "lesson.l4.line.bound",
            bound=exact(jack_five_bound(game), lang=lang),
            extra=exact(expected - game.pot, lang=lang),
        )
    )
    print(t("lesson.l4.line.expected_pot", pot=exact(expected, lang=lang)))


def hoyle_carry(game: Game, names: Sequence[str], lang: str = "en") -> HTMLText:
    """Hoyle (c): the carry-over chance before the first reveal, the closed form, and the deal played out."""
    from math import comb

    from .lesson4 import play_out

    t = translator(lang)
    before = odds.win_probabilities(game)[None]
    N = game.rules.players * game.rules.hand_size
    closed = Fraction(comb(39, N), comb(51, N))
    same = t("lesson.l4.line.same") if closed == before else t("lesson.l4.line.different")
    first = t(
        "lesson.l4.line.hoyle_before", q=exact(before, lang=lang), N=N, closed=exact(closed, lang=lang), same=same
    )
    play_out(game)
    last = t("lesson.l4.line.hoyle_end", rule=game.end_rule or "", pot=game.pot)
    return HTMLText(lines_html(first) + show(game, names, lang) + lines_html(last))


def record_lines(game: Game, names: Sequence[str], lang: str = "en") -> HTMLText:
    """Hoyle (b): the holder's last cards turned up for the record."""
    t = translator(lang)
    lines = []
    for event in game.events:
        if event.kind == "holder_cards":
            cards = ", ".join(t.card_name(c) for c in event["cards"])
            lines.append(t("lesson.l4.line.record", name=names[event["seat"]], cards=cards))
    winner = names[game.winner] if game.winner is not None else t("lesson.l4.line.nobody")
    lines.append(t("lesson.l4.line.record_end", card=t.card_name(game.best_trump), name=winner))
    return HTMLText(show(game, names, lang) + lines_html(*lines))
