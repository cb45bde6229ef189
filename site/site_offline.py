"""The site offline and installable: its service worker, its web app manifest and icons.

``site/build_site.py`` calls :func:`finish` last, on the built folder. It writes:

* ``lab/index.html`` with ``site/lab.js`` (after ``site/offline_status.js``, :func:`status_script`,
  which the app's page carries too): once a lesson's kernel has started, the worker fetches
  the lab's offline copy (:func:`lab_files`);
* ``service-worker.js``: ``site/service-worker.js`` (which says how it works) with the build's
  ``VERSION`` (:func:`version`: a hash of every file of the site, so a build that changes any file
  is a new worker, which replaces the whole offline copy and deletes the old one), the pages it
  caches as it installs (:data:`SHELL`) and every file the app's page needs to play and simulate
  with no connection (:func:`app_files`). It replaces JupyterLite's worker, whose work for the lab
  (the contents drive) it does too: one worker for the one scope;
* ``manifest.webmanifest`` and ``static/site/icon-*.png``: the site can be installed on a phone's
  home screen and opens the app (the lab links the same manifest).

Browsers run service workers on https and on localhost only; elsewhere the site plays online.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
#: The small pages, cached as the worker installs (relative to the site's root).
SHELL = ["./", "index.html", "voici/index.html", "manifest.webmanifest"]
#: The app's page (0.3 MB with its painted first views): fetched with the rest of the offline copy
#: once the app is interactive; at install it would be a second download of the page the browser
#: has just loaded, competing with the app's start.
APP_PAGE = "voici/render/app.html"
#: What a lesson in the lab loads besides the Pyodide folder: folders, and files at the root.
LAB_FOLDERS = ("lab", "build", "extensions", "api", "files", "static/site")
LAB_ROOT_FILES = ["bootstrap.js", "config-utils.js", "jupyter-lite.json", "jupyter-lite.ipynb"]
#: Files no page of the site asks for, left out of the lab's offline copy.
NOT_FOR_THE_LAB = re.compile(r"(\.LICENSE\.txt|\.whl|\.map)$")
#: Files the app's page never asks for, left out of its offline copy.
NOT_FOR_THE_APP = re.compile(r"(\.LICENSE\.txt|\.whl|\.map|/all\.json|\.woff)$")
#: Files that are not part of the site's content (the version would change with every build).
UNVERSIONED = {"build.json", "service-worker.js"}
ICON_SIZES = (192, 512)
THEME = "#1f4d3a"  # the card table's green


def version(out: Path) -> str:
    """A hash of every file of the site (its path and bytes), 16 hex digits."""
    digest = hashlib.sha256()
    for path in sorted(p for p in out.rglob("*") if p.is_file()):
        name = path.relative_to(out).as_posix()
        if name in UNVERSIONED:
            continue
        digest.update(name.encode("utf-8") + b"\0" + hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()[:16]


def closure(roots: Iterable[str], packages: dict[str, Any]) -> set[str]:
    """The lock's packages ``roots`` load, themselves included."""
    found: set[str] = set()
    todo = [re.sub(r"[-_.]+", "-", r).lower() for r in roots]
    while todo:
        name = todo.pop()
        if name not in found and name in packages:
            found.add(name)
            todo += [re.sub(r"[-_.]+", "-", d).lower() for d in packages[name]["depends"]]
    return found


def app_files(out: Path, pyodide_folder: str, preload: list[str], runtime: list[str], later: list[str]) -> list[str]:
    """Every file the app's page needs to play and simulate, relative to the site's root: its
    pages, Voici's code, the extensions it loads, the site's styles, icons and first views, the
    Pyodide runtime and the wheels of what it preloads and of what it loads ``later`` (numpy)."""
    files = [*SHELL, APP_PAGE]
    for folder in ("voici/build", "extensions", "static/site", "static/fontawesome", "static/first-view"):
        for path in sorted((out / folder).rglob("*")):
            name = path.relative_to(out).as_posix()
            if path.is_file() and not NOT_FOR_THE_APP.search(name):
                files.append(name)
    files += pyodide_files(out, pyodide_folder, [*preload, *later], runtime)
    return checked(out, files)


