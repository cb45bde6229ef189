"""Words a person can read on any device (issue 23, item 6): a seed too large is called too
large (not "not a number"), and no message leans on a sign that fonts lack (⏸ showed as a box)."""

from __future__ import annotations

import html
from pathlib import Path

import pytest

from speculation_nb.app.player.screen import SpeculationApp

LOCALE = Path(__file__).resolve().parents[2] / "speculation_nb" / "locale"


@pytest.mark.parametrize("lang", ["en", "it", "pt", "de"])
def test_a_5000_digit_seed_is_called_too_large(lang: str) -> None:
    app = SpeculationApp(seed=1, lang=lang)
    app.ui.seed.value = "9" * 5000
    app.header.ask_new_session()
    app.refresh()
    too_large = app.controller.t("error.seed_too_large", text="999999999999…", most=app.controller.t.number(2**63 - 1))
    assert html.unescape(app.ui.message.value) == too_large
    assert app.controller.session.seed == 1, "nothing lost: the session stays"
    app.ui.seed.value = "abc"
    app.header.ask_new_session()
    app.refresh()
    assert "999999999999" not in app.ui.message.value and "abc" in app.ui.message.value


def test_no_message_uses_the_pause_sign_no_font_has() -> None:
    for catalog in LOCALE.glob("*/LC_MESSAGES/*.po"):
        assert "⏸" not in catalog.read_text(encoding="utf-8"), catalog


@pytest.mark.parametrize(
    ("lang", "one", "two"), [("en", "after 1 card ", "after 0 cards "), ("de", "nach 1 Karte ", "nach 0 Karten ")]
)
def test_the_charts_text_counts_cards_in_the_languages_plural_forms(lang: str, one: str, two: str) -> None:
    app = SpeculationApp(seed=1, lang=lang)
    app.controller.next_card()
    app.refresh()
    assert one in app.ui.chart_alt.value and two in app.ui.chart_alt.value
