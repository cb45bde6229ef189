"""A moment of a session as a link, and a saved game or session as a file.

**The link.** A moment is the settings of a table, the session's seed, the
number of the deal shown and every action taken so far. The seed alone fixes
the cards of every deal (``Session.deal_seed``), but not what people did: who
bid, who sold, so which stacks the next deal starts from. So the link carries
all the actions of the session, in a compact URL-safe form, and the app
replays them by the rules (a link that does not replay is refused, never
shown as something else)::

    ?check=X&players=4&seed=42&deal=2&moves=r11ob1.5b2.6a2r2_r3&step=3

Only the settings that differ from the defaults are written. The parameters (each a row of
the links' one grammar, :data:`.query.PARAMS`, which reads them):

``check``
    first, the link's check character (:mod:`.check`): a link with one character changed is
    refused. Links of earlier versions have none and open as before.
``seed``
    the session's seed (required with ``moves``).
``deal``
    the number of the deal shown, 1 for the first.
``moves``
    the actions of each deal from the first to the one shown, deals separated by
    ``_``. An action is a letter, then its numbers separated by ``.``: ``r`` a
    reveal (``r7``: seven in a row; the seat is always the one due, P3),
    ``o`` the holder opens an auction, ``b<seat>.<amount>`` a bid (amount 0
    withdraws), ``a<seat>`` the holder accepts that seat's bid, ``d`` the
    holder declines, ``t<buyer>.<seller>.<count>.<price>`` a blind trade (V3).
    Seats count from 0.
``step``
    the moment shown in that deal (the number of its actions taken), when it
    is not the last one.
``end``
    ``deals``, ``ante`` or ``stopped``: the session is over (G3).
``players``, ``hand`` (V5), ``v1``, ``v2``, ``v3`` (``1`` when on), ``cap`` (V4), ``ante`` (a
uniform ante, S2), ``chips`` (S1), ``preset``, ``deals`` (a number, or ``none``)
    the rules and the length of the session.
``name1`` ... ``name8``
    a seat's name, where it is not the default one.
``mode``, ``you`` (the person's seat, from 1), ``temperament`` or ``cast=mansfield`` (six
players unless ``players`` says otherwise), ``lang``
    how the app plays and speaks.

:func:`moment_query` writes the query; :func:`read_shared_moment` reads it back
(``None`` when the query names no moment) and raises :class:`ShareError`
when it does not replay. A :class:`ShareError` carries a catalog key and
parameters, so the app words it in the page's language.

**The file.** :func:`read_save` reads a file a person uploads (:mod:`.saves`, its names
repeated here). This module imports no widget code.

>>> from speculation_nb import Rules, Session
>>> s = Session(Rules(players=4), ["A", "B", "C", "D"], deals=10, seed=42)
>>> for _ in range(3):
...     _ = s.game.reveal()
>>> moment_query(s, default_names=["A", "B", "C", "D"])
'check=K&players=4&seed=42&deal=1&moves=r3'
>>> m = read_shared_moment({"players": "4", "seed": "42", "deal": "1", "moves": "r3", "step": "2"})
>>> m.step, len(m.session(["A", "B", "C", "D"]).game.history)
(2, 3)
"""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from typing import Any
from urllib.parse import quote, urlencode

from ..engine.actions import Action
from ..engine.errors import IllegalAction
from ..engine.session import Session
from ..engine.settings import Rules
from ..odds.moment import DealMoment
from .check import add_check, verify_check
from .query import CASTS, MAX_MOVES, PARAMS, ShareError, default_players, given, query_params, rules_of
from .saves import MAX_SAVE_BYTES, read_save, save_name

__all__ = [
    "MAX_MOVES",
    "MAX_SAVE_BYTES",
    "ShareError",
    "SharedMoment",
    "decode_moves",
    "encode_moves",
    "link_base",
    "moment_link",
    "moment_query",
    "read_save",
    "read_shared_link",
    "read_shared_moment",
    "save_name",
]

_TOKEN = re.compile(r"([a-z])([0-9.]*)")
_LETTER = {"open_auction": "o", "bid": "b", "accept": "a", "decline": "d", "blind_trade": "t"}
_KIND = {letter: kind for kind, letter in _LETTER.items()}
_FIELDS = {
    "r": ("count",),
    "o": (),
    "b": ("seat", "amount"),
    "a": ("seat",),
    "d": (),
    "t": ("buyer", "seller", "count", "price"),
}