def lab_files(out: Path, pyodide_folder: str, preload: list[str], runtime: list[str]) -> list[str]:
    """Every file a lesson needs to open and run in the lab, relative to the site's root: the lab,
    JupyterLite's code and the extensions, the lessons and their listing, the Pyodide runtime and
    the wheels of what the lab's kernel loads as it starts, ``preload`` (matplotlib and numpy besides the app's)."""
    files = [*SHELL, *LAB_ROOT_FILES]
    for folder in LAB_FOLDERS:
        for path in sorted((out / folder).rglob("*")):
            name = path.relative_to(out).as_posix()
            if path.is_file() and not NOT_FOR_THE_LAB.search(name):
                files.append(name)
    files += pyodide_files(out, pyodide_folder, preload, runtime)
    return checked(out, files)


def pyodide_files(out: Path, pyodide_folder: str, preload: list[str], runtime: list[str]) -> list[str]:
    """The Pyodide runtime, its lock, and the wheels of ``preload`` and what they depend on."""
    pyodide = out / "static" / pyodide_folder
    lock = json.loads((pyodide / "pyodide-lock.json").read_text(encoding="utf-8"))
    files = [f"static/{pyodide_folder}/{name}" for name in [*runtime, "pyodide-lock.json"] if not name.endswith(".mjs")]
    files += [
        f"static/{pyodide_folder}/{lock['packages'][name]['file_name']}"
        for name in sorted(closure(preload, lock["packages"]))
    ]
    return files


def checked(out: Path, files: list[str]) -> list[str]:
    missing = [f for f in files if f != "./" and not (out / f).is_file()]
    if missing:
        raise SystemExit(f"build-site: the offline copy names files the site lacks: {missing}")
    return files


def status_script() -> str:
    """``site/offline_status.js``: the one listener that writes what the worker says of the
    offline copy on a page's ``<html>``, inlined before the scripts that call it
    (``site/page.js``, ``site/lab.js``)."""
    return (HERE / "offline_status.js").read_text(encoding="utf-8")


def lab_page(out: Path) -> None:
    """The lab's page with ``site/lab.js`` inlined: a lesson opened once is kept for offline use."""
    page = out / "lab" / "index.html"
    text = page.read_text(encoding="utf-8")
    lite = json.loads((out / "jupyter-lite.json").read_text(encoding="utf-8"))
    version = lite["jupyter-config-data"]["appVersion"]
    script = status_script() + (HERE / "lab.js").read_text(encoding="utf-8").replace("__LITE_VERSION__", version)
    if script not in text:  # once, however many times the site is finished; before the lab's code
        page.write_text(text.replace("<head>", f"<head>\n<script>{script}</script>", 1), encoding="utf-8")


def service_worker(out: Path, files: list[str], lab: list[str]) -> str:
    """``site/service-worker.js`` filled in; returns the version."""
    stamp = version(out)
    text = (HERE / "service-worker.js").read_text(encoding="utf-8")
    for marker, value in (
        ('"__VERSION__"', json.dumps(stamp)),
        ("/*SHELL*/ []", json.dumps(SHELL)),
        ("/*APP_FILES*/ []", json.dumps(files, indent=0)),
        ("/*LAB_FILES*/ []", json.dumps(lab, indent=0)),
    ):
        if marker not in text:
            raise SystemExit(f"build-site: site/service-worker.js has no {marker}")
        text = text.replace(marker, value)
    (out / "service-worker.js").write_text(text, encoding="utf-8")
    return stamp


