"""The message catalogs as plain dictionaries, read without any dependency.

Every word a user reads lives in the gettext files ``locale/<lang>/LC_MESSAGES/*.po``
(all the files of a language merged; a key lives in exactly one). This module reads them
into ``{key: text}``: the engine's own texts (the English of
:class:`~speculation_nb.odds.HoldExplanation`, say) come from here even where the app's
extras (babel, for numbers) are not installed; :mod:`speculation_nb.languages.translator` builds the
translators on it. Only the subset of the PO format the catalogs use is read: ``msgid`` /
``msgstr`` pairs of (possibly continued) quoted strings, ``#`` comments and the ``fuzzy``
flag; untranslated and fuzzy entries are left out.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

__all__ = ["DEFAULT_LANGUAGE", "DOMAIN", "LOCALE_DIR", "messages", "po_files", "read_po"]

DOMAIN = "speculation_nb"
DEFAULT_LANGUAGE = "en"
LOCALE_DIR = Path(__file__).parents[1] / "locale"

_ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\", "r": "\r"}
_STRING = re.compile(r'^"((?:[^"\\]|\\.)*)"$')


def po_files(lang: str) -> list[Path]:
    """The catalog files of one language: ``speculation_nb.po`` first, then the area files."""
    folder = LOCALE_DIR / lang / "LC_MESSAGES"
    main = folder / f"{DOMAIN}.po"
    if not main.is_file():
        return []
    return [main, *sorted(p for p in folder.glob("*.po") if p != main)]


def _unquote(line: str, path: Path, number: int) -> str:
    match = _STRING.match(line)
    if match is None:
        raise ValueError(f"{path.name}:{number}: not a quoted string: {line[:60]}")
    return re.sub(r"\\(.)", lambda m: _ESCAPES.get(m.group(1), "\\" + m.group(1)), match.group(1))


def read_po(path: Path) -> dict[str, str]:
    """The translated, non-fuzzy messages of one ``.po`` file as ``{msgid: msgstr}``."""
    out: dict[str, str] = {}
    field: str | None = None
    entry: dict[str, str] = {}
    fuzzy = False

    def flush() -> None:
        nonlocal entry, fuzzy
        key, text = entry.get("msgid", ""), entry.get("msgstr", "")
        if key and text and not fuzzy:
            out[key] = text
        entry, fuzzy = {}, False

    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            if field == "msgstr":
                flush()
                field = None
            if line.startswith("#,") and "fuzzy" in line:
                fuzzy = True
            continue
        word, _, rest = line.partition(" ")
        if word in ("msgid", "msgstr"):
            if word == "msgid" and field == "msgstr":
                flush()
            field = word
            entry[word] = _unquote(rest.strip(), path, number)
        elif line.startswith('"') and field is not None:
            entry[field] += _unquote(line, path, number)
        else:
            raise ValueError(f"{path.name}:{number}: unexpected line: {line[:60]}")
    flush()
    return out


@cache
def messages(lang: str = DEFAULT_LANGUAGE) -> dict[str, str]:
    """The messages of one language (``"pt_BR"`` falls back to ``"pt"``), every file merged;
    an unknown language gives an empty dict. The dict is shared: do not change it."""
    paths = po_files(lang) or po_files(lang.split("_")[0])
    out: dict[str, str] = {}
    for path in paths:
        out.update(read_po(path))
    return out
