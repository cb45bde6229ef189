"""The message catalog: every word the app shows, by stable symbolic keys.

One folder per language, ``locale/<lang>/LC_MESSAGES/``, holding one gettext ``.po``
file per area: ``speculation_nb.po`` (the table, the rules and the app's first words) and
further area files beside it (``app.po``, ``odds.po``, ``lessons.po``...), read at
start with :func:`babel.messages.pofile.read_po` and merged (a key lives in exactly one
file of a language; the tests check it). The ``msgid`` of each
message is a stable key (``"button.next_card"``, ``"log.reveal"``,
``"error.holder_skipped"``), its ``msgstr`` the text with ``{named}``
placeholders filled by :meth:`Translator.__call__`. Adding a language means
adding one ``.po`` file with the same keys: nothing else changes.

>>> t = translator("en")
>>> t("log.reveal", name="Fanny", card="Q♥")
'Fanny turns up Q♥.'
>>> t.percent(Fraction(703, 1035))
'67.9%'

A key missing from a language falls back to English, then to the key itself
(so a missing message shows as its key, never as an exception). Numbers and
percentages are written the way the language writes them (:mod:`babel.numbers`).

:func:`error_text` words any :class:`~speculation_nb.engine.errors.Refusal` (a rule of the
game's, the shared table's, a link or a file refused) from its ``key`` and ``params`` (never
from its English ``str``), prefixed with its rule.
"""

from __future__ import annotations

import html
import re
import string
from collections.abc import Mapping, Sequence
from decimal import Decimal
from fractions import Fraction
from functools import cache
from math import floor
from typing import Any

from babel import Locale, UnknownLocaleError
from babel.numbers import format_decimal, format_percent

from ..engine.checks import is_whole
from .catalogs import DEFAULT_LANGUAGE, DOMAIN, LOCALE_DIR, messages, po_files
from .markup import Safe, escape

__all__ = [
    "DEFAULT_LANGUAGE",
    "DOMAIN",
    "KEY_PREFIXES",
    "LOCALE_DIR",
    "Safe",
    "Translator",
    "available_languages",
    "catalog",
    "error_text",
    "escape",
    "placeholders",
    "po_files",
    "reason_text",
    "round_half_up",
    "translator",
]

#: The first part of every key; the tests find the keys used in the code by these.
KEY_PREFIXES = (
    "app",
    "header",
    "status",
    "button",
    "tooltip",
    "label",
    "log",
    "error",
    "odds",
    "chart",
    "card",
    "table",
    "settings",
    "preset",
    "ante",
    "mode",
    "temperament",
    "auction",
    "standings",
    "timeline",
    "seat",
    "language",
    "trade",
    "unit",
    "reason",
    "lesson",
    "cast",
    "tournament",
    "class",
    "confirm",
    "bank",
)

_LANG_RE = re.compile(r"^[A-Za-z]{2,3}([_-][A-Za-z0-9]{2,8})*$")


def round_half_up(x: Fraction | int) -> int:
    """Whole chips, rounded half up (RULES.md O4: the widget shows whole chips)."""
    return floor(Fraction(x) + Fraction(1, 2))


def _normalise(lang: Any) -> str:
    """``"pt-BR"`` -> ``"pt_BR"``; anything that is not a language tag -> the default."""
    if not isinstance(lang, str) or not _LANG_RE.match(lang.strip()):
        return DEFAULT_LANGUAGE
    return lang.strip().replace("-", "_")


def available_languages() -> list[str]:
    """The languages that have a catalog, English first."""
    found = sorted(p.parent.parent.name for p in LOCALE_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))
    return sorted(found, key=lambda code: (code != DEFAULT_LANGUAGE, code))


@cache
def catalog(lang: str = DEFAULT_LANGUAGE) -> dict[str, str]:
    """The messages of one language as ``{key: text}`` (untranslated and fuzzy entries left out).

    An unknown language gives an empty dict (everything then falls back to English).
    """
    return dict(messages(_normalise(lang)))


_FORMATTER = string.Formatter()


def placeholders(text: str) -> set[str]:
    """The ``{named}`` placeholders of a message."""
    return {name for _, name, _, _ in _FORMATTER.parse(text) if name}


