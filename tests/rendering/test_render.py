"""The SVG / HTML renderers: well-formed, accessible, escaped, and showing the
right things (render.py)."""

from __future__ import annotations

import html
import re
import xml.etree.ElementTree as ET
from types import SimpleNamespace

import pytest

from speculation_nb.engine.cards import Card, full_deck
from speculation_nb.engine.game import Game
from speculation_nb.engine.settings import Rules
from speculation_nb.rendering import cards as render
from speculation_nb.rendering.cards import (
    SUIT_PATHS,
    TEXTS,
    card_back_svg,
    card_svg,
    suit_svg,
    table_html,
)

SVG_NS = "{http://www.w3.org/2000/svg}"
SUIT_GLYPHS = "♠♥♦♣♤♡♢♧"
EVIL = "<img src=x onerror=alert(1)>"


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == SVG_NS + "svg"
    return root


def texts_of(root: ET.Element) -> list[str]:
    return ["".join(el.itertext()) for el in root.iter(SVG_NS + "text")]


def path_data(root: ET.Element) -> list[str]:
    return [el.get("d") for el in root.iter(SVG_NS + "path")]


# ---------------------------------------------------------------- suit paths


def test_suit_paths_cover_the_four_suits_and_are_distinct():
    assert set(SUIT_PATHS) == {"S", "H", "D", "C"}
    assert len(set(SUIT_PATHS.values())) == 4
    for d in SUIT_PATHS.values():
        assert d.startswith("M") and d.rstrip().endswith("Z")


@pytest.mark.parametrize("suit", "SHDC")
def test_suit_paths_stay_inside_the_100_box(suit):
    numbers = [float(x) for x in re.findall(r"-?\d+(?:\.\d+)?", SUIT_PATHS[suit])]
    # Arc commands carry flags (0/1) and radii, all also within 0..100.
    assert numbers and all(0 <= x <= 100 for x in numbers)


@pytest.mark.parametrize("suit", "SHDC")
def test_suit_paths_are_mirror_symmetric(suit):
    """Every absolute point (x, y) of the outline has its mirror (100 - x, y)."""
    d = SUIT_PATHS[suit]
    points = set()
    for cmd, args in re.findall(r"([MLCQA])([^MLCQAZ]*)", d):
        nums = [float(x) for x in re.findall(r"-?\d+(?:\.\d+)?", args)]
        if cmd == "A":  # rx ry rotation large-arc sweep x y: keep the end point
            nums = [v for k, v in enumerate(nums) if k % 7 >= 5]
        assert len(nums) % 2 == 0
        points.update(zip(nums[0::2], nums[1::2]))
    assert len(points) >= 4
    for x, y in points:
        assert (100 - x, y) in points, (suit, x, y)


def test_suit_colours_red_and_black():
    assert render.SUIT_COLORS["H"] == render.SUIT_COLORS["D"]
    assert render.SUIT_COLORS["S"] == render.SUIT_COLORS["C"]
    assert render.SUIT_COLORS["H"] != render.SUIT_COLORS["S"]


# ---------------------------------------------------------------- card faces


@pytest.mark.parametrize("card", full_deck(), ids=lambda c: c.code)
def test_every_card_is_well_formed_and_labelled(card):
    svg = card_svg(card)
    root = parse(svg)
    assert root.get("role") == "img"
    assert root.get("aria-label") == card.name
    assert root.find(SVG_NS + "title").text == card.name
    # the suit is drawn as its path (corner indices and the centre pip) ...
    assert path_data(root).count(SUIT_PATHS[card.suit.value]) == 3
    assert all(d == SUIT_PATHS[card.suit.value] for d in path_data(root))
    # ... and never as a font glyph; the rank is text
    assert not any(g in svg for g in SUIT_GLYPHS)
    assert texts_of(root) == [card.rank_text, card.rank_text]
    colour = render.SUIT_COLORS[card.suit.value]
    assert {p.get("fill") for p in root.iter(SVG_NS + "path")} == {colour}


def test_card_size_and_ratio():
    root = parse(card_svg(Card.parse("QH"), width=100))
    assert float(root.get("width")) == 100
    assert float(root.get("height")) == pytest.approx(140)
    _, _, w, h = (float(x) for x in root.get("viewBox").split())
    assert h / w == pytest.approx(1.4)
    root = parse(card_svg(Card.parse("QH")))
    assert float(root.get("width")) == 60 and float(root.get("height")) == pytest.approx(84)


def test_card_accepts_text_and_rejects_bad_width():
    assert card_svg("Q♥") == card_svg(Card.parse("QH"))
    with pytest.raises(ValueError):
        card_svg("QH", width=0)
    with pytest.raises(ValueError):
        card_svg("QH", width=True)


