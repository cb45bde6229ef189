"""The grammar of the app's links, read in one place: the page's query and the share link.

Every parameter a link may carry is one row of :data:`PARAMS`: its name, its type (a whole
number in a range, a switch, one of a few words, a seed, a language, a name, free text), its
default and what it means. Other issues add their parameters here, as rows. Two readers share
the one parser, :func:`read_value`:

* :func:`read_query` reads the app's settings from a page's address (``?lang=de&seed=42&
  mode=classroom&players=4``). It never raises: a value it does not understand is left out, and
  said so in one line of the page ("seed 'abc' is not a number"), so that a student whose link
  was mistyped knows why their deal differs from the class's.
* the share link's reader (:func:`speculation_nb.links.share.read_shared_moment`) reads a
  moment strictly: a value that is not one raises :class:`ShareError`, a
  :class:`~speculation_nb.engine.errors.Refusal` worded from the catalogs.

:func:`query_params` splits a query into its parameters (the last value of each name), for
both. The page's own address reaches the kernel through
:func:`speculation_nb.app.page_address.page_query`; nothing here asks how.

>>> read_query("lang=de-AT&seed=42&cast=mansfield").settings
{'lang': 'de', 'temperament': 'mansfield', 'players': 6, 'seed': 42}
>>> read_value("players", " 4 ")
4
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs

from ..engine.checks import MAX_CHIPS, MAX_PLAYER_NAME, MAX_SEED, parse_seed
from ..engine.errors import Refusal
from ..engine.saving import MAX_ACTIONS, MAX_DEALS
from ..engine.settings import MAX_PLAYERS, MIN_PLAYERS, PRESETS, Rules
from ..languages.translator import Translator, available_languages
from ..players.pacing import PACE_CHOICES
from ..rendering.chart_style import BACKENDS

__all__ = [
    "CASTS",
    "DEFAULT_DEALS",
    "DEFAULT_PLAYERS",
    "ENDS",
    "MAX_MOVES",
    "MAX_QUESTION",
    "MODES",
    "PAGE_SETTINGS",
    "PARAMS",
    "STANDARD",
    "TEMPERAMENTS",
    "Ignored",
    "Param",
    "QueryResult",
    "ShareError",
    "default_players",
    "query_params",
    "query_settings",
    "read_query",
    "read_value",
    "shown",
]

#: How the app plays: ``"play"`` (a person and computer players) or ``"classroom"`` (the teacher
#: drives every seat).
MODES = ("play", "classroom")
#: The computer players' line-ups (``players.lineups.table_strategies``): ``"mixed"`` (fair,
#: cautious, bold around the table), one temperament for all, or ``"mansfield"`` (the novel's cast).
TEMPERAMENTS = ("mixed", "cautious", "fair", "bold", "mansfield")
#: ``cast=<name>``: a line-up of the novel's characters and how many sit at its table. The card
#: party of *Mansfield Park* (vol. II, ch. 7) is six: ``cast=mansfield`` means six players
#: unless the link says how many.
CASTS = {"mansfield": 6}
#: How a session ends (G3): after its deals, when someone cannot pay the ante, or stopped.
ENDS = ("deals", "ante", "stopped")
DEFAULT_PLAYERS = 5
DEFAULT_DEALS = 10
#: The rules when a link names none but the number of players.
STANDARD = Rules(players=DEFAULT_PLAYERS)
#: The longest ``moves`` a link may carry (characters): a long session is a few thousand.
MAX_MOVES = 20_000
_SHOWN = 24  # the longest value a refusal quotes
#: The longest question a composed moment's link or file carries (characters).
MAX_QUESTION = 500
_UP_CHARS = 52 * 4 + MAX_PLAYERS  # every card turned up, "10S." each, seats joined by "_"
_STACK_CHARS = MAX_PLAYERS * 20


@dataclass(frozen=True)
class Param:
    """One parameter of a link: ``name``, its ``kind`` and what it accepts, its ``default``.

    Kinds: ``"whole"`` (a whole number ``low`` to ``high``, ASCII digits; a word of ``words``
    means None, as ``deals=none`` does), ``"switch"`` (``1`` on, ``0`` off), ``"choice"`` (one
    of ``choices``), ``"seed"`` (:func:`~speculation_nb.engine.checks.parse_seed`),
    ``"lang"`` (a language of the catalogs; ``de_AT`` and ``pt-BR`` are ``de`` and ``pt``),
    ``"name"`` (a seat's name: 1 to ``high`` characters once trimmed), ``"text"`` (as given, at
    most ``high`` characters).
    """

    name: str
    kind: str
    about: str
    default: Any = None
    low: int = 0
    high: int = 0
    choices: tuple[str, ...] = ()
    words: tuple[str, ...] = ()


def _names() -> dict[str, Param]:
    return {
        f"name{n}": Param(
            f"name{n}", "name", f"the name of seat {n}, where it is not the default", high=MAX_PLAYER_NAME
        )
        for n in range(1, MAX_PLAYERS + 1)
    }


#: Every parameter of the app's links, by name.
PARAMS: dict[str, Param] = {
    p.name: p
    for p in (
        # how the app plays and speaks (the page's settings; a share link's too)
        Param("lang", "lang", "the language", "en"),
        Param("mode", "choice", "how the app plays", MODES[0], choices=MODES),
        Param("temperament", "choice", "the computer players' line-up", TEMPERAMENTS[0], choices=TEMPERAMENTS),
        Param("cast", "choice", "a line-up of the novel's characters, at its table's size", choices=tuple(CASTS)),
        Param("you", "whole", "the person's seat, from 1", 1, 1, MAX_PLAYERS),
        Param("charts", "choice", "how the odds charts are drawn", BACKENDS[0], choices=BACKENDS),
        Param(
            "pace",
            "choice",
            "how fast the computer players act (players.pacing)",
            PACE_CHOICES[0],
            choices=PACE_CHOICES,
        ),
        Param("table", "text", "a shared table's code (T1: read by classroom.codes)", high=200),
        # the rules and the length of the session (S1, V1-V5)
        Param("players", "whole", "the number of players (S1)", DEFAULT_PLAYERS, MIN_PLAYERS, MAX_PLAYERS),
        Param("hand", "whole", "cards in a hand (V5)", STANDARD.hand_size, 3, 5),
        Param("v1", "switch", "the Jack of the Five variant (V1)", False),
        Param("v2", "switch", "the dead hand (V2)", False),
        Param("v3", "switch", "blind trading (V3)", False),
        Param("cap", "whole", "the price cap (V4)", None, 1, MAX_CHIPS),
        Param("ante", "whole", "a uniform ante (S2)", None, 1, MAX_CHIPS),
        Param("chips", "whole", "the chips each player starts with (S1)", STANDARD.start_chips, 1, MAX_CHIPS),
        Param("preset", "choice", "the source of the rules", STANDARD.preset, choices=PRESETS),
        Param(
            "deals", "whole", "the deals of the session (none: no limit)", DEFAULT_DEALS, 1, MAX_DEALS, words=("none",)
        ),
        # the moment (share links)
        Param("check", "text", "first in a new share link: its check character (links.check)", high=1),
        Param("seed", "seed", "the session's seed", None, 0, MAX_SEED),
        Param("deal", "whole", "the deal shown, 1 for the first", None, 1, MAX_DEALS),
        Param("moves", "text", "the actions of every deal (links.share)", high=MAX_MOVES),
        Param("step", "whole", "the moment shown in that deal", None, 0, MAX_ACTIONS),
        Param("end", "choice", "how the session ended (G3)", choices=ENDS),
        # a composed moment (links.composed): its public view only, never a seed
        Param("turnup", "text", "a composed moment's turn-up card (links.composed)", high=4),
        Param("dealer", "whole", "a composed moment's dealer, from 1", None, 1, MAX_PLAYERS),
        Param("up", "text", "each seat's turned-up cards, seats by _, cards by .", high=_UP_CHARS),
        Param("down", "text", "each pile's face-down count, by .", high=2 * MAX_PLAYERS),
        Param("dead", "whole", "the dead pile's face-down count (V2)", 0, 0, 5),
        Param("holder", "whole", "the best trump's holder, from 1", None, 1, MAX_PLAYERS),
        Param("paid", "whole", "what the holder paid for the best trump", None, 1, MAX_CHIPS),
        Param("stacks", "text", "each seat's chips now, by .", high=_STACK_CHARS),
        Param("pot", "whole", "the chips in the pot now", None, 0, MAX_CHIPS),
        Param("due", "whole", "the seat due to turn up a card, from 1", None, 1, MAX_PLAYERS),
        Param("ask", "text", "the question asked at a composed moment", high=MAX_QUESTION),
        *_names().values(),
    )
}
#: What a page's address may set (:func:`read_query`), in the order they are read.
PAGE_SETTINGS = ("lang", "mode", "cast", "charts", "pace", "seed", "players")


class ShareError(Refusal):
    """A link or a file that cannot be opened: a :class:`~speculation_nb.engine.errors.Refusal`
    with no numbered rule, its case as ``key`` (``"share.not_replay"``, worded by the catalog's
    ``error.share.not_replay``) and its ``params``; ``str()`` is English.

    ``cause`` is the :class:`~speculation_nb.IllegalAction` that stopped a replay, if one did;
    :func:`speculation_nb.languages.translator.error_text` words both, the cause as ``{reason}``.
    """

    def __init__(self, key: str, message: str, cause: Refusal | None = None, **params: Any) -> None:
        super().__init__("", key, message, params, cause)


def shown(value: str) -> str:
    """A value as a refusal quotes it: printable and short."""
    value = "".join(ch if ch.isprintable() else "?" for ch in value)
    return value if len(value) <= _SHOWN else value[: _SHOWN - 1] + "…"


def _digits(text: str) -> bool:
    # isdigit() accepts "²" and "٣": only ASCII digits are a number here
    return text.isascii() and text.isdigit()


def default_players(temperament: str) -> int:
    """The number of players when a link names none: a cast's table size (:data:`CASTS`), else
    :data:`DEFAULT_PLAYERS`."""
    return CASTS.get(temperament, DEFAULT_PLAYERS)


def read_value(name: str, text: str, high: int | None = None) -> Any:
    """The value of parameter ``name`` (a row of :data:`PARAMS`) that ``text`` gives, or
    :class:`ShareError` saying why it is none (``share.bad_value``, ``share.bad_switch``,
    ``share.bad_choice``, ``share.bad_name``, ``share.too_long``). ``high`` narrows a whole
    number's range (``you`` is at most the number of players)."""
    param = PARAMS[name]
    value = text.strip()
    quoted = shown(text)
    if param.kind == "whole":
        top = param.high if high is None else high
        if value in param.words:
            return None
        if not _digits(value) or len(value) > 19 or not param.low <= int(value) <= top:
            raise ShareError(
                "share.bad_value",
                f"{name}={quoted!r} is not a whole number from {param.low} to {top}",
                name=name,
                value=quoted,
                low=param.low,
                high=top,
            )
        return int(value)
    if param.kind == "seed":  # blank: None, a fresh seed (a share link's reader asks for one)
        try:
            return parse_seed(value)
        except ValueError:
            raise ShareError(
                "share.bad_value",
                f"{name}={quoted!r} is not a whole number from {param.low} to {param.high}",
                name=name,
                value=quoted,
                low=param.low,
                high=param.high,
            ) from None
    if param.kind == "switch":
        if value not in ("0", "1"):
            raise ShareError("share.bad_switch", f"{name}={quoted!r} is not 1 (on) or 0 (off)", name=name, value=quoted)
        return value == "1"
    if param.kind == "choice":
        if value not in param.choices:
            choices = ", ".join(param.choices)
            raise ShareError(
                "share.bad_choice",
                f"{name}={quoted!r} is not one of {choices}",
                name=name,
                value=quoted,
                choices=choices,
            )
        return value
    if param.kind == "lang":
        code = value.replace("-", "_")
        languages = available_languages()
        if code in languages:
            return code
        if code.split("_")[0].lower() in languages:  # "de_AT", "pt-BR", "IT"
            return code.split("_")[0].lower()
        choices = ", ".join(languages)
        raise ShareError(
            "share.bad_choice", f"{name}={quoted!r} is not one of {choices}", name=name, value=quoted, choices=choices
        )
    if param.kind == "name":
        if not value or len(value) > param.high:
            number = int(name[len("name") :])
            raise ShareError("share.bad_name", f"{name} is empty or too long", number=number, limit=param.high)
        return value
    if len(text) > param.high:  # "text": as it is given
        raise ShareError("share.too_long", f"{name} is longer than {param.high} characters", limit=param.high)
    return text


