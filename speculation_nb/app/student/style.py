"""The student's screen's own CSS (added after :data:`.style.CSS`, scoped under ``.spec-member``).

Phone first: one column from 360 px wide, every button and field at least 44 px tall, the
seat's actions above the table so that acting needs no scrolling; on a wide screen (up to a
1920 px projector) the table, the odds and the seats sit side by side under the actions.
Every focusable thing shows the app's focus ring; states are said in words, never by colour
alone (the banner has an icon and a sentence, the buttons have labels).
"""

MEMBER_CSS = r"""
.spec-member { max-width: 1880px; }
.spec-member.spec-member-embedded { padding: 0; max-width: none; }
.spec-member .spec-member-top { justify-content: space-between; }
.spec-member .spec-member-title .widget-html-content {
  font-size: 22px; font-weight: 700; color: #fff; font-family: Georgia, "DejaVu Serif", serif; white-space: normal;
}
.spec-member .spec-member-code-tag {
  display: inline-block; margin-left: 8px; padding: 0 8px; border-radius: 6px; background: #fff; color: #1f3a68;
  font-family: "DejaVu Sans Mono", Menlo, monospace; font-size: 18px; letter-spacing: 1px;
}
.spec-member .spec-message .widget-html-content { white-space: normal; }
.spec-member button, .spec-member .spec-button { min-height: 44px; font-size: 17px; padding: 0 14px; }
.spec-member input, .spec-member select { min-height: 44px; font-size: 17px; box-sizing: border-box; }
.spec-member .widget-text, .spec-member .widget-dropdown,
.spec-member .widget-inline-hbox { width: auto; max-width: 100%; }
.spec-member .widget-text, .spec-member .widget-dropdown, .spec-member .widget-inline-hbox { height: auto; }
.spec-member .widget-label { font-size: 17px; min-height: 44px; line-height: 44px; }
.spec-member .spec-member-actions .spec-button, .spec-member .spec-member-join { align-self: flex-start; }
.spec-member button:focus-visible, .spec-member input:focus-visible, .spec-member select:focus-visible {
  outline: 3px solid #2e6fd8; outline-offset: 2px;
}
.spec-member .spec-member-join-box {
  gap: 10px; padding: 12px; border-radius: 12px; border: 2px solid #dfe4ec; max-width: 640px; box-sizing: border-box;
}
.spec-member .spec-member-intro .widget-html-content { white-space: normal; font-size: 17px; }
.spec-member .spec-member-row { flex-wrap: wrap; gap: 8px; align-items: center; }
.spec-member .spec-member-code input {
  font-family: "DejaVu Sans Mono", Menlo, monospace; letter-spacing: 1px; text-transform: uppercase;
}
.spec-member .spec-member-table-box { gap: 8px; }
.spec-member .spec-member-banner .widget-html-content {
  white-space: normal; font-size: 19px; font-weight: 700; padding: 8px 14px; border-radius: 8px;
  background: #ece8f7; color: #3a2a6a; border-left: 8px solid #6a55b5;
}
.spec-member .spec-member-you .widget-html-content { white-space: normal; font-size: 18px; }
.spec-member .spec-member-last {
  font-size: 17px; padding: 4px 10px; margin-top: 6px; border-radius: 8px; background: #eef2f7;
}
.spec-member .spec-member-actions {
  gap: 8px; padding: 8px 10px; border-radius: 12px; background: #f4f7fb; border: 2px solid #2e6fd8;
}
.spec-member .spec-member-hint .widget-html-content { white-space: normal; font-size: 18px; font-weight: 600; }
.spec-member .spec-member-next { font-size: 20px; font-weight: 700; min-width: 200px; }
.spec-member .spec-member-bid-amount { width: 220px; }
.spec-member .spec-member-bid-amount input, .spec-member .spec-member-poll-price input { width: 110px; }
.spec-member .spec-member-poll {
  gap: 6px; padding: 8px 10px; border-radius: 12px; background: #fff4cc; border-left: 8px solid #d4a017;
}
.spec-member .spec-member-poll-question .widget-html-content { white-space: normal; font-size: 19px; }
.spec-member .spec-member-table .widget-html-content, .spec-member .spec-member-side {
  white-space: normal; display: flex; flex-direction: column; gap: 8px;
}
.spec-member .spec-member-odds, .spec-member .spec-member-seats {
  font-size: 17px; padding: 8px 12px; border-radius: 10px; background: #f7f5ef;
}
.spec-member .spec-member-win, .spec-member .spec-member-seat-list { margin: 2px 0 6px 0; padding-left: 22px; }
.spec-member .spec-member-hold { font-weight: 700; font-size: 19px; margin-bottom: 4px; }
.spec-member .spec-member-number { font-variant-numeric: tabular-nums; }
@media (max-width: 760px) {
  /* the app hides the table's header on phones (it has a headline instead): the student needs it */
  .spec-member .spec-table .spec-header { display: flex !important; }
  .spec-member .spec-member-title .widget-html-content { font-size: 18px; }
  .spec-member .spec-member-row > * { flex: 1 1 auto; }
  .spec-member .spec-member-actions button { flex: 1 1 100%; width: 100%; }
  .spec-member .spec-member-join-box button { width: 100%; }
  .spec-member .widget-text, .spec-member .widget-dropdown { flex-wrap: wrap; width: 100%; }
  .spec-member .widget-text input, .spec-member .widget-dropdown select { flex: 1 1 100%; width: 100%; }
}
/* Wide screens (a laptop, a projector): the table on the left, the odds and the seats beside it. */
@media (min-width: 1200px) {
  .spec-member .spec-member-table .widget-html-content {
    display: grid; grid-template-columns: minmax(0, 1fr) minmax(340px, 520px); align-items: start; gap: 12px;
  }
}
@media (min-width: 1400px) {
  .spec-member { font-size: 18px; }
  .spec-member .spec-member-odds, .spec-member .spec-member-seats { font-size: 19px; }
}
"""
