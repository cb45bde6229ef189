"""The static site's downloads, cached and checked (``site/build_site.py`` builds with them).

Every download is cached under ``~/.cache/speculation_nb/site/`` (``SPECULATION_SITE_CACHE``)
and checked by hash each time it is used: a corrupt cached file is fetched again, and a fetched
file with any other hash is deleted and refused with :class:`ProvenanceError`. npm's tarballs
are checked against the registry's ``integrity``, PyPI's files against their sha256. The build
tools live in their own virtualenv here (:func:`tools_venv`).
"""

from __future__ import annotations

import base64
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent


class ProvenanceError(RuntimeError):
    """A downloaded or extracted file does not have the hash it must have."""


def cache_dir() -> Path:
    default = Path.home() / ".cache" / "speculation_nb" / "site"
    return Path(os.environ.get("SPECULATION_SITE_CACHE", default))


def say(message: str) -> None:
    print(f"build-site: {message}", flush=True)


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def sri_sha512(path: Path) -> str:
    """The npm registry's ``integrity`` form of a file: ``sha512-<base64>``."""
    digest = hashlib.sha512(path.read_bytes()).digest()
    return "sha512-" + base64.b64encode(digest).decode("ascii")


def run(command: list[str], **kwargs: Any) -> None:
    subprocess.run(command, check=True, **kwargs)


def normalise(name: str) -> str:
    """A package name as Pyodide's lock keys it (PEP 503): ``Jupyterlab_Widgets`` -> ``jupyterlab-widgets``."""
    return re.sub(r"[-_.]+", "-", name).lower()


# --- downloads, cached and checked ----------------------------------------------------------


def checked(path: Path, good: bool, what: str) -> bool:
    """Whether a cached file can be used; a corrupt one is deleted so that it is fetched again."""
    if not path.exists():
        return False
    if good:
        return True
    say(f"the cached {what} ({path}) has the wrong hash: fetching it again")
    path.unlink()
    return False


def downloaded(
    path: Path,
    what: str,
    where: str,
    digest: tuple[str, Callable[[Path], str]],
    expected: str,
    fetch: Callable[[], None],
) -> Path:
    """``path``, cached: unless the cache holds it with the digest ``expected`` (``digest``: its
    name and its function), ``fetch()`` puts it there from ``where``; a file with any other
    digest is deleted and refused (ProvenanceError)."""
    kind, digest_of = digest
    if checked(path, path.exists() and digest_of(path) == expected, what):
        return path
    path.parent.mkdir(parents=True, exist_ok=True)
    say(f"fetching {what} from {where}")
    fetch()
    if digest_of(path) != expected:
        path.unlink()
        raise ProvenanceError(f"{what}: {kind} is not {expected}")
    return path


def npm_tarball(spec: str, file_name: str, integrity: str) -> Path:
    """An npm package's tarball, cached, checked against the registry's ``integrity``."""
    folder = cache_dir() / "npm"

    def fetch() -> None:
        run(["npm", "pack", "--silent", "--pack-destination", str(folder), spec], stdout=subprocess.DEVNULL)

    return downloaded(folder / file_name, spec, "npm", ("the tarball's integrity", sri_sha512), integrity, fetch)


def pypi_file(python: Path, requirement: str, file_name: str, digest: str) -> Path:
    """A file from PyPI (``pip download --no-deps``), cached, checked against its sha256."""
    path = cache_dir() / "pypi" / file_name

    def fetch() -> None:
        with tempfile.TemporaryDirectory() as tmp:
            pinned = Path(tmp) / "requirement.txt"
            pinned.write_text(f"{requirement} --hash=sha256:{digest}\n", encoding="utf-8")
            pip = [str(python), "-m", "pip", "download", "-q", "--disable-pip-version-check", "--no-deps"]
            run([*pip, "--require-hashes", "-r", str(pinned), "-d", tmp])
            shutil.move(str(Path(tmp) / file_name), path)

    return downloaded(path, requirement, "PyPI", ("sha256", sha256), digest, fetch)


# --- the build tools --------------------------------------------------------------------------


def tools_venv() -> Path:
    """The virtualenv of the build tools, made once per version of ``build-requirements.txt``."""
    requirements = HERE / "build-requirements.txt"
    key = hashlib.sha256(requirements.read_bytes()).hexdigest()[:12]
    venv = cache_dir() / f"tools-{key}"
    done = venv / ".complete"
    if done.exists():
        return venv
    shutil.rmtree(venv, ignore_errors=True)
    say(f"installing the build tools into {venv} (once)")
    run([sys.executable, "-m", "venv", str(venv)])
    pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "-q", "--disable-pip-version-check"]
    run([*pip, "--no-deps", "-r", str(requirements)])
    done.write_text("ok\n", encoding="utf-8")
    return venv


def fontawesome(out: Path, pins: dict[str, str]) -> None:
    """Font Awesome 5 (what Voila's template links from a CDN), from npm (``pins``: its
    ``npm`` spec, ``tarball`` name and ``integrity``) into the site."""
    tarball = npm_tarball(pins["npm"], pins["tarball"], pins["integrity"])
    target = out / "static" / "fontawesome"
    with tarfile.open(tarball) as archive:
        for member in archive.getmembers():
            match = re.fullmatch(
                r"package/(css/(?:all|v4-shims)\.min\.css|webfonts/[\w-]+\.woff2?|LICENSE\.txt)", member.name
            )
            data = archive.extractfile(member) if match and member.isfile() else None
            if match and data is not None:
                path = target / match.group(1)
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(data.read())
