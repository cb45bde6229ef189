"""Lesson 4's plots (parts 04a and 04b), in the student's language.

Every word comes from the runtime catalog ``lessons.po`` (keys ``lesson.l4.plot.*``); the numbers
come from :mod:`speculation_nb.lessons.lesson4`. :mod:`.lesson4_show` re-exports them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from .. import odds
from ..engine.cards import Card, Suit
from ..engine.game import Game
from ..engine.settings import Rules
from ..languages.translator import Translator, translator
from .common import pyplot
from .lesson4 import (
    HANDS,
    PLAYERS,
    Pots,
    any_hold_table,
    card_values,
    carry_table,
    fair_price_table,
    hold_table,
    jack_five_table,
    long_run_pot,
    opening,
    short_of_chips,
)

__all__ = [
    "plot_carry_over",
    "plot_jack_five",
    "plot_long_hands",
    "plot_pile_purchase",
    "plot_pots",
    "plot_three_carry_overs",
]


def _exact(x: Any, lang: str) -> str:
    from .lesson4_show import exact

    return exact(x, lang=lang)


_STYLES = {3: ("tab:blue", "o", "-"), 4: ("tab:orange", "s", "--"), 5: ("tab:green", "^", ":")}


def _by_hands(ax: Any, table: Mapping[int, Sequence[Any]], label: str, t: Translator) -> None:
    """One line per hand size (3, 4, 5 cards: :data:`_STYLES`) of ``table`` against the number of
    players; ``label`` the catalog key of its legend (with ``count``: the hand size)."""
    for k in HANDS:
        colour, marker, line = _STYLES[k]
        ax.plot(
            PLAYERS,
            [float(v) for v in table[k]],
            color=colour,
            marker=marker,
            linestyle=line,
            label=t(label, count=k),
        )


def _by_players(ax: Any, title: str, ylabel: str, t: Translator) -> None:
    """A panel against the number of players: its title, the axes' words, a tick per table size."""
    ax.set_title(t(title))
    ax.set_xlabel(t("lesson.l4.plot.players"))
    ax.set_ylabel(t(ylabel))
    ax.set_xticks(PLAYERS)


def plot_long_hands(lang: str = "en") -> None:
    """Three panels: O1 of a Queen turn-up, O1 of a random turn-up, and the Queen's fair price,
    against the number of players, for 3, 4 and 5 cards each."""
    plt = pyplot()
    t = translator(lang)
    panels = [
        (hold_table(), "lesson.l4.plot.queen_hold", "lesson.l4.plot.chance_queen"),
        (any_hold_table(), "lesson.l4.plot.any_hold", "lesson.l4.plot.chance_turn_up"),
        (fair_price_table(), "lesson.l4.plot.queen_price", "lesson.l4.plot.chips"),
    ]
    fig, axes = plt.subplots(1, 3, figsize=(14, 4.2))
    for ax, (data, title, ylabel) in zip(axes, panels):
        _by_hands(ax, data, "lesson.l4.plot.cards_each", t)
        _by_players(ax, title, ylabel, t)
    for ax in axes[:2]:
        ax.set_ylim(0, 1)
    axes[0].legend()
    fig.suptitle(t("lesson.l4.plot.long_hands"))
    fig.tight_layout()
    plt.show()


