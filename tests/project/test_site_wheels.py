"""``site/site_wheels.py``: the site's wheels without what a kernel in the browser never reads.

Each rewrite keeps only files of the wheel it was given, byte for byte, and is the same bytes
each time (the site's version hash depends on it)."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import zipfile
from pathlib import Path
from types import ModuleType

import pytest

REPO = Path(__file__).resolve().parents[2]


def site_wheels() -> ModuleType:
    spec = importlib.util.spec_from_file_location("site_wheels", REPO / "site" / "site_wheels.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def wheel(path: Path, members: dict[str, str]) -> Path:
    with zipfile.ZipFile(path, "w") as archive:
        for name, text in members.items():
            archive.writestr(name, text)
        archive.writestr("pkg-1.0.dist-info/RECORD", "".join(f"{name},sha256=x,1\n" for name in members))
    return path


def members(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def test_front_end_files_are_left_out_and_the_rest_kept_byte_for_byte(tmp_path: Path) -> None:
    sw = site_wheels()
    source = wheel(
        tmp_path / "w.whl",
        {
            "anywidget/__init__.py": "x = 1\n",
            "anywidget/labextension/static/528.js": "js",
            "anywidget/nbextension/index.js": "js",
            "anywidget-0.11.0.data/data/share/jupyter/labextensions/anywidget/package.json": "{}",
        },
    )
    sw.without_front_end(source, tmp_path / "out.whl")
    kept = members(tmp_path / "out.whl")
    assert set(kept) == {"anywidget/__init__.py", "pkg-1.0.dist-info/RECORD"}
    assert kept["anywidget/__init__.py"] == b"x = 1\n"
    assert kept["pkg-1.0.dist-info/RECORD"] == b"anywidget/__init__.py,sha256=x,1\n"  # RECORD agrees


def test_a_rewrite_is_the_same_bytes_each_time(tmp_path: Path) -> None:
    sw = site_wheels()
    source = wheel(tmp_path / "w.whl", {"a/__init__.py": "", "a/labextension/x.js": "js"})
    sw.without_front_end(source, tmp_path / "one.whl")
    sw.without_front_end(source, tmp_path / "two.whl")
    assert (tmp_path / "one.whl").read_bytes() == (tmp_path / "two.whl").read_bytes()


def test_pygments_keeps_the_python_lexers_and_what_they_import(tmp_path: Path) -> None:
    sw = site_wheels()
    source = wheel(
        tmp_path / "pygments.whl",
        {
            "pygments/__init__.py": "",
            "pygments/lexers/__init__.py": "",
            "pygments/lexers/_mapping.py": "",
            "pygments/lexers/python.py": "import re\n",
            "pygments/lexers/html.py": "from pygments.lexers.css import CssLexer\n",
            "pygments/lexers/css.py": "",
            "pygments/lexers/fortran.py": "",
            "pygments/lexers/_lua_builtins.py": "",
            "pygments/styles/default.py": "",
        },
    )
    sw.python_lexers_only(source, tmp_path / "out.whl", lexers=("python", "html"))
    lexers = {n for n in members(tmp_path / "out.whl") if n.startswith("pygments/lexers/")}
    assert lexers == {f"pygments/lexers/{m}.py" for m in ("__init__", "_mapping", "python", "html", "css")}
    assert "pygments/styles/default.py" in members(tmp_path / "out.whl")
    with pytest.raises(ValueError, match="no lexer module 'cobol'"):
        sw.python_lexers_only(source, tmp_path / "bad.whl", lexers=("cobol",))


def test_the_real_pygments_lexers_kept_import_in_a_fresh_python(tmp_path: Path) -> None:
    """The installed Pygments, as the trimmed wheel would hold it, first on the path: IPython's
    lexers and its tracebacks work from the kept modules alone."""
    import pygments

    sw = site_wheels()
    root = Path(pygments.__file__).parent
    source = tmp_path / "pygments.whl"
    with zipfile.ZipFile(source, "w") as archive:
        for path in root.rglob("*.py"):
            archive.write(path, "pygments/" + path.relative_to(root).as_posix())
    sw.python_lexers_only(source, tmp_path / "out.whl")
    folder = tmp_path / "site-packages"
    zipfile.ZipFile(tmp_path / "out.whl").extractall(folder)
    kept = len(list((folder / "pygments" / "lexers").glob("*.py")))
    assert kept < len(list((root / "lexers").glob("*.py"))) / 4
    code = (
        "import pygments, sys; assert pygments.__file__.startswith(sys.argv[1]);"
        "from pygments import highlight; from pygments.formatters import HtmlFormatter;"
        "from pygments.lexers import PythonLexer, BashLexer, HtmlLexer, JavascriptLexer, TexLexer, TextLexer;"
        "assert 'def' in highlight('def f(): pass', PythonLexer(), HtmlFormatter());"
        "from IPython.lib.lexers import IPython3Lexer; highlight('%time 1', IPython3Lexer(), HtmlFormatter());"
        "from IPython.core.ultratb import VerboseTB\n"
        "try:\n 1/0\nexcept ZeroDivisionError:\n assert 'ZeroDivisionError' in VerboseTB().text(*sys.exc_info())"
    )
    done = subprocess.run(
        [sys.executable, "-I", "-c", f"import sys; sys.path.insert(0, sys.argv[1]); {code}", str(folder)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr


def test_a_stand_in_holds_metadata_only(tmp_path: Path) -> None:
    sw = site_wheels()
    path = sw.stand_in("ssl", "1.0.0", tmp_path)
    assert path.name == "ssl-1.0.0-py3-none-any.whl"
    names = set(members(path))
    assert names == {f"ssl-1.0.0.dist-info/{n}" for n in ("METADATA", "WHEEL", "RECORD")}
    assert b"Name: ssl" in members(path)["ssl-1.0.0.dist-info/METADATA"]


def test_a_stand_in_module_is_the_package(tmp_path: Path) -> None:
    sw = site_wheels()
    module = REPO / "site" / "stand_ins" / "sqlite3.py"
    path = sw.stand_in("sqlite3", "1.0.0", tmp_path, module)
    assert members(path)["sqlite3/__init__.py"] == module.read_bytes()
    folder = tmp_path / "site-packages"
    zipfile.ZipFile(path).extractall(folder)
    code = (
        "import sys; sys.path.insert(0, sys.argv[1]); import sqlite3;"
        "assert sqlite3.__file__.startswith(sys.argv[1]);"
        "assert issubclass(sqlite3.OperationalError, sqlite3.DatabaseError);"
        "sqlite3.PARSE_DECLTYPES | sqlite3.PARSE_COLNAMES; sqlite3.Connection, sqlite3.IntegrityError\n"
        "try:\n sqlite3.connect(':memory:')\nexcept sqlite3.OperationalError:\n pass\nelse:\n raise SystemExit(1)"
    )
    done = subprocess.run([sys.executable, "-I", "-c", code, str(folder)], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr


def test_the_compiled_starts_cache_keeps_the_last_used(tmp_path: Path) -> None:
    """site/site_pyc.py: the cache keeps the entries last used, and any used within the grace time."""
    spec = importlib.util.spec_from_file_location("site_pyc", REPO / "site" / "site_pyc.py")
    assert spec and spec.loader
    site_pyc = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(site_pyc)
    for n in range(5):
        entry = tmp_path / f"pyc-{n}"
        entry.mkdir()
        (entry / "compiled.json").write_text("{}")
        os.utime(entry / "compiled.json", (1000 + n, 1000 + n))  # long ago, pyc-4 last
    (tmp_path / "pyc-0" / "compiled.json").touch()  # just used
    site_pyc.prune(tmp_path, keep=2, grace_s=60)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pyc-0", "pyc-4"]
    (tmp_path / "pyc-4" / "compiled.json").touch()  # both used within the grace time
    site_pyc.prune(tmp_path, keep=1, grace_s=60)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pyc-0", "pyc-4"]
    site_pyc.prune(tmp_path, keep=1, grace_s=0)
    assert len(list(tmp_path.iterdir())) == 1
