"""The app's start, compiled ahead: the modules its kernel imports as it starts, as bytecode.

Pyodide's Python compiles each module it imports from its source, on every visit: Pyodide's
standard library (``python_stdlib.zip``) and the wheels hold ``.py`` files only, and nothing
compiled is kept between visits. The app's start imports about 700 modules (Pyodide's own, the
kernel's, IPython's, the app's): compiling them was about a third of its Python time.

:func:`compile_start`, called by ``site/build_site.py`` on the Pyodide folder before it writes the
lock, runs Pyodide itself at build time (the site's own runtime, in Node.js, so the bytecode is
that Python's, 3.12 as in the browser): it loads the packages the app's page preloads, imports what
the kernel's start and the app import (:data:`START`), and then, in each wheel and in
``python_stdlib.zip``, writes a copy (:func:`compiled_name`, beside it) where each imported module's ``.py`` is
the ``.pyc`` Pyodide's Python compiled from it (sourceless, as ``compileall -b`` writes: Python
imports it without looking for the source). Every other file stays the same bytes; a traceback
through a compiled module shows no source line. The result is cached under the site's cache,
keyed by the hashes of its inputs, so an unchanged input gives the same bytes on the next build.

Compiled, those archives are larger (2 MB in all): a first visit, which must download at most
25 MB before it plays, loads the sources; the service worker keeps the compiled copies with the
rest of the offline copy once the app is interactive, and every later visit starts from them
(``site/kernel-start.js`` uses them when all of them are kept: ``pyodide-lock-pyc.json``).
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

#: What the app's kernel imports as it starts: the Pyodide kernel's start (site/kernel-start.js
#: names its phases) and the app's modules.
START = ["piplite.piplite", "pyodide_kernel", "speculation_nb.app"]
#: What the app's kernel runs before its start (site/kernel-start.js runs it too).
BEFORE_KERNEL = Path(__file__).resolve().parent / "stand_ins" / "ipython_terminal.py"
#: The Python standard library's archive in the Pyodide folder.
STDLIB = "python_stdlib.zip"
#: Bump to recompile what is cached.
RECIPE = "1"
#: How many compiled starts the cache keeps (the last used), and for how long one just used stays.
KEEP = 8
GRACE_S = 3600.0

#: Node.js: Pyodide from the folder (argv[2]), the folder mounted at /site, the output at /out.
RUNNER = r"""
const path = require("path");
const [folder, out, packages, script] = process.argv.slice(2);
const { loadPyodide } = require(path.join(folder, "pyodide.js"));
(async () => {
  const pyodide = await loadPyodide({ indexURL: folder + "/", packages: JSON.parse(packages) });
  pyodide.FS.mkdir("/site");
  pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: folder }, "/site");
  pyodide.FS.mkdir("/out");
  pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: out }, "/out");
  await pyodide.runPythonAsync(require("fs").readFileSync(script, "utf8"));
})().catch((error) => {
  console.error(String(error));
  process.exit(1);
});
"""

#: Python, in Pyodide: import :data:`START`, then write each archive with imported modules, compiled.
COMPILER = r"""
import importlib
import importlib._bootstrap_external as external
import json
import sys
import zipfile
from base64 import urlsafe_b64encode
from hashlib import sha256

SITE_PACKAGES = "/lib/python3.12/site-packages/"
STDLIB_ZIP = "/lib/python312.zip/"
archives = json.loads(__ARCHIVES__)
exec(__BEFORE__, {})
for name in json.loads(__START__):
    importlib.import_module(name)

files = {getattr(module, "__file__", None) or "" for module in list(sys.modules.values())}
wanted = {archive: set() for archive in archives}
owner = {}
for archive in archives:
    if archive != __STDLIB__:
        with zipfile.ZipFile("/site/" + archive) as wheel:
            owner.update({member: archive for member in wheel.namelist()})
for file in files:
    if file.endswith(".py") and file.startswith(STDLIB_ZIP):
        wanted[__STDLIB__].add(file[len(STDLIB_ZIP):])
    elif file.endswith(".py") and file.startswith(SITE_PACKAGES) and file[len(SITE_PACKAGES):] in owner:
        wanted[owner[file[len(SITE_PACKAGES):]]].add(file[len(SITE_PACKAGES):])


def record_line(name, data):
    digest = urlsafe_b64encode(sha256(data).digest()).rstrip(b"=").decode("ascii")
    return f"{name},sha256={digest},{len(data)}\n"


