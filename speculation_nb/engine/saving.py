"""Saving and loading: the JSON of a game and of a session, checked field by field.

A saved game is its rules, its seed, its whole layout and its actions (format
``speculation_nb.game``: :data:`GAME_FORMAT`, :data:`VERSION` 1); a saved session is its settings and its saved games
(``speculation_nb.session``: :data:`SESSION_FORMAT`). Loading replays every action through the rules,
so anything corrupt, hostile or illegal raises ``ValueError`` with a short, clear message
and nothing half-loaded comes back.

A saved game holds every card of its layout, face down ones included. So the game of a composed
moment (:func:`.compose.compose`) saved this way holds the cards dealt for it, which its moment
keeps secret: the app saves such a moment as its public view instead, a file of moments
(:mod:`speculation_nb.links.composed`, :meth:`.compose.Moment.to_dict`), and hides "Save the
session" while one is shown.

The work of loading is bounded by counts, never by refusing what the program itself
writes: at most :data:`MAX_ACTIONS` actions in a deal, :data:`MAX_DEALS` deals and
:data:`MAX_SESSION_ACTIONS` actions in a session, and text no longer than those counts
allow (:data:`MAX_JSON_CHARS`, :data:`MAX_SESSION_CHARS`).
"""

from __future__ import annotations

import dataclasses
import gc
import json
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from .actions import Action
from .cards import Card
from .checks import MAX_STACK, as_int, is_whole, quote
from .checks import seed as check_seed
from .deal import InitialDeal, cards, laid_out, shuffled
from .errors import IllegalAction
from .settings import Rules

if TYPE_CHECKING:
    from .game import Game
    from .session import Session

__all__ = [
    "GAME_FORMAT",
    "MAX_ACTIONS",
    "MAX_DEALS",
    "MAX_JSON_CHARS",
    "MAX_SESSION_ACTIONS",
    "MAX_SESSION_CHARS",
    "SESSION_FORMAT",
    "VERSION",
    "dumps",
    "expect_keys",
    "game_from_dict",
    "game_from_json",
    "game_to_dict",
    "load_json",
    "session_from_json",
    "session_to_dict",
]

GAME_FORMAT = "speculation_nb.game"
SESSION_FORMAT = "speculation_nb.session"
VERSION = 1
#: The most actions a loaded deal may have (a long deal with many auctions has a few hundred).
MAX_ACTIONS = 10_000
#: The most deals a loaded session may have.
MAX_DEALS = 10_000
#: The most actions, all deals together, a loaded session may have.
MAX_SESSION_ACTIONS = 1_000_000
_ACTION_CHARS = 80  # the longest saved action: a blind trade with a 11-digit price, and its comma
_DEAL_CHARS = 2_000  # the longest saved game without its actions (8 players, long hands, every variant)
#: The longest saved game: its layout and :data:`MAX_ACTIONS` of the longest actions.
MAX_JSON_CHARS = 1_000_000
#: The longest saved session: what :data:`MAX_DEALS` and :data:`MAX_SESSION_ACTIONS` allow.
MAX_SESSION_CHARS = MAX_SESSION_ACTIONS * _ACTION_CHARS + MAX_DEALS * (_DEAL_CHARS + 200)
_GAME_KEYS = {"format", "version", "rules", "seed", "deal", "actions"}
_DEAL_KEYS = {"dealer", "piles", "turn_up", "dead", "stock", "stacks", "pot"}
_SESSION_KEYS = {"format", "version", "rules", "names", "deals", "seed", "dealer", "games", "ended"}


# ------------------------------------------------------------------------ JSON text
def dumps(data: Any) -> str:
    """Deterministic JSON: sorted keys, no spaces, UTF-8 text as it is."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def load_json(text: Any, what: str, limit: int = MAX_JSON_CHARS) -> Any:
    """Parse JSON text (or UTF-8 bytes) of at most ``limit`` characters: no NaN or Infinity, no
    nesting deeper than Python can read; anything else raises ``ValueError`` naming ``what``."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise ValueError(f"a {what} is UTF-8 JSON text") from None
    if not isinstance(text, str):
        raise ValueError(f"a {what} is JSON text, not {type(text).__name__}")
    if len(text) > limit:
        raise ValueError(f"this {what} is too large ({len(text):,} characters; at most {limit:,})")

    def no_constants(name: str) -> Any:
        raise ValueError(f"{name} is not allowed")

    try:
        return json.loads(text, parse_constant=no_constants)
    except RecursionError:
        raise ValueError(f"this {what} is nested too deeply") from None
    except ValueError as error:
        raise ValueError(f"not a valid {what}: {quote(str(error))[1:-1]}") from None


def expect_keys(data: Any, keys: set[str], what: str) -> None:
    """``data`` must be a JSON object with exactly ``keys``."""
    if not isinstance(data, dict):
        raise ValueError(f"{what} must be a JSON object")
    if set(data) != keys:
        missing, extra = keys - set(data), set(data) - keys
        parts = []
        if missing:
            parts.append(f"missing {sorted(missing)}")
        if extra:
            parts.append(f"unexpected {quote(sorted(map(str, extra)))}")
        raise ValueError(f"{what} has the wrong fields: {'; '.join(parts)}")


