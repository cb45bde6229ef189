"""The site's wheels, smaller: what a kernel in the browser never reads is left out of them.

A first visit downloads every wheel the app loads before it is interactive (issue 26: at most
25 MB), so ``site/build_site.py`` rewrites some of them here, each from the file whose hash it
checked, into a wheel whose own hash goes into the site's ``pyodide-lock.json``:

* :func:`without_front_end`: a widget package's wheel carries its JupyterLab and notebook
  extensions (JavaScript for the page, under ``*.data/data/share/jupyter/`` and
  ``<package>/labextension/`` or ``nbextension/``); the site serves those from its own
  ``extensions/`` folder, and Python in the browser never opens them (anywidget: 0.32 MB to
  0.03; jupyterlab_widgets: 0.22 MB to 0.01);
* :func:`trim_locales`: Babel with the CLDR data of the app's four languages only;
* :func:`python_lexers_only`: Pygments with the lexers IPython uses (tracebacks and ``?``
  help are Python; a notebook's code is highlighted by the page, not by Pygments): 1.2 MB to
  0.2;
* :func:`stand_in`: an empty wheel for a package the Pyodide kernel loads as it starts but
  nothing the site runs imports (``ssl``: the browser makes every HTTPS connection, so OpenSSL's
  2 MB are never used); ``import ssl`` then fails as Python's modules expect where ``ssl`` is
  missing (``asyncio``, ``urllib`` and ``http.client`` import it in a ``try``). Likewise
  ``sqlite3``: only IPython's history imports it, in a ``try``, and the kernel keeps no history;
  its 1.4 MB of WebAssembly were compiled on every visit.

Each rewritten wheel has fixed zip timestamps: the same input gives the same bytes, so the
site's version hash (``site_offline.version``) changes only when a file really does.
"""

from __future__ import annotations

import re
import zipfile
from collections.abc import Callable, Iterable
from pathlib import Path

#: Fixed zip timestamps, so that a wheel rebuilt from the same files is the same bytes.
ZIP_DATE = (2020, 1, 1, 0, 0, 0)
#: The members of a widget package's wheel that only a browser page reads.
FRONT_END = re.compile(r"^[^/]+\.data/data/share/jupyter/|^[^/]+/(labextension|nbextension)/")
#: The Pygments lexers kept: Python's (IPython's tracebacks, ``?`` and ``%pycat``) and those
#: IPython's own lexers module names; :func:`python_lexers_only` adds what they import.
LEXERS = ("python", "special", "shell", "html", "javascript", "ruby", "perl", "markup")


def rezip(source: Path, target: Path, keep: Callable[[str], bool]) -> None:
    """Copy a wheel keeping only the members ``keep(name)`` accepts (RECORD lines too)."""
    with zipfile.ZipFile(source) as old, zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as new:
        for info in old.infolist():
            if not keep(info.filename):
                continue
            data = old.read(info.filename)
            if info.filename.endswith(".dist-info/RECORD"):
                lines = data.decode("utf-8").splitlines(keepends=True)
                data = "".join(line for line in lines if keep(line.split(",", 1)[0])).encode("utf-8")
            new.writestr(zipfile.ZipInfo(info.filename, ZIP_DATE), data, zipfile.ZIP_DEFLATED)


def without_front_end(source: Path, target: Path) -> None:
    """The wheel without its JupyterLab and notebook extensions (:data:`FRONT_END`)."""
    rezip(source, target, lambda name: not FRONT_END.search(name))


def trim_locales(source: Path, target: Path, langs: Iterable[str]) -> None:
    """Babel with the CLDR data of ``langs`` only (and ``root``): about 1 MB instead of 11."""
    names = "|".join(map(re.escape, langs))
    wanted = re.compile(rf"babel/locale-data/(root|({names})(_\w+)?)\.dat$")
    rezip(source, target, lambda name: not name.startswith("babel/locale-data/") or bool(wanted.match(name)))


def python_lexers_only(source: Path, target: Path, lexers: Iterable[str] = LEXERS) -> None:
    """Pygments with the lexer modules ``lexers`` and every lexer module they import, besides
    the package's machinery (``pygments/lexers/__init__.py`` and ``_mapping.py``, the formatters,
    the styles). Asking for a lexer that was left out raises Pygments' own ``ClassNotFound``."""
    prefix = "pygments/lexers/"
    with zipfile.ZipFile(source) as wheel:
        texts = {
            name[len(prefix) : -3]: wheel.read(name).decode("utf-8")
            for name in wheel.namelist()
            if name.startswith(prefix) and name.endswith(".py") and "/" not in name[len(prefix) :]
        }
    kept = {"__init__", "_mapping"}
    todo = list(lexers)
    while todo:
        module = todo.pop()
        if module in kept:
            continue
        if module not in texts:
            raise ValueError(f"Pygments has no lexer module {module!r}")
        kept.add(module)
        imported = re.findall(r"^\s*from pygments\.lexers\.(\w+) import", texts[module], re.MULTILINE)
        todo += [m for m in imported if m in texts]

    def keep(name: str) -> bool:
        if not name.startswith(prefix) or "/" in name[len(prefix) :]:
            return True
        return name[len(prefix) :].removesuffix(".py") in kept

    rezip(source, target, keep)


def stand_in(name: str, version: str, into: Path, module: Path | None = None) -> Path:
    """An empty wheel called ``name``: its metadata only, so that Pyodide counts ``name`` as
    loaded and ``import name`` raises ``ImportError``; or, given ``module`` (a file of
    ``site/stand_ins/``), that file as the package ``name``'s ``__init__.py``."""
    target = into / f"{name}-{version}-py3-none-any.whl"
    info = f"{name}-{version}.dist-info"
    members = {} if module is None else {f"{name}/__init__.py": module.read_text(encoding="utf-8")}
    members |= {
        f"{info}/METADATA": f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n",
        f"{info}/WHEEL": "Wheel-Version: 1.0\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
    }
    members[f"{info}/RECORD"] = "".join(f"{member},,\n" for member in [*members, f"{info}/RECORD"])
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as wheel:
        for member, text in members.items():
            wheel.writestr(zipfile.ZipInfo(member, ZIP_DATE), text, zipfile.ZIP_DEFLATED)
    return target
