// The lab's part of the offline copy (site/lab.js; the build inlines it into lab/index.html's
// head, after site/offline_status.js, with JupyterLite's version filled in).
// JupyterLite's lab registers the site's service worker (site/service-worker.js) itself. Once a
// lesson's kernel is idle (the lab and Python have started, nothing competes any more), this asks
// the worker to fetch what the lab's offline copy still lacks (LAB_FILES: the lab, its extensions,
// the lessons, Pyodide and every wheel the lessons' kernel loads), so that a lesson opened once
// opens and runs with no connection. The page's <html> says how it went in data-offline, as the
// app's page does (site/page.js).
(function () {
  "use strict";
  var root = document.documentElement;
  // JupyterLite's lab unregisters every worker when it finds no note of its version beside the
  // worker that controls the page (a first visit writes none): a reload with no connection would
  // then have no worker at all. Noted here, before the lab starts, as the app's page does.
  try {
    var script = new URL("../service-worker.js?enableCache=false", window.location.href).href;
    window.localStorage.setItem(script + "-version", "__LITE_VERSION__");
  } catch (error) {
    // no storage (a private window): the lab registers the worker again, online
  }
  if (!("serviceWorker" in navigator) || !window.isSecureContext) {
    root.setAttribute("data-offline", "unavailable");
    return;
  }
  speculationOfflineStatus(root); // site/offline_status.js
  var timer = window.setInterval(function () {
    if (!document.querySelector(".jp-Notebook-ExecutionIndicator[data-status='idle']")) {
      return;
    }
    window.clearInterval(timer);
    navigator.serviceWorker.ready.then(function (registration) {
      var worker = navigator.serviceWorker.controller || registration.active;
      if (worker) {
        worker.postMessage({ type: "speculation-fill", part: "lab" });
      }
    });
  }, 1000);
})();