def _version(data: dict[str, Any], fmt: str) -> None:
    if data["format"] != fmt:
        raise ValueError(f"format is {quote(data['format'])}, expected {fmt!r}")
    if not is_whole(data["version"]) or data["version"] != VERSION:
        raise ValueError(f"version {quote(data['version'])} is not supported (this is version {VERSION})")


# ------------------------------------------------------------------------ games
@lru_cache(maxsize=256)
def _deal_codes(layout: InitialDeal) -> str:
    """The saved form of a layout, as JSON text (a layout never changes once play starts)."""
    return dumps(
        {
            "dealer": layout.dealer,
            "piles": [[c.code for c in p] for p in layout.piles],
            "turn_up": layout.turn_up.code,
            "dead": None if layout.dead is None else [c.code for c in layout.dead],
            "stock": [c.code for c in layout.stock],
            "stacks": list(layout.stacks),
            "pot": layout.pot,
        }
    )


class SavedGame:
    """What a :class:`~.game.Game` is saved as and loaded from: its JSON, with sorted keys, a format
    and a version, the rules, the seed, the whole initial deal and the actions."""

    def to_dict(self: Game) -> dict[str, Any]:  # type: ignore[misc]
        """The saved form: format, version, rules, seed, layout, actions."""
        return game_to_dict(self)

    def to_json(self: Game) -> str:  # type: ignore[misc]
        """Deterministic JSON (sorted keys): format, version, rules, the whole layout and the actions."""
        return dumps(self.to_dict())

    @classmethod
    def from_json(cls, text: str | bytes) -> Game:
        """Load ``to_json()`` output. Anything corrupt or illegal raises ``ValueError``; nothing runs."""
        return game_from_json(text)

    @classmethod
    def from_dict(cls, data: Any) -> Game:
        """Load ``to_dict()`` output, checked as :meth:`from_json` checks it."""
        return game_from_dict(data)


def game_to_dict(game: Game) -> dict[str, Any]:
    """The saved form of a game: format, version, rules, seed, the whole layout and the actions."""
    return {
        "format": GAME_FORMAT,
        "version": VERSION,
        "rules": game.rules.to_dict(),
        "seed": game.seed,
        "deal": json.loads(_deal_codes(game.initial_layout)),
        "actions": [a.to_dict() for a in game.history],
    }


def game_from_json(text: str | bytes) -> Game:
    """Load ``Game.to_json()`` output; anything corrupt or illegal raises ``ValueError``."""
    return game_from_dict(load_json(text, "saved game"))


def game_from_dict(data: Any) -> Game:
    """Load ``Game.to_dict()`` output, checked field by field and replayed through the rules."""
    try:
        return _game(data)
    except (ValueError, TypeError, KeyError, IndexError, AttributeError) as error:
        raise ValueError(f"not a valid saved game: {error}") from None


def _code_list(value: Any, what: str) -> list[Any]:
    if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
        raise ValueError(f"{what} must be a list of card codes such as 'QH'")
    return value


def _layout(rules: Rules, deal: Any) -> InitialDeal:
    expect_keys(deal, _DEAL_KEYS, "the deal")
    piles = deal["piles"]
    if not isinstance(piles, list) or len(piles) > 8:
        raise ValueError("deal.piles must be a list of piles")
    for pile in piles:
        _code_list(pile, "deal.piles")
    if not isinstance(deal["turn_up"], str):
        raise ValueError("cards are saved as codes such as 'QH'")
    stock = _code_list(deal["stock"], "deal.stock")
    dead = None if deal["dead"] is None else _code_list(deal["dead"], "deal.dead")
    stacks = deal["stacks"]
    if not isinstance(stacks, list) or not all(is_whole(s) for s in stacks):
        raise ValueError("stacks and pot are whole numbers")
    pot = as_int(deal["pot"], "the pot", 0, MAX_STACK)
    layout = laid_out(rules, piles, deal["turn_up"], dead, deal["dealer"], stacks, pot)
    saved = cards(stock, "the stock")
    if sorted(saved, key=_deck_index) != list(layout.stock):
        raise ValueError("the stock must hold exactly the cards not laid out, each once")
    return dataclasses.replace(layout, stock=tuple(saved))


def _deck_index(card: Card) -> int:
    return "SHDC".index(card.suit.value) * 13 + card.rank - 2


def _replay(game: Game, actions: Any, limit: int, where: str = "") -> None:
    if not isinstance(actions, list):
        raise ValueError(f"{where}actions must be a list")
    if len(actions) > limit:
        raise ValueError(f"{where}{len(actions):,} actions is more than a deal may have here ({limit:,})")
    for i, raw in enumerate(actions):
        action = Action.from_dict(raw)
        try:
            game.apply(action)
        except IllegalAction as error:
            raise ValueError(f"{where}action {i} ({action}) is illegal on replay: {error}") from None


