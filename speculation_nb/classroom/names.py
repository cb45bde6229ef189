"""Names a class can read: the rules of a member's name at a shared table (T2, T11 of ``docs/TABLE.md``).

A name is shown on the projector and on every phone, so two names that *look* the same are as
confusing as two equal ones, and a name may hide nothing. :func:`clean_name` takes a name as
typed and gives the form the table keeps, or refuses it with a :class:`~.errors.TableRefusal`
naming the rule (T2) and the reason:

1. **Normalised.** Unicode NFKC (compatibility forms become plain ones: the full-width
   ``Ａ`` is ``A``, ``ﬁ`` is ``fi``, a no-break space is a space), spaces around it trimmed and
   each run of spaces inside it made one space.
2. **Nothing invisible.** Control characters (line breaks, tabs) are refused
   (``table.name_control``); so are format characters (Unicode category Cf: zero-width space
   and joiners, the word joiner, the byte-order mark, the soft hyphen, the left-to-right,
   right-to-left and Arabic letter marks, every bidirectional embedding, override and
   isolate), every other *default ignorable* code point (variation selectors, Hangul fillers,
   tags...), unassigned and private-use code points and the blank Braille pattern
   (``table.name_invisible``, naming the code point); and more than :data:`MAX_MARKS`
   combining marks on one letter, decomposed (Vietnamese ``ệ`` has two; ``table.name_marks``:
   "Zalgo" text spills over the lines above and below).
3. **Not like another.** A name equal to one already at the table ignoring case is refused
   (``table.name_taken``); so is one with the same *confusable skeleton*, as written or
   ignoring case (``table.name_lookalike``): Cyrillic ``А`` and Latin ``A``, ``rn`` and ``m``,
   ``I`` and ``l`` have the same skeleton.

The skeleton is Unicode Technical Standard #39's (section 4): decompose (NFD), replace each
character by its prototype from Unicode's ``confusables.txt``, decompose again. The data comes
from the ``confusable-homoglyphs`` package (a dependency of the ``app`` extra), which keeps
``confusables.txt`` as a map of each character to the characters it may be confused with, in
both directions; :func:`_prototypes` recovers the file's direction (source to prototype) from it.

Every check runs on at most :data:`MAX_TYPED` characters as given: a longer name is refused
as too long before anything is normalised or stored.
"""

from __future__ import annotations

import functools
import json
import re
import unicodedata
from collections.abc import Iterable

from .errors import TableRefusal

__all__ = ["MAX_MARKS", "MAX_MEMBER_NAME", "MAX_TYPED", "check_name", "clean_name", "name_keys", "skeleton"]

#: The longest name at a table, in characters after normalising and trimming (T2).
MAX_MEMBER_NAME = 24
#: The most characters a name may have as typed, before it is normalised (NFKC may lengthen a
#: name, and spaces around it are trimmed): anything longer is refused as too long at once.
MAX_TYPED = 4 * MAX_MEMBER_NAME
#: The most combining marks (accents) one letter may carry.
MAX_MARKS = 3

_SPACES = re.compile(r"\s+")
# Default_Ignorable_Code_Point of Unicode's DerivedCoreProperties.txt that are not of category
# Cf (those are refused by their category), and the blank Braille pattern, which shows nothing.
_IGNORABLE = (
    {0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x3164, 0xFFA0, 0x2800}
    | set(range(0x180B, 0x1810))
    | set(range(0xFE00, 0xFE10))
    | set(range(0xFFF0, 0xFFF9))
    | set(range(0xE0100, 0xE01F0))
)
_CONTROL = frozenset({"Cc", "Zl", "Zp"})
_INVISIBLE = frozenset({"Cf", "Cn", "Co", "Cs"})


def _code_point(ch: str) -> str:
    return f"U+{ord(ch):04X}"