def icon(size: int, path: Path) -> None:
    """The app's icon: a playing card, the Queen of diamonds' red lozenge, on the table's green
    (full bleed, so that a phone may round or cut its corners: the card keeps inside the middle 70%)."""
    from PIL import Image, ImageDraw

    scale = 4  # drawn large, then scaled down: smooth edges
    n = size * scale
    image = Image.new("RGB", (n, n), THEME)
    draw = ImageDraw.Draw(image)
    w, h = round(n * 0.46), round(n * 0.62)
    x0, y0 = (n - w) // 2, (n - h) // 2
    draw.rounded_rectangle((x0, y0, x0 + w, y0 + h), radius=round(n * 0.05), fill="#fdfbf5")
    cx, cy, rx, ry = n // 2, n // 2, round(w * 0.28), round(h * 0.3)
    draw.polygon([(cx, cy - ry), (cx + rx, cy), (cx, cy + ry), (cx - rx, cy)], fill="#c0392b")
    for sx, sy in ((x0 + w * 0.16, y0 + h * 0.12), (x0 + w * 0.84, y0 + h * 0.88)):
        r = w * 0.07
        draw.polygon([(sx, sy - r * 1.3), (sx + r, sy), (sx, sy + r * 1.3), (sx - r, sy)], fill="#c0392b")
    image.resize((size, size), Image.Resampling.LANCZOS).save(path, optimize=True)


def manifest(out: Path) -> None:
    """The web app manifest (JupyterLite's, replaced) and its icons: installable, opens the app."""
    folder = out / "static" / "site"
    folder.mkdir(parents=True, exist_ok=True)
    icons = []
    for size in ICON_SIZES:
        icon(size, folder / f"icon-{size}.png")
        for purpose in ("any", "maskable"):
            icons.append(
                {
                    "src": f"static/site/icon-{size}.png",
                    "sizes": f"{size}x{size}",
                    "type": "image/png",
                    "purpose": purpose,
                }
            )
    data = {
        "name": "Speculation",
        "short_name": "Speculation",
        "lang": "en",
        "start_url": "./",
        "scope": "./",
        "display": "standalone",
        "background_color": "#ffffff",
        "theme_color": THEME,
        "icons": icons,
    }
    (out / "manifest.webmanifest").write_text(json.dumps(data, indent=1), encoding="utf-8")


def head_links(root: str) -> str:
    """What a page's ``<head>`` needs to be installable: the manifest, the icons, the colour."""
    return (
        f'<link rel="manifest" href="{root}manifest.webmanifest">\n'
        f'<link rel="icon" type="image/png" sizes="192x192" href="{root}static/site/icon-192.png">\n'
        f'<link rel="apple-touch-icon" href="{root}static/site/icon-192.png">\n'
        f'<meta name="theme-color" content="{THEME}">\n'
    )


def finish(
    out: Path,
    pyodide_folder: str,
    preload: list[str],
    runtime: list[str],
    later: list[str],
    lab_preload: list[str],
    app_runtime: list[str] | None = None,
) -> dict[str, Any]:
    """The manifest, the icons, the lab's script and the service worker, written last (the version
    hashes the rest). ``lab_preload``: what the lab's kernel loads as it starts; ``app_runtime``:
    the Pyodide folder's files the app's page needs besides the wheels (``runtime`` if not given;
    the build adds the app's compiled start, ``site/site_pyc.py``)."""
    manifest(out)
    lab_page(out)
    files = app_files(out, pyodide_folder, preload, app_runtime or runtime, later)
    lab = lab_files(out, pyodide_folder, lab_preload, runtime)
    stamp = service_worker(out, files, lab)
    size = sum((out / f).stat().st_size for f in files if f != "./")
    lab_size = sum((out / f).stat().st_size for f in lab if f != "./")
    return {
        "version": stamp,
        "offline_files": len(files),
        "offline_bytes": size,
        "lab_offline_files": len(lab),
        "lab_offline_bytes": lab_size,
    }
