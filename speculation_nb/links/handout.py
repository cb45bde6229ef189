"""A printable handout of a moment (issue 25): a whole HTML page the teacher prints from the browser.

The first page shows the table at the moment (:func:`~speculation_nb.rendering.cards.table_html`,
the cards face up and the piles face down: only the public view) and the question, with room for
the student's answer. The worked answer is on a page of its own (CSS ``break-before: page``): the
hold probability of the best trump by its formula, ``P = C(U - h, n) / C(U, n)`` with the
moment's numbers (O1) and the exact fraction, then the fair price ``P x expected pot`` (O4) exact
and rounded half up to whole chips, and, when the question is about a seat, that seat's
break-even price. Every word comes from the catalogs (``class.handout.*``), in the page's
language; names are escaped. A "Print" button calls the browser's own print dialog (paper or
PDF); it is not printed.

>>> from speculation_nb.engine import bank
>>> from speculation_nb.languages.translator import translator
>>> page = handout_html(bank.load("dozen", seed=1), translator("en"), question="A dozen?")
>>> "break-before: page" in page and "42/85" in page and "1092/85" in page
True
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from .. import odds
from ..engine.game import Game
from ..languages.markup import escape as esc
from ..languages.translator import Translator
from ..odds import shown_chips
from ..rendering.cards import table_html

__all__ = ["HANDOUT_CSS", "handout_html", "handout_name"]

#: The handout's look, on screen and on paper (A4 or Letter: the browser's choice).
HANDOUT_CSS = """
body { font-family: Georgia, 'Times New Roman', serif; margin: 2em auto; max-width: 46em; color: #111; }
h1 { font-size: 1.5em; } h2 { font-size: 1.2em; margin-top: 1.5em; }
.spec-handout-question { font-size: 1.15em; }
.spec-handout-blank { margin-top: 2em; font-size: 1.1em; }
.spec-handout-answer { break-before: page; page-break-before: always; }
.spec-handout-formula { font-family: 'DejaVu Sans Mono', monospace; font-size: 1.05em; }
.spec-handout-print { font-size: 1em; padding: 0.5em 1.2em; min-height: 44px; }
@media print { .spec-handout-print { display: none; } body { margin: 0; } }
"""


def _fraction(value: Fraction) -> str:
    return str(Fraction(value))


def handout_html(
    game: Game,
    t: Translator,
    *,
    question: str,
    names: Sequence[str] | None = None,
    asker: int | None = None,
) -> str:
    """The handout page of ``game`` as it stands (see the module docstring), worded by ``t``:
    ``question`` (plain text, escaped here), ``names`` of the seats, ``asker`` the seat whose
    break-even price the question asks about (None: none)."""
    n = game.rules.players
    seat_names = [str(x) for x in (names or [t("seat.number", n=i + 1) for i in range(n)])]
    hold = odds.explain_hold(game)
    p, pot, fair = hold.probability, odds.expected_pot(game), odds.fair_price(game)
    formula = t(
        "odds.hold.formula", U_minus_h=t.number(hold.U - hold.h), U=t.number(hold.U), n=t.number(hold.n), p=_fraction(p)
    )
    answer = [
        f"<p>{esc(t('class.handout.formula', U=t.number(hold.U), h=t.number(hold.h), n=t.number(hold.n)))}</p>",
        f'<p class="spec-handout-formula">{esc(t("class.handout.hold", formula=formula))}</p>',
        "<p>"
        + esc(
            t(
                "class.handout.fair",
                p=_fraction(p),
                pot=_fraction(pot),
                fair=_fraction(fair),
                rounded=t.number(shown_chips(fair)),
            )
        )
        + "</p>",
    ]
    if asker is not None and 0 <= asker < n and asker != game.holder and not game.over:
        spread = odds.break_even(game, asker)
        words = t(
            "class.handout.break_even",
            name=seat_names[asker],
            price=_fraction(spread),
            rounded=t.number(shown_chips(spread)),
        )
        answer.append(f"<p>{esc(words)}</p>")
    table = table_html(game, seat_names, texts=t.render_texts(), number=t.number)
    title = esc(t("class.handout.title"))
    return (
        f'<!DOCTYPE html><html lang="{esc(t.lang)}"><head><meta charset="utf-8">'
        f"<title>{title}</title><style>{HANDOUT_CSS}</style></head><body>"
        f'<button type="button" class="spec-handout-print" onclick="window.print()">'
        f"{esc(t('class.handout.print'))}</button>"
        f"<h1>{title}</h1>"
        f'<section class="spec-handout-moment"><h2>{esc(t("class.handout.table"))}</h2>{table}'
        f'<h2>{esc(t("class.handout.question"))}</h2><p class="spec-handout-question">{esc(question)}</p>'
        f'<p class="spec-handout-blank">{esc(t("class.handout.your_answer"))}</p></section>'
        f'<section class="spec-handout-answer"><h2>{esc(t("class.handout.answer"))}</h2>{"".join(answer)}</section>'
        "</body></html>"
    )


def handout_name(deal: int, step: int) -> str:
    """The file's name: ``speculation-handout-deal-1-step-4.html``."""
    return f"speculation-handout-deal-{deal}-step-{step}.html"
