"""The serve command for a classroom network and the shared table's store (speculation_nb/serve.py).

No server is started here: the tests check the Voila command line and the environment the
kernels would inherit (:func:`serve_plan`), the address finder with a fake socket, and ``main``
up to the point where it would replace itself with Voila (``os.execve`` is replaced).
"""

from __future__ import annotations

import os
import socket
import stat
from pathlib import Path
from typing import Any

import pytest

from speculation_nb import serve
from speculation_nb.classroom.stores.base import STORE_SETTING, open_store
from speculation_nb.serve import NoNetworkAddress, class_mode, network_address, serve_plan, store_directory


class FakeSocket:
    """A UDP socket that answers ``getsockname`` with a chosen address, records ``connect``, and
    fails the test if anything is sent."""

    def __init__(self, answers: list[str | OSError], log: list[tuple[str, int]]) -> None:
        self.answers = answers
        self.log = log
        self.closed = False
        self.answer: str | OSError = "0.0.0.0"

    def connect(self, address: tuple[str, int]) -> None:
        self.log.append(address)
        self.answer = self.answers.pop(0)
        if isinstance(self.answer, OSError):
            raise self.answer

    def getsockname(self) -> tuple[str, int]:
        assert isinstance(self.answer, str)
        return (self.answer, 54321)

    def send(self, *args: Any) -> None:
        raise AssertionError("the address finder must send nothing")

    sendto = sendall = send

    def close(self) -> None:
        self.closed = True


def fake_sockets(*answers: str | OSError) -> tuple[Any, list[tuple[str, int]], list[FakeSocket]]:
    log: list[tuple[str, int]] = []
    made: list[FakeSocket] = []
    queue = list(answers)

    def make() -> FakeSocket:
        sock = FakeSocket(queue, log)
        made.append(sock)
        return sock

    return make, log, made


def test_address_of_the_default_route_without_sending() -> None:
    make, log, made = fake_sockets("192.168.1.20")
    assert network_address(make) == "192.168.1.20"
    (probe,) = log
    assert probe[0] in serve.PROBE_ADDRESSES and serve.ipaddress.ip_address(probe[0]).is_private
    assert all(sock.closed for sock in made)


def test_address_finder_skips_loopback_and_missing_routes() -> None:
    make, log, made = fake_sockets(OSError(101, "Network is unreachable"), "127.0.1.1", "10.0.0.7")
    assert network_address(make) == "10.0.0.7"
    assert [address for address, _ in log] == list(serve.PROBE_ADDRESSES)
    assert all(sock.closed for sock in made)


def test_only_loopback_is_refused_with_the_reason() -> None:
    make, _, made = fake_sockets("127.0.0.1", OSError(101, "Network is unreachable"), "0.0.0.0")
    with pytest.raises(NoNetworkAddress, match=r"only loopback \(127\.0\.0\.1\).*without --class"):
        network_address(make)
    assert all(sock.closed for sock in made)


def test_real_socket_answers_an_address_or_refuses() -> None:
    """On this machine: a real UDP socket, no packet sent; an address never loopback."""
    try:
        address = network_address()
    except NoNetworkAddress as error:
        assert "only loopback" in str(error)
        return
    assert not serve.ipaddress.ip_address(address).is_loopback
    assert socket.inet_aton(address)


@pytest.mark.parametrize(("text", "expected"), [("1", True), (" TRUE ", True), ("on", True), ("", False), ("0", False)])
def test_class_setting_words(text: str, expected: bool) -> None:
    assert class_mode(None, {"SPECULATION_CLASS": text}) is expected
    assert class_mode(True, {"SPECULATION_CLASS": text}) is True


def test_class_setting_refuses_other_words() -> None:
    with pytest.raises(ValueError, match=r"SPECULATION_CLASS is 1 .* or 0, not 'maybe'"):
        class_mode(None, {"SPECULATION_CLASS": "maybe"})


def home(tmp_path: Path, **more: str) -> dict[str, str]:
    return {"HOME": str(tmp_path / "home"), "PATH": "/usr/bin", **more}