def clean_name(name: object) -> str:
    """``name`` as the table keeps it (NFKC, trimmed, inner spaces made one), or
    :class:`TableRefusal` T2: ``table.name_empty``, ``table.name_long``, ``table.name_control``,
    ``table.name_invisible`` (params ``code``: ``"U+200B"``) or ``table.name_marks``."""
    if not isinstance(name, str) or not name.strip():
        raise TableRefusal("T2", "table.name_empty")
    if len(name) > MAX_TYPED:
        raise TableRefusal("T2", "table.name_long", {"limit": MAX_MEMBER_NAME})
    name = name.strip()
    for ch in name:  # before normalising: NFKC would turn some of them into plain letters or spaces
        _check_character(ch)
    text = _SPACES.sub(" ", unicodedata.normalize("NFKC", name)).strip()
    if not text:
        raise TableRefusal("T2", "table.name_empty")
    if len(text) > MAX_MEMBER_NAME:
        raise TableRefusal("T2", "table.name_long", {"limit": MAX_MEMBER_NAME})
    for ch in text:
        _check_character(ch)
    marks = 0
    for ch in unicodedata.normalize("NFD", text):  # the accents of a letter, decomposed
        marks = marks + 1 if unicodedata.combining(ch) or unicodedata.category(ch) in ("Mn", "Me") else 0
        if marks > MAX_MARKS:
            raise TableRefusal("T2", "table.name_marks", {"limit": MAX_MARKS})
    return text


def _check_character(ch: str) -> None:
    category = unicodedata.category(ch)
    if category in _CONTROL:
        raise TableRefusal("T2", "table.name_control")
    if category in _INVISIBLE or ord(ch) in _IGNORABLE:
        raise TableRefusal("T2", "table.name_invisible", {"code": _code_point(ch)})
    if category == "Zs" and ch != " " and unicodedata.normalize("NFKC", ch) != " ":
        raise TableRefusal("T2", "table.name_invisible", {"code": _code_point(ch)})


@functools.lru_cache(maxsize=1)
def _prototypes() -> dict[str, str]:
    """Each source character of ``confusables.txt`` and its prototype (one or more characters).

    ``confusable-homoglyphs`` stores each line ``source ; prototype`` of the file twice, as
    ``source -> [prototype]`` and ``prototype -> [source, ...]`` (right-to-left characters
    wrapped in left-to-right marks for display, which are dropped here). A prototype is never
    a source (the file's mapping is idempotent), so a source is a key with one entry whose
    entry is not itself a one-entry key pointing back; when both are (a prototype with a single
    source), the source is the one that came first, as the package wrote the line's source
    before its prototype."""
    from importlib import resources

    try:
        text = resources.files("confusable_homoglyphs").joinpath("confusables.json").read_text(encoding="utf-8")
    except ModuleNotFoundError:
        raise ImportError(
            'comparing names needs Unicode\'s confusables: pip install "speculation_nb[app]"'
            " (it brings confusable-homoglyphs)"
        ) from None
    both: dict[str, list[str]] = {}
    for key, entries in json.loads(text).items():
        both.setdefault(key.replace("\u200e", ""), []).extend(e["c"].replace("\u200e", "") for e in entries)
    order = {key: i for i, key in enumerate(both)}
    found: dict[str, str] = {}
    for key, targets in both.items():
        if len(targets) != 1 or len(key) != 1:
            continue
        target = targets[0]
        back = both.get(target)
        if back is None or len(back) != 1 or back[0] != key or order[key] < order[target]:
            found[key] = target
    return found


def skeleton(text: str) -> str:
    """UTS #39's skeleton of ``text``: NFD, each character by its prototype, NFD again.
    Two strings that may be confused on screen have the same skeleton (``skeleton("Аlice") ==
    skeleton("Alice")`` with a Cyrillic ``А``)."""
    table = _prototypes()
    return unicodedata.normalize("NFD", "".join(table.get(ch, ch) for ch in unicodedata.normalize("NFD", text)))


def name_keys(name: str) -> frozenset[str]:
    """What a name is compared by: its skeleton as written and its skeleton ignoring case (of
    its NFKC form). Two names are look-alikes when these sets meet."""
    text = unicodedata.normalize("NFKC", name)
    return frozenset({skeleton(text), skeleton(text.casefold())})


def check_name(name: object, taken: Iterable[str] = ()) -> str:
    """``name`` as the table keeps it (:func:`clean_name`), if no name of ``taken`` is the same
    ignoring case (``table.name_taken``) or looks the same (``table.name_lookalike``, params
    ``name`` and ``other``, the name at the table). The name is never escaped here: the views
    escape it wherever it is shown (T11)."""
    clean = clean_name(name)
    folded, keys = clean.casefold(), name_keys(clean)
    for other in taken:
        if unicodedata.normalize("NFKC", other).casefold() == folded:
            raise TableRefusal("T2", "table.name_taken", {"name": clean})
        if keys & name_keys(other):
            raise TableRefusal("T2", "table.name_lookalike", {"name": clean, "other": other})
    return clean
