"""The app's first view, painted before Python runs: built at build time from the real app.

``site/build_site.py`` calls :func:`write` on the built folder. It makes the app as the page's
Python will (``speculation_nb.app.from_request`` with the page's query), and writes each widget
as the HTML that ipywidgets' own views make of it (:func:`paint`: the same elements and classes,
so the app's stylesheet, which is one of its widgets, and ipywidgets' stylesheet style it alike):

* ``static/first-view/<lang>-<n>.html``: the first view of the plain link (``?lang=<lang>``) for
  ``n`` in ``0..SEEDS-1``, each the first deal of a seed fixed at build time (:func:`seeds`). The
  page picks one at random and hands its seed to Python with the page's address
  (``site/page.js``): the live app continues the deal that was painted;
* for a link whose deal cannot be built in advance (``?seed=``, ``?players=``, a shared moment
  or table) the page paints ``<lang>-0.html`` neutral (``site/painted.css``,
  ``.spec-painted-neutral``): the table's frame, the face-down piles and the words, with the
  deal's faces and numbers hidden;
* ``static/first-view/widgets.css``: ipywidgets' stylesheet, taken from Voici's build (where it is
  a string in a JavaScript chunk), so that the painted widgets look as the live ones before
  Voici's code runs;
* the seeds and the languages, for ``site/page.js`` (returned; the build puts them in the page).

Every control of a painted view is disabled, and its message line says "Starting Python in your
browser..." (the site's catalog): the controls are shown, not yet live.
"""

from __future__ import annotations

import hashlib
import html
import re
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
SEEDS = 3
#: The query keys whose first view does not depend on the deal: a link with only these keys is
#: painted with a prebuilt deal; any other key (seed, players, cast, mode, a share or table...)
#: gets the neutral view.
PREBUILT_KEYS = ("lang",)


def seeds(salt: str) -> list[int]:
    """``SEEDS`` seeds fixed by ``salt`` (the site's lock): the same build, the same deals."""
    digest = hashlib.sha256(salt.encode("utf-8")).digest()
    return [int.from_bytes(digest[4 * i : 4 * i + 5], "big") % 10**12 for i in range(SEEDS)]


def _attr(value: Any) -> str:
    return html.escape(str(value), quote=True)


def layout_css(widget: Any) -> str:
    """A widget's ``layout`` as the inline style ipywidgets' LayoutView sets."""
    layout = getattr(widget, "layout", None)
    if layout is None:
        return ""
    parts = []
    for name in layout.keys:
        if name.startswith("_") or name == "keys":
            continue
        value = getattr(layout, name)
        if value is not None and value != "":
            parts.append(f"{name.replace('_', '-')}: {value};")
    return " ".join(parts)


def _style(css: str) -> str:
    return f' style="{_attr(css)}"' if css else ""


def _classes(*names: str) -> str:
    return " ".join(n for n in names if n)


LABEL = '<label class="widget-label" style="display: none;"></label>'


def paint(widget: Any) -> str:
    """The HTML ipywidgets' views make of ``widget`` and its children (the kinds the app's first
    view uses: boxes, HTML, buttons, a text field, a slider, an accordion); any other kind, which
    shows nothing there (the key helper), is left out."""
    import ipywidgets as widgets

    own = " ".join(widget._dom_classes) if hasattr(widget, "_dom_classes") else ""
    style = _style(layout_css(widget))
    if isinstance(widget, widgets.Accordion):
        items = []
        for index, child in enumerate(widget.children):
            title = widget.titles[index] if index < len(widget.titles) else ""
            is_open = widget.selected_index == index
            caret = "fa-caret-down" if is_open else "fa-caret-right"
            hidden = "" if is_open else " lm-mod-hidden"
            items.append(
                '<div class="lm-Widget jupyter-widget-Collapse jupyter-widget-Accordion-child">'
                f'<div class="lm-Widget jupyter-widget-Collapse-header"><i class="fa fa-fw {caret}"></i>'
                f"<span>{html.escape(title)}</span></div>"
                f'<div class="lm-Widget lm-Panel jupyter-widget-Collapse-contents{hidden}">{paint(child)}</div></div>'
            )
        cls = _classes(
            "lm-Widget lm-Panel jupyter-widget-Accordion jupyter-widgets widget-accordion widget-container", own
        )
        return f'<div class="{cls}"{style}>{"".join(items)}</div>'
    if isinstance(widget, widgets.Box):
        kind = (
            "widget-hbox"
            if isinstance(widget, widgets.HBox)
            else "widget-vbox"
            if isinstance(widget, widgets.VBox)
            else ""
        )
        cls = _classes("lm-Widget lm-Panel jupyter-widgets widget-container widget-box", kind, own)
        return f'<div class="{cls}"{style}>{"".join(paint(c) for c in widget.children)}</div>'
    if isinstance(widget, widgets.HTML):
        cls = _classes("lm-Widget jupyter-widgets widget-inline-hbox widget-html", own)
        return f'<div class="{cls}"{style}>{LABEL}<div class="widget-html-content">{widget.value}</div></div>'
    if isinstance(widget, widgets.Button):
        mod = f"mod-{widget.button_style}" if widget.button_style else ""
        cls = _classes("lm-Widget jupyter-widgets jupyter-button widget-button", mod, own)
        icon = f'<i class="fa fa-{_attr(widget.icon)}"></i>' if widget.icon else ""
        title = widget.tooltip or widget.description
        words = html.escape(widget.description)
        return f'<button class="{cls}" title="{_attr(title)}" disabled{style}>{icon}{words}</button>'
    if isinstance(widget, widgets.Text):
        cls = _classes("lm-Widget jupyter-widgets widget-inline-hbox widget-text", own)
        field = (
            f'<input type="text" class="widget-input" placeholder="{_attr(widget.placeholder)}"'
            f' title="{_attr(widget.tooltip or "")}" value="{_attr(widget.value)}" disabled>'
        )
        return f'<div class="{cls}"{style}>{LABEL}{field}</div>'
    if isinstance(widget, widgets.IntSlider):
        span = widget.max - widget.min
        share = (widget.value - widget.min) / span if span else 0.0
        cls = _classes("lm-Widget jupyter-widgets widget-inline-hbox widget-slider widget-hslider", own)
        readout = "" if widget.readout else ' style="display: none;"'
        return (
            f'<div class="{cls}"{style}>{LABEL}<div class="slider-container">'
            '<div class="slider noUi-target noUi-ltr noUi-horizontal noUi-txt-dir-ltr" disabled="true">'
            '<div class="noUi-base"><div class="noUi-connects"></div>'
            f'<div class="noUi-origin" style="transform: translate({-(1 - share) * 1000:g}%, 0px); z-index: 4;">'
            '<div class="noUi-handle noUi-handle-lower" data-handle="0"><div class="noUi-touch-area"></div>'
            f'</div></div></div></div></div><div class="widget-readout"{readout}>{widget.value}</div></div>'
        )
    return ""


