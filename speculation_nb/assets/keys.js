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