def test_red_and_black_cards_differ_in_colour():
    red = parse(card_svg("QH"))
    black = parse(card_svg("QS"))
    assert {p.get("fill") for p in red.iter(SVG_NS + "path")} == {"#c0392b"}
    assert {p.get("fill") for p in black.iter(SVG_NS + "path")} != {"#c0392b"}


def test_highlight_changes_the_card_and_adds_gold():
    plain = card_svg("7H")
    best = card_svg("7H", highlight=True)
    assert plain != best
    assert render._GOLD in best and render._GOLD not in plain
    assert "spec-card-best" in best
    # same size: a highlighted card does not shift the layout
    assert parse(best).get("width") == parse(plain).get("width")
    assert parse(best).get("height") == parse(plain).get("height")


def test_dim_greys_the_card():
    dim = parse(card_svg("7H", dim=True))
    fills = {p.get("fill") for p in dim.iter(SVG_NS + "path")}
    assert fills == {render._DIM_INK}
    assert card_svg("7H", dim=True) != card_svg("7H")


def test_label_replaces_the_name_and_is_escaped():
    root = parse(card_svg("QH", label="Dama di cuori"))
    assert root.get("aria-label") == "Dama di cuori"
    assert root.find(SVG_NS + "title").text == "Dama di cuori"
    svg = card_svg("QH", label=EVIL + '"')
    assert EVIL not in svg and "<img" not in svg
    assert parse(svg).get("aria-label") == EVIL + '"'


def test_svgs_have_no_ids():
    """Many SVGs share one HTML page: no id may clash."""
    for svg in (card_svg("AS", highlight=True), card_back_svg(3), card_back_svg(0), suit_svg("H")):
        assert " id=" not in svg and "url(#" not in svg


def test_ten_is_narrowed_not_overflowing():
    root = parse(card_svg("10C"))
    assert texts_of(root) == ["10", "10"]
    assert "scale(0.8,1)" in card_svg("10C")
    assert "scale(0.8,1)" not in card_svg("9C")


# ---------------------------------------------------------------- backs


@pytest.mark.parametrize("count", range(6))
def test_backs_are_well_formed(count):
    root = parse(card_back_svg(count))
    assert root.get("role") == "img"
    assert float(root.get("height")) == pytest.approx(84)
    label = root.get("aria-label")
    assert root.find(SVG_NS + "title").text == label
    if count == 0:
        assert label == "no face-down cards"
    elif count == 1:
        assert label == "1 face-down card"
    else:
        assert label == f"{count} face-down cards"
    assert str(count) in texts_of(root)


def test_back_empty_is_a_dashed_outline_and_stacks_grow():
    empty = card_back_svg(0)
    assert "stroke-dasharray" in empty and render._BACK_BLUE not in empty
    rects = [len(list(parse(card_back_svg(k)).iter(SVG_NS + "rect"))) for k in (1, 2, 3, 7)]
    assert rects[0] < rects[1] < rects[2] == rects[3]  # at most three layers drawn
    assert "7" in texts_of(parse(card_back_svg(7)))
    assert render._BACK_BLUE in card_back_svg(1)


def test_back_label_and_texts_override():
    assert parse(card_back_svg(2, label="due carte")).get("aria-label") == "due carte"
    root = parse(card_back_svg(4, texts={"face_down_many": "{n} carte coperte"}))
    assert root.get("aria-label") == "4 carte coperte"


@pytest.mark.parametrize("bad", [-1, 1.5, True, "3"])
def test_back_rejects_bad_counts(bad):
    with pytest.raises(ValueError):
        card_back_svg(bad)


# ---------------------------------------------------------------- suit


@pytest.mark.parametrize("suit", "SHDC")
def test_suit_svg(suit):
    root = parse(suit_svg(suit, 30))
    assert root.get("width") == "30" and root.get("height") == "30"
    assert path_data(root) == [SUIT_PATHS[suit]]
    assert root.get("aria-label") == TEXTS[f"suit_{suit}"]
    assert not any(g in suit_svg(suit) for g in SUIT_GLYPHS)


def test_suit_svg_accepts_suit_enum_and_rejects_junk():
    assert suit_svg(Card.parse("QH").suit) == suit_svg("H")
    with pytest.raises(ValueError):
        suit_svg("X")


# ---------------------------------------------------------------- the table


def stand_in(**changes):
    """A Game-shaped object: 4 seats, dealer 0, trump hearts (turn-up 7H);
    seat 1 turned up 4D, seat 2 turned up QH (the best trump), seat 3 is due."""
    game = SimpleNamespace(
        rules=SimpleNamespace(players=4, dead_hand=False),
        dealer=0,
        turn_up=Card.parse("7H"),
        trump=Card.parse("7H").suit,
        turn=3,
        holder=2,
        best_trump=Card.parse("QH"),
        pot=18,
        stacks=[54, 56, 56, 56],
        face_down=[3, 2, 2, 3],
        face_up=[[], [Card.parse("4D")], [Card.parse("QH")], []],
        dead=0,
        dead_cards=None,
        auction=None,
        over=False,
        winner=None,
    )
    for k, v in changes.items():
        setattr(game, k, v)
    return game


