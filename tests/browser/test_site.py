"""The static site (issue 13): ``./scripts/build-site``, a plain static server, Python in the browser.

Built once for the session by the command the README and the Pages workflow run, served by
``python -m http.server`` on loopback, opened in headless Chromium with every request outside
loopback refused and counted (it must be 0):

- the build: every Pyodide file checked against the official lock (a wrong hash stops it, a
  corrupt cache is fetched again), nothing linked from a CDN, the package's imports shipped;
- the app (``index.html``) with ``?lang=de&seed=...&mode=classroom``: the same deal as the
  engine's for that seed, played to its end through the page, the numbers checked at each card;
- one lesson in ``lab/``: run cell by cell to the end, the app and an exercise answering, the
  student's saved work kept across a reload, then reset from ``reset.html``.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import re
import sys
import tarfile
import zipfile
from fractions import Fraction
from math import floor
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from site_fixtures import REPO, BuiltSite, OutsideCounter, offline_page

from speculation_nb import Rules, Session, odds
from speculation_nb.languages.translator import catalog

SEED = 1813  # the year of Mansfield Park
PLAYERS = 5
LOAD_TIMEOUT_MS = 300_000  # a first load on a loaded 2-core machine: Pyodide, numpy, matplotlib
STEP_TIMEOUT_MS = 60_000
READY = "button.spec-next:enabled"


def wait_live(page: Any) -> None:
    """Wait until the live app answers (an enabled Next card) and the painted first view, which
    lay over it, is gone (``site/page.js`` removes it once the live app is drawn)."""
    page.locator(READY).first.wait_for(state="visible", timeout=LOAD_TIMEOUT_MS)
    page.wait_for_function("() => !document.getElementById('spec-painted')", timeout=STEP_TIMEOUT_MS)


def build_module() -> ModuleType:
    """``site/build_site.py`` (a script, not part of the package) as a module."""
    spec = importlib.util.spec_from_file_location("build_site", REPO / "site" / "build_site.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def official_lock(build: ModuleType) -> dict[str, Any]:
    pins = build.PINS["pyodide"]
    tarball = build.cache_dir() / "npm" / pins["tarball"]
    assert build.sri_sha512(tarball) == pins["integrity"]
    with tarfile.open(tarball) as archive:
        member = archive.extractfile("package/pyodide-lock.json")
        assert member is not None
        return json.loads(member.read())


def pyodide_folder(site: Path) -> Path:
    (folder,) = (site / "static").glob("pyodide-*")
    return folder


# --- the build --------------------------------------------------------------------------------


#: The first bytes of a .pyc of Python 3.12, Pyodide 0.27's Python (importlib.util.MAGIC_NUMBER there).
PY312_MAGIC = (3531).to_bytes(2, "little") + b"\r\n"


def same_or_compiled(ours: Path, theirs: Path) -> int:
    """Every file of the archive ``ours`` is the same bytes as in the archive ``theirs``, or the
    bytecode of one of its modules: ``x.pyc`` for its ``x.py`` (site/site_pyc.py compiles what the
    app's start imports); its RECORD may differ. Returns how many files are compiled."""
    compiled = 0
    with zipfile.ZipFile(ours) as archive, zipfile.ZipFile(theirs) as source:
        original = set(source.namelist())
        for name in archive.namelist():
            data = archive.read(name)
            if name.endswith(".pyc") and name not in original:
                assert name[:-1] in original and name[:-1] not in archive.namelist(), f"{ours.name}: {name}"
                assert data[:4] == PY312_MAGIC, f"{ours.name}: {name} is not Python 3.12's bytecode"
                compiled += 1
            elif not name.endswith(".dist-info/RECORD"):
                assert data == source.read(name), f"{ours.name}: {name} differs"
    return compiled


def test_the_compiled_start_is_the_sources_compiled(built_site: BuiltSite) -> None:
    """The app's compiled start (site/site_pyc.py: its own lock, beside the official one, for the
    app's later visits): each archive it names instead of the lock's holds the same files, or the
    bytecode of one of its modules; the standard library's too."""
    folder = pyodide_folder(built_site.path)
    lock = json.loads((folder / "pyodide-lock.json").read_text(encoding="utf-8"))["packages"]
    compiled_lock = json.loads((folder / "pyodide-lock-pyc.json").read_text(encoding="utf-8"))["packages"]
    assert set(compiled_lock) == set(lock)
    compiled = 0
    for name, entry in compiled_lock.items():
        path = folder / entry["file_name"]
        assert build_module().sha256(path) == entry["sha256"], name
        if entry != lock[name]:
            assert {**entry, "file_name": "", "sha256": ""} == {**lock[name], "file_name": "", "sha256": ""}
            compiled += same_or_compiled(path, folder / lock[name]["file_name"])
    compiled += same_or_compiled(folder / "python_stdlib_pyc.zip", folder / "python_stdlib.zip")
    assert compiled > 300  # IPython, traitlets, the kernel's and Pyodide's own modules...
    # IPython's terminal is left out of the app's start (site/stand_ins/ipython_terminal.py)
    assert "prompt_toolkit" not in lock["ipython"]["depends"]


def test_every_pyodide_file_of_the_site_is_the_official_one(built_site: BuiltSite) -> None:
    """Each package wheel of Pyodide in the site has the sha256 of npm's official lock, and the
    runtime files are npm's bytes (a trimmed one, Pygments, holds only files of the official
    wheel, each the same bytes; a stand-in, ssl, holds no module); the Pyodide kernel's own
    wheels (preloaded with the rest) have the sha256 of the kernel extension's index; the site's
    lock lists every wheel beside it."""
    build = build_module()
    official = official_lock(build)["packages"]
    folder = pyodide_folder(built_site.path)
    lock = json.loads((folder / "pyodide-lock.json").read_text(encoding="utf-8"))
    locks = (folder / "pyodide-lock.json").read_bytes() + (folder / "pyodide-lock-pyc.json").read_bytes()
    assert folder.name == "pyodide-" + hashlib.sha256(locks).hexdigest()[:16]
    ours = {normal["name"] for normal in build.PINS["wheels"]} | {"speculation-nb"}
    index = built_site.path / "extensions" / "@jupyterlite" / "pyodide-kernel-extension" / "static" / "pypi"
    kernel = json.loads((index / "all.json").read_text(encoding="utf-8"))
    checked = 0
    pins_version = build.PINS["pyodide"]["version"]
    for name, entry in lock["packages"].items():
        path = folder / entry["file_name"]
        assert build.sha256(path) == entry["sha256"], name
        if name in build.KERNEL_WHEELS:
            (files,) = kernel[name]["releases"].values()
            assert [f["digests"]["sha256"] for f in files] == [entry["sha256"]], name
        elif name in build.PINS["pyodide"]["stand_ins"]:
            # metadata only (``import ssl`` fails as it may), or the stand-in module of site/stand_ins/
            module = REPO / "site" / "stand_ins" / f"{name}.py"
            with zipfile.ZipFile(path) as wheel:
                code = [m for m in wheel.namelist() if ".dist-info/" not in m]
                assert code == ([f"{name}/__init__.py"] if module.exists() else []), name
                assert all(wheel.read(m) == module.read_bytes() for m in code), name
        elif name in build.PINS["pyodide"]["trim"]:
            official_wheel = build.cache_dir() / f"pyodide-{pins_version}" / official[name]["file_name"]
            assert build.sha256(official_wheel) == official[name]["sha256"]
            with zipfile.ZipFile(path) as trimmed, zipfile.ZipFile(official_wheel) as whole:
                kept = [m for m in trimmed.namelist() if not m.endswith("RECORD")]
                assert kept and all(trimmed.read(m) == whole.read(m) for m in kept), f"{name}: a file differs"
                assert len(kept) < len(whole.namelist()) / 2, f"{name} was not trimmed"
        elif build.normalise(name) not in {build.normalise(n) for n in ours}:
            assert entry["sha256"] == official[name]["sha256"], f"{name} is not the official wheel"
            checked += 1
    assert checked >= 20  # numpy, matplotlib and their dependencies, IPython, micropip...
    wheels = {p.name for p in folder.iterdir()} - set(build.PINS["pyodide"]["runtime"]) - {"pyodide-lock.json"}
    compiled = json.loads((folder / "pyodide-lock-pyc.json").read_text(encoding="utf-8"))["packages"]
    listed = {e["file_name"] for e in [*lock["packages"].values(), *compiled.values()]}
    assert wheels == listed | {"pyodide-lock-pyc.json", "python_stdlib_pyc.zip"}, "a file no lock lists"
    pins = build.PINS["pyodide"]
    with tarfile.open(build.cache_dir() / "npm" / pins["tarball"]) as archive:
        for name in pins["runtime"]:
            member = archive.extractfile(f"package/{name}")
            assert member is not None and member.read() == (folder / name).read_bytes(), name
    # Trimmed to what the app and the lessons import: no pandas, scipy, scikit-learn...
    assert not {"pandas", "scipy", "scikit-learn", "pyarrow"} & set(lock["packages"])


def test_a_wheel_with_the_wrong_hash_stops_the_build(
    built_site: BuiltSite, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A corrupt cached wheel is fetched again; a source whose file differs from the official
    lock's is refused loudly (ProvenanceError), and nothing is written."""
    build = build_module()
    real_cache = build.cache_dir()
    source = build.PINS["pyodide_wheels_source"]
    entry = dict(official_lock(build)["packages"]["six"])
    (tmp_path / "pypi").mkdir()
    (tmp_path / "pypi" / source["file"]).symlink_to(real_cache / "pypi" / source["file"])
    monkeypatch.setenv("SPECULATION_SITE_CACHE", str(tmp_path))
    cached = tmp_path / f"pyodide-{build.PINS['pyodide']['version']}" / entry["file_name"]
    cached.parent.mkdir()
    cached.write_bytes(b"not a wheel")
    python = Path(sys.executable)
    assert build.sha256(build.pyodide_wheel(python, entry)) == entry["sha256"]  # fetched again
    cached.unlink()
    tampered = {**entry, "sha256": "0" * 64}
    with pytest.raises(build.ProvenanceError, match="not the official lock's"):
        build.pyodide_wheel(python, tampered)
    assert not cached.exists()


def test_a_kernel_wheel_unlike_its_index_stops_the_build(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The Pyodide kernel's own wheels are copied only if each has the sha256 its extension's
    index (all.json) lists."""
    build = build_module()
    index = tmp_path / "share" / "jupyter" / "labextensions" / "@jupyterlite" / "pyodide-kernel-extension"
    index = index / "static" / "pypi"
    index.mkdir(parents=True)
    releases = {}
    for name in build.KERNEL_WHEELS:
        wheel = index / f"{name.replace('-', '_')}-1.0-py3-none-any.whl"
        wheel.write_bytes(name.encode())
        releases[name] = {"releases": {"1.0": [{"filename": wheel.name, "digests": {"sha256": build.sha256(wheel)}}]}}
    (index / "all.json").write_text(json.dumps(releases), encoding="utf-8")
    monkeypatch.setattr(sys, "prefix", str(tmp_path))
    out = tmp_path / "out"
    out.mkdir()
    entries = build.kernel_wheels(out)
    assert sorted(entries) == sorted(build.KERNEL_WHEELS) and entries["pyodide-kernel"]["imports"] == ["pyodide_kernel"]
    (index / "piplite-1.0-py3-none-any.whl").write_bytes(b"tampered")
    with pytest.raises(build.ProvenanceError, match="piplite"):
        build.kernel_wheels(out)


def test_the_pages_link_nothing_outside_the_site(built_site: BuiltSite) -> None:
    """No stylesheet, font or script from a CDN in any page; Font Awesome is in the site."""
    outside_link = re.compile(r"""<(?:link|script|img)\b[^>]*\b(?:href|src)=["'](?:https?:)?//""", re.I)
    pages = list(built_site.path.rglob("*.html"))
    assert len(pages) >= 3
    for page in pages:
        assert not outside_link.search(page.read_text(encoding="utf-8")), page
    css = built_site.path / "static" / "fontawesome" / "css" / "all.min.css"
    fonts = {p.name for p in (built_site.path / "static" / "fontawesome" / "webfonts").iterdir()}
    assert css.exists() and "fa-solid-900.woff2" in fonts
    app = (built_site.path / "voici" / "render" / "app.html").read_text(encoding="utf-8")
    assert "../../static/fontawesome/css/all.min.css" in app
    assert catalog("en")["app.site.loading_python"] in app  # the loading screen has words at once
    index = (built_site.path / "index.html").read_text(encoding="utf-8")
    assert "voici/render/app.html" in index and "window.location.search" in index  # the query goes along


def test_the_site_ships_what_the_package_imports(built_site: BuiltSite) -> None:
    """The package's lock entry loads its base dependencies and the app extra's (less what only a
    server needs, matplotlib and ipympl, which only the lessons import: the lab loads them as it
    starts, the app's page never, and numpy, which only Simulate imports: the lab loads it as it
    starts, the app's page after its first view), each present; the lessons are all in the lab."""
    build = build_module()
    lock = json.loads((pyodide_folder(built_site.path) / "pyodide-lock.json").read_text(encoding="utf-8"))
    depends = lock["packages"]["speculation-nb"]["depends"]
    assert depends == build.package_depends()
    assert {"ipywidgets", "babel"} <= set(depends) <= set(lock["packages"])
    assert not set(build.PINS["server_only"] + build.PINS["lessons_only"] + build.PINS["app_later"]) & set(depends)
    assert build.PINS["app_later"] == ["numpy"] and "numpy" in lock["packages"]  # loaded after the first view
    assert {"matplotlib", "ipympl"} <= set(build.PINS["lessons_only"]) <= set(lock["packages"])
    lab = json.loads((built_site.path / "jupyter-lite.json").read_text(encoding="utf-8"))  # the lab reads it
    kernel = lab["jupyter-config-data"]["litePluginSettings"][build.KERNEL_SETTINGS]
    assert set(build.PINS["lessons_only"] + build.PINS["app_later"]) <= set(kernel["loadPyodideOptions"]["packages"])
    lessons = sorted(p.name for p in (REPO / "notebooks").glob("[0-9]*.ipynb"))
    assert lessons and sorted(p.name for p in (built_site.path / "files").glob("*.ipynb")) == lessons
    summary = json.loads((built_site.path / "build.json").read_text(encoding="utf-8"))
    assert summary["lessons"] == lessons
    print(f"\nsite build: {built_site.seconds:.1f} s, {summary['bytes'] / 2**20:.1f} MiB")


# --- the page's address under Pyodide ------------------------------------------------------------


def test_under_pyodide_the_query_comes_from_the_environment_the_page_set(monkeypatch: pytest.MonkeyPatch) -> None:
    """In the browser there is no Voila to wait for: page_query() reads the QUERY_STRING that
    site/page.js handed to Pyodide, even where VOILA_PREHEAT is set, and static_site() says so."""
    from speculation_nb.app import page_address

    calls: list[str] = []
    monkeypatch.setattr(page_address, "wait_for_request", lambda *a: calls.append("waited"))
    monkeypatch.setenv("VOILA_PREHEAT", "True")
    monkeypatch.setenv("QUERY_STRING", f"lang=de&seed={SEED}")
    monkeypatch.delenv("SPECULATION_STATIC_SITE", raising=False)
    monkeypatch.setattr(sys, "platform", "linux")
    assert not page_address.static_site()
    assert page_address.page_query() == f"lang=de&seed={SEED}" and calls == ["waited"]  # Voila, preheated
    monkeypatch.setattr(sys, "platform", "emscripten")
    assert page_address.page_query() == f"lang=de&seed={SEED}" and calls == ["waited"]  # no waiting
    assert page_address.static_site()
    page_js = (REPO / "site" / "page.js").read_text(encoding="utf-8")
    assert "env.QUERY_STRING = seed === null ? query :" in page_js and "env.SPECULATION_STATIC_SITE" in page_js


# --- the app ----------------------------------------------------------------------------------


def round_half_up(x: Fraction) -> int:
    return floor(x + Fraction(1, 2))


def check_numbers(page: Any, game: Any) -> None:
    """Wait until the page shows step len(history), then compare its odds with the engine's."""
    step = len(game.history)
    hold = Fraction(odds.hold_probability(game))
    fraction = f"= {hold.numerator}/{hold.denominator}" if hold.denominator != 1 else f"= {hold.numerator}"
    page.wait_for_function(
        """([step, fraction]) => {
          const logged = document.querySelector(`.spec-log li[data-step="${step}"]`);
          const shown = document.querySelector('.spec-hold-fraction');
          return !!logged && !!shown && shown.textContent.trim() === fraction;
        }""",
        arg=[step, fraction],
        timeout=STEP_TIMEOUT_MS,
    )
    tenths = round_half_up(hold * 1000)
    pct = page.locator(".spec-hold-pct").first.inner_text().strip()
    assert pct.replace("\xa0", " ").replace(" %", "%") == f"{tenths // 10},{tenths % 10}%", (step, pct)


@pytest.mark.browser
def test_the_app_plays_the_engines_deal_in_german_with_nothing_from_outside(
    site_browser: Any, site_url: str, outside: OutsideCounter
) -> None:
    """``index.html?lang=de&seed=1813&mode=classroom``: German words, the engine's deal for that
    seed, played card by card to its end with the odds of each card and the final chips equal to
    the engine's; a loading screen in German first; no stderr, no traceback, no error."""
    opened = offline_page(site_browser, site_url)
    page = opened.page
    try:
        page.goto(f"{site_url}index.html?lang=de&seed={SEED}&mode=classroom", wait_until="commit")
        german = catalog("de")
        page.wait_for_function(
            "text => (document.getElementById('loading_text') || {}).textContent === text",
            arg=german["app.site.loading_python"],
            timeout=STEP_TIMEOUT_MS,
        )
        wait_live(page)
        assert page.locator("button.spec-next").first.inner_text().strip() == german["button.next_card"]
        assert str(SEED) in page.locator(".spec-deal-info").first.inner_text()
        names = ["Fanny", "Edmund", "Mary", "Henry", "William"]
        session = Session(Rules(players=PLAYERS), names, 10, SEED)
        game = session.game
        check_numbers(page, game)
        while not game.over:
            page.locator(READY).first.click()
            game.reveal()
            check_numbers(page, game)
        page.wait_for_function("() => document.querySelector('button.spec-next').disabled", timeout=STEP_TIMEOUT_MS)
        for seat, stack in enumerate(session.stacks):
            cells = page.locator(f".spec-standings tr[data-seat='{seat}'] td").all_inner_texts()
            assert cells[1].startswith(names[seat]) and cells[2] == str(stack), (seat, cells, stack)
        body = page.locator("body").inner_text()
        assert "Traceback" not in body and "font cache" not in body
        assert (
            page.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']:visible").count() == 0
        )
        assert page.locator(".spec-chart-svg svg").count() == 2, "the charts are SVG, as in the Voila app"
        page.screenshot(path=str(artifacts() / "site-app-de.png"))
    finally:
        opened.close()
    assert opened.aborted == [] and outside.from_pages == [], (opened.aborted, outside.from_pages)
    opened.watch.assert_clean()


def artifacts() -> Path:
    folder = REPO / "tests" / "artifacts"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


# --- a lesson in the lab ------------------------------------------------------------------------


def first_lesson() -> str:
    english = [p.name for p in sorted((REPO / "notebooks").glob("[0-9]*.ipynb")) if p.suffixes == [".ipynb"]]
    return english[0]


def open_lesson(page: Any, site_url: str, name: str) -> None:
    page.goto(f"{site_url}lab/index.html?path={name}", wait_until="commit")
    page.locator(".jp-Notebook .jp-Cell").first.wait_for(state="visible", timeout=LOAD_TIMEOUT_MS)


def kernel_idle(page: Any) -> None:
    page.wait_for_function(
        "() => { const s = document.querySelector('.jp-Notebook-ExecutionIndicator');"
        " return s && s.getAttribute('data-status') === 'idle'; }",
        timeout=LOAD_TIMEOUT_MS,
    )


@pytest.mark.browser
def test_a_lesson_runs_in_the_lab_keeps_the_work_and_resets(
    site_browser: Any, site_url: str, outside: OutsideCounter
) -> None:
    """The first lesson, run cell by cell (Shift+Enter) to its end: no error output, the app and an
    exercise answer from Python in the browser. Saved, it is still there after a reload (the
    browser keeps it); reset from ``reset.html``, the lab shows the lesson as shipped again."""
    name = first_lesson()
    shipped = json.loads((REPO / "notebooks" / name).read_text(encoding="utf-8"))
    code_cells = sum(1 for c in shipped["cells"] if c["cell_type"] == "code")
    opened = offline_page(site_browser, site_url, 1280, 900)
    page = opened.page
    try:
        open_lesson(page, site_url, name)
        kernel_idle(page)
        page.locator(".jp-Notebook .jp-Cell").first.click()
        page.wait_for_function(
            "n => document.querySelectorAll('.jp-Notebook .jp-Cell').length === n",
            arg=len(shipped["cells"]),
            timeout=STEP_TIMEOUT_MS,
        )  # every cell in the page (the site turns JupyterLab's windowing off)
        for _ in shipped["cells"]:
            page.keyboard.press("Shift+Enter")
            kernel_idle(page)
        prompts = page.locator(".jp-Notebook .jp-CodeCell .jp-InputPrompt").all_inner_texts()
        numbers = [p for p in prompts if re.fullmatch(r"\[\d+\]:", p.strip())]
        assert len(numbers) == code_cells, prompts
        assert page.locator("[data-mime-type='application/vnd.jupyter.error']").count() == 0
        assert page.locator(".jp-Notebook .spec-app").count() >= 1, "the app in the lesson"
        exercise = page.locator(".jp-Notebook .spec-exercise").first
        exercise.locator("input").fill("-12345")
        exercise.locator("button").first.click()  # Check (the worked solution comes after three tries)
        exercise.get_by_text(re.compile("✘")).wait_for(timeout=STEP_TIMEOUT_MS)
        page.screenshot(path=str(artifacts() / "site-lesson.png"))

        page.keyboard.press("Control+s")
        page.wait_for_function(
            "() => !document.querySelector('.jp-mod-dirty')", timeout=STEP_TIMEOUT_MS
        )  # saved into the browser's storage
        open_lesson(page, site_url, name)
        page.locator(".jp-Notebook .jp-OutputArea-output").first.wait_for(timeout=STEP_TIMEOUT_MS)

        page.goto(f"{site_url}reset.html?lang=en", wait_until="load")
        page.locator(f"button[data-lesson='{name}']").click()
        status = page.locator("#status")
        status.get_by_text(name).wait_for(timeout=STEP_TIMEOUT_MS)
        assert catalog("en")["app.site.reset_done"].replace("{name}", name) == status.inner_text().strip()
        open_lesson(page, site_url, name)
        page.wait_for_function(
            "n => document.querySelectorAll('.jp-Notebook .jp-Cell').length === n",
            arg=len(shipped["cells"]),
            timeout=STEP_TIMEOUT_MS,
        )
        assert page.locator(".jp-Notebook .jp-OutputArea-output").count() == 0  # as shipped: no outputs
    finally:
        opened.close()
    assert opened.aborted == [] and outside.from_pages == [], (opened.aborted, outside.from_pages)
    problems = [p for p in opened.watch.problems if "favicon" not in p]
    assert problems == [], problems