def given(params: Mapping[str, str], name: str, high: int | None = None) -> Any:
    """The value ``params`` give parameter ``name`` (read by :func:`read_value`), or the
    parameter's default when they give none."""
    if name not in params:
        return PARAMS[name].default
    return read_value(name, params[name], high)


def rules_of(params: Mapping[str, str], players: int) -> Rules:
    """The rules a link's parameters give, for ``players``: each value read (a ``ShareError``
    naming it), then the rules say whether they go together (``share.bad_rules``)."""
    uniform = given(params, "ante")
    settings = {
        "players": players,
        "hand_size": given(params, "hand"),
        "jack_five": given(params, "v1"),
        "dead_hand": given(params, "v2"),
        "blind_trading": given(params, "v3"),
        "price_cap": given(params, "cap"),
        "ante": "traditional" if uniform is None else "uniform",
        "uniform_ante": STANDARD.uniform_ante if uniform is None else uniform,
        "start_chips": given(params, "chips"),
        "preset": given(params, "preset"),
    }
    try:
        return Rules(**settings)
    except ValueError as error:
        raise ShareError("share.bad_rules", f"these settings are impossible: {error}", detail=str(error)) from None


def query_params(query: str | None) -> dict[str, str]:
    """The parameters of a query string (without ``?``), one value per name: the last one, as a
    browser's ``URLSearchParams.get`` would not, but as Voila's and the share link's readers
    always did. Never raises: anything odd is no parameter at all."""
    try:
        return {k: v[-1] for k, v in parse_qs(query or "", keep_blank_values=True).items() if v}
    except Exception:  # parse_qs is lenient; anything odd is no setting at all
        return {}


