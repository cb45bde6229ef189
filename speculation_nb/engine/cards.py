"""Playing cards: small immutable values with a parse / str round trip.

A card is a rank (2 to 14, the Ace high) and a suit (``"S"``, ``"H"``, ``"D"``,
``"C"``). In Speculation only one suit matters in a deal, the trump suit, and
within it the ranks count from high to low: A K Q J 10 9 8 7 6 5 4 3 2.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from .checks import is_whole, quote

__all__ = ["RANKS", "SUITS", "Card", "Suit", "full_deck"]


class Suit(str, Enum):
    """A suit; compares equal to its letter (``Suit.HEARTS == "H"``)."""

    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    def __str__(self) -> str:
        return self.value

    @property
    def symbol(self) -> str:
        return _SYMBOLS[self.value]

    @property
    def red(self) -> bool:
        return self.value in "HD"


SUITS: tuple[Suit, ...] = tuple(Suit)
RANKS: tuple[int, ...] = tuple(range(2, 15))

_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
_SUIT_OF_TEXT = {
    **{letter: Suit(letter) for letter in "SHDC"},
    **{letter.lower(): Suit(letter) for letter in "SHDC"},
    **{symbol: Suit(letter) for letter, symbol in _SYMBOLS.items()},
    "♤": Suit.SPADES,
    "♡": Suit.HEARTS,
    "♢": Suit.DIAMONDS,
    "♧": Suit.CLUBS,
}
_RANK_OF_TEXT = {
    **{str(r): r for r in range(2, 11)},
    "T": 10,
    "J": 11,
    "Q": 12,
    "K": 13,
    "A": 14,
    "t": 10,
    "j": 11,
    "q": 12,
    "k": 13,
    "a": 14,
}
_RANK_TEXT = {**{r: str(r) for r in range(2, 11)}, 11: "J", 12: "Q", 13: "K", 14: "A"}
RANK_NAMES = {**{r: str(r) for r in range(2, 11)}, 11: "Jack", 12: "Queen", 13: "King", 14: "Ace"}
SUIT_NAMES = {"S": "Spades", "H": "Hearts", "D": "Diamonds", "C": "Clubs"}


@dataclass(frozen=True, order=False, slots=True)
class Card:
    """One card: ``Card(12, "H")`` is the Queen of Hearts.

    >>> Card.parse("q♥")
    Card.parse('QH')
    >>> str(Card.parse("TS"))
    '10♠'
    """

    rank: int
    suit: Suit

    def __post_init__(self) -> None:
        if not is_whole(self.rank) or not 2 <= self.rank <= 14:
            raise ValueError(f"a card's rank is a whole number from 2 to 14, not {quote(self.rank)}")
        try:
            suit = Suit(self.suit)
        except ValueError:
            raise ValueError(f"a card's suit is one of S, H, D, C, not {quote(self.suit)}") from None
        object.__setattr__(self, "suit", suit)

    @classmethod
    def parse(cls, text: str | Card) -> Card:
        """Read a card from text such as ``"Q♥"``, ``"QH"``, ``"qh"``, ``"10S"`` or ``"TS"``.

        Surrounding spaces are ignored. Anything else raises ``ValueError``.
        """
        if isinstance(text, Card):
            return text
        known = _BY_CODE.get(text) if type(text) is str else None
        if known is not None:  # the saved form ("QH", "10S"): the common case, made fast
            return known
        if not isinstance(text, str):
            raise ValueError(f"a card is written as text such as 'QH' or 'Q♥', not {type(text).__name__}")
        # No str.upper(): it would turn look-alikes such as the long s "ſ" into "S".
        s = text.strip()
        if len(s) < 2 or s[-1] not in _SUIT_OF_TEXT or s[:-1] not in _RANK_OF_TEXT:
            raise ValueError(
                f"cannot read {quote(text)} as a card: write a rank (2-10, T, J, Q, K, A) "
                "then a suit (S, H, D, C or ♠ ♥ ♦ ♣), e.g. 'QH', '10S' or 'A♣'"
            )
        return cls(_RANK_OF_TEXT[s[:-1]], _SUIT_OF_TEXT[s[-1]])

    @property
    def code(self) -> str:
        """The ASCII form used in saved games: ``"QH"``, ``"10S"``."""
        return _RANK_TEXT[self.rank] + self.suit  # a Suit is a str: "Q" + Suit.HEARTS == "QH"

    @property
    def rank_text(self) -> str:
        return _RANK_TEXT[self.rank]

    @property
    def name(self) -> str:
        """The English name, for screen readers: ``"Queen of Hearts"``."""
        return f"{RANK_NAMES[self.rank]} of {SUIT_NAMES[self.suit.value]}"

    def __str__(self) -> str:
        return _RANK_TEXT[self.rank] + self.suit.symbol

    def __repr__(self) -> str:
        return f"Card.parse({self.code!r})"

    def _repr_svg_(self) -> str:
        from ..rendering.cards import card_svg

        return card_svg(self)


_FULL_DECK: tuple[Card, ...] = tuple(Card(rank, suit) for suit in SUITS for rank in RANKS)
_BY_CODE: dict[str, Card] = {card.code: card for card in _FULL_DECK}


def full_deck() -> list[Card]:
    """The 52 cards in a fixed order: suits S, H, D, C, each from 2 up to the Ace (a new list)."""
    return list(_FULL_DECK)
