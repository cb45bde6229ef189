"""The student's view of a shared table, drawn from the published moment only.

The referee (the teacher's kernel) computes each :class:`~speculation_nb.classroom.moment.Moment`
once, from the public facts, odds included; a student's page only words and draws it. Nothing
here computes a chance: a student's kernel shows the referee's numbers, exact fractions as
published and their percentages, so that every page of the class shows the same figures as
the projector.

* :func:`table_value`: the table as the app draws it (:func:`speculation_nb.rendering.cards.table_html`,
  fed by :class:`MomentTable`, which reads a moment the way ``table_html`` reads a game);
* :func:`odds_value`: the chance that the best trump holds, each seat's chance of the pot,
  the expected pot, the fair price and the member's own break-even, as text: every price in the
  whole chips the projector shows (:class:`~speculation_nb.odds.Prices`), under the same names,
  each defined once by the projector's own line;
* :func:`seats_value`: who sits where (people, a computer player, the teacher, free);
* :func:`banner_text`: the line over the table while the teacher has paused or looks back (T4), or
  shows a question deal (issue 25: a question, not the game);
* :func:`last_event_html`: what just happened, worded as the app's log words it;
* :func:`poll_html`: the poll's question (a question deal's own: a bank moment's in the page's
  language, or the teacher's as typed, escaped, its direction its own), then its state.

Every name is escaped and bidi-isolated (T11).
"""

from __future__ import annotations

from fractions import Fraction

from ...classroom.moment import Moment
from ...engine import bank
from ...engine.cards import Card
from ...languages.translator import Safe, Translator
from ...odds import shown_chips
from ...odds.moment import DealMoment
from ...rendering.cards import table_html
from ..common.parts import bidi, card_html, esc
from ..common.who import who_is_who
from ..player.log_view import event_html

__all__ = [
    "MomentTable",
    "banner_text",
    "exact_text",
    "last_event_html",
    "odds_value",
    "poll_html",
    "seat_names",
    "seats_value",
    "table_value",
]


def exact_text(value: Fraction) -> str:
    """``3/7``, or ``12`` for a whole number: the form the moment publishes."""
    return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"


def seat_names(moment: Moment) -> list[str]:
    """The seats' display names, as the referee published them."""
    return list(moment.names)


class MomentTable:
    """What :func:`~speculation_nb.rendering.cards.table_html` reads of a game, read off a
    :class:`~speculation_nb.odds.moment.DealMoment` (the published moment is one): not another
    model of the moment, only the names the drawing reads. Public facts only (face-down cards are
    counts, never cards)."""

    def __init__(self, moment: DealMoment) -> None:
        self.rules = _Rules(moment.players, moment.dead > 0 or moment.dead_cards is not None)
        self.turn_up = moment.turn_up
        self.best_trump = moment.best
        self.trump = moment.trump
        self.holder = moment.holder
        self.over = moment.over
        self.turn = None if moment.over else moment.turn
        self.stacks = list(moment.stacks)
        self.face_down = list(moment.face_down)
        self.face_up = [list(cards) for cards in moment.face_up]
        self.pot = moment.pot
        self.dead = moment.dead
        self.dead_cards = None if moment.dead_cards is None else list(moment.dead_cards)
        self.dealer = moment.dealer
        self.winner = moment.winner
        self.auction = {} if moment.auction is None else dict(moment.auction.bids)


class _Rules:
    def __init__(self, players: int, dead_hand: bool) -> None:
        self.players = players
        self.dead_hand = dead_hand


def table_value(moment: Moment, t: Translator, me: int | None = None) -> str:
    """The table of ``moment`` as HTML (seat ``me`` marked as the reader's own)."""
    names = seat_names(moment)
    if me is not None and 0 <= me < len(names):
        names[me] = t("seat.you", name=names[me])
    width = 54 if len(names) <= 5 else 46
    return table_html(MomentTable(moment), names, texts=t.render_texts(), card_width=width, number=t.number)


def _chance(value: Fraction, t: Translator) -> str:
    return f"{t.percent(value)} = {exact_text(value)}"


def _chips(value: Fraction | int, t: Translator) -> str:
    """A price as every screen shows it: whole chips, rounded half up (``10 chips``)."""
    return t.plural("unit.chips", shown_chips(value))


def _about_chips(value: Fraction, t: Translator) -> str:
    """The expected pot as the projector shows it: ``22 chips``, or ``≈ 10 chips``."""
    text = _chips(value, t)
    return text if value.denominator == 1 else t("odds.about", value=text)


