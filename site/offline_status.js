// The offline copy's state on the page's <html> (site/offline_status.js), the one listener of the
// pages that use the site's service worker (site/service-worker.js): the build inlines it before
// site/page.js (the app's page, reset.html) and before site/lab.js (the lab's page), which call it.
// data-offline is "starting" until the worker says the copy is "ready" (its version then in
// data-offline-version) or "failed".
function speculationOfflineStatus(root) {
  "use strict";
  root.setAttribute("data-offline", "starting");
  navigator.serviceWorker.addEventListener("message", function (event) {
    var data = event.data || {};
    if (data.type === "speculation-offline-ready") {
      root.setAttribute("data-offline", "ready");
      root.setAttribute("data-offline-version", data.version);
    } else if (data.type === "speculation-offline-failed") {
      root.setAttribute("data-offline", "failed");
    }
  });
}
