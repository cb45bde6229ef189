"""IPython's terminal, left out of the app's kernel on the static site.

``site/kernel-start.js`` runs this file in the kernel's Python before the kernel imports IPython
(and ``site/site_pyc.py`` before it lists what the app's start imports). ``import IPython``
imports ``IPython.terminal.embed`` for the name ``IPython.embed`` alone, and with it IPython's
terminal application and prompt_toolkit, a terminal's line editor: about 200 modules (a third of
IPython's import) and 0.4 MB of wheels that a kernel in a browser page never uses. In their place,
``IPython.embed`` says so. The lab's kernel, which does not run this, loads them as before.
"""

from __future__ import annotations

import sys
import types


def _embed(**kwargs: object) -> None:
    raise NotImplementedError("IPython's terminal is not part of this site (site/stand_ins/ipython_terminal.py)")


def _install() -> None:
    module = types.ModuleType("IPython.terminal.embed", __doc__)
    module.embed = _embed  # type: ignore[attr-defined]
    sys.modules.setdefault("IPython.terminal.embed", module)


_install()
