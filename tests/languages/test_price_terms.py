"""Issue 23, "One idea, one name": in every language the prices have one term each (the fair
price, the break-even, the seller's break-even), the auction table's headers are those terms,
each is defined once by a line that starts with the header's own words, and every message that
shows such a price names it by that term, never by the words the issue found ("Worth to them",
"Gli conviene fino a", "Lohnt sich bis"...)."""

from __future__ import annotations

import csv

import pytest

from speculation_nb.languages.translator import LOCALE_DIR, catalog

LANGS = ["en", "it", "pt", "de"]
COLUMN = {"en": "English", "it": "Italian", "pt": "Portuguese", "de": "German"}

#: Messages showing the fair price, the buyer's break-even, the seller's break-even.
FAIR = [
    "odds.fair_price.one",
    "odds.fair_price.other",
    "header.headline_chance.one",
    "header.headline_chance.other",
    "odds.live",
    "class.member.fair_price",
    "class.host.poll.fair",
    "class.host.poll.mark_fair",
    "class.host.poll.exact",
    "class.handout.fair",
    "class.poll.csv.fair",
    "class.poll.csv.fair_rounded",
    "odds.why_below",
]
BREAK_EVEN = [
    "tooltip.break_even",
    "class.member.break_even",
    "class.host.poll.break_even",
    "class.host.poll.mark_break_even",
    "class.host.poll.exact_break_even",
    "class.handout.break_even",
    "class.poll.csv.break_even",
    "class.poll.csv.break_even_rounded",
    "odds.why_below",
    "auction.seller_note",
    "reason.bid",
    "reason.bid.shrewd",
    "reason.bid.above",
    "reason.bid.above.appetite",
    "reason.bid.above.bold",
    "reason.bid.above.spirited",
]
SELLER = [
    "tooltip.seller_break_even",
    "reason.accept",
    "reason.accept.below",
    "reason.accept.below.appetite",
    "reason.accept.below.cautious",
    "reason.accept.fond",
]
#: The names the issue found for the break-even beside the term (column headers, notes, log).
OLD = {
    "en": ["worth to them", "takes at least", "is worth to them"],
    "it": ["gli conviene", "valore per loro", "vuole almeno", "che la carta vale"],
    "pt": ["vale para ele", "vale para eles", "quer pelo menos", "que a carta vale"],
    "de": ["lohnt sich bis", "wert für sie", "verlangt mindestens", "die die karte für"],
}


def glossary_forms(key: str, lang: str) -> list[str]:
    with (LOCALE_DIR / "glossary.csv").open(encoding="utf-8", newline="") as handle:
        row = next(r for r in csv.DictReader(handle) if r["key"] == key)
    return [f.strip().lower() for f in row[COLUMN[lang]].split("/") if f.strip()]


@pytest.mark.parametrize("lang", LANGS)
def test_o4_the_headers_are_the_terms_and_each_is_defined_in_its_own_words(lang: str) -> None:
    cat = catalog(lang)
    break_even, seller = cat["auction.col.break_even"], cat["auction.col.seller"]
    assert break_even.lower() == glossary_forms("break_even", lang)[0]
    assert break_even.lower() in seller.lower() and seller != break_even  # "seller's break-even"
    # each definition is the header's term, a colon, then what it means
    assert cat["auction.price_note"].startswith(break_even + ":")
    assert cat["auction.seller_note"].startswith(seller + ":")
    fair_term = cat["odds.fair_note"].split(":")[0]
    assert fair_term.lower() == glossary_forms("fair_price", lang)[0]
    # the tooltips on the headers say the same terms
    assert cat["tooltip.break_even"].startswith(break_even + ":")
    assert cat["tooltip.seller_break_even"].startswith(seller)


@pytest.mark.parametrize("lang", LANGS)
def test_o4_every_price_message_names_its_price_by_the_term(lang: str) -> None:
    cat = catalog(lang)
    fair_forms = glossary_forms("fair_price", lang)
    break_even = cat["auction.col.break_even"].lower()
    seller = cat["auction.col.seller"].lower()
    for key in FAIR:
        assert any(f in cat[key].lower() for f in fair_forms), (key, cat[key])
    for key in BREAK_EVEN:
        assert break_even in cat[key].lower(), (key, cat[key])
    for key in SELLER:
        assert seller in cat[key].lower(), (key, cat[key])
    for key in (*FAIR, *BREAK_EVEN, *SELLER, "auction.price_note", "odds.fair_note", "auction.col.break_even"):
        for words in OLD[lang]:
            assert words not in cat[key].lower(), (key, words)