def seat_chunks(page: str) -> list[str]:
    """The markup of each seat box, in seat order."""
    parts = page.split(' data-seat="')[1:]
    assert [int(p.split('"')[0]) for p in parts] == list(range(len(parts)))
    return parts


def test_table_is_well_formed_xml():
    page = table_html(stand_in(), names=["Fanny", "Edmund", "Mary", EVIL])
    root = ET.fromstring(page)
    assert root.tag == "div" and root.get("class") == "spec-table"
    assert len(root.findall(".//*[@data-seat]")) == 4


def test_table_shows_names_stacks_and_piles():
    page = table_html(stand_in(), names=["Fanny", "Edmund", "Mary", "Henry"])
    seats = seat_chunks(page)
    assert len(seats) == 4
    for name, chunk in zip(["Fanny", "Edmund", "Mary", "Henry"], seats):
        assert name in chunk
    assert ">54<" in seats[0] and ">56<" in seats[1]
    assert 'aria-label="3 face-down cards"' in seats[0]
    assert 'aria-label="2 face-down cards"' in seats[1]
    assert f'aria-label="{Card.parse("4D").name}"' in seats[1]
    assert 'aria-label="Queen of Hearts"' in seats[2]
    # the pot is shown large in the header
    header = page.split('class="spec-seats"')[0]
    assert ">18<" in header and 'aria-label="7 of Hearts"' in header


def test_default_names_are_seat_numbers():
    page = table_html(stand_in())
    for i in range(4):
        assert f">Seat {i}<" in page


def test_names_are_isolated_so_a_direction_mark_cannot_turn_the_line():
    page = table_html(stand_in(holder=3, turn=1), names=["Fanny", "\u202eyraM", "Mary", "Tom"])
    assert "<bdi>\u202eyraM</bdi>" in page
    assert page.count("\u202e") == page.count("<bdi>\u202e")
    ET.fromstring(page)  # still well-formed


def test_names_are_escaped():
    page = table_html(stand_in(holder=3, turn=1), names=["Fanny", "Edmund", "Mary", EVIL])
    assert EVIL not in page
    assert html.escape(EVIL) in page
    assert "<img" not in page
    # it reads back as the literal text
    root = ET.fromstring(page)
    assert EVIL in "".join(root.itertext())


def test_holder_gets_the_star_and_the_best_trump_is_highlighted():
    page = table_html(stand_in(), names=["A", "B", "C", "D"])
    seats = seat_chunks(page)
    assert page.count("★") == 1
    assert "★" in seats[2]
    assert re.search(r'class="spec-seat spec-holder[^"]*" data-seat="2"', page)
    assert "spec-card-best" in seats[2]
    assert all("spec-card-best" not in s for i, s in enumerate(seats) if i != 2)
    # the turn-up is not the best trump any more: not highlighted
    header = page.split('class="spec-seats"')[0]
    assert "spec-card-best" not in header
    # without highlighting there is no star and no gold card
    plain = table_html(stand_in(), highlight_holder=False)
    assert "★" not in plain and "spec-card-best" not in plain


def test_turn_up_highlighted_while_it_is_the_best_trump():
    game = stand_in(holder=0, best_trump=Card.parse("7H"), face_up=[[], [Card.parse("4D")], [], []])
    page = table_html(game)
    header = page.split('class="spec-seats"')[0]
    assert "spec-card-best" in header
    assert "★" in seat_chunks(page)[0]


def test_dealer_and_next_markers():
    page = table_html(stand_in(), names=["A", "B", "C", "D"])
    seats = seat_chunks(page)
    assert [("spec-dealer" in s) for s in seats] == [True, False, False, False]
    assert [("spec-next-tag" in s) for s in seats] == [False, False, False, True]
    assert "▶ next" in seats[3]


def test_header_shows_trump_and_best_trump_owner():
    page = table_html(stand_in(), names=["A", "B", "Mary", "D"])
    header = page.split('class="spec-seats"')[0]
    assert 'aria-label="Hearts"' in header
    assert "(<bdi>Mary</bdi>)" in header
    assert SUIT_PATHS["H"] in header


def test_over_with_a_winner():
    game = stand_in(over=True, turn=None, winner=2, pot=0)
    page = table_html(game, names=["A", "B", "Mary", "D"])
    assert "<bdi>Mary</bdi> wins" in page
    assert "spec-next-tag" not in page
    assert "spec-winner" in seat_chunks(page)[2]


