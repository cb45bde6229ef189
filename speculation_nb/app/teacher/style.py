"""The look of the teacher's table panel (:mod:`.panel`): big code, QR code, seats, poll.

Scoped under ``.spec-host`` (``speculation_nb/assets/teacher.css``); below 760 px wide (a phone)
the code and the QR code shrink and the buttons share the row. Buttons are the app's
``spec-button`` (44 px); check boxes get a 44 px row. The poll's chart brings its own rules
(:data:`speculation_nb.rendering.poll_chart.CSS`), added after the panel's.
"""

from ...assets import asset_text
from ...rendering.poll_chart import CSS as POLL_CSS

__all__ = ["COPY_JS", "CSS"]

CSS = asset_text("teacher.css") + POLL_CSS

#: The Copy button's script (``speculation_nb/assets/copy_link.js``): select the link, then copy
#: where the browser allows it (words from data- attributes).
COPY_JS = asset_text("copy_link.js")