compiled = {}
for archive, members in sorted(wanted.items()):
    if not members:
        continue
    prefix = STDLIB_ZIP if archive == __STDLIB__ else SITE_PACKAGES
    target = zipfile.ZipFile("/out/" + archive, "w", zipfile.ZIP_DEFLATED)
    with zipfile.ZipFile("/site/" + archive) as old, target as new:
        renamed = {}
        for info in old.infolist():
            data = old.read(info)
            name = info.filename
            if name in members:
                code = compile(data, prefix + name, "exec", dont_inherit=True)
                data = bytes(external._code_to_timestamp_pyc(code, 0, 0))
                renamed[name] = name + "c"
                name += "c"
            elif name.endswith(".dist-info/RECORD"):
                continue  # last, with the compiled files' lines
            out = zipfile.ZipInfo(name, info.date_time)
            out.external_attr = info.external_attr
            new.writestr(out, data, zipfile.ZIP_DEFLATED)
        for info in old.infolist():
            if info.filename.endswith(".dist-info/RECORD"):
                lines = []
                for line in old.read(info).decode("utf-8").splitlines(keepends=True):
                    name = line.split(",", 1)[0]
                    lines.append(record_line(renamed[name], new.read(renamed[name])) if name in renamed else line)
                out = zipfile.ZipInfo(info.filename, info.date_time)
                out.external_attr = info.external_attr
                new.writestr(out, "".join(lines), zipfile.ZIP_DEFLATED)
    compiled[archive] = sorted(members)
with open("/out/compiled.json", "w") as handle:
    json.dump(compiled, handle, indent=1, sort_keys=True)
"""


def key(folder: Path, archives: list[str], preload: list[str], digest: Callable[[Path], str]) -> str:
    """The cache key: the recipe, what is imported and preloaded, and every input's hash."""
    parts = [RECIPE, RUNNER, COMPILER, BEFORE_KERNEL.read_text(encoding="utf-8"), json.dumps([START, preload])]
    inputs = sorted({*archives, "pyodide-lock.json", "pyodide.asm.wasm"})
    parts += [f"{name}:{digest(folder / name)}" for name in inputs]
    return hashlib.sha256("\n".join(parts).encode("utf-8")).hexdigest()[:20]


def compile_start(
    folder: Path, archives: list[str], preload: list[str], cache: Path, digest: Callable[[Path], str]
) -> dict[str, list[str]]:
    """Compile, in ``folder`` (a Pyodide folder with its lock), the modules of ``archives`` (wheel
    file names, and :data:`STDLIB`) that the app's start imports with ``preload`` loaded; return,
    for each archive changed, the modules compiled."""
    done = cache / f"pyc-{key(folder, archives, preload, digest)}"
    if not (done / "compiled.json").exists():
        with tempfile.TemporaryDirectory(prefix="speculation-pyc-") as tmp:
            out = Path(tmp) / "out"
            out.mkdir()
            script = Path(tmp) / "compile.py"
            source = COMPILER.replace("__ARCHIVES__", repr(json.dumps(archives)))
            source = source.replace("__START__", repr(json.dumps(START))).replace("__STDLIB__", repr(STDLIB))
            source = source.replace("__BEFORE__", repr(BEFORE_KERNEL.read_text(encoding="utf-8")))
            script.write_text(source, encoding="utf-8")
            runner = Path(tmp) / "runner.js"
            runner.write_text(RUNNER, encoding="utf-8")
            command = ["node", str(runner), str(folder), str(out), json.dumps(preload), str(script)]
            subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
            shutil.rmtree(done, ignore_errors=True)
            done.parent.mkdir(parents=True, exist_ok=True)
            shutil.copytree(out, done)
    (done / "compiled.json").touch()  # used now: kept by prune()
    prune(cache)
    compiled: dict[str, list[str]] = json.loads((done / "compiled.json").read_text(encoding="utf-8"))
    for archive in compiled:
        shutil.copy(done / archive, folder / compiled_name(archive))
    return compiled


def prune(cache: Path, keep: int = KEEP, grace_s: float = GRACE_S) -> None:
    """Delete all but the ``keep`` entries last used (each build with a changed package makes a
    new one, about 7 MB); an entry used within ``grace_s`` stays (another build may be copying it)."""
    entries = sorted(
        (p for p in cache.glob("pyc-*") if (p / "compiled.json").exists()),
        key=lambda p: (p / "compiled.json").stat().st_mtime,
        reverse=True,
    )
    for entry in entries[keep:]:
        if time.time() - (entry / "compiled.json").stat().st_mtime > grace_s:
            shutil.rmtree(entry, ignore_errors=True)


def compiled_name(archive: str) -> str:
    """The compiled copy's file name, beside the archive: ``ipython-8.23.0-py3-none-any.whl`` ->
    ``ipython-8.23.0_pyc-py3-none-any.whl`` (Pyodide reads a wheel's name and version from its
    file name, splitting at each ``-``), ``python_stdlib.zip`` -> ``python_stdlib_pyc.zip``."""
    if archive == STDLIB:
        return STDLIB.replace(".zip", "_pyc.zip")
    tokens = archive.split("-")
    tokens[-4] += "_pyc"
    return "-".join(tokens)
