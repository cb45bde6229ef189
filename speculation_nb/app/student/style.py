"""The student's screen's own CSS (added after :data:`.style.CSS`, scoped under ``.spec-member``).

Phone first: one column from 360 px wide, every button and field at least 44 px tall, the
seat's actions above the table so that acting needs no scrolling; on a wide screen (up to a
1920 px projector) the table, the odds and the seats sit side by side under the actions.
Every focusable thing shows the app's focus ring; states are said in words, never by colour
alone (the banner has an icon and a sentence, the buttons have labels).
"""

from ...assets import asset_text

__all__ = ["MEMBER_CSS"]

#: The stylesheet (``speculation_nb/assets/student.css``).
MEMBER_CSS = asset_text("student.css")
