"""The shared table on JupyterHub: a teacher's server referees, a student's server joins, through Redis.

The hub runs deploy/jupyterhub_config.py exactly as tests/browser/test_jupyterhub.py starts it (its
helpers: a plain local process per user, loopback ports, the proxy from deploy/.proxy), with a
real Redis (``redis_server``, the ACL users of deploy/README.md) given to it as
``SPECULATION_REDIS_REFEREE`` and ``SPECULATION_REDIS_STUDENT``, and a ``teacher`` account
(``SPECULATION_TEACHER_PASSWORD``), whom the config puts in the group ``teachers``.

In headless Chromium the teacher logs in and lands on the app (classroom mode, a seeded deal),
opens the shared table and reads its code; a student (a browser context of their own) logs in
straight to the app with ``?table=<code>``, types a name, picks a seat and joins (T2). Then one
action crosses from one user's server to the other's: the teacher turns up a card and the
student's page shows the new step. Through Redis, from the test process, the table's published
moment shows the student at the seat; from /proc, each user's kernel had its group's address:
the referee's for the teacher, the student's for the student (so the student's Redis user was
refused nothing the join needed). Stopping the hub leaves none of its processes behind.
"""

from __future__ import annotations

import contextlib
import os
import re
import time
import urllib.parse
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from browser_fixtures import PageWatch
from test_jupyterhub import APP, APP_TIMEOUT, APP_URL, PASSWORD, descendants, log_in, page_problems, running_hub

from speculation_nb import Rules, Session
from speculation_nb.app.model import DEFAULT_NAMES
from speculation_nb.classroom.codes import read_code
from speculation_nb.classroom.member import Member
from speculation_nb.classroom.moment import Moment
from speculation_nb.classroom.stores.base import STORE_SETTING, open_store

TEACHER = "teacher"
TEACHER_PASSWORD = "the-teacher-s-own-password-32-chars-or-more"  # JupyterHub wants 32 at least
STUDENT = "anne"
STUDENT_NAME = "Anne"
PLAYERS = 3
TIMEOUT_MS = APP_TIMEOUT * 1000  # a safety net for a page on a busy 2-core machine
CODE = re.compile(r"[2-9A-Z]{5}-[2-9A-Z]{5}")


def a_seed_and_a_seat() -> tuple[int, int]:
    """A seed whose first deal (3 players) goes on, and a seat that is neither the turn nor the holder."""
    for seed in range(1, 500):
        game = Session(Rules(players=PLAYERS), list(DEFAULT_NAMES[:PLAYERS]), 10, seed).game
        if not game.over and game.turn is not None:
            seats = [s for s in range(PLAYERS) if s not in (game.turn, game.holder)]
            if seats:
                return seed, seats[0]
    raise AssertionError("no such seed below 500")


SEED, SEAT = a_seed_and_a_seat()


def login_url(base: str, landing: str) -> str:
    """The hub's login page that, once logged in, starts the user's server and opens ``landing``
    (a page of a server not running yet is a "not running" page, 424, without the spawn)."""
    spawn = f"/hub/spawn?next={urllib.parse.quote(landing, safe='')}"
    return f"{base}/hub/login?next={urllib.parse.quote(spawn, safe='')}"


def environ(pid: int) -> dict[str, str]:
    """The environment ``pid`` started with (/proc, Linux)."""
    raw = Path(f"/proc/{pid}/environ").read_bytes()
    return dict(item.split("=", 1) for item in raw.decode(errors="replace").split("\0") if "=" in item)


def kernel_stores(hub_pid: int) -> dict[str, set[str]]:
    """``{user: {SPECULATION_TABLE_STORE of each of their kernels}}``."""
    stores: dict[str, set[str]] = {}
    for pid in descendants(hub_pid):
        try:
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes()
            env = environ(pid)
        except OSError:
            continue
        if b"ipykernel" in cmd:
            stores.setdefault(env.get("JUPYTERHUB_USER", "?"), set()).add(env.get(STORE_SETTING, ""))
    return stores


