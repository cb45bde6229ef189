function fix(root, labels) {
  if (root.classList.contains("spec-app") && !root.closest("main, [role=main]") && !root.getAttribute("role")) {
    root.setAttribute("role", "main");
  }
  for (const [selector, text] of Object.entries(labels || {})) {
    for (const el of root.querySelectorAll(selector)) {
      if (text && el.getAttribute("aria-label") !== text) el.setAttribute("aria-label", text);
    }
  }
  const stops = ".spec-charts, .spec-chart-box, .spec-charts [tabindex], .spec-charts canvas, .spec-charts button";
  for (const el of root.querySelectorAll(stops)) {
    if (el.getAttribute("tabindex") !== "-1") el.setAttribute("tabindex", "-1");
  }
  for (const box of root.querySelectorAll(".spec-chart-box")) {
    if (box.getAttribute("aria-hidden") !== "true") box.setAttribute("aria-hidden", "true");
  }
  // a list that scrolls (the log on a phone) takes the focus, so keys can scroll it; the kernel
  // draws the log focusable, and one that does not scroll leaves the tab order here
  for (const list of root.querySelectorAll(".spec-log ol")) {
    const scrolls = list.scrollHeight > list.clientHeight + 1;
    if (scrolls && list.getAttribute("tabindex") !== "0") list.setAttribute("tabindex", "0");
    if (!scrolls && list.hasAttribute("tabindex")) list.removeAttribute("tabindex");
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
  // Each say() in the kernel (a new "said") is one announcement: the same words again get a
  // no-break space, so that the region changes and is read; a redraw says nothing.
  const say = () => {
    const text = model.get("text");
    live.textContent = live.textContent === text ? text + "\u00a0" : text;
  };
  say();
  model.on("change:said", say);
  const root = el.closest(".spec-app") || document.body;
  const keys = model.get("shortcuts");
  const shown = (b) => !!b && !b.disabled && b.offsetParent !== null;
  // Enter in a field with a submit button presses it (the field's value is committed first).
  const submit = (active) => {
    for (const [field, cls] of Object.entries(model.get("submits") || {})) {
      if (!active.closest("." + field)) continue;
      const button = root.querySelector("button." + cls);
      if (!shown(button)) return false;
      active.dispatchEvent(new Event("change", { bubbles: true }));
      setTimeout(() => button.click(), 0);
      return true;
    }
    return false;
  };
  // (in the capture phase: ipywidgets' fields stop their keys from bubbling)
  const onEnter = (e) => {
    const active = document.activeElement;
    if (e.key !== "Enter" || e.ctrlKey || e.metaKey || e.altKey || e.shiftKey || e.isComposing) return;
    if (active && root.contains(active) && active.tagName === "INPUT" && submit(active)) e.preventDefault();
  };
  const onKey = (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const active = document.activeElement;
    if (e.key === "Escape" && active && root.contains(active)) {
      if (active.closest(".spec-charts") || typing(active)) { last = null; active.blur(); }
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
  document.addEventListener("keydown", onEnter, true);
  // The focus stays on a control: when the control that had it is disabled, hidden or redrawn
  // (Offer, Sell, B, F...), it goes to the same control drawn again, else to the first control
  // of the area that replaced it, else to the step controls; never to the page.
  let last = null;
  let lastClasses = [];
  let lostAt = 0;
  let lastAreas = [];
  const onFocusIn = (e) => {
    if (!root.contains(e.target)) return;
    lostAt = 0;
    last = e.target;
    const owner = e.target.closest("[class*='spec-']");
    lastClasses = owner ? [...owner.classList].filter((c) => c.startsWith("spec-") && c !== "spec-button") : [];
    lastAreas = [];
    for (let a = e.target.parentElement; a && a !== root; a = a.parentElement) {
      if (/(^| )spec-[a-z-]*(box|panel|slot)( |$)/.test(a.className)) lastAreas.push(a);
    }
  };
  const forget = (e) => {
    if (!e.target.closest || !e.target.closest("button, input, select, textarea, a, [tabindex]")) last = null;
  };
  const usable = (el) => !!el && !el.disabled && el.offsetParent !== null && !el.closest("[aria-hidden=true]");
  const restore = () => {
    const active = document.activeElement;
    // lost: on the page itself, or still on a control of the app that is now hidden or disabled
    if (!last || (active && active !== document.body && !(root.contains(active) && !usable(active)))) return;
    if (last.isConnected && usable(last)) { last.focus(); return; }
    const within = (area) => ["button", "input", "select", "textarea"].map((c) => area + " " + c).join(", ");
    const candidates = [];
    for (const c of lastClasses) {
      candidates.push(...root.querySelectorAll("button." + c + ", input." + c + ", " + within("." + c)));
    }
    candidates.push(...root.querySelectorAll(within(".spec-auction")));
    for (const area of lastAreas) {
      if (area.isConnected) candidates.push(...area.querySelectorAll("button, input, select, textarea"));
    }
    // the step controls only when nothing else came within a moment (the kernel may still be drawing)
    lostAt = lostAt || Date.now();
    if (Date.now() - lostAt > 1000) candidates.push(...root.querySelectorAll(".spec-controls button"));
    else setTimeout(restore, 1100);
    const next = candidates.find(usable);
    if (next) { lostAt = 0; next.focus(); }
  };
  document.addEventListener("focusin", onFocusIn);
  document.addEventListener("pointerdown", forget, true);
  let queued = false;
  const observer = new MutationObserver(() => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => { queued = false; fix(root, model.get("labels")); restore(); });
  });
  observer.observe(root, {
    subtree: true, childList: true, attributes: true, attributeFilter: ["tabindex", "class", "disabled", "style"],
  });
  model.on("change:labels", () => fix(root, model.get("labels")));
  fix(root, model.get("labels"));
  return () => {
    document.removeEventListener("keydown", onKey);
    document.removeEventListener("keydown", onEnter, true);
    document.removeEventListener("focusin", onFocusIn);
    document.removeEventListener("pointerdown", forget, true);
    observer.disconnect();
  };
}
export default { render };
