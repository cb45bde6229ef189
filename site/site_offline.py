"""The site offline and installable: its service worker, its web app manifest and icons.

``site/build_site.py`` calls :func:`finish` last, on the built folder. It writes:

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
#: The pages, cached as the worker installs (relative to the site's root): the app opens offline.
SHELL = ["./", "index.html", "voici/index.html", "voici/render/app.html", "manifest.webmanifest"]
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
    files = list(SHELL)
    for folder in ("voici/build", "extensions", "static/site", "static/fontawesome", "static/first-view"):
        for path in sorted((out / folder).rglob("*")):
            name = path.relative_to(out).as_posix()
            if path.is_file() and not NOT_FOR_THE_APP.search(name):
                files.append(name)
    pyodide = out / "static" / pyodide_folder
    lock = json.loads((pyodide / "pyodide-lock.json").read_text(encoding="utf-8"))
    files += [
        f"static/{pyodide_folder}/{name}" for name in [*runtime, "pyodide-lock.json"] if not name.endswith(".mjs")
    ]
    for name in sorted(closure([*preload, *later], lock["packages"])):
        files.append(f"static/{pyodide_folder}/{lock['packages'][name]['file_name']}")
    missing = [f for f in files if f != "./" and not (out / f).is_file()]
    if missing:
        raise SystemExit(f"build-site: the offline copy names files the site lacks: {missing}")
    return files


def service_worker(out: Path, files: list[str]) -> str:
    """``site/service-worker.js`` filled in; returns the version."""
    stamp = version(out)
    text = (HERE / "service-worker.js").read_text(encoding="utf-8")
    for marker, value in (
        ('"__VERSION__"', json.dumps(stamp)),
        ("/*SHELL*/ []", json.dumps(SHELL)),
        ("/*APP_FILES*/ []", json.dumps(files, indent=0)),
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


def finish(out: Path, pyodide_folder: str, preload: list[str], runtime: list[str], later: list[str]) -> dict[str, Any]:
    """The manifest, the icons and the service worker, written last (the version hashes the rest)."""
    manifest(out)
    files = app_files(out, pyodide_folder, preload, runtime, later)
    stamp = service_worker(out, files)
    size = sum((out / f).stat().st_size for f in files if f != "./")
    return {"version": stamp, "offline_files": len(files), "offline_bytes": size}
