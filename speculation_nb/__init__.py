"""speculation_nb: Speculation, the card game of *Mansfield Park*, for teaching probability.

The rules engine (:class:`Game`, :class:`Session`), exact odds
(:mod:`speculation_nb.odds`), a Monte Carlo simulator, and an ipywidgets app
(:mod:`speculation_nb.widgets`) for notebooks and Voila.
"""

from types import ModuleType

from .actions import Action
from .cards import Card, Suit
from .errors import IllegalAction
from .game import Event, Game
from .rules import Rules
from .session import Session, Standing

__all__ = ["Action", "Card", "Event", "Game", "IllegalAction", "Rules", "Session", "Standing", "Suit", "odds"]
__version__ = "0.1.0"


def __getattr__(name: str) -> ModuleType:
    if name == "odds":  # imported on first use, so the package itself loads light
        import importlib

        return importlib.import_module(".odds", __name__)
    raise AttributeError(f"module 'speculation_nb' has no attribute {name!r}")