def _game(data: Any) -> Game:
    from .game import Game

    expect_keys(data, _GAME_KEYS, "a saved game")
    _version(data, GAME_FORMAT)
    rules = Rules.from_dict(data["rules"])
    seed = None if data["seed"] is None else check_seed(data["seed"], "the seed")
    layout = _layout(rules, data["deal"])
    if seed is not None:
        # a seed claims the shuffle: it must deal exactly this layout, or game.seed would lie
        dealt, _ = shuffled(rules, seed, layout.dealer, stacks=layout.stacks, pot=layout.pot)
        if dealt != layout:
            raise ValueError(f"seed {seed} does not deal this layout")
    game = Game(rules, layout, seed)
    _replay(game, data["actions"], MAX_ACTIONS)
    return game


# ------------------------------------------------------------------------ sessions
def session_to_dict(session: Session) -> dict[str, Any]:
    """The saved form of a session: its settings and every deal's saved game."""
    saved = {
        "format": SESSION_FORMAT,
        "version": VERSION,
        "rules": session.rules.to_dict(),
        "names": session.names,
        "deals": session.deals,
        "seed": session.seed,
        "dealer": session.first_dealer,
        "games": [game_to_dict(g) for g in session.games],
        "ended": session.ended,
    }
    if session.from_one_game:
        saved["dealt"] = "game"
    return saved


def session_from_json(text: str | bytes) -> Session:
    """Load ``Session.to_json()`` output by replaying it; anything corrupt raises ``ValueError``."""
    # A long session makes many small objects and no reference cycles: the cyclic garbage
    # collector would only walk them again and again (most of the time of a 1,000-deal load).
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _session(load_json(text, "saved session", MAX_SESSION_CHARS))
    except (ValueError, TypeError, KeyError, IndexError, AttributeError) as error:
        if str(error).startswith("not a valid saved session"):
            raise ValueError(str(error)) from None
        raise ValueError(f"not a valid saved session: {error}") from None
    finally:
        if collecting:
            gc.enable()


def _session(data: Any) -> Session:
    from .session import Session

    if isinstance(data, dict) and "dealt" in data:
        return _one_game_session(data)
    expect_keys(data, _SESSION_KEYS, "a saved session")
    _version(data, SESSION_FORMAT)
    games = data["games"]
    if not isinstance(data["names"], list) or not isinstance(games, list) or not games:
        raise ValueError("names and games must be non-empty lists")
    if len(games) > MAX_DEALS:
        raise ValueError(f"{len(games):,} deals is more than a session may have here ({MAX_DEALS:,})")
    if data["ended"] not in (None, "deals", "ante", "stopped"):
        raise ValueError(f"unknown end {quote(data['ended'])}")
    rules = Rules.from_dict(data["rules"])
    session = Session(rules, data["names"], data["deals"], data["seed"], data["dealer"])
    total = 0
    for i, saved in enumerate(games):
        if i > 0 and session.next_deal() is None:
            raise ValueError(f"deal {i + 1} should not exist: the session had ended")
        game = session.game
        expect_keys(saved, _GAME_KEYS, f"deal {i + 1}")
        actions = saved["actions"]
        # The deal follows from the session's seed and the deals before it: its saved form, but for
        # the actions, is exactly the one the session writes (compared as JSON, so 1 is not true).
        ours = game_to_dict(game)
        if dumps({**saved, "actions": []}) != dumps({**ours, "actions": []}):
            raise ValueError(f"deal {i + 1} does not follow from the session's seed and the deals before it")
        total += len(actions) if isinstance(actions, list) else 0
        if total > MAX_SESSION_ACTIONS:
            raise ValueError(f"more than {MAX_SESSION_ACTIONS:,} actions is more than a session may have here")
        _replay(game, actions, MAX_ACTIONS, f"deal {i + 1}: ")
    if data["ended"] == "stopped":
        session.stop()
    elif data["ended"] is not None and (session.next_deal() is not None or session.ended != data["ended"]):
        raise ValueError("the session's end does not follow from its deals")
    return session


def _one_game_session(data: dict[str, Any]) -> Session:
    """A session of one given deal (``Session.from_game``): its one game, checked as a saved game is."""
    from .session import Session

    expect_keys(data, _SESSION_KEYS | {"dealt"}, "a saved session")
    _version(data, SESSION_FORMAT)
    if data["dealt"] != "game":
        raise ValueError(f"dealt is 'game' or absent, not {quote(data['dealt'])}")
    games = data["games"]
    if not isinstance(games, list) or len(games) != 1 or data["deals"] != 1:
        raise ValueError("a session of one given deal has exactly one deal")
    if data["ended"] not in (None, "deals"):
        raise ValueError(f"unknown end {quote(data['ended'])}")
    game = _game(games[0])
    if game.rules.to_dict() != Rules.from_dict(data["rules"]).to_dict():
        raise ValueError("the deal's rules are not the session's")
    session = Session.from_game(game, data["names"])
    if session.first_dealer != data["dealer"] or session.seed != data["seed"]:
        raise ValueError("the session's dealer and seed are the deal's")
    if data["ended"] == "deals" and session.next_deal() is not None:
        raise ValueError("the session's end does not follow from its deals")
    return session
