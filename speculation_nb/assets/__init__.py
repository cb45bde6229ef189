"""The app's stylesheets and browser scripts, kept as files beside this module (package data).

Python modules name a file here and read it with :func:`asset_text` (a page's ``<style>``, a
button's ``onclick``) or hand it to anywidget with :func:`widget_file` (``_esm``); nothing in
them is built from Python, so each file reads, and is edited, as the CSS or JavaScript it is.
The wheel carries them (``pyproject.toml``: ``[tool.setuptools.package-data]``), and so the
static site, which installs that wheel in the browser.

* ``app.css``: the player's app, scoped under ``.spec-app``; the student's screen builds on it
  (:mod:`speculation_nb.app.common.style`);
* ``confirm.css``: the "are you sure?" row, ``.spec-ask`` (:mod:`speculation_nb.app.common.confirm`);
* ``teacher.css``: the teacher's table panel, ``.spec-host`` (:mod:`speculation_nb.app.teacher.style`),
  with ``poll_chart.css``: the answers to "What would you pay?" (:mod:`speculation_nb.rendering.poll_chart`);
* ``student.css``: the student's screen, ``.spec-member`` (:mod:`speculation_nb.app.student.style`);
* ``share_panel.css`` and ``simulation_panel.css``: the player's two panels, ``.spec-share`` and
  ``.spec-simulation`` (:mod:`speculation_nb.app.player.share_panel`, ``.simulation_panel``);
* ``keys.js``: the ES module of the keys, focus fixes and live region (:mod:`speculation_nb.app.common.keys`);
* ``device_memory.js``: the ES module of what a device keeps (:mod:`speculation_nb.app.common.device_memory`);
* ``address_bar.js``: the ES module that puts a table's code in the page's address
  (:mod:`speculation_nb.app.common.address_bar`);
* ``copy_link.js``: a Copy button's ``onclick`` (the share panel's and the teacher's): the link in
  the field beside the button to the clipboard, and in the live region beside it, in the
  button's own words (``data-done``, ``data-manual``), whether that worked.

Nothing here is fetched from anywhere at run time: every file is inlined into the page or the
widget's state by the kernel.

>>> "export default" in asset_text("keys.js")
True
"""

from __future__ import annotations

from functools import cache
from importlib.resources import files
from pathlib import Path

__all__ = ["asset_text", "widget_file"]


@cache
def asset_text(name: str) -> str:
    """The text of the file ``name`` of this folder (read once per process)."""
    return (files(__name__) / name).read_text(encoding="utf-8")


def widget_file(name: str) -> Path | str:
    """What anywidget's ``_esm`` or ``_css`` takes for the file ``name``: its path where the package
    is installed as files (anywidget reads it, and in a development checkout with ``ANYWIDGET_HMR``
    set reloads it when edited), else its text (a package imported from a zip archive)."""
    resource = files(__name__) / name
    return resource if isinstance(resource, Path) else asset_text(name)