def odds_value(moment: Moment, t: Translator, me: int | None = None) -> Safe:
    """The published odds in words (see the module docstring); the settled line once over."""
    odds = moment.odds
    names = seat_names(moment)
    out = [f'<div class="spec-box-title">{esc(t("class.member.odds_title"))}</div>']
    if moment.over:
        out.append(f'<div class="spec-member-settled">{esc(t("class.member.settled"))}</div>')
    hold = odds.hold
    words = t.html("class.member.hold", card=card_html(moment.best, t), pct=t.percent(hold), fraction=exact_text(hold))
    out.append(f'<div class="spec-member-hold">{words}</div>')
    rows = []
    for seat in range(moment.players):
        chance = odds.win.get(seat)
        if chance is None:
            continue
        rows.append(
            f'<li data-seat="{seat}"><b>{bidi(names[seat])}</b> '
            f'<span class="spec-member-number">{esc(_chance(chance, t))}</span></li>'
        )
    nobody = odds.win.get(None)
    if nobody:
        words = t.html("class.member.win_none", pct=t.percent(nobody), fraction=exact_text(nobody))
        rows.append(f'<li data-seat="none">{words}</li>')
    out.append(f'<div class="spec-member-win-title">{esc(t("class.member.win_title"))}</div>')
    out.append(f'<ul class="spec-member-win">{"".join(rows)}</ul>')
    prices = odds.prices
    shown = (
        ("expected-pot", "class.member.expected_pot", _about_chips(odds.expected_pot, t)),
        ("fair", "class.member.fair_price", _chips(prices.fair, t)),
    )
    for cls, key, value in shown:
        out.append(f'<div class="spec-member-{cls}">{t.html(key, value=value)}</div>')
    notes = [t.html("odds.fair_note")]
    mine = None if me is None else prices.break_even.get(me)
    if mine is not None:
        words = t.html("class.member.break_even", value=_chips(mine, t))
        out.append(f'<div class="spec-member-break-even">{words}</div>')
        notes += [t.html("auction.price_note"), t.html("odds.why_below")]
    out.append(f'<div class="spec-member-price-note">{"".join(f"<div>{n}</div>" for n in notes)}</div>')
    return Safe("".join(out))


def seats_value(moment: Moment, t: Translator) -> Safe:
    """Who sits at each seat, in words (never colour alone): :func:`~..common.who.who_is_who`."""
    rows = who_is_who(moment.seats, seat_names(moment), t)
    title = esc(t("class.member.seats_title"))
    return Safe(f'<div class="spec-box-title">{title}</div><ul class="spec-member-seat-list">{rows}</ul>')


def banner_text(moment: Moment, t: Translator) -> str:
    """The T4 line: a question deal is shown (issue 25: a question, not the game, no chips move),
    paused, or the teacher looks back at an earlier step; ``""`` when live."""
    if moment.question is not None:
        asked = t("class.member.question_shown")
        return f"{t('class.member.paused')} {asked}" if moment.paused else asked
    if moment.paused:
        return t("class.member.paused")
    if not moment.live:
        return t("class.member.looking_back", step=t.number(moment.step), last=t.number(moment.last))
    return ""


def last_event_html(moment: Moment, t: Translator) -> str:
    """The moment's last event as the log's line (``""`` when there is none, or it is not one the
    log words). Its cards travel as codes and are read back here."""
    event = moment.last_event
    if not event:
        return ""
    shown = dict(event)
    try:
        if shown.get("card") is not None:
            shown["card"] = Card.parse(shown["card"])
        if isinstance(shown.get("cards"), list):
            shown["cards"] = [Card.parse(c) for c in shown["cards"]]
        return event_html(shown, list(moment.names), t) or ""
    except (KeyError, TypeError, ValueError):  # an event this page does not know how to word
        return ""


def asked_words(m: Moment, t: Translator) -> str:
    """The question of the question deal shown (a bank moment's in ``t``'s language, else the
    teacher's as typed), ``""`` at the session's deal (or for a bank id these catalogs lack)."""
    asked = m.question
    if asked is None:
        return ""
    if asked.bank:
        return t(f"bank.{asked.bank}.question") if asked.bank in {q.id for q in bank.QUESTIONS} else ""
    return asked.words


def poll_html(m: Moment, t: Translator) -> str:
    """The poll's words on the student's page (T7), in a live region (read when they change): the
    question asked while it takes answers (a question deal's own, else "What would you pay for the
    best trump?"), then "time is up" or "on the board", the question still beneath. The teacher's
    words are typed text: escaped, their direction their own (``dir="auto"``), kept whole
    (the published moment holds at most :data:`~speculation_nb.links.query.MAX_QUESTION` characters)."""
    poll = m.poll
    if poll is None:
        return ""
    words = asked_words(m, t)
    if poll.open:
        lines = [f"<b>{esc(words or t('class.member.poll_question'))}</b>"]
    else:
        key = "class.member.poll_revealed" if poll.state == "revealed" else "class.member.poll_locked"
        lines = [f"<b>{esc(t(key))}</b>", *([esc(words)] if words else [])]
    body = "".join(f'<p class="spec-member-asked" dir="auto">{line}</p>' for line in lines)
    return f'<div role="status" aria-live="polite">{body}</div>'
