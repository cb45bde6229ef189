"""The teacher's game as the shared table's referee drives it: :class:`ControllerHost`.

The referee (:class:`speculation_nb.classroom.referee.Referee`) checks every student's request
(T3, T4) and then asks its host to act; this host is the app's own
:class:`~.controller.Controller`, so a student's bid is applied to the very game the teacher
projects, and the teacher's app redraws itself (the controller bumps its ``version``).

* ``session``, ``moment``, ``live``: the controller's (the moment shown, and whether it is now);
* ``act(seat, action)``: :meth:`Controller.act <.controller.Controller.act>` (the engine checks
  the action; a refusal raises :class:`~speculation_nb.IllegalAction` and changes nothing);
  ``seat`` is the requester's seat, already checked by the referee (T3);
* ``show_question(game, names)``: the question deal shown instead of the session's deal (issue 25,
  :meth:`Controller.show_question <.controller.Controller.show_question>`);
* ``show_names(names)``: the seats' names as the table publishes them (its students', a team's
  abbreviated), shown on every view of the teacher's app instead of the session's (issue 27: the
  projector and the phones name a seat alike), until the table is let go;
* ``set_computers(seats)``: :meth:`Controller.set_computer_seats
  <.controller.Controller.set_computer_seats>`, the seats computer players take (in classroom
  mode, at the app's pace, each turning up its own card when due).

A new table's game is a fresh session of the settings shown, dealt from a secret seed (issue
27: the page's ``?seed=`` would rebuild its cards). While the controller's mode is held the
app's header and share view show no seed, link or file of the session (``mode_held``).

A table is a classroom thing: making a host puts the controller in classroom mode (the teacher
drives every seat nobody else holds) and holds it there (T9: play mode would hand the students'
seats to computer players) until the table is let go (``controller.hold_mode(None)``).

:class:`AppTable` is the controller as the teacher's side of a table sees it (a
:class:`~speculation_nb.classroom.teacher_game.TableGame`, what
:class:`~speculation_nb.classroom.host_session.HostSession` drives): a host on the game shown, the
table's session shown instead when a table is resumed, and the controller's publishers.
"""

from __future__ import annotations

from collections.abc import Callable

from ...classroom.teacher_game import secret_session
from ...engine.actions import Action
from ...engine.game import Game
from ...engine.session import Session
from ..model import Controller

__all__ = ["MODE_HELD", "AppTable", "ControllerHost", "host_maker"]

#: Why the mode stays classroom while a table is open (a key of the catalogs).
MODE_HELD = "class.host.mode_held"


class ControllerHost:
    """The referee's ``Host`` on the app's controller (see the module docstring)."""

    def __init__(self, controller: Controller, session: Session | None = None) -> None:
        self.controller = controller
        if controller.mode != "classroom":
            controller.set_mode("classroom")
        controller.hold_mode(MODE_HELD)
        if session is not None:  # shown once the mode is held: the page never draws its seed
            controller.replace_session(session)

    @property
    def session(self) -> Session:
        return self.controller.session

    @property
    def moment(self) -> int:
        return self.controller.moment

    @property
    def live(self) -> bool:
        return self.controller.live

    def act(self, seat: int | None, action: Action) -> None:
        """A person's action at now (the referee checked who may take it)."""
        if action.kind == "reveal" and seat is not None:
            action = Action.make("reveal", seat=seat)  # P3: refused unless that seat is due
        self.controller.act(action)

    def set_computers(self, seats: frozenset[int]) -> None:
        self.controller.set_computer_seats(frozenset(seats))

    def show_names(self, names: list[str]) -> None:
        """The table's names of the seats, on every view of the teacher's app (issue 27)."""
        self.controller.show_seat_names(names)

    def show_question(self, game: Game | None, names: list[str]) -> None:
        """The question deal the class sees, on every view of the teacher's app instead of the
        session's deal (issue 25: one moment, one price on the projector); None: the deal again."""
        self.controller.show_question(game, names)


def host_maker(controller: Controller) -> Callable[[Session], ControllerHost]:
    """What :meth:`Referee.resume` needs: the table's session shown in ``controller``, as a host."""

    def make(session: Session) -> ControllerHost:
        return ControllerHost(controller, session)

    return make


class AppTable:
    """The app's controller as a :class:`~speculation_nb.classroom.teacher_game.TableGame`."""

    def __init__(self, controller: Controller) -> None:
        self.controller = controller

    @property
    def started(self) -> bool:
        return self.controller.started

    def host(self) -> ControllerHost:
        """A new table: the controller shows a session of its settings dealt from a secret seed
        (:func:`~speculation_nb.classroom.teacher_game.secret_session`), then hosts it."""
        return host_maker(self.controller)(secret_session(self.controller.session))

    def host_for(self, session: Session) -> ControllerHost:
        return host_maker(self.controller)(session)

    def attach(self, publish: Callable[[], None]) -> None:
        self.controller.add_publisher(publish)

    def detach(self, publish: Callable[[], None]) -> None:
        self.controller.remove_publisher(publish)
        self.controller.hold_mode(None)
        self.controller.show_seat_names(None)
        self.controller.show_question(None)
        self.controller.table_check = None

    def guard(self, check: Callable[[str, int | None], None] | None) -> None:
        """The table's check of the teacher's presses (issue 27): the controller asks it first."""
        self.controller.table_check = check