# ------------------------------------------------------------------ the page's settings
@dataclass(frozen=True)
class Ignored:
    """One value of the address that was left out: its catalog key and parameters."""

    key: str
    params: dict[str, Any]

    def text(self, t: Translator) -> str:
        return t(self.key, **self.params)


@dataclass
class QueryResult:
    settings: dict[str, Any] = field(default_factory=dict)
    ignored: list[Ignored] = field(default_factory=list)


def _notice(name: str, text: str) -> Ignored:
    """What the page says of a value of ``name`` it left out (``error.query_bad_<name>``)."""
    key = f"error.query_bad_{name}"
    params: dict[str, Any] = {"value": shown(text)}
    if name == "players" and not _digits(text.strip()):
        key = "error.query_bad_players_text"
    elif name == "lang":
        params["choices"] = ", ".join(available_languages())
    elif name == "mode":
        params["choices"] = ", ".join(MODES)
    return Ignored(key, params)


def read_query(query: str) -> QueryResult:
    """The app's settings a page's query gives (:data:`PAGE_SETTINGS`), and what was left out.

    ``cast=mansfield`` sets the line-up and, unless ``players`` says otherwise, its six players.
    Other names are left alone: a host (Voila, JupyterLite) may add its own, and a share link's
    moment is read by :func:`speculation_nb.links.share.read_shared_moment`."""
    params = query_params(query)
    out = QueryResult()
    for name in PAGE_SETTINGS:
        if name not in params:
            continue
        try:
            value = read_value(name, params[name])
        except ShareError:
            out.ignored.append(_notice(name, params[name]))
            continue
        if name == "cast":
            out.settings["temperament"] = value
            out.settings.setdefault("players", default_players(value))
        elif value is not None:  # a blank seed: a fresh one
            out.settings[name] = value
    return out


def query_settings(query: str) -> dict[str, Any]:
    """The app's settings a page's query gives; what it got wrong is left out (:func:`read_query`
    says which)."""
    return read_query(query).settings
