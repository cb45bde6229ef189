// The site's page script (site/page.js), written into the app's page just before Voici's code
// and into reset.html. It does five things, before any Python runs:
//  0. paints the app's first view (site/first_view.py, built from the real app; paint() below);
//  1. hands the page's address to Python as Voila does: Pyodide starts with QUERY_STRING (and the
//     other CGI variables Voila sets) in os.environ, so page_query() reads ?lang=, ?seed=, ...
//  2. turns Voici's blank "Running ..." into words that say what is happening, in the language
//     of ?lang= (the words come from locale/<lang>/LC_MESSAGES/site.po, put in by the build);
//  3. starts the kernel's worker at once (startKernel below), Python starting while the page loads;
//  4. registers the site's service worker (site/service-worker.js) and, once the app is
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

  var site = window.SPECULATION_SITE || {};
  // When each phase was reached (ms since this page's request): benchmarks/bench_site.py reads it.
  window.SPECULATION_TIMES = window.SPECULATION_TIMES || {};
  var seed = paint(site, query, lang);

  var element = document.getElementById("jupyter-config-data");
  if (element) {
    var config = JSON.parse(element.textContent);
    var kernel = (config.litePluginSettings || {})[KERNEL];
    if (kernel) {
      var options = kernel.loadPyodideOptions || (kernel.loadPyodideOptions = {});
      var env = options.env || (options.env = {});
      // The painted deal's seed goes along with the address: the live app continues that deal.
      env.QUERY_STRING = seed === null ? query : (query ? query + "&" : "") + "seed=" + seed;
      env.SCRIPT_NAME = window.location.pathname;
      env.PATH_INFO = "";
      env.SERVER_NAME = window.location.hostname;
      env.SERVER_PORT = window.location.port;
      env.SERVER_SOFTWARE = "voici";
      env.SPECULATION_STATIC_SITE = "1";
      element.textContent = JSON.stringify(config);
      startKernel(site, config, kernel);
    }
  }

  function show(key) {
    var heading = document.getElementById("loading_text");
    if (heading) {
      heading.textContent = text(key);
    }
    var note = document.querySelector("#spec-painted .spec-painted-note");
    if (note) {
      note.textContent = text(key);
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
    if (index > 0 && !window.SPECULATION_TIMES.python) {
      window.SPECULATION_TIMES.python = window.performance.now(); // Python runs the app's cell
    }
  };
  document.querySelectorAll("[data-site-text]").forEach(function (node) {
    node.textContent = text(node.getAttribute("data-site-text"));
  });

  offline(site);
})();

// The app's first view, painted at once (site/first_view.py made it at build time from the real
// app): a plain link (?lang= alone) gets one of the deals prebuilt for its language, whose seed
// is returned for Python; any other link a neutral view of the same frame (null). The painted view
// lies over the page until the live app is drawn beneath it, then goes: nothing moves.
function paint(site, query, lang) {
  "use strict";
  var index = site.firstView;
  if (!index || !document.body) {
    return null;
  }
  var prebuilt = true;
  new URLSearchParams(query).forEach(function (value, name) {
    var known = name === "lang" && index.languages.indexOf(value.toLowerCase().split(/[-_]/)[0]) >= 0;
    if (index.prebuiltKeys.indexOf(name) < 0 || !known) {
      prebuilt = false;
    }
  });
  var n = prebuilt ? Math.floor(Math.random() * index.seeds.length) : 0;
  var request = new XMLHttpRequest();
  try {
    // Synchronous on purpose: the view is in the page before Voici's code is even read.
    request.open("GET", site.root + "static/first-view/" + lang + "-" + n + ".html", false);
    request.send();
  } catch (error) {
    return null;
  }
  if (request.status !== 200) {
    return null;
  }
  var holder = document.createElement("div");
  holder.id = "spec-painted";
  holder.className = prebuilt ? "spec-painted" : "spec-painted spec-painted-neutral";
  holder.setAttribute("aria-busy", "true");
  holder.innerHTML = request.responseText;
  document.body.appendChild(holder);
  document.body.classList.add("spec-painting");
  window.SPECULATION_TIMES.painted = window.performance.now();
  var timer = window.setInterval(function () {
    var live = document.querySelector("#rendered_cells .spec-app button.spec-next, #rendered_cells .spec-member");
    if (!live || live.offsetParent === null) {
      return;
    }
    window.clearInterval(timer);
    // Two frames: the live app's views are laid out before the painted one goes.
    window.requestAnimationFrame(function () {
      window.requestAnimationFrame(function () {
        holder.remove();
        document.body.classList.remove("spec-painting");
        window.SPECULATION_TIMES.live = window.performance.now();
      });
    });
  }, 100);
  return prebuilt ? index.seeds[n] : null;
}

// The kernel's worker, started at once (the app's page only): Python starts while the page's code
// loads (about 2 s here) instead of after it. The worker is the one the Pyodide kernel's code would
// make (site.kernelWorker, found by the build), asked to initialize with the options the kernel
// will give it (comlink's message); when the kernel makes its worker, it gets this one, and its
// own initialize joins the start under way (site/kernel-start.js loads Pyodide once per worker).
function startKernel(site, config, kernel) {
  "use strict";
  if (!site.app || !site.kernelWorker || typeof Worker === "undefined" || window.crossOriginIsolated) {
    return;
  }
  var here = window.location.href;
  var script = new URL(site.root + site.kernelWorker, here);
  var base = new URL(config.baseUrl || site.root, here).href;
  var load = {};
  Object.keys(kernel.loadPyodideOptions || {}).forEach(function (key) {
    var value = kernel.loadPyodideOptions[key];
    load[key] = /URL$/.test(key) && typeof value === "string" ? new URL(value, base).href : value;
  });
  var pyodideUrl = new URL(kernel.pyodideUrl, here).href;
  var options = {
    baseUrl: base,
    pyodideUrl: pyodideUrl,
    indexUrl: pyodideUrl.slice(0, pyodideUrl.lastIndexOf("/") + 1),
    pipliteWheelUrl: "",
    pipliteUrls: (kernel.pipliteUrls || []).map(function (url) {
      return new URL(url, here).href;
    }),
    disablePyPIFallback: !!kernel.disablePyPIFallback,
    location: "",
    mountDrive: false,
    loadPyodideOptions: load,
  };
  var NativeWorker = window.Worker;
  var early;
  try {
    early = new NativeWorker(script.href);
    early.postMessage({
      id: "speculation-early-start",
      type: "APPLY",
      path: ["initialize"],
      argumentList: [{ type: "RAW", value: options }],
    });
  } catch (error) {
    return; // the kernel starts its worker itself
  }
  window.SPECULATION_TIMES.kernelWorker = window.performance.now();
  var Handing = function (url, workerOptions) {
    if (early && new URL(String(url), here).pathname === script.pathname) {
      var worker = early;
      early = null;
      window.Worker = NativeWorker;
      return worker;
    }
    return new NativeWorker(url, workerOptions);
  };
  Handing.prototype = NativeWorker.prototype;
  window.Worker = Handing;
}

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
  speculationOfflineStatus(root); // site/offline_status.js
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
