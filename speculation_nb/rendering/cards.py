"""Cards and the table as SVG / HTML strings.

Pure functions, no widget or plotting library: they return text that Jupyter
(``Card._repr_svg_``, ``Game._repr_html_``), an ``ipywidgets.HTML`` or a saved
page can show. The pictures are made for a projector and the back row of a
classroom: big ranks, big suit symbols, strong contrast, and never colour alone
(the suit is always drawn as its shape).

Suit symbols are SVG paths, not font glyphs, so no font needs the characters.
Rank letters and digits are ``<text>`` in a generic font family.

Every word a person reads goes through ``TEXTS`` (or a ``texts`` argument that
overrides some of its keys), so that a translation layer can supply them.
Everything put into markup is escaped.

The SVGs carry no ``id`` attributes (no ``<defs>``, patterns or filters), so any
number of them can sit in one HTML page without clashing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from typing import Any

from ..engine.cards import RANK_NAMES, Card, Suit
from ..languages.markup import escape as esc

__all__ = [
    "SUIT_COLORS",
    "SUIT_PATHS",
    "TEXTS",
    "card_back_svg",
    "card_svg",
    "suit_svg",
    "table_html",
]

# --------------------------------------------------------------------------
# Words (English defaults; a translation layer passes its own ``texts``)
# --------------------------------------------------------------------------

TEXTS: dict[str, str] = {
    "seat": "Seat {n}",
    "dealer": "dealer",
    "next": "next",
    "holder": "best trump",
    "pot": "pot",
    "chips": "chips",
    "trump": "trump",
    "turn_up": "turn-up",
    "best_trump": "best trump",
    "face_down_none": "no face-down cards",
    "face_down_one": "1 face-down card",
    "face_down_many": "{n} face-down cards",
    "dead_hand": "dead hand",
    "winner": "{name} wins",
    "winner_tag": "wins",
    "carried_over": "pot carried over",
    "bid": "bid {n}",
    "suit_S": "Spades",
    "suit_H": "Hearts",
    "suit_D": "Diamonds",
    "suit_C": "Clubs",
    "card_name": "{rank} of {suit}",
    **{f"rank_{r}": name for r, name in RANK_NAMES.items()},
}


def _texts(texts: Mapping[str, str] | None) -> dict[str, str]:
    merged = dict(TEXTS)
    if texts:
        merged.update(texts)
    return merged


def _card_label(card: Card, t: Mapping[str, str]) -> str:
    """The card's name in the words of ``t`` ("Queen of Hearts" by default)."""
    return t["card_name"].format(rank=t[f"rank_{card.rank}"], suit=t[f"suit_{card.suit.value}"])


# --------------------------------------------------------------------------
# Suit symbols: symmetric paths in a 100 x 100 box (axis x = 50)
# --------------------------------------------------------------------------


def _circle(cx: float, cy: float, r: float) -> str:
    """A circle as path data, drawn clockwise (so unions with nonzero fill)."""
    return f"M{cx - r:g},{cy:g}A{r:g},{r:g} 0 1 1 {cx + r:g},{cy:g}A{r:g},{r:g} 0 1 1 {cx - r:g},{cy:g}Z"


SUIT_PATHS: dict[str, str] = {
    "S": (
        "M50,4C58,20 96,38 96,62C96,76 86,85 74,85C65,85 58,80 54,73"
        "C55,83 59,90 68,96L32,96C41,90 45,83 46,73"
        "C42,80 35,85 26,85C14,85 4,76 4,62C4,38 42,20 50,4Z"
    ),
    "H": ("M50,94C44,84 4,62 4,32C4,16 16,6 29,6C39,6 46,13 50,23C54,13 61,6 71,6C84,6 96,16 96,32C96,62 56,84 50,94Z"),
    "D": "M50,2Q65,30 89,50Q65,70 50,98Q35,70 11,50Q35,30 50,2Z",
    "C": (
        _circle(50, 27, 22)
        + _circle(27, 59, 22)
        + _circle(73, 59, 22)
        + _circle(50, 52, 12)
        + "M50,54C51,76 56,88 68,96L32,96C44,88 49,76 50,54Z"
    ),
}

RED = "#c0392b"
BLACK = "#1c1c1c"
SUIT_COLORS: dict[str, str] = {"S": BLACK, "H": RED, "D": RED, "C": BLACK}

