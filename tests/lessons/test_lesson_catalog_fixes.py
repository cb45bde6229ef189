"""Issue 14, "Four languages, one source": the catalog errors it lists are fixed (each test names the message)."""

from __future__ import annotations

from pathlib import Path

import pytest

from speculation_nb.languages.translator import catalog, translator

REPO = Path(__file__).resolve().parents[2]


def live_words(lang: str, h: int, n: int) -> str:
    t = translator(lang)
    return t(
        "odds.words.live",
        card="Q♥",
        higher="K♥",
        trumps=t.plural("unit.higher_trumps", h),
        cards=t.plural("unit.cards_to_come", n),
    )


@pytest.mark.parametrize("lang", ["en", "it", "pt", "de"])
def test_singular_forms_of_the_odds_panel(lang):
    """'one of the 1 higher trump ... among the 1 card'; it 'la 1 carta', pt 'o 1 trunfo', de 'der 1 höhere Trumpf'."""
    one = live_words(lang, 1, 1)
    for wrong in (
        "1 higher trump",
        "the 1 card",
        "la 1 carta",
        "1 briscola",
        "o 1 trunfo",
        "a 1 carta",
        "der 1 ",
        "1 noch",
    ):
        assert wrong not in one, (lang, one)
    assert "1" not in one
    many = live_words(lang, 2, 8)
    assert "2" in many and "8" in many
    assert live_words("en", 1, 1) == "Q♥ is beaten only if the only higher trump (K♥) is the one card still to come."
    assert (
        live_words("en", 2, 8)
        == "Q♥ is beaten only if one of the 2 higher trumps (K♥) is among the 8 cards still to come."
    )


@pytest.mark.parametrize(
    ("lang", "wrong"),
    [
        ("it", ["1 di queste carte saranno"]),
        ("pt", ["1 dessas cartas ainda serão"]),
        ("de", ["1 dieser Karten werden"]),
    ],
)
def test_verb_agreement_for_one_card_to_come(lang, wrong):
    """it 'sarà girata', pt 'será virada', de 'wird': the sentences no longer make the verb agree with n."""
    t = translator(lang)
    for key in (
        "odds.hold.main.one",
        "odds.hold.main.other",
        "odds.hold.main_no_dead.one",
        "odds.hold.main_no_dead.other",
    ):
        text = t(key, h=2, card="Q♥", U=30, n=1, formula="C(28, 1) / C(30, 1) = 14/15", percent="93,3 %")
        assert not any(w in text for w in wrong), (key, text)


def test_portuguese_you_play_as():
    pt = catalog("pt")
    assert pt["header.play"] == "você joga como {name}" and pt["settings.you"] == "Você joga como"


def test_german_words():
    de = catalog("de")
    assert de["tooltip.seed"].startswith("Optional:")
    assert "der Höchstbetrag, den" in de["tooltip.break_even"] and "das Höchste, was" not in de["tooltip.break_even"]
    assert "der Mindestbetrag, den" in de["tooltip.seller_break_even"]
    assert de["temperament.fair"] == "Fair"


def test_long_hands_as_the_rule_documents_say():
    """pt 'tamanho de mão', de 'längere Blätter' (the seeds), not 'rodadas longas' / 'lange Runden'."""
    key = next(k for k, v in catalog("en").items() if "for long hands" in v)
    assert "tamanho de mão" in catalog("pt")[key] and "rodadas longas" not in catalog("pt")[key]
    assert "längere Blätter" in catalog("de")[key] and "lange Runden" not in catalog("de")[key]
    glossary = (REPO / "speculation_nb" / "locale" / "glossary.csv").read_text(encoding="utf-8")
    assert "long_hands,long hands,mani lunghe,tamanho de mão,längere Blätter" in glossary


def test_italian_for_the_record():
    assert (
        "per la cronaca" in catalog("it")["log.holder_cards"] and "per memoria" not in catalog("it")["log.holder_cards"]
    )


def test_german_lesson_1_says_anzeige():
    po = (REPO / "notebooks" / "locale" / "de" / "01_how_to_play.po").read_text(encoding="utf-8")
    assert "Tafel" not in po and "Anzeige rechts" in po
    assert "Tafel" not in (REPO / "notebooks" / "01_how_to_play.de.ipynb").read_text(encoding="utf-8")


# --------------------------------------------------------------------------- issue 24, item 7
def test_issue_24_7_lessons_format_is_in_the_repository_where_the_tests_cite_it():
    text = (REPO / "notebooks" / "LESSONS_FORMAT.md").read_text(encoding="utf-8")
    for heading in ("## Files and names", "## A part's size", "## Exercises", "## Austen", "## Translations"):
        assert heading in text
    for test in ("test_quotations.py", "test_lesson_build.py", "test_lesson_exercises.py"):
        assert "notebooks/LESSONS_FORMAT.md" in (REPO / "tests" / "lessons" / test).read_text(encoding="utf-8")


def _notebook_prose(name: str) -> str:
    import json

    cells = json.loads((REPO / "notebooks" / name).read_text(encoding="utf-8"))["cells"]
    return "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")


@pytest.mark.parametrize(
    ("stem", "english"),
    [
        ("02a_will_the_queen_hold", r"\text{the Queen holds}"),
        ("03a_what_is_a_card_worth_2", r"\text{break-even}"),
        ("03a_what_is_a_card_worth_2", r"\text{carry-over if the holder keeps it}"),
        ("05b_many_evenings_2", r"\text{the deals as dealt}"),
    ],
)
def test_issue_24_7_german_display_formulas_are_translated(stem, english):
    assert english in _notebook_prose(f"{stem}.ipynb")
    for lang in ("it", "pt", "de"):
        assert english not in _notebook_prose(f"{stem}.{lang}.ipynb"), lang


@pytest.mark.parametrize(("lang", "other"), [("de", "SF"), ("pt", "EP")])
def test_issue_24_7_the_standard_error_has_one_abbreviation(lang, other):
    import re

    words = " ".join(catalog(lang).values()) + _notebook_prose(f"02b_simulating_the_queen.{lang}.ipynb")
    assert re.search(rf"\b{other}\b", words) is None and re.search(r"\bSE\b", words)


def test_issue_24_7_portuguese_names_the_distribution_where_the_english_does():
    """ "the distribution" is the hypergeometric one: pt says "o modelo hipergeométrico", the lesson's
    term ("distribuição" is the glossary's rejected word for a deal), not "o modelo" alone."""
    assert "the distribution beside the **binomial**" in _notebook_prose("02a_will_the_queen_hold_2.ipynb")
    pt = " ".join(_notebook_prose("02a_will_the_queen_hold_2.pt.ipynb").split())
    assert "põem o modelo hipergeométrico ao lado do **binomial**" in pt and "põem o modelo ao" not in pt