def plot_carry_over(lang: str = "en") -> None:
    """Left: the carry-over chance at four players with a dead pile, by the turn-up's rank.
    Right: a random turn-up, by the number of players and the hand size."""
    plt = pyplot()
    t = translator(lang)
    rules = Rules(players=4, dead_hand=True)
    by_rank = [odds.win_probabilities(opening(rules, Card(rank, Suit.HEARTS)))[None] for rank in range(2, 14)]
    carry = carry_table()
    fig, (left, right) = plt.subplots(1, 2, figsize=(13, 4.2))
    labels = [t(f"card.rank.{rank}") for rank in range(2, 14)]
    left.bar(labels, [float(p) for p in by_rank], color="tab:purple", hatch="//", edgecolor="white")
    left.tick_params(axis="x", labelrotation=45)
    left.set_title(t("lesson.l4.plot.carry_by_rank"))
    left.set_xlabel(t("lesson.l4.plot.rank"))
    left.set_ylabel(t("lesson.l4.plot.chance_carry"))
    _by_hands(right, carry, "lesson.l4.plot.dead_cards_each", t)
    right.plot(PLAYERS, [0] * len(PLAYERS), color="black", marker="x", linestyle="-", label=t("lesson.l4.plot.no_dead"))
    _by_players(right, "lesson.l4.plot.carry_by_players", "lesson.l4.plot.chance_carry", t)
    right.set_ylim(-0.01, 0.26)
    right.legend()
    fig.tight_layout()
    plt.show()
    for i in (1, 5):
        print(t("lesson.l4.line.carry_at", count=PLAYERS[i], q=_exact(carry[3][i], lang)))


def plot_pots(pots: Pots, q: Fraction, lang: str = "en", shown: int = 100) -> None:
    """Left: the pot of each deal of the session. Right: how often a deal is played for j times
    the antes, against the exact geometric law (1-q) q^(j-1) (log scale)."""
    plt = pyplot()
    t = translator(lang)
    A = pots.antes
    average = long_run_pot(A, q)
    fig, (left, right) = plt.subplots(1, 2, figsize=(13, 4.2), gridspec_kw={"width_ratios": [3, 2]})
    left.step(
        range(1, shown + 1), pots.pots[:shown], where="mid", color="tab:purple", label=t("lesson.l4.plot.pot_played")
    )
    left.axhline(A, color="grey", linestyle=":", label=t("lesson.l4.plot.antes_only", antes=A))
    left.axhline(float(average), color="black", linestyle="--", label=f"A/(1-q) = {float(average):.2f}")
    left.set_title(t("lesson.l4.plot.pot_each_deal", count=shown))
    left.set_xlabel(t("lesson.l4.plot.deal"))
    left.set_ylabel(t("lesson.l4.plot.chips"))
    left.legend(loc="upper left")
    times = [1, 2, 3, 4, 5]
    right.bar(
        [j - 0.2 for j in times],
        [pots.share(j) for j in times],
        width=0.4,
        color="tab:purple",
        hatch="//",
        edgecolor="white",
        label=t("lesson.l4.plot.session_deals", count=len(pots.pots)),
    )
    right.bar(
        [j + 0.2 for j in times],
        [float((1 - q) * q ** (j - 1)) for j in times],
        width=0.4,
        color="grey",
        label=t("lesson.l4.plot.exact_geometric"),
    )
    right.set_yscale("log")
    right.set_title(t("lesson.l4.plot.how_many_antes"))
    right.set_xlabel(t("lesson.l4.plot.j_antes"))
    right.set_ylabel(t("lesson.l4.plot.share_log"))
    right.set_xticks(times)
    right.legend()
    fig.tight_layout()
    plt.show()


