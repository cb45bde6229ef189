"""The old name of :mod:`speculation_nb.app`, kept so that cells and notebooks written for 0.x
(``from speculation_nb.widgets import SpeculationApp``) keep working: the same names, from there.
"""

from __future__ import annotations

from ..app import *  # noqa: F403
from ..app import __all__ as __all__
