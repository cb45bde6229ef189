"""A composed moment as a link and as a file (speculation_nb.links.composed, issue 25): the public
view only, never a seed; read back strictly, refused in words; the file of moments through
read_save, as the share panel's upload reads it."""

from __future__ import annotations

import json

import pytest

from speculation_nb import Game, Moment, Rules
from speculation_nb.engine import bank
from speculation_nb.languages.translator import available_languages, error_text, translator
from speculation_nb.links.check import verify_check
from speculation_nb.links.composed import MomentEntry, composed_query, moments_json, read_composed, read_moments
from speculation_nb.links.query import ShareError, query_params
from speculation_nb.links.saves import read_save

R = Rules(players=4, hand_size=4, jack_five=True, dead_hand=True, price_cap=12, ante="uniform", uniform_ante=5)


def played_moment() -> Moment:
    game = Game.deal(R, seed=11, dealer=2)
    for _ in range(3):
        if game.over:
            break
        game.reveal()
    return Moment.of(game)


@pytest.mark.parametrize("moment", [q.to_moment() for q in bank.QUESTIONS] + [played_moment()])
def test_the_link_carries_the_public_view_and_reads_back(moment):
    entry = MomentEntry(moment, "", "What would you pay? «é» & = ?")
    query = composed_query(entry, {"lang": "it"})
    verify_check(query)  # a check character first, as every share link
    params = query_params(query)
    assert not {"seed", "moves", "deal", "step"} & set(params)
    again = read_composed(params)
    assert again is not None and again.moment == moment and again.question == entry.question
    assert params["lang"] == "it"


def test_a_query_without_turnup_names_no_composed_moment():
    assert read_composed({"seed": "4", "moves": "r3"}) is None


BAD = [
    ({"seed": "1"}, "share.composed_seed"),
    ({"moves": "r2"}, "share.composed_seed"),
    ({"turnup": "1X"}, "share.bad_card"),
    ({"up": "QS_2C"}, "share.bad_list"),
    ({"down": "3.3.x.3.3.3"}, "share.bad_list"),
    ({"stacks": "56.56"}, "share.bad_list"),
    ({"holder": "9"}, "share.bad_value"),
    ({"players": "2"}, "share.bad_value"),
    ({"preset": "hoyle1847", "v1": "1"}, "share.bad_rules"),
    ({"preset": "whist"}, "share.bad_choice"),
]


@pytest.mark.parametrize(("change", "key"), BAD)
def test_a_link_that_is_not_a_moment_is_refused_in_words(change, key):
    params = query_params(composed_query(bank.question("dozen").to_moment()))
    params.update(change)
    with pytest.raises(ShareError) as info:
        read_composed(params)
    assert info.value.key == key
    for lang in available_languages():
        assert "{" not in error_text(info.value, translator(lang))


def test_a_link_missing_a_field_is_refused():
    params = query_params(composed_query(bank.question("dozen").to_moment()))
    del params["stacks"]
    with pytest.raises(ShareError) as info:
        read_composed(params)
    assert info.value.key == "share.composed_missing"


def test_the_file_holds_moments_and_no_dealt_card():
    entries = [MomentEntry(q.to_moment(), q.id, "Q?") for q in bank.QUESTIONS]
    text = moments_json(entries)
    data = json.loads(text)
    assert data["format"] == "speculation_nb.moments" and data["version"] == 1
    assert "piles" not in text and "seed" not in text and "stock" not in text
    assert read_save(text) == tuple(entries) == read_moments(text)


@pytest.mark.parametrize(
    "data",
    [
        {"format": "speculation_nb.moments", "version": 2, "moments": []},
        {"format": "speculation_nb.moments", "version": 1, "moments": []},
        {"format": "speculation_nb.moments", "version": 1, "moments": [{"moment": {}, "title": "", "question": ""}]},
        {"format": "speculation_nb.moments", "version": 1, "moments": [], "extra": 1},
        {"format": "speculation_nb.moments", "version": 1, "moments": [{"title": "x" * 81, "question": ""}]},
    ],
)
def test_a_damaged_file_of_moments_is_refused_whole(data):
    with pytest.raises(ShareError) as info:
        read_save(json.dumps(data))
    assert info.value.key in ("save.version", "save.damaged")
