"""The pieces of the site's pages (``site/build_site.py`` writes the pages with them): the
JupyterLite configuration inside a page Voici made, the site's own scripts and stylesheets
inline, the redirecting root pages, and the kernel's worker the app's page starts at once.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from typing import Any

import site_offline

HERE = Path(__file__).resolve().parent


CONFIG_RE = re.compile(r'(<script id="jupyter-config-data" type="application/json"[^>]*>)(.*?)(</script>)', re.S)
CDN_RE = re.compile(r'https://cdn\.jsdelivr\.net/npm/@fortawesome/fontawesome-free@[^/"]+/css/([\w.-]+\.css)')


def edit_config(page: str, change: Any) -> str:
    match = CONFIG_RE.search(page)
    if match is None:
        raise SystemExit("build-site: no jupyter-config-data in a page Voici made")
    config = json.loads(match.group(2))
    change(config)
    text = json.dumps(config).replace("</", "<\\/")
    return page[: match.start(2)] + text + page[match.end(2) :]


def site_scripts(messages: dict[str, dict[str, str]], site: dict[str, Any]) -> str:
    """The site's words, ``site`` (``window.SPECULATION_SITE``: ``root``, the site's root from the
    page; ``app``, whether it is the app's page; ``liteVersion``) and the page script
    (``site/page.js``, after the offline copy's listener it calls: ``site/offline_status.js``) as
    inline scripts."""
    words = json.dumps(messages, ensure_ascii=False).replace("</", "<\\/")
    about = json.dumps(site).replace("</", "<\\/")
    script = site_offline.status_script() + (HERE / "page.js").read_text(encoding="utf-8")
    return (
        f"<script>window.SPECULATION_SITE_WORDS = {words};\nwindow.SPECULATION_SITE = {about};</script>\n"
        f"<script>{script}</script>\n"
    )


def stylesheets(page: str, prefix: str) -> str:
    """The site's stylesheet, manifest and icons in, and Font Awesome from the site instead of a CDN."""
    page = CDN_RE.sub(lambda m: f"{prefix}static/fontawesome/css/{m.group(1)}", page)
    links = f'<link rel="stylesheet" href="{prefix}static/site/site.css">\n' + site_offline.head_links(prefix)
    return page.replace("</head>", links + "</head>", 1)


#: How the Pyodide kernel's code makes its worker: the coincident worker's chunk when the page is
#: cross-origin isolated, else the comlink worker's (JupyterLite's pyodide-kernel 0.5, minified).
KERNEL_WORKER_RE = re.compile(
    r"crossOriginIsolated\?new Worker\(new URL\(\w+\.p\+\w+\.u\(\d+\),\w+\.b\)[^)]*\):"
    r"new Worker\(new URL\(\w+\.p\+\w+\.u\((\d+)\),\w+\.b\)"
)


def kernel_worker(out: Path) -> str | None:
    """The Pyodide kernel's worker script (the comlink worker), from the site's root: the app's
    page starts it as the page opens (``site/page.js``), Python starting while the page's code
    loads, and hands it to the kernel when the kernel asks for it. None if the kernel's code is
    not as expected (the kernel then starts its worker itself, as before)."""
    folder = out / "extensions" / "@jupyterlite" / "pyodide-kernel-extension" / "static"
    for script in sorted(folder.glob("*.js")):
        match = KERNEL_WORKER_RE.search(script.read_text(encoding="utf-8", errors="replace"))
        if match:
            found = sorted(folder.glob(f"{match.group(1)}.*.js"))
            return found[0].relative_to(out).as_posix() if len(found) == 1 else None
    return None


def redirect_page(target: str) -> str:
    """A page that opens ``target`` with the same query and fragment (``?seed=42&lang=de``).

    It keeps JupyterLite's empty root configuration, which the lab reads from the folder above it.
    """
    quoted = html.escape(target, quote=True)
    return (
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Speculation</title>\n'
        '<script id="jupyter-config-data" type="application/json" data-jupyter-lite-root=".">{}</script>\n'
        f"<script>window.location.replace({json.dumps(target)} + window.location.search + window.location.hash);"
        "</script>\n"
        f'</head><body><p><a href="{quoted}">Speculation</a></p></body></html>\n'
    )


def lite_version() -> str:
    """JupyterLite's version (its lab's ``appVersion``)."""
    from importlib.metadata import version

    return version("jupyterlite-core")
