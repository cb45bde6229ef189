"""Lesson 5's tables, stories and plots (parts 05a and 05b), in the student's language.

Every word comes from the catalogs: the lesson's own keys ``lesson.l5.*`` (``lessons.po``) and the
app's log of a deal (``log.*``); the numbers come from :mod:`speculation_nb.lessons.evening`.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from math import sqrt
from typing import Any

from .. import odds
from ..engine.game import Game
from ..engine.session import Session
from ..languages.translator import Translator, translator
from ..players import Cast
from ..players.tournament import Tournament
from . import evening as E
from .common import WORDS_CELL, HTMLText, lines_html, pyplot, word_table
from .lesson4_show import exact, show

__all__ = [
    "cast_table",
    "dozen_plot",
    "knave_lines",
    "knave_worth_table",
    "plot_buying",
    "plot_edge_luck",
    "plot_nets",
    "plot_running",
    "purchase_lines",
    "queen_table",
    "standings",
    "story",
    "trades_table",
    "what_if_table",
]

#: One colour per character, in every figure.
COLOURS = ("#8c6bb1", "#2c7fb8", "#41ab5d", "#fd8d3c", "#d7301f", "#737373")


def _table(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> HTMLText:
    return word_table(header, rows, cell=WORDS_CELL + ";vertical-align:top")


def _chips(t: Translator, x: float, digits: int = 1) -> str:
    return t.number(x, digits)


def _signed(t: Translator, x: float, digits: int = 2) -> str:
    return ("+" if x >= 0 else "−") + t.number(abs(x), digits)


# --------------------------------------------------------------------------- part 05a
def cast_table(lang: str = "en", table: Cast | None = None) -> HTMLText:
    """The round table, seat by seat: who, and how and why they play (the cast's reasons, from the chapter)."""
    t = translator(lang)
    table = table or E.cast()
    rows = [[seat, name, why] for seat, (name, why) in enumerate(zip(table.names, table.why_in(lang)))]
    return _table([t("lesson.l5.head.seat"), t("lesson.l5.head.character"), t("lesson.l5.head.why")], rows)


def dozen_plot(lang: str = "en") -> None:
    """Lady Bertram's break-even price for Mary's queen, and the simple fair price, against the cards
    turned up; a dozen drawn across."""
    plt = pyplot()
    t = translator(lang)
    rows = E.dozen_table()
    turned = [r[0] for r in rows]
    fig, ax = plt.subplots(figsize=(8, 4.2))
    ax.plot(turned, [float(r[1]) for r in rows], marker="o", color=COLOURS[E.LADY], label=t("lesson.l5.plot.be_lady"))
    ax.plot(turned, [float(r[2]) for r in rows], marker="s", linestyle="--", color="grey", label=t("lesson.l5.plot.o4"))
    ax.axhline(E.DOZEN, color="crimson", linestyle=":", label=t("lesson.l5.plot.dozen"))
    ax.set_xlabel(t("lesson.l5.plot.turned"))
    ax.set_ylabel(t("lesson.l5.plot.chips"))
    ax.set_title(t("lesson.l5.plot.dozen_title"))
    ax.set_xticks(turned)
    ax.legend()
    fig.tight_layout()
    plt.show()


def queen_table(lang: str = "en", paid: Sequence[int] = (4, 14)) -> HTMLText:
    """Fanny's queen, as the deal goes on: its value to her, half of it, and what the engine's William bids."""
    t = translator(lang)
    william = E.cast().strategies[E.WILLIAM]
    rows = []
    for turned in range(0, 13, 2):
        values = [E.queen_value(turned, p) for p in paid]
        game = E.fanny_queen(turned, paid[0])
        game.open_auction()
        bid = william.bid(game, E.WILLIAM)
        rows.append([turned, *(t.number(v, 2) for v in values), t.number(values[0] / 2, 2), bid])
    header = [t("lesson.l5.plot.turned"), *(t("lesson.l5.head.value_paid", paid=p) for p in paid)]
    return _table([*header, t("lesson.l5.head.half"), t("lesson.l5.head.william_bids")], rows)


def knave_worth_table(lang: str = "en") -> HTMLText:
    """William's knave, as the deal goes on: the pot, its worth to Mary, and what a price above the pot
    costs her; with no trump turned up (the lesson's layout), and in the other case, the 2♥ turned up first."""
    t = translator(lang)
    rows = []
    for (turned, pot, worth), (_, _, other) in zip(E.knave_table(), E.knave_table(low_trump=True), strict=True):
        cells = (worth, pot + 1 - worth, other, pot + 1 - other)
        rows.append([turned, pot, *(t.number(v, 2) for v in cells)])
    return _table(
        [
            t("lesson.l5.plot.turned"),
            t("lesson.l5.head.pot"),
            t("lesson.l5.head.knave_worth"),
            t("lesson.l5.head.knave_cost"),
            t("lesson.l5.head.knave_worth_trump"),
            t("lesson.l5.head.knave_cost_trump"),
        ],
        rows,
    )


def knave_lines(lang: str = "en") -> HTMLText:
    """When the knave is worth most to Mary, and what a price of the pot plus one costs her even then."""
    t = translator(lang)
    turned, pot, worth = max(E.knave_table(), key=lambda r: r[2])
    return lines_html(
        t(
            "lesson.l5.line.knave_best",
            worth=t.number(worth, 2),
            turned=turned,
            pot=pot,
            cost=t.number(pot + 1 - worth, 2),
        )
    )


# --------------------------------------------------------------------------- one evening (05b)
def _card(t: Translator, card: Any) -> str:
    return t.card_name(card)


def story(game: Game, names: Sequence[str], lang: str = "en") -> HTMLText:
    """The deal in words: the turn-up, the auctions with their bids, each sale with what the card was
    worth to the buyer just before it (the exact break-even price), the new best trumps, the end."""
    t = translator(lang)
    lines: list[str] = []
    bids: list[str] = []
    quiet = 0
    for event in game.events:
        kind = event.kind
        if kind in ("reveal", "new_best") and quiet and kind == "new_best":
            quiet -= 1
        if kind == "reveal":
            quiet += 1
            continue
        if quiet:
            lines.append(t("lesson.l5.story.quiet", count=quiet))
            quiet = 0
        who = names[event["seat"]] if "seat" in event else ""
        if kind == "turn_up":
            lines.append(t("log.turn_up", name=who, card=_card(t, event["card"]), suit=t.suit_name(event["card"].suit)))
        elif kind == "auction_open":
            bids = []
            lines.append(t("log.auction_open", name=who, card=_card(t, event["card"])))
        elif kind == "bid":
            bids.append(f"{who} {event['amount']}")
        elif kind == "decline":
            lines.append(t("lesson.l5.story.bids", bids=", ".join(bids) or "–") + " " + t("log.decline", name=who))
        elif kind == "sale":
            before = game.at(event["step"] - 1)
            worth = odds.break_even(before, event["buyer"])
            lines.append(
                t("lesson.l5.story.bids", bids=", ".join(bids) or "–")
                + " "
                + t(
                    "lesson.l5.story.sale",
                    buyer=names[event["buyer"]],
                    seller=names[event["seller"]],
                    price=event["price"],
                    worth=t.number(float(worth), 1),
                )
            )
        elif kind == "new_best":
            lines.append(t("log.new_best", name=who, card=_card(t, event["card"])))
        elif kind == "holder_cards":
            lines.append(t("log.holder_cards", name=who, cards=", ".join(_card(t, c) for c in event["cards"])))
        elif kind == "ace_turn_up":
            lines.append(t("log.ace_turn_up", name=who, pot=event["pot"]))
        elif kind == "win":
            lines.append(t("log.win", name=who, chips=t("lesson.chips", value=event["pot"])))
        elif kind == "carry_over":
            lines.append(t("log.carry_over_hoyle", chips=t("lesson.chips", value=event["pot"])))
    if quiet:
        lines.append(t("lesson.l5.story.quiet", count=quiet))
    return lines_html(*lines)


def standings(session: Session, rows: Sequence[dict[str, Any]], lang: str = "en") -> HTMLText:
    """How an evening ended: places, chips, net, pots won, chips paid and received for cards."""
    t = translator(lang)
    out = [
        [
            s.place,
            s.name,
            s.stack,
            f"{rows[s.seat]['net']:+d}",
            rows[s.seat]["deals_won"],
            rows[s.seat]["paid"],
            rows[s.seat]["received"],
        ]
        for s in session.standings()
    ]
    keys = ("place", "character", "chips", "net", "pots", "paid", "received")
    return _table([t(f"lesson.l5.head.{k}") for k in keys], out)


def find_dear_win(session: Session) -> int | None:
    """The first deal of the evening Mary won although the pot was smaller than what she paid in it."""
    for k, game in enumerate(session.games):
        paid = sum(e["price"] for e in game.events if e.kind == "sale" and e["buyer"] == E.MARY)
        if game.winner == E.MARY and paid > odds.pot_played_for(game):
            return k
    return None


# --------------------------------------------------------------------------- thousands of evenings (05b)
def plot_nets(result: Tournament, lang: str = "en") -> None:
    """The mean net chips per evening of each character, with 95% intervals; and the spread of single evenings."""
    plt = pyplot()
    t = translator(lang)
    summary = result.summary(("net",))
    order = sorted(range(6), key=lambda s: summary[s]["net_mean"])
    fig, (left, right) = plt.subplots(1, 2, figsize=(13, 4.2))
    left.barh(
        [result.names[s] for s in order],
        [summary[s]["net_mean"] for s in order],
        xerr=[1.96 * summary[s]["net_se"] for s in order],
        capsize=4,
        color=[COLOURS[s] for s in order],
    )
    left.axvline(0, color="black", lw=1)
    left.set_xlabel(t("lesson.l5.plot.net_ci"))
    left.set_title(t("lesson.l5.plot.who_richer", count=result.evenings))
    right.boxplot([result.column("net", s) for s in order], vert=False, showfliers=False, whis=(5, 95))
    right.set_yticks(range(1, 7), [result.names[s] for s in order])
    right.axvline(0, color="black", lw=1)
    right.set_xlabel(t("lesson.l5.plot.net_one"))
    right.set_title(t("lesson.l5.plot.luck"))
    fig.tight_layout()
    plt.show()


def net_lines(result: Tournament, lang: str = "en") -> HTMLText:
    t = translator(lang)
    lines = []
    for line in result.summary(("net",)):
        lines.append(
            t(
                "lesson.l5.line.net",
                name=line["name"],
                mean=_signed(t, line["net_mean"]),
                low=_signed(t, line["net_low"]),
                high=_signed(t, line["net_high"]),
            )
        )
    share, low, high = E.ended_early(result)
    lines.append(
        t(
            "lesson.l5.line.early",
            share=t.percent(share),
            low=t.percent(low),
            high=t.percent(high),
            count=result.evenings,
        )
    )
    return lines_html(*lines)


def trades_table(result: Tournament, lang: str = "en") -> HTMLText:
    """Per evening, on average: cards bought, paid, their worth; cards sold, received, their worth; pots; antes."""
    t = translator(lang)
    summary = result.summary(("paid", "worth_bought", "received", "worth_sold", "pots_won", "antes", "edge"))
    rows = []
    for s in range(6):
        line = summary[s]
        rows.append(
            [
                result.names[s],
                t.number(result.mean("bought", s), 2),
                _chips(t, line["paid_mean"]),
                _chips(t, line["worth_bought_mean"]),
                t.number(result.mean("sold", s), 2),
                _chips(t, line["received_mean"]),
                _chips(t, line["worth_sold_mean"]),
                _chips(t, line["pots_won_mean"]),
                _chips(t, line["antes_mean"]),
                f"{_signed(t, line['edge_mean'])} ± {t.number(1.96 * line['edge_se'], 2)}",
            ]
        )
    keys = (
        "character",
        "bought",
        "paid",
        "worth_bought",
        "sold",
        "received",
        "worth_sold",
        "pots_won",
        "antes",
        "edge",
    )
    return _table([t(f"lesson.l5.head.{k}") for k in keys], rows)


def plot_buying(result: Tournament, lang: str = "en") -> None:
    plt = pyplot()
    t = translator(lang)
    summary = result.summary(("paid", "worth_bought", "received", "worth_sold"))
    fig, ax = plt.subplots(figsize=(9, 4))
    width = 0.2
    series = [("paid", "#d7301f"), ("worth_bought", "#fc9272"), ("received", "#2c7fb8"), ("worth_sold", "#9ecae1")]
    for i, (key, colour) in enumerate(series):
        ax.bar(
            [x + (i - 1.5) * width for x in range(6)],
            [summary[s][f"{key}_mean"] for s in range(6)],
            width,
            label=t(f"lesson.l5.plot.{key}"),
            color=colour,
        )
    ax.set_xticks(range(6), [n.split()[0] for n in result.names])
    ax.set_ylabel(t("lesson.l5.plot.per_evening"))
    ax.set_title(t("lesson.l5.plot.buying"))
    ax.legend(fontsize=9)
    fig.tight_layout()
    plt.show()


def plot_edge_luck(result: Tournament, lang: str = "en") -> None:
    plt = pyplot()
    t = translator(lang)
    parts = result.summary(("baseline", "edge", "luck"))
    fig, ax = plt.subplots(figsize=(9, 4))
    width = 0.27
    for i, (key, colour) in enumerate([("baseline", "#bdbdbd"), ("edge", "#2c7fb8"), ("luck", "#fdae6b")]):
        ax.bar(
            [x + (i - 1) * width for x in range(6)],
            [p[f"{key}_mean"] for p in parts],
            width,
            yerr=[1.96 * p[f"{key}_se"] for p in parts],
            capsize=3,
            label=t("lesson.l5.plot.luck_part" if key == "luck" else f"lesson.l5.plot.{key}"),
            color=colour,
        )
    ax.axhline(0, color="black", lw=1)
    ax.set_xticks(range(6), [n.split()[0] for n in result.names])
    ax.set_ylabel(t("lesson.l5.plot.per_evening_ci"))
    ax.set_title(t("lesson.l5.plot.split"))
    ax.legend()
    fig.tight_layout()
    plt.show()


def plot_running(result: Tournament, seats: Sequence[int] = (E.MARY, E.HENRY), lang: str = "en") -> None:
    """The running mean of net chips per evening, with its 95% band: the law of large numbers."""
    plt = pyplot()
    t = translator(lang)
    fig, ax = plt.subplots(figsize=(8, 4))
    for seat in seats:
        values = [float(v) for v in result.column("net", seat)]
        total = total_sq = 0.0
        xs, mean, low, high = [], [], [], []
        for n, x in enumerate(values, start=1):
            total += x
            total_sq += x * x
            if n >= 10:
                m = total / n
                sd = sqrt(max(total_sq / n - m * m, 0) * n / (n - 1))
                xs.append(n)
                mean.append(m)
                low.append(m - 1.96 * sd / sqrt(n))
                high.append(m + 1.96 * sd / sqrt(n))
        ax.plot(xs, mean, color=COLOURS[seat], label=result.names[seat])
        ax.fill_between(xs, low, high, color=COLOURS[seat], alpha=0.2)
    ax.axhline(0, color="black", lw=1)
    ax.set_xscale("log")
    ax.set_xlabel(t("lesson.l5.plot.evenings"))
    ax.set_ylabel(t("lesson.l5.plot.running"))
    ax.set_title(t("lesson.l5.plot.lln"))
    ax.legend()
    fig.tight_layout()
    plt.show()


def luck_lines(result: Tournament, lang: str = "en") -> HTMLText:
    """The luck intervals that miss zero on this seed, if any."""
    t = translator(lang)
    misses = [
        t(
            "lesson.l5.line.luck_interval",
            name=line["name"],
            low=_signed(t, line["luck_low"]),
            high=_signed(t, line["luck_high"]),
        )
        for line in result.summary(("luck",))
        if not line["luck_low"] <= 0 <= line["luck_high"]
    ]
    if not misses:
        return lines_html(t("lesson.l5.line.luck_none"))
    return lines_html(t("lesson.l5.line.luck_miss", count=len(misses)), *misses)


def purchase_lines(found: Sequence[E.Purchase], lang: str = "en") -> HTMLText:
    """Mary's knaves in the simulated evenings: how many, what they cost her on average (95% interval),
    and how often the chapter's event happened: she won the deal, and the pot did not pay for the knave."""
    t = translator(lang)
    knaves = [p for p in found if p.buyer == E.MARY and p.rank == 11]
    over = [p.price - p.worth for p in knaves]
    low, high = E.interval(over)
    event = [1.0 if p.won and p.pot < p.price else 0.0 for p in knaves]
    e_low, e_high = E.interval(event)
    won = sum(p.won for p in knaves)
    mary = [p for p in found if p.buyer == E.MARY]
    return lines_html(
        t("lesson.l5.line.sales", count=len(found), mary=len(mary), share=t.percent(len(mary) / len(found))),
        t(
            "lesson.l5.line.knaves",
            count=len(knaves),
            william=sum(p.seller == E.WILLIAM for p in knaves),
            won=won,
            mean=_chips(t, sum(over) / len(over), 2),
            low=_chips(t, low, 2),
            high=_chips(t, high, 2),
        ),
        t(
            "lesson.l5.line.chapter_event",
            count=int(sum(event)),
            share=t.percent(sum(event) / len(event)),
            low=t.percent(max(0.0, e_low)),
            high=t.percent(e_high),
        ),
    )


def what_if_table(base: Tournament, others: Sequence[tuple[str, Tournament]], lang: str = "en") -> HTMLText:
    """The change in every character's mean net chips per evening under each variant, with 95% intervals
    of the paired differences (the same seeded evenings)."""
    t = translator(lang)
    rows = []
    for s in range(6):
        cells = [base.names[s], _signed(t, base.first(min(o.evenings for _, o in others)).mean("net", s))]
        for _, other in others:
            mean, low, high = E.paired(base, other, s)
            cells.append(f"{_signed(t, mean)} ({_signed(t, low)} … {_signed(t, high)})")
        rows.append(cells)
    header = [t("lesson.l5.head.character"), t("lesson.l5.head.as_cast")]
    header += [t(f"lesson.l5.head.if.{name}") for name, _ in others]
    return _table(header, rows)


def exact_chips(x: Fraction, lang: str = "en") -> str:
    """A number of chips, exact with its decimal."""
    return exact(x, 2, lang)


__all__ += ["exact_chips", "find_dear_win", "luck_lines", "net_lines", "show"]