def test_over_with_the_pot_carried_over():
    game = stand_in(
        over=True,
        turn=None,
        winner=None,
        rules=SimpleNamespace(players=4, dead_hand=True),
        dead=0,
        dead_cards=[Card.parse("KH"), Card.parse("2S"), Card.parse("3D")],
    )
    page = table_html(game)
    assert "pot carried over" in page
    assert "spec-winner" not in page
    assert 'aria-label="King of Hearts"' in page and "dead hand" in page


def test_dead_pile_face_down_while_playing():
    game = stand_in(rules=SimpleNamespace(players=4, dead_hand=True), dead=3)
    page = table_html(game)
    header = page.split('class="spec-seats"')[0]
    assert "dead hand" in header and 'aria-label="3 face-down cards"' in header
    assert "dead hand" not in table_html(stand_in())


def test_auction_bids_shown():
    page = table_html(stand_in(auction={1: 12, 3: 7}))
    seats = seat_chunks(page)
    assert "bid 12" in seats[1] and "bid 7" in seats[3] and "spec-bid" not in seats[0]


def test_texts_override_every_word():
    it = {
        "seat": "Posto {n}",
        "dealer": "mazziere",
        "next": "tocca",
        "pot": "piatto",
        "chips": "gettoni",
        "trump": "briscola",
        "turn_up": "carta scoperta",
        "best_trump": "briscola migliore",
        "face_down_many": "{n} carte coperte",
        "suit_H": "Cuori",
        "suit_D": "Quadri",
        "winner": "vince {name}",
        "card_name": "{rank} di {suit}",
        "rank_12": "Donna",
        "holder": "briscola migliore",
    }
    page = table_html(stand_in(), texts=it)
    for word in (
        "Posto 0",
        "mazziere",
        "tocca",
        "piatto",
        "gettoni",
        "carta scoperta",
        "briscola migliore",
        "3 carte coperte",
        'aria-label="Cuori"',
        'aria-label="Donna di Cuori"',
        'aria-label="4 di Quadri"',
        'aria-label="7 di Cuori"',
    ):
        assert word in page
    for word in (
        ">dealer<",
        "▶ next",
        ">pot<",
        "chips",
        "turn-up",
        "face-down",
        "Seat ",
        "Hearts",
        "Diamonds",
        "Queen",
        " of ",
        "best trump",
    ):
        assert word not in page
    over = table_html(stand_in(over=True, turn=None, winner=1), names=["a", "<b>", "c", "d"], texts=it)
    assert "<bdi>&lt;b&gt;</bdi> vince" in over or "vince <bdi>&lt;b&gt;</bdi>" in over
    assert TEXTS["dealer"] == "dealer"  # the defaults are untouched


def test_texts_are_escaped_too():
    page = table_html(stand_in(), texts={"pot": "<script>x</script>"})
    assert "<script>" not in page and "&lt;script&gt;" in page


def test_wrong_number_of_names_is_refused():
    with pytest.raises(ValueError):
        table_html(stand_in(), names=["A", "B"])


def test_table_uses_a_wrapping_flex_grid_and_no_style_leaks():
    page = table_html(stand_in())
    assert "flex-wrap:wrap" in page
    assert "<style" not in page  # inline styles only
    assert "<script" not in page


# ---------------------------------------------------------------- a real Game


def test_renders_a_real_game():
    game = Game.from_layout(
        Rules(players=4),
        piles=[["2C", "KD", "9H"], ["3C", "4D", "5S"], ["6C", "7D", "8S"], ["9C", "JD", "QS"]],
        turn_up="7H",
    )
    names = ["Fanny", "Edmund", "Mary", EVIL]
    page = table_html(game, names=names)
    ET.fromstring(page)
    assert html.escape(EVIL) in page and EVIL not in page
    seats = seat_chunks(page)
    # the dealer (seat 0) holds the turn-up; seat 1 is due to reveal
    assert "★" in seats[0] and "spec-dealer" in seats[0]
    assert "spec-next-tag" in seats[1]
    assert 'aria-label="3 face-down cards"' in seats[1]
    header = page.split('class="spec-seats"')[0]
    assert 'aria-label="7 of Hearts"' in header and "spec-card-best" in header
    assert f">{game.pot}<" in header

    # play it out: every revealed card appears in its seat, in order
    while not game.over:
        if game.auction is not None:  # pragma: no cover - no auction is opened here
            game.decline()
        game.reveal()
    page = table_html(game, names=names)
    ET.fromstring(page)
    seats = seat_chunks(page)
    for seat, cards in enumerate(game.face_up):
        labels = re.findall(r'class="spec-card[^"]*"[^>]*aria-label="([^"]*)"', seats[seat])
        assert labels == [c.name for c in cards]
    assert "★" in seats[game.holder]
    if game.winner is not None:
        assert "spec-winner" in seats[game.winner]
    else:
        assert "pot carried over" in page