# ------------------------------------------------------------------ the moves
def encode_moves(histories: Sequence[Sequence[Action]]) -> str:
    """The actions of each deal in the compact form of the module docstring (deals joined by ``_``)."""
    deals = []
    for history in histories:
        out: list[str] = []
        run = 0
        for action in history:
            if action.kind == "reveal":
                run += 1
                continue
            if run:
                out.append("r" if run == 1 else f"r{run}")
                run = 0
            numbers = ".".join(str(value) for _, value in action.args)
            out.append(_LETTER[action.kind] + numbers)
        if run:
            out.append("r" if run == 1 else f"r{run}")
        deals.append("".join(out))
    return "_".join(deals)


def decode_moves(text: str) -> list[list[Action | None]]:
    """The actions of each deal from :func:`encode_moves`; a reveal is ``None`` (the seat due
    turns up, P3). Anything else than that form raises :class:`ShareError`."""
    if not isinstance(text, str) or len(text) > MAX_MOVES:
        raise ShareError("share.too_long", f"the moves are longer than {MAX_MOVES} characters", limit=MAX_MOVES)
    deals: list[list[Action | None]] = []
    for part in text.split("_"):
        actions: list[Action | None] = []
        at = 0
        for match in _TOKEN.finditer(part):
            if match.start() != at:
                break
            at = match.end()
            letter, digits = match.groups()
            numbers = digits.split(".") if digits else []
            names = _FIELDS.get(letter)
            if letter == "r" and numbers:
                names = ("count",)
            elif letter == "r":
                names = ()
            if names is None or len(numbers) != len(names) or not all(n.isdigit() and len(n) <= 6 for n in numbers):
                raise ShareError(
                    "share.bad_moves", f"the moves cannot be read at {match.group(0)!r}", text=match.group(0)[:12]
                )
            values = [int(n) for n in numbers]
            if letter == "r":
                count = values[0] if values else 1
                if not 1 <= count <= 1000:
                    raise ShareError("share.bad_moves", f"{count} reveals in a row", text=match.group(0)[:12])
                actions.extend([None] * count)
            else:
                actions.append(Action.make(_KIND[letter], **dict(zip(names, values))))
        if at != len(part):
            raise ShareError(
                "share.bad_moves", f"the moves cannot be read at {part[at : at + 12]!r}", text=part[at : at + 12]
            )
        deals.append(actions)
    return deals


# ------------------------------------------------------------------ the moment
@dataclass
class SharedMoment:
    """A moment read from a link (:func:`read_shared_moment`): how to rebuild its session and
    which step of the last deal to show. It is the moment's address; what the moment shows is
    :meth:`moment`, the one :class:`~speculation_nb.odds.moment.DealMoment` the app shows too.

    ``names`` holds a name for each seat the link names (``None`` for a default name);
    ``app`` the app's settings the link gives (``mode``, ``human``, ``temperament``, ``lang``);
    ``stopped`` why the link's replay stopped before its last move (``share.not_replay`` naming
    the rule, or ``share.deal_not_over``), when it was read with ``stop=True``: the moment is then
    the last one that replays.
    """

    rules: Rules
    seed: int
    deal: int
    moves: list[list[Action | None]]
    step: int | None = None
    deals: int | None = 10
    names: tuple[str | None, ...] = ()
    end: str | None = None
    app: dict[str, Any] = field(default_factory=dict)
    stopped: ShareError | None = None

    def session(self, default_names: Sequence[str] | None = None) -> Session:
        """Replay the session: a new :class:`Session` at the live moment of deal ``deal``.
        Seats the link does not name take ``default_names`` (or ``Player 1``...)."""
        n = self.rules.players
        given = list(self.names) + [None] * (n - len(self.names))
        defaults = list(default_names or [])
        names = [
            given[i] or (defaults[i] if i < len(defaults) and defaults[i] else f"Player {i + 1}") for i in range(n)
        ]
        session = Session(self.rules, names, self.deals, self.seed)
        stopped = _replay(session, self.moves)
        if stopped is not None:
            raise stopped[0]
        if self.step is not None and self.step > len(session.game.history):
            raise ShareError(
                "share.bad_step",
                f"deal {self.deal} has {len(session.game.history)} actions, not {self.step}",
                step=self.step,
                total=len(session.game.history),
            )
        if self.end is not None:
            self._end(session)
        return session

    def moment(self, default_names: Sequence[str] | None = None) -> DealMoment:
        """The moment the link shows (its session replayed, at its step), as every seat sees it,
        with its exact odds."""
        game = self.session(default_names).game
        return DealMoment.of(game if self.step is None else game.at(self.step))

    def _end(self, session: Session) -> None:
        try:
            if self.end == "stopped":
                session.stop()
            elif session.next_deal() is not None or session.ended != self.end:
                raise ShareError("share.bad_end", "the session's end does not follow from its deals")
        except IllegalAction as error:
            raise ShareError("share.bad_end", f"the session cannot end here: {error}", cause=error) from None


