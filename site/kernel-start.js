// The Pyodide kernel's start (site/kernel-start.js), as the app page's pyodideUrl: the kernel's
// worker runs this file where it would run pyodide.js (importScripts), then calls
// loadPyodide(options), options.indexURL being the Pyodide folder (loadPyodideOptions). This
// loadPyodide loads the real pyodide.js from there, starts Python from the compiled start when
// the service worker keeps it (COMPILED), and notes in the worker's self.SPECULATION_WORKER_TIMES
// (ms since the epoch; benchmarks/bench_site.py reads it) when each phase of the start ends:
//   start       this file runs (the page's code has loaded and started the kernel's worker)
//   compiled    1 when Python starts from the compiled start (not a time)
//   pyodide_js  pyodide.js loaded
//   wasm        Pyodide's WebAssembly module compiled and instantiated
//   pyodide     Python started, with the packages of loadPyodideOptions.packages installed
//   package_manager  the kernel's start-up code: piplite set up
//   kernel      the kernel's start-up code: IPython and pyodide_kernel imported
//   python_N    any other Python the kernel's start runs (N: 1, 2...)
//   app_import  the app's modules imported (speculation_nb.app), before its cell runs
//   cell_N      the notebook's cell N run (the app's first draw is cell 1)
"use strict";
(function () {
  if (self.SPECULATION_WORKER_TIMES) {
    // Run again: the app's page started this worker at once (site/page.js), and the kernel's own
    // initialize runs this file a second time; loadPyodide below gives both the same start.
    return;
  }
  const times = (self.SPECULATION_WORKER_TIMES = { start: Date.now() });
  const note = (name) => {
    times[name] = performance.timeOrigin + performance.now();
  };
  note("start");

  const instantiate = WebAssembly.instantiateStreaming;
  if (instantiate) {
    WebAssembly.instantiateStreaming = function () {
      const result = instantiate.apply(this, arguments);
      result.then(() => note("wasm"), () => undefined);
      return result;
    };
  }
  const instantiateBuffer = WebAssembly.instantiate;
  WebAssembly.instantiate = function () {
    const result = instantiateBuffer.apply(this, arguments);
    result.then(() => times.wasm || note("wasm"), () => undefined);
    return result;
  };

  /** The app's start compiled ahead (site/site_pyc.py, put here by the build): its lock, its
   *  standard library and its wheels, in the Pyodide folder. A first visit loads the sources
   *  (smaller); the service worker keeps these once the app is interactive, and a later visit
   *  uses them when it keeps every one (offline too). */
  const COMPILED = /*COMPILED*/ null;

  async function compiledKept(indexURL) {
    if (!COMPILED || typeof caches === "undefined") {
      return false;
    }
    try {
      for (const name of [COMPILED.lock, COMPILED.stdlib, ...COMPILED.files]) {
        if (!(await caches.match(new URL(name, indexURL).href))) {
          return false;
        }
      }
      return true;
    } catch (error) {
      return false; // no cache storage here (a plain-http address): the sources
    }
  }

  /** Python run before the kernel's own start-up code: site/stand_ins/ipython_terminal.py. */
  const BEFORE_KERNEL = /*BEFORE_KERNEL*/ "";
  /** Python run after the kernel's own start-up code: the app's cells timed, its modules imported first. */
  const TIMED_CELLS = `
def _speculation_timed():
    import sys
    import js
    import pyodide_kernel

    kernel = pyodide_kernel.kernel_instance
    if getattr(kernel, "_speculation_timed", False):
        return  # the kernel's second initialize (site/page.js started the worker at once)
    kernel._speculation_timed = True
    run = kernel.run
    count = [0]

    def note(name):
        setattr(js.self.SPECULATION_WORKER_TIMES, name, js.performance.timeOrigin + js.performance.now())

    async def timed(code):
        count[0] += 1
        if count[0] == 1 and "speculation_nb.app" not in sys.modules:
            try:
                import speculation_nb.app  # noqa: F401
            except Exception:
                pass  # the cell says what is wrong
            note("app_import")
        try:
            return await run(code)
        finally:
            note(f"cell_{count[0]}")

    kernel.run = timed


_speculation_timed()
del _speculation_timed
`;

  let loading = null;
  const timedLoad = function (options) {
    loading = loading || load(options);
    return loading;
  };
  const load = async function (options) {
    if (await compiledKept(options.indexURL)) {
      options = { ...options, lockFileURL: options.indexURL + COMPILED.lock, stdLibURL: options.indexURL + COMPILED.stdlib };
      times.compiled = 1;
    }
    importScripts(options.indexURL + "pyodide.js");
    const real = self.loadPyodide;
    self.loadPyodide = timedLoad;
    note("pyodide_js");
    const pyodide = await real(options);
    // IPython's terminal left out (site/stand_ins/ipython_terminal.py, put here by the build).
    pyodide.runPython(BEFORE_KERNEL, { globals: pyodide.toPy({}) });
    note("pyodide");
    const runPythonAsync = pyodide.runPythonAsync.bind(pyodide);
    let count = 0;
    pyodide.runPythonAsync = async function (code, more) {
      const kernel = /^\s*import pyodide_kernel\s*$/m.test(code);
      const name = kernel ? "kernel" : /import piplite/.test(code) ? "package_manager" : `python_${++count}`;
      const result = await runPythonAsync(code, more);
      times[name] = times[name] || performance.timeOrigin + performance.now(); // the first run's end
      if (kernel) {
        await runPythonAsync(TIMED_CELLS);
      }
      return result;
    };
    return pyodide;
  };
  self.loadPyodide = timedLoad;
})();
