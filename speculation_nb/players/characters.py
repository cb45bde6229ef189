"""Characters: players built on others (advised, fond, buying piles) and the table of *Mansfield Park*.

:class:`Undecided` does what its advisor would (Lady Bertram, advised by Henry Crawford);
:class:`Fond` spares a favourite (Fanny Price, fond of her brother William);
:class:`PileBuyer` buys up the other piles (V3) when the exact numbers say it pays.
:func:`mansfield_park` seats the Speculation players of the novel (vol. II, ch. 7) as a
:class:`Cast`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from math import ceil
from typing import TYPE_CHECKING, Any

from .. import odds
from ..engine.checks import is_whole, quote
from ..languages.catalogs import messages
from .protocol import Strategy, Trade, trade_offers
from .temperaments import CAUTIOUS, FAIR, SHREWD, SPIRITED, Temperament, exact_trade_answer, trading

if TYPE_CHECKING:
    from ..engine.game import Game

__all__ = ["Cast", "Fond", "Haggler", "PileBuyer", "Undecided", "fanny_as_she_wishes", "mansfield_park"]


@dataclass(frozen=True)
class Undecided:
    """Cannot decide, and asks: every decision is the ``advisor``'s, as if the advisor sat in its
    seat (the way Henry Crawford directs Lady Bertram's cards in the novel). The advisor is any
    strategy; ``advice(game, seat)`` shows what it says."""

    name: str = "undecided"
    advisor: Any = None  # a Strategy; None: FAIR (set in __post_init__)

    def __post_init__(self) -> None:
        if self.advisor is None:
            object.__setattr__(self, "advisor", FAIR)
        if not isinstance(self.advisor, Strategy):
            raise ValueError(f"an undecided player's advisor is a strategy, not {self.advisor!r}")

    def wants_auction(self, game: Game, seat: int) -> bool:
        return bool(self.advisor.wants_auction(game, seat))

    def bid(self, game: Game, seat: int) -> int | None:
        amount: int | None = self.advisor.bid(game, seat)
        return amount

    def choose_sale(self, game: Game, seat: int) -> int | None:
        choice: int | None = self.advisor.choose_sale(game, seat)
        return choice

    def accepts_trade(self, game: Game, seat: int, buyer: int, seller: int, count: int, price: int) -> bool:
        return bool(self.advisor.accepts_trade(game, seat, buyer, seller, count, price))

    def trade_offers(self, game: Game, seat: int) -> list[Trade]:
        return trade_offers(self.advisor, game, seat)

    def advice(self, game: Game, seat: int) -> dict[str, Any]:
        """What the advisor says now: ``{"open": ..., "bid": ..., "sell_to": ...}`` where they apply."""
        out: dict[str, Any] = {}
        if seat == game.holder and game.can_open_auction():
            out["open"] = self.wants_auction(game, seat)
        if game.bid_range(seat) is not None:
            out["bid"] = self.bid(game, seat)
        if seat == game.holder and game.auction is not None:
            out["sell_to"] = self.choose_sale(game, seat)
        return out


@dataclass(frozen=True)
class Fond:
    """A ``base`` strategy with a soft spot for one seat, the ``favourite`` (Fanny for her brother
    William): it never bids against the favourite once the favourite has bid, and as the holder it
    lets the favourite have the card for as little as ``softness`` times its own fair asking price
    (``odds.seller_break_even``). Everything else is the base's."""

    name: str = "fond"
    base: Any = None  # a Strategy; None: CAUTIOUS
    favourite: int | None = None
    softness: Fraction = Fraction(1, 2)

    def __post_init__(self) -> None:
        if self.base is None:
            object.__setattr__(self, "base", CAUTIOUS)
        object.__setattr__(self, "softness", Fraction(self.softness))

    def wants_auction(self, game: Game, seat: int) -> bool:
        return bool(self.base.wants_auction(game, seat))

    def bid(self, game: Game, seat: int) -> int | None:
        if self.favourite is not None and self.favourite in (game.auction or {}):
            return None
        amount: int | None = self.base.bid(game, seat)
        return amount

    def spares(self, game: Game, seat: int) -> bool:
        """True when, as the holder ``seat``, it lets the favourite have the card (for less than the base would)."""
        fav = self.favourite
        if fav is None or fav not in game.acceptable():
            return False
        return (game.auction or {})[fav] >= self.softness * odds.seller_break_even(game, fav)

    def choose_sale(self, game: Game, seat: int) -> int | None:
        if self.spares(game, seat):
            return self.favourite
        choice: int | None = self.base.choose_sale(game, seat)
        return choice

    def accepts_trade(self, game: Game, seat: int, buyer: int, seller: int, count: int, price: int) -> bool:
        return bool(self.base.accepts_trade(game, seat, buyer, seller, count, price))

    def trade_offers(self, game: Game, seat: int) -> list[Trade]:
        return trade_offers(self.base, game, seat)


_HAGGLE = (Fraction(1, 2), Fraction(2, 3), Fraction(3, 4), Fraction(5, 6), Fraction(1))


@dataclass(frozen=True)
class PileBuyer:
    """A holder who buys up the other piles (V3), the way the rules say a holder keeps a trump safe.

    Auctions are the ``base`` strategy's. While it holds the best trump and no auction is open, it
    looks at every other pile and every number of its top cards, works out exactly what those cards
    are worth to it (its expected net after the trade minus before) and what they cost the seller
    (the seller's expected-net loss), and offers a price for them: ``haggle`` fractions of the
    seller's loss, rounded up, at least 1 chip, within its stack, and always strictly below what
    the cards are worth to it (the gain, price included, must be positive). Offers go best first
    (largest gain); sellers accept by their own rule (an exact trader: by its expected-net loss).

    Without a dead pile or Jacks and Fives, a trade is zero-sum between the two: the cards are
    worth to the buyer exactly what the seller loses. So a pile-buyer profits only from sellers
    who part with their cards for less than they lose (cautious ones, say); a seller who asks its
    full loss is never offered enough.
    """

    name: str = "pile-buyer"
    base: Any = None  # a Strategy; None: FAIR, trading by the exact numbers
    haggle: tuple[Fraction, ...] = _HAGGLE

    def __post_init__(self) -> None:
        if self.base is None:
            object.__setattr__(self, "base", trading(FAIR))
        object.__setattr__(self, "haggle", tuple(sorted(Fraction(f) for f in self.haggle)))
        if not self.haggle or self.haggle[0] <= 0:
            raise ValueError("haggle fractions are positive")

    def wants_auction(self, game: Game, seat: int) -> bool:
        return bool(self.base.wants_auction(game, seat))

    def bid(self, game: Game, seat: int) -> int | None:
        amount: int | None = self.base.bid(game, seat)
        return amount

    def choose_sale(self, game: Game, seat: int) -> int | None:
        choice: int | None = self.base.choose_sale(game, seat)
        return choice

    def accepts_trade(self, game: Game, seat: int, buyer: int, seller: int, count: int, price: int) -> bool:
        return exact_trade_answer(Fraction(1), game, seat, buyer, seller, count, price)

    def trade_offers(self, game: Game, seat: int) -> list[Trade]:
        if not game.can_blind_trade() or seat != game.holder:
            return []
        stack = game.stacks[seat]
        if stack < 1:
            return []
        down = game.face_down
        scored: list[tuple[Fraction, int, int, int, Trade]] = []
        for seller in range(game.rules.players):
            if seller == seat or not down[seller]:
                continue
            for count in range(1, down[seller] + 1):
                worth = odds.trade_gain(game, seat, seat, seller, count, 0)
                if worth <= 1:
                    continue  # the least price is 1 chip: nothing to gain
                loss = -odds.trade_gain(game, seller, seat, seller, count, 0)
                for price in sorted({max(1, ceil(f * loss)) for f in self.haggle}):
                    if price > stack:
                        break
                    gain = odds.trade_gain(game, seat, seat, seller, count, price)
                    if gain > 0:
                        scored.append((-gain, count, seller, price, Trade(seat, seller, count, price)))
        scored.sort(key=lambda item: item[:4])
        return [item[4] for item in scored]


# ------------------------------------------------------------------------- the Mansfield Park table
@dataclass(frozen=True)
class Cast:
    """Named characters seat by seat: ``names[seat]`` plays ``strategies[seat]``; ``why[seat]`` says why
    (in English; ``why_keys[seat]``, if given, is its catalog key, so :meth:`why_in` words it in any
    language)."""

    names: tuple[str, ...]
    strategies: tuple[Any, ...]
    why: tuple[str, ...]
    why_keys: tuple[str, ...] = ()

    def why_in(self, lang: str = "en") -> tuple[str, ...]:
        """``why`` in ``lang`` (``"it"``, ``"pt"``, ``"de"``...): the catalogs' words, English where a
        language lacks them, and a character's own ``why`` where it has no catalog key."""
        if len(self.why_keys) != len(self.why):
            return self.why
        words, english = messages(lang), messages("en")
        return tuple(words.get(key, english.get(key, own)) for key, own in zip(self.why_keys, self.why))

    @property
    def players(self) -> int:
        return len(self.names)

    def seat(self, name: str) -> int:
        """The seat of the character whose name is or starts with ``name`` ("Fanny" finds "Fanny Price")."""
        for seat, full in enumerate(self.names):
            if full == name or full.split()[0] == name or full.startswith(name):
                return seat
        raise KeyError(name)

    def lineup(self, people: Iterable[int] = ()) -> dict[int, Strategy]:
        """The lineup: ``{seat: strategy}`` for the computer seats (those not in ``people``), as
        :func:`~speculation_nb.players.play` and the app take it."""
        people = set(people)
        return {seat: s for seat, s in enumerate(self.strategies) if seat not in people}

    #: :meth:`lineup`'s older name (a strategy per seat is not a table), kept for the notebooks.
    table = lineup


@dataclass(frozen=True)
class Haggler(Temperament):
    """Drives a hard bargain (William Price with his sister's queen). As the holder it is a
    :class:`~.temperaments.Temperament` of ``appetite`` 5/4: it asks for bids whenever its card
    can still be beaten and sells only for at least 5/4 of its own break-even price. As a bidder it
    offers at most ``offer`` times the card's break-even price, rounded down to whole chips."""

    name: str = "haggler"
    appetite: Fraction = Fraction(5, 4)
    offer: Fraction = Fraction(2, 5)

    def __post_init__(self) -> None:
        super().__post_init__()
        object.__setattr__(self, "offer", Fraction(self.offer))

    def limit(self, game: Game, seat: int) -> int:
        return max(0, odds.whole_break_even(game, seat, self.offer))

    def bid(self, game: Game, seat: int) -> int | None:
        span = game.bid_range(seat)
        if span is None:
            return None
        low, high = span
        top = min(odds.whole_break_even(game, seat, self.offer), high)
        return top if top >= max(low, 1) else None

    def wants_auction(self, game: Game, seat: int) -> bool:
        return FAIR.wants_auction(game, seat)


# The round table of vol. II, ch. 7 (ch. 25), clockwise. The chapter fixes only that Henry Crawford
# sits "between her ladyship and Miss Price"; the rest "under Miss Crawford's direction" is ours:
# Edmund beside his mother, Mary between William and Edmund. With 7 or 8 players the whist table's
# Sir Thomas and Mrs Norris join (they did not, in the novel).
_MANSFIELD_ORDER = (
    "Lady Bertram",
    "Henry Crawford",
    "Fanny Price",
    "William Price",
    "Mary Crawford",
    "Edmund Bertram",
    "Sir Thomas Bertram",
    "Mrs Norris",
)
# Who stays when fewer play: the first ``players`` of these (Henry first: two others play by his advice).
_MANSFIELD_PRIORITY = (
    "Henry Crawford",
    "Fanny Price",
    "Mary Crawford",
    "William Price",
    "Edmund Bertram",
    "Lady Bertram",
    "Sir Thomas Bertram",
    "Mrs Norris",
)
# Why each character plays as it does: the catalogs' words (engine.po), English in Cast.why.
_MANSFIELD_WHY = {
    "Lady Bertram": "cast.why.lady_bertram",
    "Henry Crawford": "cast.why.henry_crawford",
    "Fanny Price": "cast.why.fanny_price",
    "William Price": "cast.why.william_price",
    "Mary Crawford": "cast.why.mary_crawford",
    "Edmund Bertram": "cast.why.edmund_bertram",
    "Sir Thomas Bertram": "cast.why.sir_thomas_bertram",
    "Mrs Norris": "cast.why.mrs_norris",
}


def mansfield_park(players: int = 6, *, trades: bool = False) -> Cast:
    """The Speculation players of *Mansfield Park* (vol. II, ch. 7) as computer players.

    Six played: Lady Bertram, Henry Crawford, Fanny Price, William Price, Mary Crawford and Edmund
    Bertram, while Sir Thomas, Mrs Norris and Dr and Mrs Grant made up the whist table. Henry
    manages Lady Bertram's cards and Fanny's (both :class:`Undecided`, advised by his
    :class:`~.temperaments.Shrewd` player); Mary is spirited, William a :class:`Haggler`, Edmund
    fair (``Cast.why`` says why, from the chapter). :func:`fanny_as_she_wishes` is Fanny left to
    herself. With fewer players the least-needed leave first (Henry stays: two others play by his
    advice); with 7 or 8, Sir Thomas and Mrs Norris come over from the whist table. ``trades=True`` makes every
    temperament trade by the exact numbers under V3 (the novel's table did not trade blind).
    """
    if not is_whole(players) or not 3 <= players <= 8:
        raise ValueError(f"S1: Speculation is for 3 to 8 players, not {quote(players)}")
    players = int(players)
    present = set(_MANSFIELD_PRIORITY[:players])
    names = tuple(name for name in _MANSFIELD_ORDER if name in present)

    def t(player: Temperament) -> Temperament:
        return trading(player) if trades else player

    henry = t(SHREWD)
    chosen: dict[str, Any] = {
        "Henry Crawford": henry,
        "Mary Crawford": t(SPIRITED),
        "William Price": t(Haggler()),
        "Edmund Bertram": t(FAIR),
        "Sir Thomas Bertram": t(FAIR),
        "Mrs Norris": t(CAUTIOUS),
        "Lady Bertram": Undecided(advisor=henry),
        "Fanny Price": Undecided(name="coached", advisor=henry),
    }
    strategies = tuple(chosen[name] for name in names)
    keys = tuple(_MANSFIELD_WHY[name] for name in names)
    return Cast(names, strategies, tuple(messages("en")[key] for key in keys), keys)


def fanny_as_she_wishes(cast: Cast, *, trades: bool = False) -> Any:
    """Fanny Price left to herself, the player Henry Crawford must coach: cautious (she will not
    "sharpen her avarice"), never bidding against William, and letting him have her card for
    whatever he offers ("not allowed to cheat herself as she wishes", says Edmund). ``cast`` gives
    William's seat."""
    try:
        william: int | None = cast.seat("William")
    except KeyError:
        william = None
    base = trading(CAUTIOUS) if trades else CAUTIOUS
    return Fond(base=base, favourite=william, softness=Fraction(0))
