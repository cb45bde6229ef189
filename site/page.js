// The site's page script (site/page.js), written into the app's page just before Voici's code
// and into reset.html. It does two things, before any Python runs:
//  1. hands the page's address to Python as Voila does: Pyodide starts with QUERY_STRING (and the
//     other CGI variables Voila sets) in os.environ, so page_query() reads ?lang=, ?seed=, ...
//  2. turns Voici's blank "Running ..." into words that say what is happening, in the language
//     of ?lang= (the words come from locale/<lang>/LC_MESSAGES/site.po, put in by the build).
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
})();