def test_class_plan_listens_everywhere_and_tells_the_kernels_the_link(tmp_path: Path) -> None:
    env = home(tmp_path)
    plan = serve_plan(port=9000, classroom=True, env=env, find_address=lambda: "192.168.1.20")
    assert "--Voila.ip=0.0.0.0" in plan.command and "--port=9000" in plan.command
    assert plan.command[1:3] == ["-m", "voila"]
    assert plan.env["SPECULATION_TABLE_ADDRESS"] == "http://192.168.1.20:9000/"
    assert plan.lines[0].startswith("Students open http://192.168.1.20:9000/ ")
    assert any("there is no login" in line for line in plan.lines)
    assert plan.env["PATH"] == "/usr/bin"
    assert env == home(tmp_path)  # the caller's mapping is left as it was


def test_class_from_the_environment_and_a_chosen_host(tmp_path: Path) -> None:
    def no_lookup() -> str:
        raise AssertionError("a host naming one address is the students' address")

    plan = serve_plan(env=home(tmp_path, SPECULATION_CLASS="1"), host="10.1.2.3", find_address=no_lookup)
    assert "--Voila.ip=10.1.2.3" in plan.command
    assert plan.env["SPECULATION_TABLE_ADDRESS"] == "http://10.1.2.3:8866/"
    plan = serve_plan(env=home(tmp_path, SPECULATION_CLASS="1", SPECULATION_HOST="10.9.9.9"), find_address=no_lookup)
    assert plan.env["SPECULATION_TABLE_ADDRESS"] == "http://10.9.9.9:8866/"


def test_a_set_table_address_is_kept(tmp_path: Path) -> None:
    env = home(tmp_path, SPECULATION_TABLE_ADDRESS="http://speculation.school.example/")
    plan = serve_plan(classroom=True, env=env, find_address=lambda: "192.168.1.20")
    assert plan.env["SPECULATION_TABLE_ADDRESS"] == "http://speculation.school.example/"
    assert plan.lines[0].startswith("Students open http://speculation.school.example/ ")


def test_class_on_loopback_is_refused(tmp_path: Path) -> None:
    for host in ("127.0.0.1", "localhost", "::1"):
        with pytest.raises(ValueError, match="cannot listen on loopback"):
            serve_plan(classroom=True, host=host, env=home(tmp_path), find_address=lambda: "192.168.1.20")


def test_no_network_refuses_the_class_plan(tmp_path: Path) -> None:
    make, _, _ = fake_sockets(*["127.0.0.1"] * len(serve.PROBE_ADDRESSES))
    with pytest.raises(NoNetworkAddress):
        serve_plan(classroom=True, env=home(tmp_path), find_address=lambda: network_address(make))


def test_without_class_loopback_and_no_link(tmp_path: Path) -> None:
    plan = serve_plan(env=home(tmp_path), find_address=lambda: pytest.fail("no lookup without --class"))
    assert "--Voila.ip=127.0.0.1" in plan.command
    assert "SPECULATION_TABLE_ADDRESS" not in plan.env
    assert plan.lines == ["Speculation app: http://127.0.0.1:8866/  (Ctrl-C to stop)"]


def test_store_directory_made_private_and_named_for_the_kernels(tmp_path: Path) -> None:
    plan = serve_plan(env=home(tmp_path))
    directory = tmp_path / "home" / ".local" / "state" / "speculation_nb"
    assert stat.S_IMODE(directory.stat().st_mode) == 0o700
    assert STORE_SETTING == serve.TABLE_STORE_SETTING
    assert plan.env[STORE_SETTING] == f"sqlite://{directory}/tables.sqlite3"
    state = tmp_path / "state"
    plan = serve_plan(classroom=True, env=home(tmp_path, XDG_STATE_HOME=str(state)), find_address=lambda: "10.0.0.2")
    assert plan.env[STORE_SETTING] == f"sqlite://{state}/speculation_nb/tables.sqlite3"
    assert stat.S_IMODE((state / "speculation_nb").stat().st_mode) == 0o700


