"""The app's CSS and JavaScript files (speculation_nb/assets/): shipped, used, tidy, and what the pages inline.

Ruff reads no CSS or JavaScript, so the checks a linter would make are here: every file is named
by the code and every name has its file; the wheel's package data takes every file; braces and
comments close; the scripts parse (with Node.js where it is installed). And what a page gets is
the files themselves: the app's ``<style>`` is ``app.css`` then ``confirm.css``, the keys helper's
module is ``keys.js``.
"""

from __future__ import annotations

import fnmatch
import html
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

import speculation_nb
from speculation_nb.app import SpeculationApp
from speculation_nb.assets import asset_text, widget_file

PACKAGE = Path(speculation_nb.__file__).parent
FOLDER = PACKAGE / "assets"
FILES = sorted(p.name for p in FOLDER.iterdir() if p.suffix in (".css", ".js"))
NAMED = re.compile(r"""(?:asset_text|widget_file)\(\s*["']([^"']+)["']\s*\)""")


def named_in_code() -> set[str]:
    names: set[str] = set()
    for path in PACKAGE.rglob("*.py"):
        names |= set(NAMED.findall(path.read_text(encoding="utf-8")))
    return names


def test_every_file_is_named_by_the_code_and_every_name_has_its_file() -> None:
    assert len(FILES) >= 10
    assert sorted(named_in_code()) == FILES


def test_the_wheel_takes_every_file() -> None:
    """``[tool.setuptools.package-data]`` of pyproject.toml matches each file (what the wheel,
    and so the static site, carries)."""
    tomllib = pytest.importorskip("tomllib")
    pyproject = tomllib.loads((PACKAGE.parent / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = pyproject["tool"]["setuptools"]["package-data"]["speculation_nb"]
    for name in FILES:
        assert any(fnmatch.fnmatch(f"assets/{name}", pattern) for pattern in patterns), name


def strip_comments_and_strings(text: str) -> str:
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return re.sub(r'"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'', '""', text)


@pytest.mark.parametrize("name", FILES)
def test_each_file_is_tidy(name: str) -> None:
    text = asset_text(name)
    assert text.endswith("\n") and not text.endswith("\n\n") and not text.startswith("\n"), name
    lines = text.split("\n")
    assert all(line == line.rstrip() and "\t" not in line for line in lines), name
    assert all(len(line) <= 120 for line in lines), name
    assert text.count("/*") == text.count("*/"), name
    code = strip_comments_and_strings(text)
    for opening, closing in ("{}", "()", "[]"):
        depth = 0
        for char in code:
            depth += (char == opening) - (char == closing)
            assert depth >= 0, (name, opening)
        assert depth == 0, (name, opening)


def test_the_scripts_fetch_nothing() -> None:
    for name in FILES:
        if name.endswith(".js"):
            text = asset_text(name)
            assert "http" not in text and "import " not in text and "fetch(" not in text, name


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")
@pytest.mark.parametrize("name", [n for n in FILES if n.endswith(".js")])
def test_node_parses_each_script(tmp_path: Path, name: str) -> None:
    """The ES modules parse as modules; ``copy_link.js``, an ``onclick``, as a script."""
    text = asset_text(name)
    module = "export default" in text
    copy = tmp_path / (name.replace(".js", ".mjs") if module else name)
    copy.write_text(text if module else f"function onclick() {{\n{text}}}\n", encoding="utf-8")
    done = subprocess.run(["node", "--check", str(copy)], capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr


def test_the_app_inlines_the_files_as_they_are() -> None:
    a = SpeculationApp(players=3, seed=1, charts="svg")
    assert a.ui.style.value == f"<style>{asset_text('app.css')}{asset_text('confirm.css')}</style>"
    if a.helper is not None:  # anywidget installed
        assert a.helper._esm == asset_text("keys.js")
    a.close()


def test_the_screens_stylesheets_are_the_files() -> None:
    from speculation_nb.app.common import device_memory, keys, style
    from speculation_nb.app.player import share_panel, simulation_panel
    from speculation_nb.app.student.style import MEMBER_CSS
    from speculation_nb.app.teacher.style import COPY_JS, CSS
    from speculation_nb.rendering.poll_chart import CSS as POLL_CSS

    stylesheets = {
        "app.css": style.CSS,
        "student.css": MEMBER_CSS,
        "teacher.css poll_chart.css": CSS,
        "poll_chart.css": POLL_CSS,
        "copy_link.js": COPY_JS,
        "share_panel.css": share_panel.CSS,
        "simulation_panel.css": simulation_panel.CSS,
        "keys.js": keys.ESM,
        "device_memory.js": device_memory.ESM,
    }
    for names, inlined in stylesheets.items():
        assert inlined == "".join(asset_text(name) for name in names.split()), names


def test_anywidget_gets_the_files_path() -> None:
    """Installed as files (a wheel, an editable checkout, Pyodide's site-packages), anywidget is
    given the path and reads the file itself."""
    path = widget_file("keys.js")
    assert isinstance(path, Path) and path == FOLDER / "keys.js"


#: Each way a Copy press can go: the clipboard API ("api": granted, "refuse": it rejects,
#: None: none in this context), and what the browser's copy command answers then.
COPY_CASES = [("api", False, "Copied.", True), ("refuse", True, "Copied.", False), ("refuse", False, "By hand.", False)]
COPY_CASES += [(None, True, "Copied.", False), (None, False, "By hand.", False)]


@pytest.mark.browser
@pytest.mark.parametrize(("clipboard", "command", "said", "through_api"), COPY_CASES)
def test_the_copy_script_copies_the_link_beside_it_and_says_so(
    open_page: Any, clipboard: str | None, command: bool, said: str, through_api: bool
) -> None:
    """``copy_link.js`` in the markup of the teacher's panel (the share panel's is the same but for
    its classes): the link of the field beside the button, and the button's own words in the live
    region beside it; the browser's copy command where the clipboard API is missing or refuses."""
    link = "http://192.168.1.20:8866/?table=ABCDE-FGHJK"
    page, watch = open_page("about:blank", width=600, height=300)
    onclick = html.escape(asset_text("copy_link.js"), quote=True)
    page.set_content(
        f'<div><input class="spec-host-address" type="text" readonly value="{link}">'
        f'<button class="spec-host-copy" type="button" data-done="Copied." data-manual="By hand." '
        f'onclick="{onclick}">Copy</button><span class="spec-host-copied" aria-live="polite"></span></div>'
    )
    page.evaluate(
        """([clipboard, command]) => {
          window.copied = [];
          const api = clipboard === null ? undefined : {
            writeText: (text) => clipboard === "api" ? (window.copied.push(["api", text]), Promise.resolve())
                                                     : Promise.reject(new Error("denied")) };
          Object.defineProperty(navigator, "clipboard", { value: api, configurable: true });
          Object.defineProperty(window, "isSecureContext", { value: true, configurable: true });
          document.execCommand = (name) => {
            window.copied.push([name, document.getSelection().toString() || document.activeElement.value]);
            return command;
          };
        }""",
        [clipboard, command],
    )
    page.click("button.spec-host-copy")
    page.wait_for_function("() => document.querySelector('.spec-host-copied').textContent !== ''")
    assert page.locator(".spec-host-copied").inner_text() == said
    copied = page.evaluate("window.copied")
    assert copied[0] == (["api", link] if through_api else ["copy", link])
    assert page.evaluate("document.activeElement.className") == "spec-host-address"  # selected for Ctrl-C
    watch.assert_clean()
