"""Keyboard and screen-reader help that ipywidgets alone cannot give, as one small
anywidget (an ES module shipped inline: nothing is fetched from anywhere).

* **Keys**: N next card, D new deal, E play to the end, B back, F forward (the line
  under the controls names them); they press the visible, enabled button of this app,
  never while the person types in a field.
* **Focus**: a chart never keeps the focus (the ipympl canvas takes ``tabindex=-1``
  and is hidden from screen readers, which read the charts' text alternative); the
  settings header takes the focus and opens with Enter or Space; Escape leaves a field.
* **Live region**: ``text`` is spoken by screen readers when it changes (the chance
  that the best trump holds after each card, each computer action), in an
  ``aria-live`` element that the module creates once and only ever changes the text of.

Works wherever anywidget does: JupyterLab, Voila, the static site (JupyterLite).
Without anywidget the app still works, with neither keys nor live region.
"""

from __future__ import annotations

import logging
from typing import Any

import ipywidgets as widgets  # type: ignore[import-untyped]

__all__ = ["ESM", "make_helper"]

log = logging.getLogger("speculation_nb.widgets")

ESM = r"""
function fix(root) {
  const stops = ".spec-charts, .spec-chart-box, .spec-charts [tabindex], .spec-charts canvas, .spec-charts button";
  for (const el of root.querySelectorAll(stops)) {
    if (el.getAttribute("tabindex") !== "-1") el.setAttribute("tabindex", "-1");
  }
  for (const box of root.querySelectorAll(".spec-chart-box")) {
    if (box.getAttribute("aria-hidden") !== "true") box.setAttribute("aria-hidden", "true");
  }
  const heads = ".spec-settings .jupyter-widget-Collapse-header, .spec-settings .lm-Collapse-header";
  for (const head of root.querySelectorAll(heads)) {
    if (head.getAttribute("tabindex") !== "0") {
      head.setAttribute("tabindex", "0");
      head.setAttribute("role", "button");
      head.addEventListener("keydown", (e) => {
        if (e.key === "Enter" || e.key === " ") { e.preventDefault(); head.click(); }
      });
    }
    const open = head.classList.contains("jupyter-mod-active") ||
      (head.parentElement && head.parentElement.classList.contains("jupyter-widget-Collapse-open"));
    const want = open ? "true" : "false";
    if (head.getAttribute("aria-expanded") !== want) head.setAttribute("aria-expanded", want);
  }
}
function typing(el) {
  if (!el) return false;
  const tag = el.tagName;
  return tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || el.isContentEditable;
}
function render({ model, el }) {
  const live = document.createElement("div");
  live.className = "spec-live spec-sr-only";
  live.setAttribute("aria-live", "polite");
  live.setAttribute("role", "status");
  el.appendChild(live);
  const say = () => { live.textContent = model.get("text"); };
  say();
  model.on("change:text", say);
  const root = el.closest(".spec-app") || document.body;
  const keys = model.get("shortcuts");
  const onKey = (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const active = document.activeElement;
    if (e.key === "Escape" && active && root.contains(active)) {
      if (active.closest(".spec-charts") || typing(active)) { active.blur(); }
      return;
    }
    if (typing(active)) return;
    if (active && active !== document.body && !root.contains(active)) return;
    const cls = keys[e.key.toLowerCase()];
    if (!cls) return;
    const button = root.querySelector("button." + cls);
    if (!button || button.disabled || button.offsetParent === null) return;
    e.preventDefault();
    button.click();
  };
  document.addEventListener("keydown", onKey);
  let queued = false;
  const observer = new MutationObserver(() => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => { queued = false; fix(root); });
  });
  observer.observe(root, { subtree: true, childList: true, attributes: true, attributeFilter: ["tabindex", "class"] });
  fix(root);
  return () => { document.removeEventListener("keydown", onKey); observer.disconnect(); };
}
export default { render };
"""

_CLASS: Any = None


def _helper_class() -> Any:
    global _CLASS
    if _CLASS is None:
        import anywidget
        from traitlets import Dict, Unicode

        class KeyHelper(anywidget.AnyWidget):
            """Keys, focus fixes and the live region (see the module docstring)."""

            _esm = ESM
            text = Unicode("").tag(sync=True)
            shortcuts = Dict().tag(sync=True)

        _CLASS = KeyHelper
    return _CLASS


def make_helper(keys: dict[str, str]) -> widgets.DOMWidget | None:
    """The helper widget (``keys``: key -> CSS class of the button it presses), or None
    without anywidget."""
    try:
        cls = _helper_class()
    except Exception:  # anywidget missing: the app works without keys and live region
        log.info("anywidget is not available: no keyboard shortcuts, no live region")
        return None
    helper: widgets.DOMWidget = cls(shortcuts=keys)
    helper.add_class("spec-keys")
    return helper
