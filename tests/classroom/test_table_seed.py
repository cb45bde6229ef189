"""Hidden stays hidden (issue 27, item 1): no number the class can read rebuilds the table's deck.

A shared table deals from a secret seed, never the page's ``?seed=``: the teacher's app is made
here with ``seed=7`` (as from a link) and opens a table; a student joins and the teacher plays a
few cards. Then every number the class could read is tried as a seed (of a session, and of a
deal alone): every string in the state of every widget alive (the teacher's projected app and
panel, the student's page) and every record a student's kernel reads (meta, moment, events).
None may deal the table's cards; the table's own seed does (the test could catch it), and it is
told to the teacher when the table closes, and in the export.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any

import pytest
from ipywidgets.widgets.widget import _instances
from loops import in_thread

from speculation_nb import Game, Rules, Session
from speculation_nb.app import SpeculationApp
from speculation_nb.app.player.share_panel import SharePanel
from speculation_nb.app.student.screen import MemberApp
from speculation_nb.app.teacher.panel import HostPanel
from speculation_nb.classroom.stores.base import MemoryStore
from speculation_nb.engine.checks import MAX_SEED

#: Digits, with the separators a number may be written with in four languages.
NUMBER = re.compile(r"\d(?:[\d,.'\u00a0\u202f ]*\d)?")


def numbers(texts: Iterable[str]) -> set[int]:
    """Every whole number written in ``texts``: each run of digits, and each run joined across
    the separators of thousands (``210,413,331,223``; ``210.413.331.223``...)."""
    found: set[int] = set()
    for text in texts:
        for match in NUMBER.finditer(text):
            found.add(int(re.sub(r"\D", "", match.group())))
            found.update(int(d) for d in re.findall(r"\d+", match.group()))
    return {n for n in found if 0 <= n <= MAX_SEED}


def deck(game: Game) -> tuple[Any, ...]:
    """The order of every card of a deal (the piles, the turn-up, the dead pile, the stock)."""
    layout = game.layout()
    return tuple(json.dumps(layout.get(k), default=str) for k in ("piles", "turn_up", "dead", "stock"))


def rebuilds(n: int, rules: Rules, shuffled: tuple[Any, ...]) -> bool:
    """Whether ``n``, as a session's seed or as a deal's, deals the table's first deck."""
    return deck(Session(rules, seed=n).games[0]) == shuffled or deck(Game.deal(rules, seed=n)) == shuffled


def strings(value: Any) -> Iterable[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        yield str(value)
    elif isinstance(value, dict):
        for k, v in value.items():
            yield str(k)
            yield from strings(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from strings(v)


def page_texts() -> list[str]:
    """Every string and number in the state of every widget alive (what pages can read)."""
    out: list[str] = []
    for widget in list(_instances.values()):
        try:
            out.extend(strings(widget.get_state()))
        except Exception:  # a widget closing meanwhile
            continue
    return out


def class_records(store: MemoryStore, code: str) -> list[str]:
    """What a student's kernel reads of the table: meta, the moment and every event."""
    records: list[Any] = [store.get(code, "meta"), store.get(code, "moment")]
    records += [event for _n, event in store.read(code, "events", 0)]
    return list(strings(records))


@pytest.fixture(autouse=True)
def address(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SPECULATION_TABLE_ADDRESS", "http://127.0.0.1:8866/voila/render/speculation.ipynb")


def test_no_number_shown_to_the_class_rebuilds_the_tables_deck() -> None:
    in_thread(tried_every_number)


def tried_every_number() -> None:
    store = MemoryStore()
    app = SpeculationApp(table_store=store, players=4, seed=7, mode="classroom", charts="static", pace="instant")
    app.hosting.toggle(True)
    panel = app.hosting.panel
    assert isinstance(panel, HostPanel) and panel.open_table()
    referee = panel.session.referee
    assert referee is not None
    session = app.controller.session
    rules, shuffled = session.rules, deck(session.games[0])
    assert not rebuilds(7, rules, shuffled), "the table deals from the page's ?seed="
    assert rebuilds(session.seed, rules, shuffled), "the test must be able to catch a seed shown"

    share = SharePanel(app.controller)  # the teacher's share view, open on the projector
    assert share.hidden and share.save("session") == "" and share.link == ""

    student = MemberApp(referee.code, store=store, follow=False)
    student.ui.member_name.value = "Ana"
    student.join()
    referee.handle_pending()
    student.refresh_from_store()
    assert student.joined
    for _ in range(3):  # the teacher turns up a few cards for the seats due
        if not app.controller.game.over and app.controller.game.auction is None:
            app.controller.next_card()
    referee.handle_pending()
    student.refresh_from_store()

    shown = numbers(page_texts() + class_records(store, referee.code))
    assert len(shown) > 10  # the pages do show numbers: chips, versions, cards, the code's digits
    assert [n for n in sorted(shown) if rebuilds(n, rules, shuffled)] == []

    exported = json.loads(panel.session.export())
    assert exported["seed"] == session.seed
    panel.session.close_table()
    assert panel.session.notice.key == "class.host.closed_seed"
    assert panel.session.notice.params["seed"] == session.seed
    student.close()
    share.close()
    app.close()