_DIM_INK = "#8a8a8a"
_GOLD = "#d4a017"
_WINNER_INK = "#1a1a1a"  # on gold: 8.7:1 (white was 2.3:1)
_GOLD_GLOW = "#f5c542"
_BACK_BLUE = "#1f3a68"
_BACK_LINE = "#6f8fc4"
_FONT = "Helvetica, Arial, 'DejaVu Sans', sans-serif"

# Card geometry, in card units: the face is 100 x 140; the viewBox adds a
# margin (for the highlight glow and the stacked backs) keeping the 1 : 1.4 ratio.
_VB_X, _VB_Y, _VB_W, _VB_H = -6, -8.4, 112, 156.8
_VIEWBOX = f"{_VB_X:g} {_VB_Y:g} {_VB_W:g} {_VB_H:g}"
_RADIUS = 9


def _suit_key(suit: Any) -> str:
    key = Suit(suit).value  # accepts Suit, "H", ...; ValueError otherwise
    return key


def _suit_path(suit: str, x: float, y: float, size: float, fill: str, flip: bool = False) -> str:
    """The suit path scaled into the square (x, y, size, size)."""
    s = size / 100
    if flip:  # rotated 180 degrees about the square's centre
        transform = f"translate({x + size:g},{y + size:g}) scale({-s:g})"
    else:
        transform = f"translate({x:g},{y:g}) scale({s:g})"
    return f'<path d="{SUIT_PATHS[suit]}" transform="{transform}" fill="{fill}"/>'


def _svg_open(width: float, height: float, viewbox: str, label: str, cls: str) -> str:
    lab = esc(label)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="{cls}" width="{width:g}" '
        f'height="{height:g}" viewBox="{viewbox}" role="img" aria-label="{lab}">'
        f"<title>{lab}</title>"
    )


def _size(width: float) -> tuple[float, float]:
    if isinstance(width, bool) or not isinstance(width, (int, float)) or width <= 0:
        raise ValueError(f"width must be a positive number, not {width!r}")
    return width, round(width * 1.4, 2)


# --------------------------------------------------------------------------
# Cards
# --------------------------------------------------------------------------


def card_svg(
    card: Card | str,
    *,
    width: float = 60,
    highlight: bool = False,
    dim: bool = False,
    label: str | None = None,
) -> str:
    """A card face as a standalone ``<svg>``, ``width`` px wide and 1.4 times as high.

    ``highlight`` draws a gold border and glow (the best trump); ``dim`` greys
    the card out. ``label`` replaces the English card name in ``aria-label`` and
    ``<title>`` (for translations).
    """
    card = Card.parse(card)
    w, h = _size(width)
    suit = card.suit.value
    ink = _DIM_INK if dim else SUIT_COLORS[suit]
    face = "#ececec" if dim else "#ffffff"
    border = "#b5b5b5" if dim else "#9a9a9a"
    name = card.name if label is None else label
    cls = "spec-card" + (" spec-card-best" if highlight else "") + (" spec-card-dim" if dim else "")

    parts = [_svg_open(w, h, _VIEWBOX, name, cls)]
    if highlight:
        parts.append(
            f'<rect x="-5" y="-5" width="110" height="150" rx="{_RADIUS + 5}" fill="{_GOLD_GLOW}" fill-opacity="0.75"/>'
        )
    parts.append(
        f'<rect x="0.75" y="0.75" width="98.5" height="138.5" rx="{_RADIUS}" fill="{face}" '
        f'stroke="{_GOLD if highlight else border}" stroke-width="{4 if highlight else 1.5}"/>'
    )
    # Corner indices: the rank over a small suit; "10" is narrowed by a
    # horizontal scale (textLength is not supported everywhere).
    rank = esc(card.rank_text)
    narrow = " scale(0.8,1)" if len(card.rank_text) > 1 else ""
    index = (
        f'<text transform="translate(16,29){narrow}" font-family="{_FONT}" font-size="28" '
        f'font-weight="bold" text-anchor="middle" fill="{ink}">{rank}</text>' + _suit_path(suit, 7.5, 34, 17, ink)
    )
    parts.append(f"<g>{index}</g>")
    parts.append(f'<g transform="rotate(180 50 70)">{index}</g>')
    # The large centre pip, clear of the corner indices.
    parts.append(_suit_path(suit, 27, 47, 46, ink))
    parts.append("</svg>")
    return "".join(parts)