def plot_pile_purchase(steps: Sequence[Game], names: Sequence[str], lang: str = "en") -> None:
    """Left: O1 of the best trump and O2 of its holder (seat 0) after buying k cards.
    Right: what the first k cards are worth to the holder."""
    plt = pyplot()
    t = translator(lang)
    bought = list(range(len(steps)))
    hold_k = [odds.hold_probability(g) for g in steps]
    win_k = [odds.win_probabilities(g)[0] for g in steps]
    value_k = card_values(steps)
    first = steps[0]
    fig, (left, right) = plt.subplots(1, 2, figsize=(13, 4.2))
    left.plot(bought, [float(p) for p in hold_k], marker="o", color="tab:blue", label=t("lesson.l4.plot.o1_holds"))
    left.plot(
        bought,
        [float(p) for p in win_k],
        marker="s",
        linestyle="--",
        color="tab:red",
        label=t("lesson.l4.plot.o2_wins", name=names[0]),
    )
    left.set_title(t("lesson.l4.plot.after_k", name=names[0]))
    left.set_xlabel(t("lesson.l4.plot.k_bought"))
    left.set_ylabel(t("lesson.l4.plot.probability"))
    left.set_ylim(0.5, 1.02)
    right.plot(bought, [float(v) for v in value_k], marker="o", color="tab:green", label=t("lesson.l4.plot.k_worth"))
    right.axhline(
        float(first.pot - odds.expected_net(first, 0)),
        color="black",
        linestyle="--",
        label=t("lesson.l4.plot.pot_minus", name=names[0]),
    )
    right.set_title(t("lesson.l4.plot.k_worth_to", name=names[0]))
    right.set_xlabel(t("lesson.l4.plot.k_bought"))
    right.set_ylabel(t("lesson.l4.plot.chips"))
    right.set_ylim(-0.5, 10)
    size = first.rules.hand_size
    for ax, y in ((left, 0.515), (right, 9.3)):
        for i, name in enumerate(names[1:]):
            if i:
                ax.axvline(size * i, color="grey", linestyle=":", linewidth=1)
            ax.text(size * i + size / 2, y, name, ha="center", va="bottom", fontsize=9, color="dimgrey")
        ax.set_xticks(bought)
    left.legend(loc="upper left")
    right.legend(loc="lower right")
    fig.tight_layout()
    plt.show()


def plot_jack_five(game: Game, lang: str = "en") -> None:
    """Left: the expected V1 chips of ``game`` when every player keeps s chips after the ante.
    Right: the expected V1 chips of a random deal, by table size and hand size."""
    plt = pyplot()
    t = translator(lang)
    spare = list(range(6))
    extra_s = short_of_chips(game, spare)
    rich = odds.expected_pot(game) - sum(game.rules.antes(game.dealer))
    fig, (left, right) = plt.subplots(1, 2, figsize=(13, 4.2))
    left.plot(spare, [float(v) for v in extra_s], marker="o", color="tab:red", label=t("lesson.l4.plot.keeps_s"))
    left.axhline(float(rich), color="black", linestyle="--", label=t("lesson.l4.plot.plenty"))
    left.set_title(t("lesson.l4.plot.v1_seed", seed=game.seed))
    left.set_xlabel(t("lesson.l4.plot.s_after_ante"))
    left.set_ylabel(t("lesson.l4.plot.above_antes"))
    left.set_xticks(spare)
    left.legend(loc="lower right")
    _by_hands(right, jack_five_table(), "lesson.l4.plot.cards_each", t)
    _by_players(right, "lesson.l4.plot.v1_random", "lesson.l4.plot.above_antes", t)
    right.legend()
    fig.tight_layout()
    plt.show()


def plot_three_carry_overs(lang: str = "en") -> None:
    """The chance that a random deal's pot carries over: plain rules, a dead pile, Hoyle 1847."""
    plt = pyplot()
    t = translator(lang)
    dead = carry_table()[3]
    hoyle = carry_table(preset="hoyle1847")[3]
    fig, ax = plt.subplots(figsize=(8, 4.2))
    ax.plot(PLAYERS, [0] * len(PLAYERS), color="black", marker="x", label=t("lesson.l4.plot.plain"))
    ax.plot(
        PLAYERS,
        [float(p) for p in dead],
        color="tab:purple",
        marker="o",
        linestyle="--",
        label=t("lesson.l4.plot.dead"),
    )
    ax.plot(
        PLAYERS,
        [float(p) for p in hoyle],
        color="tab:brown",
        marker="D",
        linestyle="-.",
        label=t("lesson.l4.plot.hoyle"),
    )
    _by_players(ax, "lesson.l4.plot.three_carry", "lesson.l4.plot.probability", t)
    ax.legend()
    fig.tight_layout()
    plt.show()
