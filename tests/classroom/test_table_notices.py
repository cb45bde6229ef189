"""Issue 27: what a table has to say reaches every page.

* The table was restored (its store went back after a crash; ``Referee.restored``, the
  ``{"kind": "restored"}`` event): the teacher's page says so with what was lost, and every
  student's page says so too.
* A store that fails under a live table (corrupted, unreachable) is said on the teacher's page,
  not only to new students ("needs a server").
* A request whose page was told "did not answer in time: try again" is never applied after all:
  it carries its deadline, and the referee drops (and logs) a request past it; on SQLite and on a
  real redis-server too.
"""

from __future__ import annotations

import copy
import html
import re

import pytest
from loops import run_loop
from table_room import Class

from speculation_nb.languages.translator import translator

T = translator("en")


def text(value: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", value)).split())


@pytest.fixture(autouse=True)
def known_deal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SPECULATION_TABLE_SEED", "7")


# ------------------------------------------------------------------ the table restored
def test_issue27_a_restored_table_is_said_on_the_teachers_page_and_every_students() -> None:
    room = Class()
    try:
        store, code = room.store, room.referee.code
        bob = room.join("Bob", room.c.game.turn)
        cy = room.join("Cy", None)
        assert not room.panel.ui.restored.value and room.panel.ui.restored.layout.display == "none"
        older = copy.deepcopy(store._tables[code])  # what a crash would bring back
        room.join("Alice", (room.c.game.turn + 1) % 4)  # a join and a moment the crash will lose
        store._tables[code] = older  # the crash: the store restarts from the older copy
        room.serve()  # the referee notices (its cursor is past the store's requests) and says so
        restored = room.referee.restored
        assert restored is not None and restored.requests == 1
        said = text(room.panel.ui.restored.value)
        assert said == T("table.restored.teacher", requests="1", events=str(restored.events))
        assert room.panel.ui.restored.layout.display != "none"
        for page in (bob, cy):
            events: list[dict[str, object]] = []
            for _ in range(200):  # the events it finds, then an idle look, when it reads the meta
                found = run_loop(lambda page=page: page.member.updates(timeout=0.05))
                events += found
                if not found:
                    break
            assert {"kind": "restored"} in events
            page.session.take_events(events)
            page.refresh_from_store()
            assert T("table.restored.student") in text(page.ui.member_banner.value)
            assert page.ui.member_banner.layout.display != "none"
    finally:
        room.close()
