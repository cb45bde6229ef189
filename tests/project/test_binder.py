"""Binder: exactly binder/'s pins, installed into a fresh virtual environment, run the notebooks.

No Binder service is reachable from here, so this does what repo2docker does with
``binder/``: install ``requirements.txt``, run ``postBuild``, then executes every
notebook with that environment's own Python and kernel. The translated lessons
(``NN_name.<lang>.ipynb``) are left out here: their code cells are the English ones
(``speculation_nb.lessons.build --check`` proves it in tests/lessons/test_lesson_build.py), so the
environment question is answered by the English notebooks, and tests/lessons/test_notebooks.py
runs every language.
"""

import os
import subprocess
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BINDER = ROOT / "binder"
LANGS = ("it", "pt", "de")
#: The source notebooks: the app and the English lessons.
SOURCES = sorted(
    p.relative_to(ROOT).as_posix()
    for p in (ROOT / "notebooks").glob("*.ipynb")
    if not any(p.name.endswith(f".{lang}.ipynb") for lang in LANGS)
)


def test_binder_pins_are_exact():
    pins = [line.split("#")[0].strip() for line in (BINDER / "requirements.txt").read_text().splitlines()]
    pins = [p for p in pins if p]
    assert pins and all("==" in p for p in pins), pins
    names = {p.split("==")[0].lower().replace("_", "-") for p in pins}
    assert {"ipywidgets", "jupyterlab", "voila", "jupyterlab-widgets", "widgetsnbextension"} <= names
    assert (BINDER / "runtime.txt").read_text().strip().startswith("python-3.")
    assert os.access(BINDER / "postBuild", os.X_OK)


@pytest.mark.notebooks
def test_notebooks_run_in_the_binder_environment(tmp_path):
    env_dir = tmp_path / "binder-env"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    python = env_dir / "bin" / "python"
    run = lambda *args, **kw: subprocess.run(args, check=True, cwd=ROOT, timeout=900, **kw)  # noqa: E731
    run(
        str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check", "-r", str(BINDER / "requirements.txt")
    )
    env = {**os.environ, "PATH": f"{env_dir / 'bin'}{os.pathsep}{os.environ['PATH']}", "VIRTUAL_ENV": str(env_dir)}
    env.pop("PYTHONPATH", None)
    run("bash", str(BINDER / "postBuild"), env=env)
    # nbclient drives the kernel from inside the Binder environment, so the notebooks
    # import the package and its pinned dependencies from there.
    run(str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check", "nbclient")
    script = (
        "import nbformat\n"
        "from nbclient import NotebookClient\n"
        f"for path in {SOURCES!r}:\n"
        "    nb = nbformat.read(path, as_version=4)\n"
        "    client = NotebookClient(nb, timeout=300, kernel_name='python3',\n"
        "                            resources={'metadata': {'path': 'notebooks'}})\n"
        "    client.execute()\n"
        "    print('ran', path, flush=True)\n"
        "import ipywidgets\n"
        "print('ipywidgets', ipywidgets.__version__)\n"
    )
    out = subprocess.run([str(python), "-c", script], cwd=ROOT, env=env, timeout=2400, capture_output=True, text=True)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    assert out.stdout.count("ran ") == len(SOURCES) > 9
    pinned = next(p for p in (BINDER / "requirements.txt").read_text().split() if p.startswith("ipywidgets=="))
    assert f"ipywidgets {pinned.split('==')[1]}" in out.stdout
