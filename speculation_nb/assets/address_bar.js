// The page's address in the browser's address bar (speculation_nb/app/common/address_bar.py):
// "table" set by the kernel puts ?table=<code> in it ("" takes it out), the page's other
// parameters kept, with history.replaceState: nothing is loaded, no entry is added to the
// history, and a reload (or the address opened again) comes back to the table.
function apply(model) {
  const table = model.get("table");
  if (table === null || table === undefined) return;
  try {
    const url = new URL(window.location.href);
    if (table === "") url.searchParams.delete("table");
    else if (url.searchParams.get("table") !== table) {
      url.searchParams.delete("table");
      url.searchParams.append("table", table);
    }
    if (url.href !== window.location.href) window.history.replaceState(window.history.state, "", url.href);
  } catch (e) {
    // an address this browser will not change (a sandboxed frame): a reload forgets the table
  }
}
function render({ model, el }) {
  el.classList.add("spec-address-bar");
  el.setAttribute("aria-hidden", "true");
  apply(model);
  const onTable = () => apply(model);
  model.on("change:table", onTable);
  return () => { model.off("change:table", onTable); };
}
export default { render };