def _replay(session: Session, moves: list[list[Action | None]]) -> tuple[ShareError, int, int] | None:
    """Play ``moves`` in ``session``; where the replay stops, ``(why, deal, good)``: the refusal,
    the deal it stopped in and how many of that deal's moves did replay (None: all did)."""
    for number, actions in enumerate(moves, start=1):
        if number > 1:
            if not session.game.over:
                why = ShareError(
                    "share.deal_not_over",
                    f"deal {number - 1} is not over, yet the link goes on to deal {number}",
                    deal=number - 1,
                )
                return why, number - 1, len(moves[number - 2])
            if session.next_deal() is None:
                raise ShareError("share.session_ended", f"the session ended before deal {number}", deal=number)
        game = session.game
        for index, action in enumerate(actions, start=1):
            try:
                if action is None:
                    game.reveal()
                else:
                    game.apply(action)
            except IllegalAction as error:
                why = ShareError(
                    "share.not_replay",
                    f"action {index} of deal {number} does not replay: {error}",
                    cause=error,
                    deal=number,
                    index=index,
                )
                return why, number, index - 1
    return None


def _stopped_at(moment: SharedMoment) -> SharedMoment:
    """``moment`` up to the last move that replays (its ``stopped`` says why it stops there), or
    ``moment`` itself when every move does."""
    names = [f"Player {i + 1}" for i in range(moment.rules.players)]
    stop = _replay(Session(moment.rules, names, moment.deals, moment.seed), moment.moves)
    if stop is None:
        return moment
    why, deal, good = stop
    step = moment.step if moment.step is not None and moment.deal == deal and moment.step <= good else None
    moves = [*moment.moves[: deal - 1], moment.moves[deal - 1][:good]]
    return replace(moment, deal=deal, moves=moves, step=step, end=None, stopped=why)


def read_shared_link(query: str) -> SharedMoment | None:
    """The moment a page's query names, as the app opens it: its check character verified
    (:func:`.check.verify_check`; a link without one, of earlier versions, opens as before),
    then read by :func:`read_shared_moment` with ``stop=True``."""
    verify_check(query)
    return read_shared_moment(query_params(query), stop=True)


def read_shared_moment(params: Mapping[str, str], stop: bool = False) -> SharedMoment | None:
    """The moment a page's query names (``{"seed": "42", "deal": "1", "moves": "r3"}``, one
    value per name), or ``None`` when it names none (no ``moves``, ``deal``, ``step`` or ``end``).

    The moment is replayed here once, so a link that does not replay raises
    :class:`ShareError` (the reason as a catalog key) and nothing is shown; with ``stop``, a
    replay that stops at a move the rules refuse (or goes on past a deal not over) gives the
    moment of the last move that replays instead, its ``stopped`` saying why."""
    if not any(name in params for name in ("moves", "deal", "step", "end")):
        return None
    if "moves" not in params:
        raise ShareError("share.no_moves", "the link names a moment but not the moves that led to it")
    if "seed" not in params:
        raise ShareError("share.no_seed", "the link has moves but no seed")
    seed = given(params, "seed")
    if seed is None:
        raise ShareError("share.no_seed", "the link has moves but no seed")
    temperament = given(params, "temperament")
    if "cast" in params:
        temperament = given(params, "cast")
    players = given(params, "players") if "players" in params else default_players(temperament)
    rules = rules_of(params, players)
    deals = given(params, "deals")
    names = tuple(given(params, f"name{seat + 1}") for seat in range(players))
    moves = decode_moves(params["moves"])
    deal = len(moves) if "deal" not in params else given(params, "deal")
    if deal != len(moves):
        raise ShareError(
            "share.deal_count",
            f"the link shows deal {deal} but has the moves of {len(moves)} deals",
            deal=deal,
            count=len(moves),
        )
    human = given(params, "you", high=players)
    app: dict[str, Any] = {"mode": given(params, "mode"), "human": human - 1, "temperament": temperament}
    if "lang" in params:  # a language the app lacks is the page's notice (query.read_query), no refusal
        with contextlib.suppress(ShareError):
            app["lang"] = given(params, "lang")
    moment = SharedMoment(
        rules=rules,
        seed=seed,
        deal=deal,
        moves=moves,
        step=given(params, "step"),
        deals=deals,
        names=names,
        end=given(params, "end"),
        app=app,
    )
    if stop:
        moment = _stopped_at(moment)
    moment.session()  # a link that does not replay is refused here
    return moment