def card_back_svg(
    count: int = 1, *, width: float = 60, label: str | None = None, texts: Mapping[str, str] | None = None
) -> str:
    """A face-down pile of ``count`` cards: a blue lattice back, stacked when
    ``count`` > 1, with the count as a badge; an empty dashed outline for 0."""
    if isinstance(count, bool) or not isinstance(count, int) or count < 0:
        raise ValueError(f"count must be a whole number >= 0, not {count!r}")
    t = _texts(texts)
    w, h = _size(width)
    if label is None:
        if count == 0:
            label = t["face_down_none"]
        elif count == 1:
            label = t["face_down_one"].format(n=count)
        else:
            label = t["face_down_many"].format(n=count)
    cls = "spec-back" + (" spec-back-empty" if count == 0 else "")
    parts = [_svg_open(w, h, _VIEWBOX, label, cls)]

    if count == 0:
        parts.append(
            f'<rect x="2" y="2" width="96" height="136" rx="{_RADIUS}" fill="none" '
            f'stroke="#9a9a9a" stroke-width="2.5" stroke-dasharray="9 6"/>'
            f'<text x="50" y="81" font-family="{_FONT}" font-size="30" font-weight="bold" '
            f'text-anchor="middle" fill="#b0b0b0">0</text>'
        )
        parts.append("</svg>")
        return "".join(parts)

    layers = min(count, 3)
    # Cards underneath peek out to the upper right, 2.8 / 4 units per card.
    for k in range(layers - 1, 0, -1):
        parts.append(
            f'<rect x="{0.75 + 2.8 * k:g}" y="{0.75 - 4 * k:g}" width="98.5" height="138.5" '
            f'rx="{_RADIUS}" fill="{_BACK_BLUE}" stroke="#ffffff" stroke-width="1.5"/>'
        )
    parts.append(
        f'<rect x="0.75" y="0.75" width="98.5" height="138.5" rx="{_RADIUS}" '
        f'fill="#ffffff" stroke="#5a6a85" stroke-width="1.5"/>'
        f'<rect x="7" y="7" width="86" height="126" rx="5" fill="{_BACK_BLUE}"/>'
        f'<path d="{_lattice(7, 7, 86, 126, 12)}" stroke="{_BACK_LINE}" stroke-width="1.6" '
        f'fill="none" stroke-linecap="round"/>'
        f'<rect x="13" y="13" width="74" height="114" rx="3" fill="none" '
        f'stroke="{_BACK_LINE}" stroke-width="1.2"/>'
    )
    # The count badge.
    digits = str(count)
    rx = 22 if len(digits) == 1 else 27
    parts.append(
        f'<rect x="{50 - rx}" y="48" width="{2 * rx}" height="44" rx="22" fill="#ffffff" '
        f'stroke="{_BACK_BLUE}" stroke-width="3"/>'
        f'<text x="50" y="81" font-family="{_FONT}" font-size="32" font-weight="bold" '
        f'text-anchor="middle" fill="{_BACK_BLUE}">{digits}</text>'
    )
    parts.append("</svg>")
    return "".join(parts)


@lru_cache(maxsize=32)  # the same few backs are drawn at every step of the app
def _lattice(x0: float, y0: float, w: float, h: float, step: float) -> str:
    """Diagonal lines both ways across the rectangle, clipped to it by hand
    (no clipPath, so no ids)."""
    segs: list[str] = []
    # Lines y - y0 = (x - x0) - c  and  y - y0 = -(x - x0) + c, c on a grid.
    c = -h + step / 2
    while c < w + h:
        # direction (1, 1): points (x0 + c + t, y0 + t)
        t0 = max(0.0, -c)
        t1 = min(h, w - c)
        if t1 > t0:
            segs.append(f"M{x0 + c + t0:.1f},{y0 + t0:.1f}L{x0 + c + t1:.1f},{y0 + t1:.1f}")
        # direction (-1, 1): points (x0 + c - t, y0 + t)
        t0 = max(0.0, c - w)
        t1 = min(h, c)
        if t1 > t0:
            segs.append(f"M{x0 + c - t0:.1f},{y0 + t0:.1f}L{x0 + c - t1:.1f},{y0 + t1:.1f}")
        c += step
    return "".join(segs)


def suit_svg(
    suit: Suit | str, size: float = 24, *, label: str | None = None, texts: Mapping[str, str] | None = None
) -> str:
    """A lone suit symbol, ``size`` px square (the trump indicator)."""
    key = _suit_key(suit)
    if isinstance(size, bool) or not isinstance(size, (int, float)) or size <= 0:
        raise ValueError(f"size must be a positive number, not {size!r}")
    if label is None:
        label = _texts(texts)[f"suit_{key}"]
    return (
        _svg_open(size, size, "0 0 100 100", label, f"spec-suit spec-suit-{key}")
        + f'<path d="{SUIT_PATHS[key]}" fill="{SUIT_COLORS[key]}"/></svg>'
    )


