"""All the app's CSS, in one place, scoped under ``.spec-app``.

Made for a projector: big type, strong contrast, and for 1280 x 800 first (the
table, the controls, the odds and both charts above the fold), still usable at
1024 wide (the odds column narrows, the seats wrap). Below 760 px wide (a phone)
it is one column, in the order of ``/work/shared/UI.md``: the headline, the
controls, the seats, the odds and charts, the log and standings, the settings;
nothing is wider than the screen. On touch screens every button is at least
44 px tall. Every focusable thing shows a 3 px focus ring.
"""

from ...assets import asset_text

__all__ = ["CSS"]

#: The stylesheet (``speculation_nb/assets/app.css``).
CSS = asset_text("app.css")