def test_store_directory_narrowed_and_relative_xdg_ignored(tmp_path: Path) -> None:
    directory = tmp_path / "home" / ".local" / "state" / "speculation_nb"
    directory.mkdir(parents=True, mode=0o755)
    directory.chmod(0o755)
    assert store_directory(home(tmp_path, XDG_STATE_HOME="relative/state")) == directory
    serve_plan(env=home(tmp_path, XDG_STATE_HOME="relative/state"))
    assert stat.S_IMODE(directory.stat().st_mode) == 0o700


def test_store_url_opens_a_store(tmp_path: Path) -> None:
    """The URL the kernels get is one ``open_store`` takes (when the SQLite store is there)."""
    plan = serve_plan(env=home(tmp_path))
    try:
        store = open_store(plan.env[STORE_SETTING])
    except ImportError:
        pytest.skip("speculation_nb.classroom.stores.sqlite_store is not on this branch yet")
    assert store is not None
    store.close()
    assert (tmp_path / "home" / ".local" / "state" / "speculation_nb" / "tables.sqlite3").exists()


def test_a_set_store_is_kept_and_no_directory_made(tmp_path: Path) -> None:
    plan = serve_plan(env=home(tmp_path, SPECULATION_TABLE_STORE="redis://hub:secret@10.0.0.5:6379/0"))
    assert plan.env[STORE_SETTING] == "redis://hub:secret@10.0.0.5:6379/0"
    assert not (tmp_path / "home").exists()


class Exec(Exception):
    pass


@pytest.fixture
def no_exec(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[tuple[str, list[str], dict[str, str]]]:
    """``main`` runs up to ``os.execve``, which records its arguments instead of starting Voila."""
    calls: list[tuple[str, list[str], dict[str, str]]] = []

    def execve(path: str, args: list[str], env: dict[str, str]) -> None:
        calls.append((path, args, env))
        raise Exec

    monkeypatch.setattr(serve.os, "execve", execve)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "notebooks").mkdir()
    (tmp_path / "notebooks" / "app.ipynb").write_text("{}")
    for name in ("SPECULATION_CLASS", "SPECULATION_HOST", "SPECULATION_TABLE_ADDRESS", "SPECULATION_TABLE_STORE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    return calls


def test_main_class_prints_the_link_and_runs_voila(
    no_exec: list[tuple[str, list[str], dict[str, str]]], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(Exec):
        serve.main(["9100", "--class"], find_address=lambda: "192.168.1.20")
    ((path, args, env),) = no_exec
    assert path == args[0] and "--Voila.ip=0.0.0.0" in args and "--port=9100" in args
    assert env["SPECULATION_TABLE_ADDRESS"] == "http://192.168.1.20:9100/"
    assert env[STORE_SETTING].endswith("/state/speculation_nb/tables.sqlite3")
    assert "Students open http://192.168.1.20:9100/" in capsys.readouterr().out


def test_main_keeps_its_options(no_exec: list[tuple[str, list[str], dict[str, str]]]) -> None:
    with pytest.raises(Exec):
        serve.main(["--notebook", "notebooks/app.ipynb", "--host", "127.0.0.1"])
    ((_, args, env),) = no_exec
    assert args[3] == "notebooks/app.ipynb" and "--Voila.ip=127.0.0.1" in args and "--port=8866" in args
    assert "SPECULATION_TABLE_ADDRESS" not in env
    assert env["XDG_STATE_HOME"] == os.environ["XDG_STATE_HOME"]


def test_main_refuses_class_without_a_network(
    no_exec: list[tuple[str, list[str], dict[str, str]]], capsys: pytest.CaptureFixture[str]
) -> None:
    def only_loopback() -> str:
        raise NoNetworkAddress("this machine has no network address other devices can reach, only loopback")

    with pytest.raises(SystemExit) as exit_:
        serve.main(["--class"], find_address=only_loopback)
    assert exit_.value.code == 2
    assert "only loopback" in capsys.readouterr().err
    assert no_exec == []