# --------------------------------------------------------------------------
# The table
# --------------------------------------------------------------------------

_BOX = (
    "flex:1 1 230px;max-width:340px;min-width:200px;box-sizing:border-box;"
    "border-radius:10px;padding:8px 10px;background:#f7f5ef;"
)
_TAG = (
    "display:inline-block;border-radius:6px;padding:1px 7px;margin-left:6px;font-size:15px;font-weight:600;"
    "vertical-align:middle;"
)


def table_html(
    game: Any,
    names: Sequence[str] | None = None,
    *,
    highlight_holder: bool = True,
    texts: Mapping[str, str] | None = None,
    card_width: float = 54,
    number: Callable[[int], str] | None = None,
) -> str:
    """The deal as an HTML fragment (inline styles only): a header with the
    turn-up, the trump suit, the pot and the outcome, then one box per seat in a
    wrapping flex grid (name, stack, face-down pile, cards turned up, the ★ of
    the holder, the dealer tag and the "next" marker).

    ``names`` default to "Seat i"; every name is escaped. ``texts`` overrides
    keys of ``TEXTS``; ``number`` writes the pot, the stacks and the bids the way
    a language writes whole numbers (``Translator.number``: ``1,200`` /
    ``1.200``; default ``str``).
    """
    t = _texts(texts)
    num = number or str
    n = game.rules.players
    if names is None:
        names = [t["seat"].format(n=i) for i in range(n)]
    names = [str(x) for x in names]
    if len(names) != n:
        raise ValueError(f"names: {n} names needed, got {len(names)}")
    # Names are isolated (<bdi>): one written right to left, or starting with a direction mark
    # such as U+202E, cannot turn the text around it.
    safe = [f"<bdi>{esc(x)}</bdi>" for x in names]

    best = None if game.best_trump is None else Card.parse(game.best_trump)
    turn_up = Card.parse(game.turn_up)
    holder = game.holder
    over = bool(game.over)
    turn = None if over else game.turn
    stacks = list(game.stacks)
    face_down = list(game.face_down)
    face_up = [list(cards) for cards in game.face_up]
    auction = getattr(game, "auction", None) or {}
    winner = game.winner if over else None

    out: list[str] = [
        '<div class="spec-table" style="font-family:' + esc(_FONT) + ";color:#1c1c1c;"
        'font-size:17px;line-height:1.3;max-width:1280px">'
    ]

    # Header: turn-up, trump, best trump, pot, outcome.
    head = [
        '<div class="spec-header" style="display:flex;flex-wrap:wrap;align-items:center;gap:10px 28px;'
        'padding:8px 12px;margin-bottom:10px;border-radius:10px;background:#eef2f7">'
    ]
    head.append(
        '<div class="spec-turnup" style="display:flex;align-items:center;gap:8px">'
        f'<span style="font-size:17px;color:#555">{esc(t["turn_up"])}</span>'
        + card_svg(
            turn_up,
            width=card_width + 6,
            highlight=highlight_holder and best == turn_up,
            label=_card_label(turn_up, t),
        )
        + "</div>"
    )
    trump = _suit_key(game.trump)
    head.append(
        '<div class="spec-trump" style="display:flex;align-items:center;gap:8px">'
        f'<span style="font-size:17px;color:#555">{esc(t["trump"])}</span>' + suit_svg(trump, 40, texts=t) + "</div>"
    )
    if best is not None:
        owner = f" ({safe[holder]})" if holder is not None else ""
        head.append(
            '<div class="spec-best" style="display:flex;align-items:center;gap:8px">'
            f'<span style="font-size:17px;color:#555">{esc(t["best_trump"])}</span>'
            f'<span role="img" aria-label="{esc(_card_label(best, t))}" style="display:inline-flex;'
            f'align-items:center;gap:2px;font-size:26px;font-weight:bold;color:{SUIT_COLORS[best.suit.value]}">'
            f"{esc(best.rank_text)}"
            + suit_svg(best.suit, 24, texts=t)
            + "</span>"
            + f'<span style="font-size:19px;font-weight:600">{owner}</span></div>'
        )
    head.append(
        '<div class="spec-pot" style="display:flex;align-items:baseline;gap:8px">'
        f'<span style="font-size:17px;color:#555">{esc(t["pot"])}</span>'
        f'<span style="font-size:34px;font-weight:bold">{esc(num(int(game.pot)))}</span></div>'
    )
    dead_cards = getattr(game, "dead_cards", None)
    dead = getattr(game, "dead", 0) or 0
    if dead or dead_cards or getattr(game.rules, "dead_hand", False):
        pile = (
            "".join(card_svg(c, width=card_width * 0.8, label=_card_label(Card.parse(c), t)) for c in dead_cards)
            if dead_cards
            else card_back_svg(dead, width=card_width * 0.8, texts=t)
        )
        head.append(
            '<div class="spec-dead" style="display:flex;align-items:center;gap:6px">'
            f'<span style="font-size:17px;color:#555">{esc(t["dead_hand"])}</span>{pile}</div>'
        )
    if over:
        if winner is None:
            result = esc(t["carried_over"])
        else:
            result = esc(t["winner"]).replace("{name}", safe[winner])
        head.append(
            '<div class="spec-result" style="font-size:24px;font-weight:bold;padding:4px 12px;'
            f'border-radius:8px;background:{"#fff1c2" if winner is not None else "#e3e3e3"}">'
            f"{result}</div>"
        )
    head.append("</div>")
    out.extend(head)

    # Seats.
    out.append('<div class="spec-seats" style="display:flex;flex-wrap:wrap;gap:10px">')
    for i in range(n):
        is_holder = highlight_holder and holder == i
        is_next = turn == i
        if is_holder:
            frame = f"border:3px solid {_GOLD};box-shadow:0 0 0 3px {_GOLD_GLOW}80;"
        elif is_next:
            frame = "border:3px solid #2e6fd8;"
        else:
            frame = "border:3px solid #d8d4c8;"
        classes = "spec-seat" + (" spec-holder" if is_holder else "") + (" spec-next" if is_next else "")
        out.append(f'<div class="{classes}" data-seat="{i}" style="{_BOX}{frame}">')
        # Name line with tags.
        line = ['<div style="display:flex;flex-wrap:wrap;align-items:center;gap:2px 0">']
        if is_holder:
            line.append(
                f'<span class="spec-star" title="{esc(t["holder"])}" '
                f'style="color:{_GOLD};font-size:24px;margin-right:4px">★</span>'
            )
        line.append(f'<span class="spec-name" style="font-size:21px;font-weight:bold">{safe[i]}</span>')
        if game.dealer == i:
            line.append(
                f'<span class="spec-dealer" style="{_TAG}background:#e2ddd0;color:#333">{esc(t["dealer"])}</span>'
            )
        if is_next:
            line.append(
                f'<span class="spec-next-tag" style="{_TAG}background:#2e6fd8;color:#fff">▶ {esc(t["next"])}</span>'
            )
        if over and winner == i:
            line.append(
                f'<span class="spec-winner" style="{_TAG}background:{_GOLD};color:{_WINNER_INK}">'
                f"{esc(t['winner_tag'])}</span>"
            )
        if auction.get(i):
            line.append(
                f'<span class="spec-bid" style="{_TAG}background:#fff;border:1px solid #999">'
                f"{esc(t['bid'].format(n=num(int(auction[i]))))}</span>"
            )
        line.append("</div>")
        out.extend(line)
        out.append(
            f'<div class="spec-stack" style="font-size:17px;color:#444;margin:2px 0 6px">'
            f'<b style="font-size:22px;color:#1c1c1c">{esc(num(int(stacks[i])))}</b> {esc(t["chips"])}</div>'
        )
        # The pile, then the cards turned up, fanned: each overlaps the one
        # before by a third, leaving its rank and suit corner in view.
        cards = [card_back_svg(int(face_down[i]), width=card_width, texts=t)]
        overlap = round(card_width * 0.34)
        for k, c in enumerate(face_up[i]):
            c = Card.parse(c)
            is_best = highlight_holder and c == best
            shift = f"margin-left:-{overlap}px;" if k else "margin-left:4px;"
            cards.append(
                f'<span class="spec-up" style="display:inline-flex;{shift}">'
                + card_svg(c, width=card_width, highlight=is_best, label=_card_label(c, t))
                + "</span>"
            )
        out.append('<div class="spec-cards" style="display:flex;flex-wrap:wrap;row-gap:4px;align-items:flex-end">')
        out.extend(cards)
        out.append("</div></div>")
    out.append("</div></div>")
    return "".join(out)
