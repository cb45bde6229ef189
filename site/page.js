// The site's page script (site/page.js), written into the app's page just before Voici's code
// and into reset.html. It does three things, before any Python runs:
//  1. hands the page's address to Python as Voila does: Pyodide starts with QUERY_STRING (and the
//     other CGI variables Voila sets) in os.environ, so page_query() reads ?lang=, ?seed=, ...
//  2. turns Voici's blank "Running ..." into words that say what is happening, in the language
//     of ?lang= (the words come from locale/<lang>/LC_MESSAGES/site.po, put in by the build);
//  3. registers the site's service worker (site/service-worker.js) and, once the app is
//     interactive, asks it to complete the offline copy; <html data-offline="ready"> then says
//     that a reload with no connection plays (window.SPECULATION_SITE, from the build: the site's
//     root from this page, and JupyterLite's version, which its lab compares before it keeps a worker).
(function () {
  "use strict";
  var KERNEL = "@jupyterlite/pyodide-kernel-extension:kernel";
  var words = window.SPECULATION_SITE_WORDS || {};
  var query = window.location.search.replace(/^\?/, "");
  var lang = (new URLSearchParams(query).get("lang") || "en").toLowerCase().split(/[-_]/)[0];
  if (!Object.prototype.hasOwnProperty.call(words, lang)) {
    lang = "en";
  }
  function text(key) {
    return (words[lang] && words[lang][key]) || (words.en && words.en[key]) || key;
  }
  window.speculationSiteText = text;
  window.speculationSiteLang = lang;
  document.documentElement.lang = lang;

  var element = document.getElementById("jupyter-config-data");
  if (element) {
    var config = JSON.parse(element.textContent);
    var kernel = (config.litePluginSettings || {})[KERNEL];
    if (kernel) {
      var options = kernel.loadPyodideOptions || (kernel.loadPyodideOptions = {});
      var env = options.env || (options.env = {});
      env.QUERY_STRING = query;
      env.SCRIPT_NAME = window.location.pathname;
      env.PATH_INFO = "";
      env.SERVER_NAME = window.location.hostname;
      env.SERVER_PORT = window.location.port;
      env.SERVER_SOFTWARE = "voici";
      env.SPECULATION_STATIC_SITE = "1";
      element.textContent = JSON.stringify(config);
    }
  }

  function show(key) {
    var heading = document.getElementById("loading_text");
    if (heading) {
      heading.textContent = text(key);
    }
  }
  show("app.site.loading_python");
  // Voici calls this when the kernel connects (0, 0) and before it runs the notebook's cell.
  window.update_loading_text = function (index) {
    var spinner = document.getElementById("loading");
    if (spinner && spinner.style.display === "none") {
      spinner.style.display = "flex";
    }
    show(index > 0 ? "app.site.loading_app" : "app.site.loading_python");
  };
  document.querySelectorAll("[data-site-text]").forEach(function (node) {
    node.textContent = text(node.getAttribute("data-site-text"));
  });

  offline(window.SPECULATION_SITE || {});
})();

// Browsers allow service workers on https and on localhost only: a plain-http address on a school
// network gets no offline copy (and no harm: the page plays online as before).
function offline(site) {
  "use strict";
  var root = document.documentElement;
  if (!("serviceWorker" in navigator) || !window.isSecureContext || !site.root) {
    root.setAttribute("data-offline", "unavailable");
    return;
  }
  // JupyterLite's lab registers its worker at this address and keeps a worker it finds there
  // when its own version is noted beside it (else it unregisters every worker first).
  var script = new URL(site.root + "service-worker.js?enableCache=false", window.location.href).href;
  try {
    window.localStorage.setItem(script + "-version", site.liteVersion);
  } catch (error) {
    // no storage (a private window): the lab registers the worker again, nothing is lost
  }
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
  var registered = navigator.serviceWorker.register(script);
  registered.catch(function () {
    root.setAttribute("data-offline", "unavailable");
  });
  if (!site.app) {
    return;
  }
  // Once the app answers clicks (its Next card button, or a shared table's screen), the worker
  // fetches in the background what the offline copy still lacks: numpy for Simulate, and the
  // files this first visit fetched before the worker was there.
  var timer = window.setInterval(function () {
    if (!document.querySelector(".spec-app button.spec-next:enabled, .spec-member")) {
      return;
    }
    window.clearInterval(timer);
    navigator.serviceWorker.ready.then(function (registration) {
      var worker = navigator.serviceWorker.controller || registration.active;
      if (worker) {
        worker.postMessage({ type: "speculation-fill" });
      }
    });
  }, 500);
}