class _Keep(dict[str, Any]):
    """Leaves an unknown placeholder as it is instead of raising."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


class Translator:
    """``t(key, **params)``: the message of ``key`` in ``lang``, placeholders filled.

    Also the language's way of writing numbers (:meth:`number`, :meth:`percent`,
    :meth:`chips`) and card names (:meth:`card_name`).
    """

    def __init__(self, lang: str = DEFAULT_LANGUAGE) -> None:
        self.lang = _normalise(lang)
        self._messages = catalog(self.lang)
        self._english = catalog(DEFAULT_LANGUAGE)
        try:
            self.locale = Locale.parse(self.lang)
        except (UnknownLocaleError, ValueError):
            self.locale = Locale.parse(DEFAULT_LANGUAGE)
        # The language's own percent pattern ("37%", "37 %"), with or without one decimal.
        self._percent_patterns = {0: self.locale.percent_formats[None].pattern}
        self._percent_patterns[1] = re.sub(r"0(?![0-9.])", "0.0", self._percent_patterns[0], count=1)
        self._percent_cache: dict[tuple[int, int], str] = {}

    # ---------------------------------------------------------------- messages
    def raw(self, key: str) -> str:
        """The message text with its placeholders left in."""
        text = self._messages.get(key)
        if text is None:
            text = self._english.get(key, key)
        return text

    def has(self, key: str) -> bool:
        return key in self._messages or key in self._english

    def __call__(self, key: str, **params: Any) -> str:
        text = self.raw(key)
        if not params and "{" not in text:
            return text
        try:
            return text.format_map(_Keep(params))
        except (ValueError, IndexError, AttributeError, KeyError):
            return text

    def plural_key(self, key: str, count: int) -> str:
        """The key of the plural form for ``count``: ``key.one``, ``key.other`` (or the
        language's other forms, ``key.few``, ``key.many``..., when its catalog has them)."""
        name = f"{key}.{self.locale.plural_form(abs(int(count)))}"
        return name if self.has(name) else f"{key}.other"

    def plural(self, key: str, count: int, **params: Any) -> str:
        """``key.one`` / ``key.other`` (or the language's other plural forms) by ``count``,
        the count written the way the language writes numbers (``1,200`` / ``1.200``)."""
        shown = self.number(count) if is_whole(count) else count
        return self(self.plural_key(key, count), count=shown, **params)

    def html(self, key: str, **params: Any) -> Safe:
        """The message as HTML: its text and every parameter escaped, except :class:`Safe` ones."""
        text = self.raw(key)
        out: list[str] = []
        try:
            for literal, name, spec, _conv in _FORMATTER.parse(text):
                out.append(html.escape(literal, quote=False))
                if name is None:
                    continue
                if name in params:
                    value = params[name]
                    if spec and not isinstance(value, str):
                        value = format(value, spec)
                    out.append(escape(value))
                else:
                    out.append(html.escape("{" + name + "}"))
        except ValueError:
            return Safe(html.escape(text))
        return Safe("".join(out))

    # ----------------------------------------------------------------- numbers
    def number(self, value: int | float | Fraction | Decimal, digits: int = 0) -> str:
        """A number the way the language writes it (``1,234`` / ``1.234``)."""
        shown = Decimal(round_half_up(value * 10**digits)) / (10**digits) if isinstance(value, Fraction) else value
        fmt = "#,##0" + ("." + "0" * digits if digits else "")
        return format_decimal(shown, format=fmt, locale=self.locale)

    def percent(self, value: Fraction | float | int, digits: int = 1) -> str:
        """A probability as a percentage with one decimal (or none), rounded half up:
        ``37.2%`` in English, ``37,2 %`` in German."""
        scale = 100 * 10**digits
        units = round_half_up(Fraction(value) * scale)
        key = (units, digits)
        text = self._percent_cache.get(key)
        if text is None:
            text = format_percent(Decimal(units) / scale, format=self._percent_patterns[digits], locale=self.locale)
            if len(self._percent_cache) < 4096:
                self._percent_cache[key] = text
        return text

    def chips(self, value: Fraction | int) -> str:
        """Whole chips, rounded half up (O4)."""
        return self.number(round_half_up(Fraction(value)))

    # ------------------------------------------------------------------- cards
    def card_name(self, card: Any) -> str:
        """The card's name for screen readers: ``"Queen of Hearts"``."""
        return self("card.name", rank=self(f"card.rank.{card.rank}"), suit=self(f"card.suit.{card.suit.value}"))

    def suit_name(self, suit: Any) -> str:
        return self(f"card.suit.{getattr(suit, 'value', suit)}")

    def render_texts(self) -> dict[str, str]:
        """The words :func:`speculation_nb.rendering.cards.table_html` takes, in this language: the
        ranks (``rank_12``), suits (``suit_H``), ``card_name`` and the table's words (``table.*``
        keys without their prefix), from the catalog."""
        cached = getattr(self, "_render_texts", None)
        if cached is not None:
            return dict(cached)
        out: dict[str, str] = {}
        for key in self._english:
            if key.startswith(("card.rank.", "card.suit.")):
                out[f"{key.split('.')[1]}_{key.rsplit('.', 1)[1]}"] = self.raw(key)
            elif key == "card.name":
                out["card_name"] = self.raw(key)
            elif key.startswith("table.") and key.count(".") == 1:
                out[key[len("table.") :]] = self.raw(key)
        self._render_texts = out
        return dict(out)

    def language_name(self, lang: str | None = None) -> str:
        """A language's name in that language ("English", "Deutsch"), for the selector."""
        code = _normalise(lang or self.lang)
        try:
            name = Locale.parse(code).get_display_name(code) or code
        except (UnknownLocaleError, ValueError):
            return code
        return name[:1].upper() + name[1:]

    def __repr__(self) -> str:
        return f"Translator({self.lang!r})"


@cache
def translator(lang: str = DEFAULT_LANGUAGE) -> Translator:
    """The (cached) :class:`Translator` of ``lang``; unknown languages speak English."""
    return Translator(_normalise(lang))


# Parameters of IllegalAction that name seats.
_SEAT_PARAMS = ("seat", "due", "best", "buyer", "seller", "holder")


def error_text(exc: Any, t: Translator | None = None, names: Sequence[str] | None = None) -> str:
    """A refusal in words: ``"Rule P4: Mary holds the best trump and does not turn up cards."``.

    The one wording of every :class:`~speculation_nb.engine.errors.Refusal` (``IllegalAction``,
    ``TableRefusal``, ``ShareError``) and of anything shaped like one (a shared table's reply):
    from ``exc.key`` and ``exc.params`` (``"error.<key>"`` in the catalog), prefixed with
    ``exc.rule`` when there is one; ``exc.cause`` (the refusal that led to it) is worded the
    same way as the parameter ``reason``. Seat numbers become ``names`` when given; other
    whole numbers (chips, counts) are written the way the language writes them.
    """
    t = t or translator()
    params: dict[str, Any] = dict(getattr(exc, "params", {}) or {})
    cause = getattr(exc, "cause", None)
    for name, value in list(params.items()):
        if not is_whole(value):
            continue
        if name in _SEAT_PARAMS:
            if names is not None and 0 <= value < len(names):
                params[name] = names[value]
            else:
                params[name] = t("seat.number", n=value)
        else:
            params[name] = t.number(value)
    if cause is not None:
        params["reason"] = error_text(cause, t, names)
    key = f"error.{getattr(exc, 'key', '')}"
    if t.has(key):
        message = t(key, **params)
    else:
        message = t("error.unknown_rule")
    rule = getattr(exc, "rule", "")
    return t("error.format", rule=rule, message=message) if rule else message


def reason_text(
    key: str, params: Mapping[str, Any], t: Translator | None = None, names: Sequence[str] | None = None
) -> str:
    """Why a computer player acts, in words: a :class:`~speculation_nb.players.Move`'s ``reason`` and
    ``params``, e.g. ``"Mary bids 11: worth 13 to them."``.

    Seats (``seat``, ``buyer``, ``holder``, ``seller``) become ``names`` when given; ``hold`` (a
    chance) a percentage; ``appetite`` a number with two decimals; chips as whole numbers and exact
    prices that are not whole with one decimal, written the way the language writes numbers.
    """
    t = t or translator()
    shown: dict[str, Any] = {}
    for name, value in params.items():
        if not is_whole(value) and not isinstance(value, Fraction):
            shown[name] = value
        elif name in _SEAT_PARAMS and is_whole(value):
            ok = names is not None and 0 <= value < len(names)
            shown[name] = names[value] if ok and names is not None else t("seat.number", n=value)
        elif name == "hold":
            shown[name] = t.percent(value)
        elif name == "appetite":
            shown[name] = t.number(Fraction(value), 2)
        elif isinstance(value, Fraction) and value.denominator != 1:
            shown[name] = t.number(value, 1)
        else:
            shown[name] = t.number(int(value))
    return t(key, **shown)
