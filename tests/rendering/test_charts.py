"""The odds panel's charts: O2 (every seat's chance of the pot) as bars and O1 (the chance the
best trump holds) over the deal, drawn as SVG by default and with matplotlib on request.

The SVG is read back as XML: what is drawn (bar heights, points, colours) is checked against
the odds module for the deal shown, and against the matplotlib charts' geometry."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from fractions import Fraction

import pytest

from speculation_nb import Rules, odds
from speculation_nb.app import SpeculationApp, query_settings
from speculation_nb.app.player.svg_charts import Axes, SvgHoldChart, SvgWinChart
from speculation_nb.languages.translator import translator
from speculation_nb.rendering import chart_style
from speculation_nb.rendering.chart_style import BLUE, GOLD, GREY, NAVY, chart_backend

SVG = "{http://www.w3.org/2000/svg}"
T = translator("en")


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg" and root.get("aria-hidden") == "true"  # the numbers are text elsewhere
    return root


def bars(svg: str) -> list[tuple[float, float, str]]:
    """(height px, bottom px, colour) of each bar."""
    return [
        (float(r.get("height", 0)), float(r.get("y", 0)) + float(r.get("height", 0)), r.get("fill", ""))
        for r in parse(svg).iter(f"{SVG}rect")
    ]


def words(svg: str) -> list[str]:
    return ["".join(t.itertext()) for t in parse(svg).iter(f"{SVG}text")]


def test_chart_backend_choices(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.delenv("SPECULATION_CHARTS", raising=False)
    assert chart_backend() == "svg" and chart_backend("static") == "static"
    monkeypatch.setenv("SPECULATION_CHARTS", "static")
    assert chart_backend() == "static" and chart_backend("svg") == "svg"
    monkeypatch.setenv("SPECULATION_CHARTS", "nonsense")
    assert chart_backend() == "svg"
    with pytest.raises(ValueError, match="not 'png'"):
        chart_backend("png")
    monkeypatch.setattr(chart_style, "_imports", lambda name: False)  # a page without matplotlib
    assert chart_backend("ipympl") == "svg" and chart_backend("static") == "svg"
    assert query_settings("charts=svg") == {"charts": "svg"}


def test_o2_bars_are_the_win_probabilities_with_the_holder_gold():
    a = SpeculationApp(players=4, seed=6, mode="classroom", charts="svg")
    for _ in range(3):
        a.ui.next.click()
    game = a.controller.game
    win = odds.win_probabilities(game)
    drawn = bars(a.win_chart.svg)
    assert len(drawn) == 4
    full = a.win_chart.height_px * 0.70  # the plot's height: a bar of probability 1
    for seat, (height, bottom, colour) in enumerate(drawn):
        assert height == pytest.approx(float(win[seat]) * full, abs=0.11)
        assert bottom == pytest.approx(drawn[0][1], abs=0.11)
        assert colour == (GOLD if seat == game.holder else BLUE)
    labels = a.ui.win_labels.value
    assert all(T.percent(win[s]) in labels for s in range(4))
    assert labels.count("spec-chart-gold") == 1
    assert words(a.win_chart.svg) == list(a.controller.names)
    a.close()


def test_o2_a_pot_carried_over_is_a_grey_bar():
    a = SpeculationApp(rules=Rules(players=3, dead_hand=True), seed=2, mode="classroom", charts="svg")
    drawn = bars(a.win_chart.svg)
    assert len(drawn) == 4 and drawn[3][2] == GREY
    assert words(a.win_chart.svg)[-1] == T("chart.win.carried")
    a.close()


def test_names_are_escaped_and_cut_to_fit_under_their_bar():
    chart = SvgWinChart()
    evil = "<img src=x onerror=alert(1)>"
    chart.update([evil, "Mary Crawford", "Bartholomew"], [Fraction(1, 3)] * 3, 0, T)
    assert "<img" not in chart.svg and "<img" not in chart.overlay.value
    names = words(chart.svg)
    assert names[0].startswith("<img") and names[1] == "MaryCrawford"  # two lines: "Mary", "Crawford"
    eight = SvgWinChart()
    eight.update(["Bartholomew Featherstonehaugh"] * 8, [Fraction(1, 8)] * 8, None, T)
    assert chart_style.name_limit(8) == (8.0, 6)  # 8-point names, six characters under each bar
    lines = [line.text or "" for text in parse(eight.svg).iter(f"{SVG}text") for line in text]
    assert lines == ["Barth…", "Feath…"] * 8


def test_o1_line_has_a_point_per_moment_and_the_moment_shown_ringed():
    a = SpeculationApp(players=4, seed=6, mode="classroom", charts="svg")
    for _ in range(4):
        a.ui.next.click()
    root = parse(a.hold_chart.svg)
    circles = list(root.iter(f"{SVG}circle"))
    points = a.controller.hold_points(a.controller.last)
    assert len(circles) == len(points) + 1  # a dot per point, and the ring of the moment shown
    assert circles[-1].get("fill") == GOLD and circles[-1].get("stroke") == NAVY
    total = 4 * a.controller.rules.hand_size
    axes = Axes((0.115, 0.25, 0.865, 0.64), (-0.4, total + 0.6), (-0.05, 1.07))
    last = points[-1]
    turned_up = sum(1 for action in a.controller.game.history[: last.step] if action.kind == "reveal")
    assert float(circles[-1].get("cx", 0)) == pytest.approx(axes.x(turned_up), abs=0.06)
    hold = float(odds.hold_probability(a.controller.game))
    assert float(circles[-1].get("cy", 0)) == pytest.approx(axes.y(hold), abs=0.06)
    assert not [p for p in root.iter(f"{SVG}path") if p.get("stroke-dasharray")]  # nothing later to show
    a.ui.back.click()
    a.ui.back.click()
    dashed = [p for p in parse(a.hold_chart.svg).iter(f"{SVG}path") if p.get("stroke-dasharray")]
    assert len(dashed) == 1 and dashed[0].get("stroke") == GREY  # the rest of the deal, in a replay
    a.close()


@pytest.mark.parametrize("lang", ["en", "de"])
def test_o1_axis_words_are_in_the_language(lang: str):
    t = translator(lang)
    chart = SvgHoldChart()
    chart.update([0, 1], [Fraction(1, 3), Fraction(1, 2)], ["7♥", None], ([], []), t, 15)
    shown = words(chart.svg)
    assert [t.percent(0, 0), t.percent(Fraction(1, 2), 0), t.percent(1, 0)] == shown[:3]
    assert shown[-1] == t("chart.hold.xlabel")
    assert 'class="spec-chart-label spec-red"' in chart.overlay.value and "7♥" in chart.overlay.value


def test_the_svg_labels_sit_where_the_matplotlib_charts_put_them():
    """One geometry: the numbers over the bars and the cards on the line are at the same places."""
    svg = SpeculationApp(players=5, seed=11, mode="classroom", charts="svg")
    mpl = SpeculationApp(players=5, seed=11, mode="classroom", charts="static")
    for _ in range(3):
        svg.ui.next.click()
        mpl.ui.next.click()
    assert svg.ui.win_labels.value == mpl.ui.win_labels.value
    assert svg.ui.hold_labels.value == mpl.ui.hold_labels.value
    svg.close()
    mpl.close()


def test_an_unchanged_chart_sends_nothing():
    chart = SvgWinChart()
    sent: list[str] = []
    chart.update(["A", "B", "C"], [Fraction(1, 2), Fraction(1, 4), Fraction(1, 4)], 0, T)
    chart.widget.observe(lambda change: sent.append(change["name"]), names="value")
    chart.overlay.observe(lambda change: sent.append(change["name"]), names="value")
    chart.update(["A", "B", "C"], [Fraction(1, 2), Fraction(1, 4), Fraction(1, 4)], 0, T)
    assert sent == []
