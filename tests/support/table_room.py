"""A class at a shared table, for tests: the teacher's projected app (a real
:class:`SpeculationApp` with its host panel, its table open on a :class:`MemoryStore`) and the
students' pages (:class:`MemberApp`). No event loop: the referee answers when the test says so
(:meth:`Class.serve`), and the pages then read the replies.
"""

from __future__ import annotations

from loops import in_thread

from speculation_nb.app import SpeculationApp
from speculation_nb.app.student.screen import WATCH, MemberApp
from speculation_nb.app.teacher.panel import HostPanel
from speculation_nb.classroom import MemoryStore
from speculation_nb.classroom.codes import new_token
from speculation_nb.classroom.referee import Referee

__all__ = ["Class"]


class Class:
    """The teacher's app with its table open, and students' pages."""

    def __init__(self, players: int = 4, teams: bool = False, store: MemoryStore | None = None) -> None:
        self.store = MemoryStore() if store is None else store
        self.app = SpeculationApp(
            table_store=self.store, players=players, seed=7, mode="classroom", charts="static", pace="instant"
        )
        self.app.hosting.toggle(True)
        panel = self.app.hosting.panel
        assert isinstance(panel, HostPanel)
        self.panel = panel
        panel.ui.teams.value = teams
        # Opened where no event loop runs (after the browser tests, Playwright's runs in this
        # thread), so the referee is not served by a task: the test answers by hand.
        assert in_thread(panel.open_table)
        referee = panel.session.referee
        assert referee is not None and panel.session.task is None  # no loop: answered by hand
        self.referee: Referee = referee
        self.pages: list[MemberApp] = []

    @property
    def c(self):  # type: ignore[no-untyped-def]
        return self.app.controller

    def serve(self) -> None:
        self.referee.handle_pending()
        for page in self.pages:
            page.refresh_from_store()

    def join(self, name: str, seat: int | None) -> MemberApp:
        page = MemberApp(code=self.referee.code, store=self.store, follow=False, page=new_token())
        self.pages.append(page)
        page.ui.member_name.value = name
        page.ui.member_seat.value = WATCH if seat is None else seat
        page.ui.member_join.click()
        self.serve()
        assert page.joined, page.ui.message.value
        return page

    def close(self) -> None:
        for page in self.pages:
            page.close()
        self.app.close()
