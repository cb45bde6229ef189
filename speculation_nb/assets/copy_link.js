(function (button) {
  var box = button.parentNode;
  var field = box.querySelector("input");
  var status = box.querySelector("[aria-live]");
  function say(copied) { status.textContent = copied ? button.dataset.done : button.dataset.manual; }
  function byCommand() { say(Boolean(document.execCommand && document.execCommand("copy"))); }
  field.focus();
  field.select();
  try {
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(field.value).then(function () { say(true); }, byCommand);
      return;
    }
    byCommand();
  } catch (e) {
    say(false);
  }
})(this)