@pytest.mark.browser
@pytest.mark.skipif(not APP.is_file(), reason="notebooks/app.ipynb does not exist yet")
def test_T2_a_student_joins_the_teachers_table_across_two_hub_servers(
    tmp_path: Path, open_page: Callable[..., tuple[Any, PageWatch]], redis_server: Any
) -> None:
    referee_url, student_url = redis_server.url("referee"), redis_server.url("student")
    env = {
        **os.environ,
        "SPECULATION_CLASS_PASSWORD": PASSWORD,
        "SPECULATION_TEACHER_PASSWORD": TEACHER_PASSWORD,
        "SPECULATION_REDIS_REFEREE": referee_url,
        "SPECULATION_REDIS_STUDENT": student_url,
        "SPECULATION_TABLE_SEED": str(SEED),  # the table deals from SEED (a class's hub leaves it unset)
    }
    for name in (STORE_SETTING, "SPECULATION_TABLE_REFEREE_STORE"):
        env.pop(name, None)  # only the hub's config gives kernels a store

    store = open_store(referee_url)
    assert store is not None
    with contextlib.closing(store), running_hub(tmp_path, env) as hub:
        # The teacher logs in and lands on the app, then opens the shared table.
        teacher_app = f"/user/{TEACHER}{APP_URL}?mode=classroom&players={PLAYERS}&seed={SEED}&pace=instant"
        teacher, teacher_watch = open_page(login_url(hub.base, teacher_app), wait_until="load")
        log_in(teacher, TEACHER, TEACHER_PASSWORD)
        hub.land(teacher, TEACHER, "button.spec-next:enabled", "the teacher's app")
        teacher.locator("button.spec-open-table:visible").first.click()
        opener = teacher.locator("button.spec-host-open:visible").first
        opener.wait_for(timeout=TIMEOUT_MS)
        opener.click()
        teacher.wait_for_function(
            "() => /[2-9A-Z]{5}-[2-9A-Z]{5}/.test(document.querySelector('.spec-host-code')?.innerText || '')",
            timeout=TIMEOUT_MS,
        )
        found = CODE.search(teacher.locator(".spec-host-code").first.inner_text())
        assert found is not None
        code = found.group(0)
        # The referee (the teacher's kernel, with the referee's Redis user) published the table.
        assert store.get(read_code(code), "meta") is not None

        # A student logs in straight to the app with the table's code, and joins at a seat.
        student_app = f"/user/{STUDENT}{APP_URL}?table={code}"
        student, student_watch = open_page(login_url(hub.base, student_app), width=390, height=844, wait_until="load")
        log_in(student, STUDENT, PASSWORD)
        hub.land(student, STUDENT, ".spec-member-seat select", "the student's join form")
        seat_select = student.locator(".spec-member-seat select").first
        student.locator(".spec-member-name input").first.fill(STUDENT_NAME)
        labels = seat_select.locator("option").all_inner_texts()
        wanted = [i for i, label in enumerate(labels) if DEFAULT_NAMES[SEAT] in label]
        assert wanted, labels
        seat_select.select_option(index=wanted[0])
        student.locator("button.spec-member-join").first.click()
        student.wait_for_function(
            "name => [...document.querySelectorAll('.spec-member-you')].some(e => e.innerText.includes(name))",
            arg=STUDENT_NAME,
            timeout=TIMEOUT_MS,
        )
        seated: Moment | None = Member(store, code).latest()
        assert seated is not None and seated.seats[SEAT].members == (STUDENT_NAME,), seated

        # One action crosses: the teacher turns up a card; the student's page shows the new step.
        teacher.locator("button.spec-next:enabled").first.click()
        deadline = time.monotonic() + APP_TIMEOUT
        moment = Member(store, code).latest()
        while moment is not None and moment.step <= seated.step and time.monotonic() < deadline:
            time.sleep(0.1)  # polling the store for a condition
            moment = Member(store, code).latest()
        assert moment is not None and moment.step > seated.step, "the teacher's card never reached the table"
        student.wait_for_function(
            "step => (document.querySelector('.spec-member-you')?.innerText || '').includes(`step ${step}`)",
            arg=moment.step,
            timeout=TIMEOUT_MS,
        )

        # Each user's kernel had its group's address (deploy/jupyterhub_config.py).
        processes = descendants(hub.pid)
        hub.see(processes)
        stores = kernel_stores(hub.pid)
        assert stores.get(TEACHER) == {referee_url}, stores
        assert stores.get(STUDENT) == {student_url}, stores
        for watch in (teacher_watch, student_watch):
            problems = page_problems(watch)
            assert not problems, "the page reported:\n" + "\n".join(problems)
