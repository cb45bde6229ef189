"""The Speculation teaching app (ipywidgets 8), for notebooks and Voila.

Show it in a notebook with one line::

    from . import SpeculationApp
    SpeculationApp()                      # or app(players=4, seed=7, mode="classroom", lang="en")

The Voila app (``notebooks/app.ipynb``) calls ``from_request()``, which reads
``?lang=``, ``?seed=``, ``?mode=``, ``?players=``, ``?cast=``, ``?charts=``,
``?pace=`` from the page's address (:mod:`.query`, through
:func:`.page_address.page_query`); a value it cannot use is named in the message line.

One module per view: :mod:`.header` (title bar, headline, message line, new
session), :mod:`.table_view`, :mod:`.controls` (step buttons, timeline, keys),
:mod:`.odds_panel`, :mod:`.auction`, :mod:`.trade_view` (V3), :mod:`.charts_view`
(over :mod:`.svg_charts` or :mod:`.mpl_charts`), :mod:`.log_view` (log and standings), :mod:`.settings`,
:mod:`.query`, :mod:`.keys` (key shortcuts, focus, live region: an anywidget);
:mod:`.app` lays them out; :mod:`.controller` is the model; :mod:`.style` the CSS.

``SpeculationApp(rules=None, *, players=None, names=None, deals=10, seed=None,
mode="play", human=0, temperament="mixed", lang="en", charts="auto", pace="auto",
notice="")``;
``app.widget`` is the root widget, ``app.controller`` the model
(:class:`~speculation_nb.app.model.Controller`: the session, the
moment shown, the mode), ``app.ui`` every widget by name. The engine and the
odds never import this package.

CSS classes (stable, for browser tests; all inside ``.spec-app``)
-----------------------------------------------------------------
Set with ``add_class`` on widgets (the class sits on the widget's outer
element; for a Button that is the ``<button>`` itself):

* layout: ``spec-app`` (+ ``spec-live-table`` while a shared table is open), ``spec-style``,
  ``spec-keys`` (the key helper),
  ``spec-topbar``, ``spec-title``, ``spec-deal-info``, ``spec-headline`` (narrow
  screens), ``spec-message`` (+ ``spec-message-error``, ``spec-message-ok``,
  ``spec-message-past``, ``spec-message-auto`` by state), ``spec-confirm``
  (also ``spec-ask``: ``spec-confirm-text``, ``spec-confirm-yes``, ``spec-confirm-no``), ``spec-main``
  (+ ``spec-auction-open`` while an auction is open),
  ``spec-left``, ``spec-odds``, ``spec-odds-slot``, ``spec-bottom``,
  ``spec-settings-area``, ``spec-share-slot`` (each slot: a ``spec-panel-opener``
  button, ``spec-open-simulation`` / ``spec-open-share``, over ``spec-simulation-box`` /
  ``spec-share-box``), ``spec-keys-help``, ``spec-live``,
  ``spec-sr-only``
* the table: ``spec-table-view`` (+ ``spec-table-past`` while replaying, ``spec-table-question`` while a
  shared table shows a question deal); inside
  it the markup of :func:`speculation_nb.rendering.cards.table_html` (``spec-table``,
  ``spec-seat``, ``spec-name``, ``spec-pot``, ...)
* every button: ``spec-button`` plus one of ``spec-next`` (Next card),
  ``spec-play`` (Play to the end), ``spec-back``, ``spec-forward``,
  ``spec-now`` (back to now; + ``spec-now-alert`` while replaying),
  ``spec-new-deal`` (the session's next deal), ``spec-new-session``,
  ``spec-open-auction``, ``spec-bid``, ``spec-withdraw``,
  ``spec-accept``, ``spec-decline``, ``spec-let-decide``, ``spec-trade``,
  ``spec-apply``
* step controls: ``spec-controls``, ``spec-timeline-row``, ``spec-timeline``
  (the slider), ``spec-timeline-label``, ``spec-seed`` (the seed field)
* auction: ``spec-auction`` (+ ``spec-auction-idle`` when only the offer button
  shows), ``spec-auction-title``, ``spec-auction-table`` (its rows
  ``tr[data-seat]`` with cells ``spec-standing-bid``, ``spec-break-even``,
  ``spec-seller-break-even``; the best offer's row ``spec-best-offer``),
  ``spec-price-note``, ``spec-bid-row``, ``spec-bid-seat``, ``spec-bid-amount``,
  ``spec-bid-hint``, ``spec-decide-row``, ``spec-accept-seat``
* blind trades (V3): ``spec-trade-row``, ``spec-trade-buyer``,
  ``spec-trade-seller``, ``spec-trade-count``, ``spec-trade-price``
* log and standings: ``spec-log`` (lines ``li[data-step]``, the newest
  ``spec-log-new``, a computer's reason ``spec-log-why``), ``spec-standings`` (rows ``tr[data-seat]``, the leader
  ``spec-lead``, the change since the start ``spec-up-chips`` /
  ``spec-down-chips``)
* odds: ``spec-hold-label``, ``spec-hold-pct`` (+ ``spec-settled`` once the deal
  is over), ``spec-math`` (+ ``spec-math-long``), ``spec-hold-formula``, ``spec-hold-fraction``,
  ``spec-hold-legend``, ``spec-hold-words``, ``spec-money``,
  ``spec-expected-pot``, ``spec-fair-price``, ``spec-fair-note``
* charts: ``spec-charts`` (both, hidden while an auction is open: the auction
  takes their place in the odds panel), ``spec-chart-title``,
  ``spec-win-title``, ``spec-hold-title``, ``spec-chart-box`` (+
  ``spec-win-chart-box`` / ``spec-hold-chart-box``) holding ``spec-chart`` (the
  picture; + ``spec-win-chart`` or ``spec-hold-chart``, and
  ``spec-chart-svg``, ``spec-chart-ipympl`` or ``spec-chart-static``) and ``spec-chart-overlay``
  (the numbers over the picture as text: ``spec-chart-label``, the holder's
  ``spec-chart-gold``; on the line chart the cards, ``spec-red`` /
  ``spec-black``), ``spec-chart-alt`` (the charts as text)
* settings: ``spec-settings`` (the Accordion), ``spec-settings-grid``,
  ``spec-settings-group``, ``spec-settings-note``, ``spec-names``,
  ``spec-set-players``, ``spec-set-name`` (+ ``spec-set-name-0`` ...
  ``spec-set-name-7``), ``spec-set-preset``, ``spec-set-v1``,
  ``spec-set-v2``, ``spec-set-v3``, ``spec-set-v4``, ``spec-set-cap``,
  ``spec-set-hand``, ``spec-set-ante``, ``spec-set-uniform``,
  ``spec-set-chips``, ``spec-set-deals``,
  ``spec-set-mode``, ``spec-set-you``, ``spec-set-temperament``,
  ``spec-set-pace``, ``spec-set-lang``, ``spec-field``, ``spec-help`` (each
  control's explanation), ``spec-hoyle-note``
* inline text: ``spec-card-text`` (a card named in the log or the odds panel,
  with ``spec-red`` / ``spec-black``), ``spec-box-title``
* the simulate control (``widgets/simulation_panel.py``): ``spec-simulation``,
  ``spec-sim-title``, ``spec-sim-row``, ``spec-sim-runs``, ``spec-sim-seed``,
  ``spec-sim-run``, ``spec-sim-stop``, ``spec-sim-status``, ``spec-sim-result``
  (rows ``tr[data-row]``), ``spec-sim-chart``
* sharing (``widgets/share_panel.py``): ``spec-share``, ``spec-share-title``,
  ``spec-share-link-box`` (``input.spec-share-link``, ``button.spec-share-copy``),
  ``spec-share-row``, ``spec-share-save-deal``, ``spec-share-save-session``,
  ``spec-share-download`` (``a.spec-share-file``), ``spec-share-open``,
  ``spec-share-ask`` (the question before a file replaces a played session, also
  ``spec-ask``: ``spec-share-ask-text``, ``spec-share-ask-yes`` "Replace",
  ``spec-share-ask-no`` "Keep my session"), ``spec-share-message``
* "Set up a moment" (``app/player/composer_panel.py``, model ``app/composer.py``, issue 25): the
  ``spec-compose-slot`` (below the table and the odds: the ``spec-open-compose`` opener over
  ``spec-compose-box``), ``spec-compose`` (the editor), ``spec-compose-heading``,
  ``spec-compose-row``, ``spec-compose-bank`` (a select), ``spec-compose-bank-open``,
  ``spec-compose-question``, ``spec-compose-players``, ``spec-compose-preset``,
  ``spec-compose-hand``, ``spec-compose-v1``, ``spec-compose-v2``, ``spec-compose-dealer``,
  ``spec-compose-turn-up``, ``spec-compose-seats`` (rows ``spec-compose-seat``: ``spec-compose-up``,
  ``spec-compose-down``, ``spec-compose-stack``), ``spec-compose-dead``, ``spec-compose-holder``,
  ``spec-compose-paid``, ``spec-compose-pot``, ``spec-compose-due``, ``spec-compose-summary``,
  ``spec-compose-open``, ``spec-compose-message`` (+ ``spec-compose-error`` / ``spec-compose-ok``;
  a field it names: ``spec-compose-invalid``), ``spec-compose-title``, ``spec-compose-ask``,
  ``spec-compose-keep``, ``spec-compose-download`` (``a.spec-compose-file``),
  ``spec-compose-upload``
* the shared table, the teacher's side (``app/teacher/panel.py``, drawing
  ``classroom/host_session.py``): ``spec-table-slot`` (below the share slot: the
  ``spec-open-table`` opener over ``spec-table-box``, or the one line
  ``spec-host-unavailable``), ``spec-host`` (the panel), ``spec-device-memory`` (the host
  secret's keeper, hidden), ``spec-host-intro``, ``spec-host-start`` (``spec-host-open``,
  ``spec-host-teams``, ``spec-host-resume``, ``spec-host-join``), ``spec-host-resume-ask`` (the
  question before resuming over a game played here: ``spec-host-resume-ask-text``,
  ``spec-host-resume-ask-yes``, ``spec-host-resume-ask-no``), ``spec-host-table`` (all that shows once open),
  ``spec-host-head``, ``spec-host-where``, ``spec-host-code-label``, ``spec-host-code``,
  ``spec-host-link`` (``input.spec-host-address``, ``button.spec-host-copy``), ``spec-host-qr``,
  ``spec-host-turn-ask`` (issue 27: "It is Bob's turn: turn up for Bob?": ``spec-host-turn-ask-text``,
  ``spec-host-turn-ask-yes``, ``spec-host-turn-ask-no``),
  ``spec-host-status`` (+ ``spec-host-waiting`` when paused or looking back), ``spec-host-restored``
  (the table restored after a crash, and what was lost), ``spec-host-who-box`` (who is who:
  ``spec-host-show-who``, the check box that hides it, and ``spec-host-who``), ``spec-host-row``,
  ``spec-host-pause``, ``spec-host-export``, ``spec-host-close``, ``spec-host-confirm``
  (``spec-host-confirm-text``, ``spec-host-confirm-yes``, ``spec-host-confirm-no``),
  ``spec-host-download`` (``a.spec-host-file``), ``spec-host-title``, ``spec-host-seats`` (rows
  ``spec-host-seat``: ``spec-host-seat-label``, ``spec-host-take``, ``spec-host-computer``),
  ``spec-host-spectators``, ``spec-host-place-member``, ``spec-host-place-seat``,
  ``spec-host-place``, ``spec-host-ask``, ``spec-host-close-poll`` (Time is up),
  ``spec-host-reveal-poll``, ``spec-host-show-names``, ``spec-host-poll`` (the answers,
  :mod:`.poll_chart`), the answers to take home (``spec-host-answers-download``:
  ``spec-host-answers-one``, ``spec-host-answers-all``, ``spec-host-answers-names``) and the
  handout (``spec-host-handout``), a question deal (``spec-host-question-pick``,
  ``spec-host-question-open``, ``spec-host-question-end``, ``spec-host-question-table``),
  ``spec-host-message`` (+ ``spec-host-error``)
* the shared table, a student's screen (``app/student/screen.py``, drawing
  ``classroom/member_session.py``; root ``spec-member``, or
  ``spec-member-embedded`` shown in place of the app with ``spec-member-leave``):
  ``spec-address-bar`` (the page's address keeper, hidden), ``spec-member-top``, ``spec-member-title``,
  ``spec-member-slot``, ``spec-member-intro``,
  ``spec-member-join-box`` (``spec-member-row``: ``spec-member-code``, ``spec-member-look``,
  ``spec-member-name``, ``spec-member-seat``, ``spec-member-join``), ``spec-member-table-box``
  (``spec-member-banner``, ``spec-member-you`` holding ``spec-member-who`` and ``spec-member-last``,
  ``spec-member-hint``,
  ``spec-member-actions``: ``spec-member-next``, ``spec-member-offer``, ``spec-member-bid-amount``,
  ``spec-member-bid``, ``spec-member-withdraw``, ``spec-member-sell`` (one per buyer,
  ``spec-member-sell-<i>``), ``spec-member-decline``; ``spec-member-poll``:
  ``spec-member-poll-question``, ``spec-member-poll-price``, ``spec-member-poll-answer``;
  ``spec-member-table`` holding ``spec-member-board`` and ``spec-member-side``: ``spec-member-odds``,
  ``spec-member-seats``)

Note: :func:`~speculation_nb.rendering.cards.table_html` also marks the seat due to
reveal with ``spec-next`` and face-down piles with ``spec-back`` (SVG). Select
the buttons as ``button.spec-next`` / ``button.spec-back`` (or within
``.spec-controls``).
"""

from .model import Controller, Snapshot
from .player.screen import SpeculationApp, app, card_html, from_request, query_settings, read_query

__all__ = [
    "Controller",
    "Snapshot",
    "SpeculationApp",
    "app",
    "card_html",
    "from_request",
    "query_settings",
    "read_query",
]
