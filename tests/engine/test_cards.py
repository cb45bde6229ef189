"""Cards (cards.py): parsing, printing, values; the rank order of the Terms of RULES.md."""

from __future__ import annotations

import dataclasses

import pytest

from speculation_nb import Card, Suit
from speculation_nb.engine.cards import RANKS, SUITS, full_deck


# ------------------------------------------------------------------ parsing
@pytest.mark.parametrize(
    "text, rank, suit",
    [
        ("Q♥", 12, "H"),
        ("QH", 12, "H"),
        ("qh", 12, "H"),
        (" Q♥ ", 12, "H"),
        ("Qh", 12, "H"),
        ("q♡", 12, "H"),
        ("10S", 10, "S"),
        ("TS", 10, "S"),
        ("ts", 10, "S"),
        ("10♠", 10, "S"),
        ("2C", 2, "C"),
        ("2♣", 2, "C"),
        ("9♧", 9, "C"),
        ("JD", 11, "D"),
        ("j♦", 11, "D"),
        ("5♢", 5, "D"),
        ("KS", 13, "S"),
        ("k♤", 13, "S"),
        ("AC", 14, "C"),
        ("a♣", 14, "C"),
        ("\tAH\n", 14, "H"),
    ],
)
def test_parse_accepts_every_documented_form(text, rank, suit):
    card = Card.parse(text)
    assert card.rank == rank
    assert card.suit == suit
    assert card == Card(rank, suit)


def test_parse_of_a_card_is_that_card():
    card = Card(12, "H")
    assert Card.parse(card) is card


@pytest.mark.parametrize(
    "text",
    [
        "1X",
        "",
        " ",
        "Q",
        "H",
        "QX",
        "1H",
        "11H",
        "0S",
        "01S",
        "010S",
        "14S",
        "QHH",
        "HQ",
        "Q H",
        "10",
        "1 0S",
        "-2S",
        "2.0S",
        "AHS",
        "ZZ",
        "♥Q",
        "Q♥♥",
        "Qſ",  # Latin long s: upper-cases to "S" but is not a suit
        "Aſ",
        "ＱH",  # a full-width Q
        "1０S",  # a full-width 0
        "QΗ",  # a Greek Eta that looks like H
    ],
)
def test_parse_refuses_malformed_text(text):
    with pytest.raises(ValueError, match="cannot read"):
        Card.parse(text)


@pytest.mark.parametrize("value", [None, 12, 12.0, b"QH", ["Q", "H"], ("Q", "H"), True])
def test_parse_refuses_what_is_not_text(value):
    with pytest.raises(ValueError, match="text"):
        Card.parse(value)


def test_parse_error_is_a_clear_value_error():
    with pytest.raises(ValueError) as info:
        Card.parse("1X")
    message = str(info.value)
    assert "'1X'" in message and "rank" in message and "suit" in message


# ------------------------------------------------------------------ printing
@pytest.mark.parametrize(
    "text, printed, code",
    [("TS", "10♠", "10S"), ("qh", "Q♥", "QH"), ("2c", "2♣", "2C"), ("AD", "A♦", "AD"), ("j♠", "J♠", "JS")],
)
def test_str_is_rank_then_suit_symbol(text, printed, code):
    card = Card.parse(text)
    assert str(card) == printed
    assert card.code == code


def test_every_card_round_trips_through_str_code_and_repr():
    deck = full_deck()
    for card in deck:
        assert Card.parse(str(card)) == card
        assert Card.parse(card.code) == card
        assert eval(repr(card), {"Card": Card}) == card  # repr rebuilds the card


def test_names_for_screen_readers():
    assert Card.parse("QH").name == "Queen of Hearts"
    assert Card.parse("10S").name == "10 of Spades"
    assert Card.parse("AC").name == "Ace of Clubs"
    assert Card.parse("JD").name == "Jack of Diamonds"


# -------------------------------------------------------------------- values
def test_terms_ranks_run_from_2_to_the_ace_14():
    assert [Card.parse(t).rank for t in ["2S", "9S", "10S", "JS", "QS", "KS", "AS"]] == [2, 9, 10, 11, 12, 13, 14]
    assert tuple(range(2, 15)) == RANKS


def test_suit_compares_equal_to_its_letter():
    card = Card.parse("QH")
    assert card.suit == "H"
    assert card.suit == Suit.HEARTS
    assert card.suit != "S"
    assert isinstance(card.suit, Suit)
    assert Suit.HEARTS.symbol == "♥" and Suit.HEARTS.red and not Suit.SPADES.red
    assert [str(s) for s in SUITS] == ["S", "H", "D", "C"]


def test_cards_are_immutable_and_hashable():
    card = Card.parse("QH")
    with pytest.raises(dataclasses.FrozenInstanceError):
        card.rank = 13  # type: ignore[misc]
    assert {Card.parse("QH"), Card(12, "H"), Card(12, Suit.HEARTS)} == {card}
    assert Card.parse("QH") != Card.parse("QD")
    assert Card.parse("QH") != Card.parse("KH")


@pytest.mark.parametrize("rank", [1, 15, 0, -3, True, False, 12.0, "12", None])
def test_constructor_refuses_a_bad_rank(rank):
    with pytest.raises(ValueError, match="rank"):
        Card(rank, "H")


@pytest.mark.parametrize("suit", ["X", "h", "", "HEARTS", None, 1])
def test_constructor_refuses_a_bad_suit(suit):
    with pytest.raises(ValueError, match="suit"):
        Card(12, suit)


def test_full_deck_is_52_distinct_cards_in_a_fixed_order():
    deck = full_deck()
    assert len(deck) == 52 and len(set(deck)) == 52
    assert deck[0] == Card.parse("2S") and deck[12] == Card.parse("AS")
    assert deck[13] == Card.parse("2H") and deck[-1] == Card.parse("AC")
    assert full_deck() == deck
