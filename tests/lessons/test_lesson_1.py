"""Lesson 1 (notebooks/01_how_to_play.ipynb): what its text says about the seeded deal is true."""

from __future__ import annotations

from speculation_nb import odds
from speculation_nb.lessons import lesson1
from speculation_nb.lessons.lesson1 import EDMUND, FANNY, HENRY, MARY, the_deal
from speculation_nb.lessons.questions import get


def test_the_deal_as_the_lesson_tells_it():
    dealt = the_deal("dealt")
    # "the pot starts at 6 + 4 + 4 + 4" (S2); "Each player started the evening with 60 chips"; the 3♥ turn-up
    assert dealt.dealer == FANNY and dealt.pot == 18 and dealt.stacks == [54, 56, 56, 56]
    assert str(dealt.turn_up) == "3♥" and dealt.holder == FANNY
    # Edmund's A♣ changes nothing; Mary's 4♥ takes over; Henry's J♥ takes over
    assert [str(c) for c in the_deal("edmund").face_up[EDMUND]] == ["A♣"] and the_deal("edmund").holder == FANNY
    assert str(the_deal("mary").best_trump) == "4♥" and the_deal("mary").holder == MARY
    jack = the_deal("jack")
    assert str(jack.best_trump) == "J♥" and jack.holder == HENRY
    assert 0 < odds.hold_probability(jack) < 1
    # the sale: Fanny's 5 chips go to Henry, the pot stays 18
    sold = the_deal("sold")
    assert sold.holder == FANNY and sold.pot == 18 and sold.stacks == [49, 56, 56, 61]
    # Edmund's 2♦, then Mary's K♥ beats the Jack; only the A♥ can still beat her
    king = the_deal("king")
    assert str(king.face_up[EDMUND][-1]) == "2♦" and str(king.best_trump) == "K♥" and king.holder == MARY
    # the end: Fanny turns up the 6♥ (and twice in a row), Mary's last card stays face down, Mary takes 18
    end = the_deal("end")
    assert end.over and end.winner == MARY and end.face_down[MARY] == 1
    assert "6♥" in [str(c) for c in end.face_up[FANNY]]
    assert str(end.layout()["piles"][MARY][-1]).upper() in ("QH", "Q♥")
    assert [c - lesson1.START for c in end.stacks] == [-11, -4, 14, 1]  # Mary −4 + 18, Henry −4 + 5, Fanny −6 − 5
    assert sum(end.stacks) + end.pot == 4 * lesson1.START


def test_fanny_turns_up_twice_in_a_row_at_the_end():
    """'When Edmund and Henry have none left, Fanny turns up twice in a row: a seat with no face-down card is
    skipped as well.'"""
    game = the_deal("king")
    order = []
    while not game.over:
        order.append((game.turn, game.face_down[EDMUND], game.face_down[HENRY]))
        game.reveal()
    assert [seat for seat, _, _ in order[-2:]] == [FANNY, FANNY]
    assert all(e == h == 0 for _, e, h in order[-2:])


def test_the_questions_answers():
    assert [get(f"l1.{k}").answer() for k in ("pot_four", "beat_jack", "pot_after_sale", "fanny_lost")] == [
        18,
        3,
        18,
        11,
    ]
    assert get("l1.pot_five").answer() == 22 and get("l1.ace_turn_up").answer() == 0


def test_the_helpers_speak_the_language():
    it = lesson1.Lesson1("it")
    assert it.pot_and_stacks(the_deal("dealt")).startswith("Piatto: 18")
    assert "fiches prima" in it.gains(the_deal("end"))
    assert lesson1.Lesson1("de").odds_line(the_deal("jack")).endswith("%")
