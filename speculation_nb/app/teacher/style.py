"""The look of the teacher's table panel (:mod:`.host_panel`): big code, QR code, seats, poll.

Scoped under ``.spec-host``; below 760 px wide (a phone) the code and the QR code shrink and the
buttons share the row. Buttons are the app's ``spec-button`` (44 px); check boxes get a 44 px row.
"""

from ...rendering.poll_chart import CSS as POLL_CSS

__all__ = ["COPY_JS", "CSS"]

CSS = (
    """
.spec-host { gap: 8px; padding: 8px 10px; border: 2px solid #dfe4ec; border-radius: 12px; }
.spec-host .spec-host-row { gap: 8px; align-items: center; flex-wrap: wrap; }
.spec-host .widget-html-content { white-space: normal; }
.spec-host .spec-host-intro .widget-html-content { font-size: 16px; }
.spec-host .spec-host-head { gap: 16px; align-items: flex-start; flex-wrap: wrap; }
.spec-host .spec-host-where { flex: 1 1 320px; min-width: 0; gap: 6px; }
.spec-host .spec-host-code .widget-html-content { font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace;
  font-size: 56px; font-weight: 700; letter-spacing: 3px; line-height: 1.1; color: #1f3a68; }
.spec-host .spec-host-code-label .widget-html-content { font-size: 15px; color: #5b6270; }
.spec-host .spec-host-link .widget-html-content { display: flex; gap: 8px; align-items: center; flex-wrap: wrap; }
.spec-host input.spec-host-address { flex: 1 1 280px; min-width: 0; font-size: 15px; height: 40px; padding: 0 8px;
  border: 1px solid #b8c0cc; border-radius: 6px; background: #f7f8fa; font-family: monospace; }
.spec-host button.spec-host-copy { height: 44px; font-size: 16px; padding: 0 14px; border-radius: 8px;
  cursor: pointer; }
.spec-host .spec-host-qr { flex: 0 0 auto; }
.spec-host .spec-host-qr svg { width: 220px; height: 220px; display: block; background: #fff; }
.spec-host .spec-host-status .widget-html-content { font-size: 18px; padding: 4px 10px; border-radius: 8px;
  background: #eef2f7; border-left: 6px solid #2e6fd8; }
.spec-host .spec-host-waiting .widget-html-content { background: #ece8f7; border-left-color: #6a55b5; }
.spec-host .spec-host-seat { gap: 8px; align-items: center; flex-wrap: wrap; padding: 2px 0;
  border-bottom: 1px solid #eef0f4; }
.spec-host .spec-host-seat-label { flex: 1 1 260px; min-width: 0; }
.spec-host .spec-host-seat-label .widget-html-content { font-size: 17px; }
.spec-host .spec-host-kind { font-size: 14px; font-weight: 700; text-transform: uppercase; letter-spacing: 0.4px;
  padding: 1px 6px; border-radius: 4px; border: 1px solid #b8c0cc; margin-right: 4px; }
.spec-host .spec-host-title .widget-html-content { font-size: 14px; font-weight: 700; text-transform: uppercase;
  letter-spacing: 0.6px; color: #5b6270; margin-top: 4px; }
.spec-host .spec-host-message .widget-html-content { font-size: 16px; }
.spec-host .spec-host-error .widget-html-content { color: #8a1f11; }
.spec-host .widget-dropdown { width: auto; max-width: 100%; }
.spec-host .widget-dropdown select { font-size: 16px; min-height: 40px; }
.spec-host .widget-checkbox { width: auto; min-height: 44px; align-items: center; }
.spec-host .widget-checkbox input[type="checkbox"] { width: 22px; height: 22px; margin: 0 8px 0 4px; }
.spec-host .widget-checkbox label { font-size: 16px; }
.spec-host .spec-host-spectators .widget-html-content { font-size: 16px; }
@media (max-width: 760px) {
  .spec-host { padding: 6px; }
  .spec-host .spec-host-code .widget-html-content { font-size: 34px; letter-spacing: 1px; }
  .spec-host .spec-host-qr svg { width: 180px; height: 180px; }
  .spec-host .spec-host-seat .spec-button, .spec-host .spec-host-row .spec-button { flex: 1 1 auto; }
}
"""
    + POLL_CSS
)

#: The Copy button's script: select the link, then copy where the browser allows it (words from
#: data- attributes).
COPY_JS = (
    "(function(b){var i=b.parentNode.querySelector('input'),s=b.parentNode.querySelector('.spec-host-copied');"
    "i.focus();i.select();function say(ok){s.textContent=ok?b.dataset.done:b.dataset.manual;}"
    "try{if(navigator.clipboard&&window.isSecureContext){navigator.clipboard.writeText(i.value)"
    ".then(function(){say(true);},function(){say(false);});return;}"
    "say(document.execCommand&&document.execCommand('copy'));}catch(e){say(false);}})(this)"
)
