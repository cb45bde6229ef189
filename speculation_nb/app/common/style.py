"""All the app's CSS, in one place, scoped under ``.spec-app``.

Made for a projector: big type, strong contrast, and for 1280 x 800 first (the
table, the controls, the odds and both charts above the fold), still usable at
1024 wide (the odds column narrows, the seats wrap). Below 760 px wide (a phone)
it is one column, in the order of ``/work/shared/UI.md``: the headline, the
controls, the seats, the odds and charts, the log and standings, the settings;
nothing is wider than the screen. On touch screens every button is at least
44 px tall. Every focusable thing shows a 3 px focus ring.
"""

CSS = r"""
.spec-app {
  --spec-navy: #1f3a68;
  --spec-blue: #2e6fd8;
  --spec-gold: #d4a017;
  --spec-cream: #f7f5ef;
  --spec-ink: #1c1c1c;
  --spec-muted: #5b6270;
  font-family: Helvetica, Arial, "DejaVu Sans", sans-serif;
  color: var(--spec-ink);
  background: #ffffff;
  max-width: 1400px;
  margin: 0 auto;
  padding: 6px 10px 12px 10px;
  box-sizing: border-box;
  font-size: 16px;
}
.spec-app .widget-html-content { font-size: inherit; line-height: 1.3; }
.spec-app .widget-html, .spec-app .widget-label { margin: 0; }

/* ---------------------------------------------------------------- top bar */
.spec-app .spec-topbar {
  align-items: center; gap: 10px; padding: 3px 12px; border-radius: 10px;
  background: var(--spec-navy); color: #fff; margin-bottom: 6px; flex-wrap: wrap;
}
.spec-app .spec-title .widget-html-content {
  font-size: 26px;
  font-weight: 700;
  letter-spacing: 0.5px;
  color: #fff;
  font-family: Georgia, "DejaVu Serif", serif;
}
.spec-app .spec-deal-info { flex: 1 1 0; min-width: 0; }
.spec-app .spec-seed, .spec-app .spec-new-deal, .spec-app .spec-title { flex: 0 0 auto; }
.spec-app .spec-deal-info .widget-html-content { font-size: 17px; color: #e8edf6; white-space: normal; }
.spec-app .spec-deal-info b { color: #fff; }
.spec-app .spec-seed { width: 150px; }
.spec-app .spec-seed input { font-size: 16px; height: 34px; }

/* ---------------------------------------------------------------- message */
.spec-app .spec-message { margin: 0 0 6px 0; }
.spec-app .spec-message .widget-html-content {
  font-size: 18px; padding: 5px 14px; border-radius: 8px; background: #eef2f7; color: #1c2a44;
  white-space: nowrap; overflow: hidden; text-overflow: ellipsis;
}
.spec-app .spec-message-error .widget-html-content {
  background: #fde8e6;
  color: #8a1f11;
  border-left: 6px solid #c0392b;
}
.spec-app .spec-message-ok .widget-html-content {
  background: #fff4cc;
  color: #5a4500;
  border-left: 6px solid var(--spec-gold);
}
.spec-app .spec-message-past .widget-html-content {
  background: #ece8f7;
  color: #3a2a6a;
  border-left: 6px solid #6a55b5;
}

/* ---------------------------------------------------------------- columns */
.spec-app .spec-main { align-items: flex-start; gap: 12px; flex-wrap: nowrap; }
.spec-app .spec-left { flex: 1 1 auto; min-width: 0; gap: 6px; }
.spec-app .spec-odds {
  flex: 0 0 432px; width: 432px; gap: 0; padding: 6px 10px 6px 10px; border-radius: 12px;
  background: #ffffff; border: 2px solid #dfe4ec; box-shadow: 0 2px 8px rgba(20, 40, 80, 0.08);
  box-sizing: border-box;
}

/* ------------------------------------------------------------------ table */
.spec-app .spec-table-view .widget-html-content { overflow: visible; }
.spec-app .spec-table-past .spec-table { opacity: 0.93; }
.spec-app .spec-table-past .spec-header { background: #ece8f7 !important; }

/* --------------------------------------------------------------- controls */
.spec-app .spec-controls { gap: 8px; flex-wrap: wrap; align-items: center; margin-top: 2px; }
.spec-app .spec-button { height: 44px; font-size: 18px; padding: 0 16px; border-radius: 8px; width: auto; }
.spec-app .spec-button.mod-primary, .spec-app .jupyter-button.mod-primary { background: var(--spec-blue); }
.spec-app button.spec-next { font-size: 20px; font-weight: 700; padding: 0 26px; min-width: 190px; }
.spec-app button.spec-now-alert:enabled { background: #6a55b5; color: #fff; font-weight: 700; }
.spec-app .spec-timeline-row { align-items: center; gap: 10px; }
.spec-app .spec-timeline { flex: 1 1 auto; width: auto; }
.spec-app .spec-timeline .slider-container { margin-left: 8px; }
.spec-app .spec-timeline-label .widget-html-content { font-size: 16px; color: var(--spec-muted); white-space: nowrap; }

/* ---------------------------------------------------------------- auction */
.spec-app .spec-auction {
  gap: 6px;
  padding: 8px 10px;
  border-radius: 10px;
  background: #fbf7ea;
  border: 2px solid #ecdca6;
  margin-top: 6px;
}
.spec-app .spec-auction-idle { background: transparent; border: none; padding: 0; }
.spec-app .spec-auction-idle button.spec-open-auction { width: 100%; }
.spec-app .spec-chart-ipympl .jupyter-matplotlib-canvas-div canvas + canvas { /* ipympl's resize handle */
  opacity: 0;
}
.spec-app .spec-auction-title .widget-html-content {
  font-size: 18px;
  font-weight: 700;
  white-space: normal;
  line-height: 1.2;
}
.spec-app .spec-auction-table table { border-collapse: collapse; font-size: 16px; width: 100%; }
.spec-app .spec-auction-table th {
  text-align: left;
  font-weight: 600;
  color: var(--spec-muted);
  padding: 2px 6px 2px 0;
  font-size: 13px;
  line-height: 1.15;
  vertical-align: bottom;
}
.spec-app .spec-auction-table td { padding: 3px 6px 3px 0; border-top: 1px solid #eadfbd; }
.spec-app .spec-auction-table tr.spec-best-offer td { font-weight: 700; background: #fff1c2; }
.spec-app .spec-auction-table .spec-num { text-align: right; font-variant-numeric: tabular-nums; }
.spec-app .spec-bid-row, .spec-app .spec-decide-row, .spec-app .spec-trade-row {
  gap: 8px;
  align-items: center;
  flex-wrap: wrap;
}
.spec-app .spec-bid-seat, .spec-app .spec-accept-seat, .spec-app .spec-trade-buyer, .spec-app .spec-trade-seller {
  width: auto;
}
.spec-app .spec-bid-seat select, .spec-app .spec-accept-seat select,
.spec-app .spec-trade-buyer select, .spec-app .spec-trade-seller select { font-size: 16px; height: 40px; }
.spec-app .spec-bid-amount, .spec-app .spec-trade-count, .spec-app .spec-trade-price { width: 135px; }
.spec-app .spec-auction label, .spec-app .spec-trade-row label { font-size: 15px; }
.spec-app .spec-bid-amount input, .spec-app .spec-trade-count input, .spec-app .spec-trade-price input {
  font-size: 18px;
  height: 40px;
}
.spec-app .spec-bid-amount label, .spec-app .spec-trade-count label, .spec-app .spec-trade-price label {
  font-size: 16px;
}
.spec-app .spec-trade-row { padding: 6px 10px; border-radius: 10px; background: #f1f6ee; border: 2px solid #cfe0c4; }

/* --------------------------------------------------------- log, standings */
.spec-app .spec-bottom { gap: 10px; align-items: stretch; }
.spec-app .spec-log { flex: 3 1 0; min-width: 0; }
.spec-app .spec-standings { flex: 2 1 0; min-width: 200px; }
.spec-app .spec-log .widget-html-content, .spec-app .spec-standings .widget-html-content {
  border-radius: 10px; background: var(--spec-cream); padding: 8px 12px; height: 100%; box-sizing: border-box;
}
.spec-app .spec-box-title {
  font-size: 14px;
  font-weight: 700;
  text-transform: uppercase;
  letter-spacing: 1px;
  color: var(--spec-muted);
  margin-bottom: 4px;
}
.spec-app .spec-log ol {
  margin: 0;
  padding: 0 0 0 4px;
  list-style: none;
  max-height: 150px;
  overflow-y: auto;
  font-size: 16px;
}
.spec-app .spec-log li { padding: 2px 0; border-bottom: 1px solid #ebe6d8; white-space: normal; }
.spec-app .spec-log li.spec-log-new { font-weight: 700; }
.spec-app .spec-log li.spec-log-later { color: #a3a3a3; }
.spec-app .spec-standings table { border-collapse: collapse; width: 100%; font-size: 16px; }
.spec-app .spec-standings td { padding: 2px 6px 2px 0; }
.spec-app .spec-standings td.spec-num { text-align: right; font-variant-numeric: tabular-nums; }
.spec-app .spec-standings .spec-lead td { font-weight: 700; }
.spec-app .spec-up-chips { color: #1e7a3c; }
.spec-app .spec-down-chips { color: #a33224; }
.spec-app .spec-card-text { font-weight: 700; white-space: nowrap; }
.spec-app .spec-red { color: #c0392b; }
.spec-app .spec-black { color: #1c1c1c; }

/* -------------------------------------------------------------- odds hero */
.spec-app .spec-hold-label .widget-html-content { font-size: 16px; color: var(--spec-muted); white-space: normal; }
.spec-app .spec-hold-label b { color: var(--spec-ink); }
.spec-app .spec-hold-pct .widget-html-content {
  font-size: 72px; font-weight: 800; line-height: 1.0; color: var(--spec-navy); letter-spacing: -1px;
  font-variant-numeric: tabular-nums; padding: 2px 0 2px 0;
}
.spec-app .spec-hold-pct.spec-settled .widget-html-content { color: #6b6b6b; }
.spec-app .spec-math { gap: 8px; align-items: baseline; flex-wrap: wrap; }
.spec-app .spec-hold-formula .widget-html-content, .spec-app .spec-hold-fraction .widget-html-content {
  font-size: 20px; font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; color: #22324f; white-space: nowrap;
}
.spec-app .spec-hold-fraction .widget-html-content { font-weight: 700; }
.spec-app .spec-hold-legend .widget-html-content { font-size: 14px; color: var(--spec-muted); white-space: normal; }
.spec-app .spec-hold-words .widget-html-content {
  font-size: 15px;
  white-space: normal;
  color: #2b2b2b;
  padding: 2px 0;
  line-height: 1.25;
}
.spec-app .spec-money { gap: 10px; margin: 2px 0 0 0; }
.spec-app .spec-expected-pot, .spec-app .spec-fair-price { flex: 1 1 0; }
.spec-app .spec-expected-pot .widget-html-content, .spec-app .spec-fair-price .widget-html-content {
  font-size: 15px; color: var(--spec-muted); background: #f3f5f9; border-radius: 8px; padding: 2px 10px;
  white-space: normal;
}
.spec-app .spec-money b { font-size: 26px; color: var(--spec-ink); }
.spec-app .spec-chart-title .widget-html-content {
  font-size: 14px;
  font-weight: 700;
  color: var(--spec-muted);
  margin-top: 6px;
  text-transform: uppercase;
  letter-spacing: 0.6px;
  white-space: nowrap;
  overflow: hidden;
  text-overflow: ellipsis;
}
.spec-app .spec-chart { margin: 0; }
.spec-app .spec-chart-box { position: relative; overflow: visible; margin: 2px 0 0 0; }
.spec-app .spec-chart-overlay {
  position: absolute;
  left: 0;
  top: 0;
  margin: 0;
  pointer-events: none;
  overflow: visible;
}
.spec-app .spec-chart-overlay .widget-html-content { position: static; overflow: visible; }
.spec-app .spec-chart-label {
  position: absolute; transform: translate(-50%, -100%); padding-bottom: 3px; white-space: nowrap;
  font-size: 15px; font-weight: 700; line-height: 1; color: #1c1c1c; font-variant-numeric: tabular-nums;
}
.spec-app .spec-chart-label.spec-chart-gold { font-size: 17px; color: #7a5a00; }
.spec-app .spec-hold-chart-box .spec-chart-label { transform: translate(-50%, -100%) translateY(-5px); }

/* --------------------------------------------------------------- settings */
.spec-app .spec-settings { margin-top: 10px; }
.spec-app .spec-settings .jupyter-widget-Collapse-header, .spec-app .spec-settings .p-Collapse-header,
.spec-app .spec-settings .lm-Collapse-header { font-size: 17px; font-weight: 600; }
.spec-app .spec-settings-grid { grid-gap: 8px 18px; grid-template-columns: repeat(auto-fill, minmax(300px, 1fr)); }
.spec-app .spec-settings-grid .widget-label { font-size: 15px; }
.spec-app .spec-names { grid-gap: 4px 12px; grid-template-columns: repeat(auto-fill, minmax(220px, 1fr)); }
.spec-app .spec-settings-note .widget-html-content { font-size: 14px; color: var(--spec-muted); white-space: normal; }
.spec-app .spec-settings-group .widget-html-content {
  font-size: 15px;
  font-weight: 700;
  color: var(--spec-navy);
  margin-top: 6px;
}

.spec-app .spec-math-long .spec-hold-formula .widget-html-content,
.spec-app .spec-math-long .spec-hold-fraction .widget-html-content { font-size: 15px; }

/* The auction in the odds column: its rows fit the column's width (410 px) without wrapping. */
.spec-app .spec-auction { gap: 4px; padding: 6px 8px; }
.spec-app .spec-auction .spec-button { height: 40px; font-size: 16px; padding: 0 10px; }
.spec-app .spec-auction-table td { padding: 2px 6px 2px 0; }
.spec-app .spec-bid-row, .spec-app .spec-decide-row { gap: 6px; }
.spec-app .spec-auction .spec-bid-amount { width: 96px; }
.spec-app .spec-auction .spec-bid-amount input { font-size: 17px; }
.spec-app .spec-auction select { font-size: 15px; }
.spec-app .spec-bid-hint { flex: 1 1 100%; }
.spec-app .spec-auction .widget-inline-hbox, .spec-app .spec-trade-row .widget-inline-hbox { align-items: center; }
.spec-app .spec-auction .widget-label, .spec-app .spec-trade-row .widget-label { line-height: 1.2; height: auto; }
.spec-app .spec-bid-hint .widget-html-content { font-size: 13px; line-height: 1.1; }

/* ----------------------------------------------------------- keyboard, readers */
.spec-app :focus-visible, .spec-app input:focus, .spec-app select:focus,
.spec-app [tabindex]:focus-visible {
  outline: 3px solid #d35400 !important; outline-offset: 2px; box-shadow: 0 0 0 5px #ffffff;
}
.spec-app .spec-topbar :focus-visible, .spec-app .spec-topbar input:focus {
  outline-color: #ffbf47 !important; box-shadow: none;
}
.spec-app .spec-sr-only, .spec-app .spec-chart-alt, .spec-app .spec-keys {
  position: absolute !important; width: 1px !important; height: 1px !important; padding: 0 !important;
  margin: -1px !important; overflow: hidden !important; clip: rect(0 0 0 0) !important; white-space: nowrap; border: 0;
}
.spec-app .spec-keys-help .widget-html-content { font-size: 13px; color: var(--spec-muted); white-space: normal; }
.spec-app .spec-keys-help kbd {
  display: inline-block; min-width: 1.3em; text-align: center; padding: 0 4px; border: 1px solid #b9c0cc;
  border-bottom-width: 2px; border-radius: 4px; background: #f6f7f9; font-family: inherit; font-size: 12px;
  color: var(--spec-ink);
}
.spec-app .spec-settings .jupyter-widget-Collapse-header { cursor: pointer; }
/* No scroll container around the charts: Chrome would make it a tab stop. */
.spec-app .spec-charts, .spec-app .spec-chart-box, .spec-app .spec-odds { overflow: visible; }
.spec-app .spec-charts .jupyter-matplotlib-toolbar, .spec-app .spec-charts .jupyter-matplotlib-header,
.spec-app .spec-charts .jupyter-matplotlib-footer { display: none !important; }

/* ------------------------------------------------------- headline, confirm */
.spec-app .spec-headline { display: none; }
.spec-app .spec-headline .widget-html-content {
  font-size: 17px;
  white-space: normal;
  line-height: 1.3;
  padding: 2px 4px;
}
.spec-app .spec-confirm { margin: 0 0 6px 0; } /* the header's question row; its look: confirm.CSS (.spec-ask) */
.spec-app .spec-message-auto .widget-html-content {
  background: #e8f1fd;
  color: #12346a;
  border-left: 6px solid var(--spec-blue);
}

/* ------------------------------------------------------------- explanations */
.spec-app .spec-fair-note .widget-html-content, .spec-app .spec-price-note .widget-html-content {
  font-size: 13px; color: var(--spec-muted); white-space: normal; line-height: 1.25; padding: 2px 0 0 0;
}
.spec-app .spec-bid-hint .widget-html-content { font-size: 14px; color: var(--spec-muted); white-space: nowrap; }
.spec-app .spec-log-why { font-size: 14px; font-weight: 400; color: #5a4500; padding-left: 10px; }
.spec-app .spec-field { gap: 0; }
.spec-app .spec-help .widget-html-content {
  font-size: 13px;
  color: var(--spec-muted);
  white-space: normal;
  line-height: 1.25;
  margin: 0 0 4px 4px;
}
.spec-app .spec-hoyle-note .widget-html-content {
  font-size: 14px; white-space: normal; background: #fff4cc; border-left: 6px solid var(--spec-gold);
  padding: 4px 10px; border-radius: 6px;
}

/* Touch screens: every button at least 44 px tall, every field easy to hit. */
@media (pointer: coarse) {
  .spec-app .spec-button, .spec-app button { min-height: 44px; }
  .spec-app .spec-auction .spec-button { height: 44px; }
  .spec-app input, .spec-app select { min-height: 40px; }
}

/* Narrow screens (1024 wide): smaller seats, so three fit in a row beside the odds. */
@media (max-width: 1150px) {
  .spec-app .spec-odds { flex-basis: 400px; width: 400px; }
  .spec-app .spec-chart-box { zoom: 0.92; }
  .spec-app .spec-table .spec-seat {
    flex: 1 1 150px !important;
    min-width: 145px !important;
    padding: 6px 8px !important;
  }
  .spec-app .spec-table .spec-header { gap: 6px 14px !important; padding: 6px 10px !important; }
  .spec-app .spec-table svg.spec-card, .spec-app .spec-table svg.spec-back { width: 44px; height: auto; }
  .spec-app .spec-table .spec-name { font-size: 19px !important; }
  .spec-app button.spec-next { min-width: 0; padding: 0 12px; font-size: 18px; }
  .spec-app .spec-button { padding: 0 8px; font-size: 16px; }
  .spec-app .spec-controls { gap: 6px; }
  .spec-app .spec-hold-pct .widget-html-content { font-size: 64px; }
  .spec-app .spec-hold-formula .widget-html-content, .spec-app .spec-hold-fraction .widget-html-content {
    font-size: 17px;
  }
  .spec-app .spec-bid-amount { width: 120px; }
  .spec-app .spec-auction .spec-button { height: 38px; }
}

/* Phones (below 760 px): one column, in the order of UI.md; nothing wider than the screen. */
@media (max-width: 760px) {
  /* The page around the app (Voila, JupyterLab): no margins eaten from a narrow screen. */
  .lm-BoxPanel-child:has(.spec-app), .jp-Cell:has(.spec-app) {
    padding-left: 0 !important;
    padding-right: 0 !important;
  }
  .jp-OutputArea-output:has(> .spec-app) { margin-left: 0 !important; margin-right: 0 !important; }
  .spec-app { padding: 4px 4px 10px 4px; max-width: 100vw; overflow-x: hidden; }
  .spec-app .spec-odds { padding: 6px 8px; }
  .spec-app .widget-box, .spec-app .widget-html, .spec-app .widget-html-content { max-width: 100%; min-width: 0; }
  .spec-app .spec-topbar { padding: 2px 8px; gap: 6px; flex-wrap: wrap; }
  .spec-app .spec-title .widget-html-content { font-size: 19px; }
  .spec-app .spec-deal-info { flex: 1 1 100%; order: 5; }
  .spec-app .spec-deal-info .widget-html-content { font-size: 14px; }
  .spec-app .spec-seed { width: auto; flex: 1 1 70px; min-width: 70px; }
  .spec-app .spec-seed input { height: 40px; }
  .spec-app button.spec-new-session { flex: 0 0 auto; padding: 0 8px; font-size: 15px; }
  .spec-app .spec-headline { display: flex; }
  .spec-app .spec-message .widget-html-content { white-space: normal; font-size: 16px; padding: 4px 10px; }
  .spec-app .spec-main { flex-direction: column; flex-wrap: nowrap; align-items: stretch; gap: 8px; }
  .spec-app .spec-left { display: contents; }
  .spec-app .spec-controls { order: 1; }
  .spec-app .spec-timeline-row { order: 2; }
  .spec-app .spec-keys-help { order: 3; }
  .spec-app .spec-trade-row { order: 4; }
  .spec-app .spec-table-view { order: 5; }
  .spec-app .spec-odds { order: 6; flex: 0 0 auto; width: 100%; max-width: 100%; }
  .spec-app .spec-odds-slot { order: 7; }
  .spec-app .spec-bottom { order: 8; flex-direction: column; }
  .spec-app .spec-standings { min-width: 0; }
  .spec-app .spec-controls .spec-button { flex: 1 1 auto; min-height: 44px; }
  .spec-app button.spec-next, .spec-app button.spec-new-deal { flex: 1 1 100%; min-width: 0; }
  .spec-app .spec-table .spec-header { display: none !important; }
  .spec-app .spec-table .spec-seat { flex: 1 1 140px !important; min-width: 0 !important; padding: 4px 6px !important; }
  .spec-app .spec-table svg.spec-card, .spec-app .spec-table svg.spec-back { width: 38px; height: auto; }
  .spec-app .spec-table .spec-name { font-size: 17px !important; }
  .spec-app .spec-hold-pct .widget-html-content { font-size: 52px; }
  .spec-app .spec-hold-formula .widget-html-content, .spec-app .spec-hold-fraction .widget-html-content {
    font-size: 16px;
    white-space: normal;
  }
  .spec-app .spec-money { flex-wrap: wrap; }
  .spec-app .spec-chart-box { zoom: 1; }
  .spec-app .spec-settings-grid, .spec-app .spec-names { grid-template-columns: minmax(0, 1fr); }
  .spec-app .spec-settings-grid .widget-inline-hbox, .spec-app .spec-names .widget-inline-hbox {
    flex-wrap: wrap;
    width: 100%;
  }
  .spec-app .widget-inline-hbox .widget-label { max-width: 100%; }
  .spec-app .spec-bid-row, .spec-app .spec-decide-row { flex-wrap: wrap; }
  .spec-app .spec-bid-amount { width: 120px; }
  .spec-app .spec-auction-table table { font-size: 15px; }
}
/* The charts are drawn 410 px wide: smaller screens show them smaller (zoom keeps the labels in place). */
@media (max-width: 440px) { .spec-app .spec-chart-box { zoom: 0.94; } }
@media (max-width: 414px) { .spec-app .spec-chart-box { zoom: 0.88; } }
@media (max-width: 389px) { .spec-app .spec-chart-box { zoom: 0.82; } }
@media (max-width: 370px) { .spec-app .spec-chart-box { zoom: 0.78; } }
@media (max-width: 345px) { .spec-app .spec-chart-box { zoom: 0.72; } }
"""
