"""speculation_nb: Speculation, the card game of *Mansfield Park*, for teaching probability.

The rules engine (:class:`Game`, :class:`Session`), exact odds
(:mod:`speculation_nb.odds`), a Monte Carlo simulator, and an ipywidgets app
(:mod:`speculation_nb.app`) for notebooks and Voila.
"""

from types import ModuleType

from .engine.actions import Action
from .engine.cards import Card, Suit
from .engine.compose import Moment
from .engine.errors import IllegalAction
from .engine.game import Event, Game
from .engine.session import Session, Standing
from .engine.settings import Rules

__all__ = ["Action", "Card", "Event", "Game", "IllegalAction", "Moment", "Rules", "Session", "Standing", "Suit", "odds"]
__version__ = "0.1.0"


def __getattr__(name: str) -> ModuleType:
    if name == "odds":  # imported on first use, so the package itself loads light
        import importlib

        return importlib.import_module(".odds", __name__)
    raise AttributeError(f"module 'speculation_nb' has no attribute {name!r}")