def moment_query(
    session: Session,
    step: int | None = None,
    settings: Mapping[str, Any] | None = None,
    default_names: Sequence[str] | None = None,
) -> str:
    """The query (without ``?``) of the moment: ``session`` at ``step`` of its live deal
    (None: the last). ``settings``: the app's ``mode``, ``human``, ``temperament``, ``lang``;
    ``default_names``: the names the app gives seats by default (other names are written)."""
    settings = dict(settings or {})
    out: list[tuple[str, str]] = []
    for name in ("lang", "mode"):
        value = settings.get(name, PARAMS[name].default)
        if value != PARAMS[name].default:
            out.append((name, str(value)))
    you = int(settings.get("human", 0)) + 1
    if you != PARAMS["you"].default:
        out.append(("you", str(you)))
    temperament = settings.get("temperament", PARAMS["temperament"].default)
    if temperament in CASTS:
        out.append(("cast", temperament))
    elif temperament != PARAMS["temperament"].default:
        out.append(("temperament", str(temperament)))
    rules = session.rules
    standard = Rules(players=rules.players)
    if rules.players != default_players(temperament):
        out.append(("players", str(rules.players)))
    differs = {f.name for f in fields(Rules) if getattr(rules, f.name) != getattr(standard, f.name)}
    if "hand_size" in differs:
        out.append(("hand", str(rules.hand_size)))
    for name, key in (("jack_five", "v1"), ("dead_hand", "v2"), ("blind_trading", "v3")):
        if name in differs:
            out.append((key, "1"))
    if rules.price_cap is not None:
        out.append(("cap", str(rules.price_cap)))
    if rules.ante == "uniform":
        out.append(("ante", str(rules.uniform_ante)))
    if "start_chips" in differs:
        out.append(("chips", str(rules.start_chips)))
    if "preset" in differs:
        out.append(("preset", rules.preset))
    if session.deals != PARAMS["deals"].default:
        out.append(("deals", "none" if session.deals is None else str(session.deals)))
    defaults = list(default_names or [])
    for seat, name in enumerate(session.names):
        if seat >= len(defaults) or name != defaults[seat]:
            out.append((f"name{seat + 1}", name))
    out.append(("seed", str(session.seed)))
    out.append(("deal", str(session.deal_number)))
    out.append(("moves", encode_moves([game.history for game in session.games])))
    last = len(session.game.history)
    if step is not None and step != last:
        if not 0 <= step <= last:
            raise ValueError(f"the deal has moments 0 to {last}, not {step!r}")
        out.append(("step", str(step)))
    if session.over and session.ended is not None:
        out.append(("end", session.ended))
    return add_check(urlencode(out, quote_via=quote))


def link_base(env: Mapping[str, str] | None = None) -> str:
    """The address of the app's page without its query, as the kernel knows it, or ``""``.

    Voila tells a kernel its page's address: ``SERVER_NAME``, ``SERVER_PORT`` and
    ``SCRIPT_NAME`` (a preheated kernel gets them once its page is asked for), and
    ``VOILA_REQUEST_URL``, whose scheme (``https``) is kept.
    Under JupyterHub the link goes through ``/hub/user-redirect/``, so that it opens the
    app in the server of whoever follows it, not in the sender's."""
    env = os.environ if env is None else env
    url = env.get("VOILA_REQUEST_URL", "").split("?", 1)[0]
    if env.get("SERVER_NAME") and env.get("SCRIPT_NAME"):
        # this page's own request (a preheated kernel's VOILA_REQUEST_URL may be an earlier page's)
        scheme = "https" if url.startswith("https://") else "http"
        port = env.get("SERVER_PORT", "")
        url = f"{scheme}://{env['SERVER_NAME']}{':' + port if port else ''}{env['SCRIPT_NAME']}"
    if not url.startswith(("http://", "https://")):
        return ""
    prefix = env.get("JUPYTERHUB_SERVICE_PREFIX", "")  # "/user/fanny/"
    if prefix and prefix in url:
        head, _, rest = url.partition(prefix)
        hub = env.get("JUPYTERHUB_BASE_URL", "/")
        url = f"{head}{hub.rstrip('/')}/hub/user-redirect/{rest}"
    return url


def moment_link(query: str, env: Mapping[str, str] | None = None) -> str:
    """The whole link (``link_base() + "?" + query``), or ``"?" + query`` when the kernel
    does not know its page's address (a static site: the query goes after the page's own)."""
    return f"{link_base(env)}?{query}"