def first_view(query: str, loading: str) -> str:
    """The painted first view of the app for ``query``: its root ``.spec-app`` with every control
    disabled and the message line saying ``loading``."""
    if str(REPO) not in sys.path:
        sys.path.insert(0, str(REPO))
    from speculation_nb.app import from_request

    app = from_request(query)
    try:
        app.ui.message.value = (
            f'<span class="spec-painted-note" data-site-text="app.site.loading_python">{html.escape(loading)}</span>'
        )
        return paint(app.widget)
    finally:
        app.close()


# --- ipywidgets' stylesheet, from Voici's build ---------------------------------------------------

PUSH = re.compile(r"\.push\(\[[\w$]+\.id,(?=[\"'`])")
ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v", "0": "\0"}


def js_string(text: str, start: int) -> str:
    """The JavaScript string literal (``"..."``, ``'...'`` or a template whose ``${}`` hold only
    names, each an image's address, left out) at ``text[start]``, decoded."""
    quote = text[start]
    out = []
    i = start + 1
    while True:
        ch = text[i]
        if ch == "\\":
            nxt = text[i + 1]
            if nxt == "u":
                out.append(chr(int(text[i + 2 : i + 6], 16)))
                i += 6
                continue
            if nxt == "x":
                out.append(chr(int(text[i + 2 : i + 4], 16)))
                i += 4
                continue
            if nxt == "\n":
                i += 2
                continue
            out.append(ESCAPES.get(nxt, nxt))
            i += 2
            continue
        if ch == quote:
            return "".join(out)
        if quote == "`" and text.startswith("${", i):  # an image's address (url(${u})): none here
            end = text.index("}", i)
            if not re.fullmatch(r"[\w$.]+", text[i + 2 : end]):
                raise ValueError("a template string with code in it")
            out.append("data:,")
            i = end + 1
            continue
        out.append(ch)
        i += 1


def widgets_css(voici_build: Path) -> str:
    """ipywidgets' stylesheets (``.jupyter-widgets``, ``.widget-*``, noUiSlider's), as strings in
    the one chunk of Voici's build that holds ``.jupyter-widget-box``."""
    for chunk in sorted(voici_build.glob("*.js")):
        text = chunk.read_text(encoding="utf-8")
        if ".jupyter-widget-box" not in text:
            continue
        sheets = []
        for match in PUSH.finditer(text):
            try:
                sheets.append(js_string(text, match.end()))
            except ValueError:
                continue
        css = "\n".join(sheets)
        if ".jupyter-widget-box" in css and ".jupyter-button" in css:
            return css
    raise SystemExit("build-site: ipywidgets' stylesheet was not found in Voici's build")


def write(out: Path, salt: str, languages: tuple[str, ...], loading: dict[str, str]) -> dict[str, Any]:
    """Write ``static/first-view/`` (see the module's docstring); return its index."""
    folder = out / "static" / "first-view"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "widgets.css").write_text(widgets_css(out / "voici" / "build"), encoding="utf-8")
    chosen = seeds(salt)
    for lang in languages:
        for n, seed in enumerate(chosen):
            page = first_view(f"lang={lang}&seed={seed}", loading[lang])
            (folder / f"{lang}-{n}.html").write_text(page, encoding="utf-8")
    return {"seeds": chosen, "languages": list(languages), "prebuiltKeys": list(PREBUILT_KEYS)}
