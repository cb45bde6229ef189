function storage() {
  try {
    const s = window.localStorage;
    const probe = "speculation_nb.probe";
    s.setItem(probe, "1");
    s.removeItem(probe);
    return s;
  } catch (e) {
    return null;
  }
}
function put(s, key, value) {
  if (!s) return false;
  try {
    if (value === "") s.removeItem(key); else s.setItem(key, value);
    return true;
  } catch (e) {
    return false;
  }
}
function render({ model, el }) {
  el.classList.add("spec-device-memory");
  el.setAttribute("aria-hidden", "true");
  const s = storage();
  const key = model.get("key");
  if (model.get("pending")) {
    const value = model.get("value");
    const ok = put(s, key, value);
    model.set(ok ? { written: value, pending: false, loaded: true, available: true }
                 : { loaded: true, available: false });
  } else {
    let stored = null;
    if (s) { try { stored = s.getItem(key); } catch (e) { stored = null; } }
    const value = stored === null ? "" : String(stored);
    model.set({ value: value, written: value, loaded: true, available: s !== null });
  }
  model.save_changes();
  const onValue = () => {
    const value = model.get("value");
    if (value === model.get("written") && !model.get("pending")) return;
    if (put(storage(), model.get("key"), value)) {
      model.set({ written: value, pending: false, available: true });
    } else {
      model.set({ available: false });
    }
    model.save_changes();
  };
  model.on("change:value", onValue);
  return () => { model.off("change:value", onValue); };
}
export default { render };
