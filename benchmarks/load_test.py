"""A class at once: N concurrent sessions of the Voila app, on loopback, bounded in time.

    python benchmarks/load_test.py --sessions 30      # 3 in headless Chromium, 27 protocol clients

Starts the app server exactly as the README's app command does
(``speculation_nb.serve.voila_args`` through ``tests/support/voila_server.py``), with
culling checked every 2 s (``--cull-interval``) instead of 30, through the
environment variables ``speculation_nb.serve`` reads; the idle time before a
kernel is culled stays the served 120 s (``--cull-idle``): a kernel waits, idle
and unconnected, from the end of its page's rendering until the browser has
loaded the page's scripts, and under load a shorter time culled kernels whose
pages were still loading ("Kernel never reached an 'alive' state"). It opens N
sessions the way browsers do:

- a few (``--browsers``, 3 by default) in headless Debian Chromium (Playwright,
  every other host name unresolvable, so nothing leaves loopback);
- the rest with :class:`ProtocolSession`, a light client that speaks the
  protocol a Voila page speaks: it GETs the page (and the page's own scripts and
  stylesheets), reads the kernel id from ``jupyter-config-data``, opens the
  kernel websocket (``/api/kernels/<id>/channels``, protocol
  ``v1.kernel.websocket.jupyter.org``, the page's cookies and origin), sends
  ``kernel_info_request``, then loads the widgets as ``@jupyter-widgets/base``
  does (a ``jupyter.widget.control`` comm, ``request_states``, ``update_states``),
  answers the ipympl canvases as their front-end does (``refresh``,
  ``initialized``, ``draw``), finds the "Next card" button by its CSS class
  ``spec-next`` and clicks it (``{"method": "custom", "content": {"event":
  "click"}}``), and times the update of the ``spec-hold-pct`` model's value.

Every session opens the same seeded deal in classroom mode (the odds change at
every card) and steps through the whole deal, with a think time between clicks.
When all have played, memory is read from ``/proc`` (PSS, RSS, USS of the server
and of each kernel); then every session closes (a tab closed: the websocket goes)
and the test waits until culling has removed every kernel.

Before that, in the same run and with the same Voila options, one session alone
on ``benchmarks/bare_mpl.ipynb`` (ipywidgets + matplotlib, one button) and one
alone on the app give the kernel-memory ratio (target: app within 1.3x).

Loopback only; every request loop is bounded in count and time; the whole run
stops by itself (``--time-limit``, 900 s by default) and stops every server,
kernel and browser it started. ``--json FILE`` writes the figures (and the
server's log beside it, ``FILE`` with ``.voila.log``).

A preheated pool (``--pool N``, as ``SPECULATION_POOL_SIZE=N``): the server
starts, the pool fills (reported: how long, and the pool's memory), and only
then do the sessions arrive, as for a teacher who starts the server before the
lesson. ``--compare-pool N`` runs the whole load twice in one command, first with
no pool (today's start: a kernel per page), then with a pool of N, and prints
the two side by side with the load average of each, so that the figures are
measured in the same conditions on a machine shared with others.

Comparisons, never the default: ``--notebook bare_mpl`` puts the same load on
the bare notebook; ``--voila-config '{"VoilaExecutor": {"iopub_timeout": 60}}'``
adds Voila configuration (a ``voila.json`` in a configuration folder of its
own) to try an option before it goes into ``speculation_nb.serve``.
"""

from __future__ import annotations

import argparse
import asyncio
import http.cookies
import json
import os
import random
import re
import signal
import sys
import threading
import time
import uuid
from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone
from math import floor
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests" / "support"))
sys.path.insert(0, str(REPO / "benchmarks"))

from figures import load_average, median, p95  # noqa: E402
from voila_server import VoilaServer  # noqa: E402

APP = "notebooks/app.ipynb"
BARE_MPL = "benchmarks/bare_mpl.ipynb"
WS_PROTOCOL = "v1.kernel.websocket.jupyter.org"
LOOPBACK = ("127.0.0.1", "localhost", "[::1]")
MiB = 1024 * 1024
TARGET_KERNEL_RATIO = 1.3


@dataclass(frozen=True)
class Target:
    """What a session opens, clicks and reads back on one notebook."""

    notebook: str
    button: str  # CSS class of the button ("Next card")
    output: str  # CSS class of the model whose ``value`` changes on a click
    query: str = ""
    error: str = ""  # CSS class a model takes when the page shows an error
    # CSS class of a model whose value must show the query's seed: the page's address reached
    # the kernel (with a preheated pool it arrives after the kernel has started)
    seed_shown: str = ""


APP_TARGET = Target(
    APP, "spec-next", "spec-hold-pct", "?mode=classroom&seed={seed}", "spec-message-error", "spec-deal-info"
)
BARE_TARGET = Target(BARE_MPL, "bare-button", "bare-count")


# --------------------------------------------------------------------- figures
def process_memory(pid: int) -> dict[str, int] | None:
    """``{"rss", "pss", "uss"}`` in bytes from ``/proc/<pid>/smaps_rollup``, None if gone.

    PSS shares each shared page among the processes that map it (so it adds up
    across kernels); USS is the private part alone; RSS counts shared pages in full.
    """
    try:
        text = Path(f"/proc/{pid}/smaps_rollup").read_text()
    except OSError:
        return None
    kb: dict[str, int] = {}
    for line in text.splitlines():
        parts = line.split()
        if len(parts) >= 2 and parts[0].endswith(":") and parts[1].isdigit():
            kb[parts[0][:-1]] = int(parts[1])
    return {
        "rss": kb.get("Rss", 0) * 1024,
        "pss": kb.get("Pss", 0) * 1024,
        "uss": (kb.get("Private_Clean", 0) + kb.get("Private_Dirty", 0)) * 1024,
    }


def server_memory(server: VoilaServer) -> dict[str, Any]:
    """The server's and every kernel's memory: ``{"server": {...}, "kernels": {kernel id: {...}}}``."""
    kernels = {}
    for kernel_id, pid in server.kernels().items():
        memory = process_memory(pid)
        if memory is not None:
            kernels[kernel_id] = memory
    return {"server": process_memory(server.pid) or {"rss": 0, "pss": 0, "uss": 0}, "kernels": kernels}


def deal_seed(players: int = 5, least: int = 10) -> tuple[int, int]:
    """The first seed whose whole deal (``players`` seats) lasts ``least`` cards or more
    with O1, in tenths of a percent as the page shows it, changing at every card:
    ``(seed, cards)``. Every click of the test then has a number to read back."""
    from speculation_nb import Rules, Session, odds

    def tenths(game: Any) -> int:
        return floor(odds.hold_probability(game) * 1000 + 0.5)

    for seed in range(1, 10_000):
        game = Session(Rules(players=players), None, 10, seed).game
        before, cards, ok = tenths(game), 0, True
        while ok and not game.over:
            game.reveal()
            cards += 1
            now = tenths(game)
            ok, before = now != before, now
        if ok and cards >= least:
            return seed, cards
    raise RuntimeError("no seed found")


# ------------------------------------------------------ the kernel websocket
def _now_iso() -> str:
    return datetime.now(timezone.utc).isoformat()


def pack_v1(channel: str, msg: dict[str, Any]) -> bytes:
    """A message in the ``v1.kernel.websocket.jupyter.org`` framing (as jupyter_server's
    ``serialize_msg_to_ws_v1``): the count of offsets, the offsets (little-endian
    uint64), the channel name, header, parent header, metadata, content, buffers."""
    parts = [
        json.dumps(msg["header"]).encode(),
        json.dumps(msg.get("parent_header", {})).encode(),
        json.dumps(msg.get("metadata", {})).encode(),
        json.dumps(msg.get("content", {})).encode(),
        *msg.get("buffers", []),
    ]
    name = channel.encode()
    offsets = [8 * (1 + 1 + len(parts) + 1)]
    offsets.append(offsets[-1] + len(name))
    for part in parts:
        offsets.append(offsets[-1] + len(part))
    head = len(offsets).to_bytes(8, "little") + b"".join(o.to_bytes(8, "little") for o in offsets)
    return head + name + b"".join(parts)


def unpack_v1(data: bytes) -> tuple[str, dict[str, Any]]:
    """The inverse of :func:`pack_v1` (as jupyter_server's ``deserialize_msg_from_ws_v1``)."""
    count = int.from_bytes(data[:8], "little")
    offsets = [int.from_bytes(data[8 * (i + 1) : 8 * (i + 2)], "little") for i in range(count)]
    channel = data[offsets[0] : offsets[1]].decode()
    parts = [data[offsets[i] : offsets[i + 1]] for i in range(1, count - 1)]
    msg = {
        "header": json.loads(parts[0]),
        "parent_header": json.loads(parts[1]),
        "metadata": json.loads(parts[2]),
        "content": json.loads(parts[3]),
        "buffers": parts[4:],
    }
    return channel, msg


def put_buffers(state: dict[str, Any], paths: list[list[Any]], buffers: list[bytes]) -> None:
    """Place binary buffers into a widget state at their paths (ipywidgets' ``put_buffers``)."""
    for path, buffer in zip(paths, buffers):
        obj: Any = state
        for key in path[:-1]:
            obj = obj[key]
        obj[path[-1]] = buffer


_CONFIG = re.compile(r'<script id="jupyter-config-data" type="application/json">\s*(\{.*?\})\s*</script>', re.S)
_VIEW = re.compile(r'application/vnd\.jupyter\.widget-view\+json"\s*:\s*\{\s*"model_id"\s*:\s*"([0-9a-f]+)"')
_ASSET = re.compile(r'<(?:script[^>]*\ssrc|link[^>]*\shref)="(/[^"]+)"')


@dataclass
class SessionResult:
    """What one session saw (times in seconds, latencies in milliseconds)."""

    index: int
    kind: str  # "browser" or "protocol"
    started_at: float = 0.0  # from the start of the load phase
    kernel_id: str = ""
    first_byte_s: float | None = None
    page_s: float | None = None  # whole page received (protocol) / navigation committed (browser)
    interactive_s: float | None = None  # from this session's start
    interactive_at: float | None = None  # from the start of the load phase
    clicks: int = 0
    latencies_ms: list[float] = field(default_factory=list)
    unanswered: int = 0
    deal_over: bool = False
    errors: list[str] = field(default_factory=list)
    closed: bool = False


class ProtocolError(Exception):
    pass


class ProtocolSession:
    """One student's page, spoken as the Voila front-end speaks it (see the module docstring)."""

    def __init__(self, base_url: str, target: Target, query: str, result: SessionResult, timeout: float) -> None:
        self.base_url = base_url.rstrip("/")
        self.target = target
        self.query = query
        self.result = result
        self.timeout = timeout
        self.session_id = str(uuid.uuid4())
        self.cookies: dict[str, str] = {}
        self.ws: Any = None
        self.models: dict[str, dict[str, Any]] = {}  # model id -> {"name", "module", "state"}
        self.replies: dict[str, asyncio.Future] = {}  # msg_id -> future of the shell reply
        self.control_id = ""
        self.control_reply: asyncio.Future | None = None
        self.button_id = ""
        self.output_id = ""
        self.canvases: dict[str, bool] = {}  # ipympl canvas model id -> waiting for an image
        self.waiting: tuple[Any, asyncio.Future] | None = None  # (value before, future)
        self.reader: asyncio.Task | None = None

    # ------------------------------------------------------------ helpers
    def _headers(self) -> dict[str, str]:
        host = self.base_url.split("//", 1)[1]
        headers = {"Origin": f"http://{host}", "User-Agent": "speculation-load-test"}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if "_xsrf" in self.cookies:
            headers["X-XSRFToken"] = self.cookies["_xsrf"]
        return headers

    def _keep_cookies(self, response: Any) -> None:
        for value in response.headers.get_list("Set-Cookie"):
            jar = http.cookies.SimpleCookie()
            jar.load(value)
            for key, morsel in jar.items():
                self.cookies[key] = morsel.coded_value

    async def _get(self, path: str, streaming: Any = None) -> Any:
        from tornado.httpclient import AsyncHTTPClient, HTTPRequest

        url = self.base_url + path
        assert url.split("/")[2].split(":")[0] in ("127.0.0.1", "localhost"), url  # loopback only
        request = HTTPRequest(
            url,
            headers=self._headers(),
            connect_timeout=self.timeout,
            request_timeout=self.timeout,
            streaming_callback=streaming,
        )
        response = await AsyncHTTPClient().fetch(request, raise_error=True)
        self._keep_cookies(response)
        return response

    def _message(
        self,
        msg_type: str,
        content: dict[str, Any],
        buffers: list[bytes] | None = None,
        metadata: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        return {
            "header": {
                "msg_id": uuid.uuid4().hex,
                "username": "",
                "session": self.session_id,
                "msg_type": msg_type,
                "version": "5.3",
                "date": _now_iso(),
            },
            "parent_header": {},
            "metadata": metadata or {},
            "content": content,
            "buffers": buffers or [],
        }

    def _send(self, channel: str, msg: dict[str, Any]) -> None:
        self.ws.write_message(pack_v1(channel, msg), binary=True)

    def _comm_msg(self, comm_id: str, data: dict[str, Any]) -> None:
        self._send("shell", self._message("comm_msg", {"comm_id": comm_id, "data": data}))

    def _custom(self, comm_id: str, content: dict[str, Any]) -> None:
        self._comm_msg(comm_id, {"method": "custom", "content": content})

    def update(self, model_id: str, state: dict[str, Any]) -> None:
        """Set traits of a model as its view does when a person types or picks (a sync update)."""
        self._comm_msg(model_id, {"method": "update", "state": state, "buffer_paths": []})
        self.models[model_id]["state"].update(state)

    def press(self, model_id: str) -> None:
        """Click the button model ``model_id`` as its view does."""
        self._custom(model_id, {"event": "click"})

    def _classes(self, model_id: str) -> list[str]:
        return self.models.get(model_id, {}).get("state", {}).get("_dom_classes", []) or []

    def value(self) -> Any:
        return self.models.get(self.output_id, {}).get("state", {}).get("value")

    def button_disabled(self) -> bool:
        return bool(self.models.get(self.button_id, {}).get("state", {}).get("disabled"))

    def _note_errors(self, model_id: str) -> None:
        if self.target.error and self.target.error in self._classes(model_id):
            text = str(self.models[model_id]["state"].get("value", ""))
            line = f"the page shows an error: {re.sub(r'<[^>]+>', '', text)[:200]}"
            if line not in self.result.errors:
                self.result.errors.append(line)

    # ------------------------------------------------------------ opening
    async def open(self, started: float) -> None:
        """GET the page and its assets, connect the kernel, load the widgets."""
        from tornado.httpclient import HTTPRequest
        from tornado.websocket import websocket_connect

        first: list[float] = []

        def on_chunk(chunk: bytes) -> None:
            if not first:
                first.append(time.perf_counter())
            body.append(chunk)

        body: list[bytes] = []
        await self._get("/" + self.query, streaming=on_chunk)
        page = b"".join(body).decode("utf-8", "replace")
        self.result.first_byte_s = (first[0] if first else time.perf_counter()) - started
        self.result.page_s = time.perf_counter() - started
        config = _CONFIG.search(page)
        if not config:
            raise ProtocolError("no jupyter-config-data in the page")
        kernel_id = json.loads(config.group(1)).get("kernelId")
        if not kernel_id:
            raise ProtocolError("no kernelId in the page's jupyter-config-data")
        self.result.kernel_id = kernel_id
        views = _VIEW.findall(page)
        if not views:
            raise ProtocolError("no widget view in the page: " + re.sub(r"\s+", " ", page[-400:]))
        # A first visit: the page's own scripts and stylesheets (loopback; the CDN ones are absolute)
        assets = sorted(set(_ASSET.findall(page)))
        await asyncio.gather(*(self._get(path) for path in assets))

        ws_url = f"ws://{self.base_url.split('//', 1)[1]}/api/kernels/{kernel_id}/channels?session_id={self.session_id}"
        request = HTTPRequest(
            ws_url, headers=self._headers(), connect_timeout=self.timeout, request_timeout=self.timeout
        )
        self.ws = await websocket_connect(request, subprotocols=[WS_PROTOCOL], max_message_size=256 * MiB)
        if self.ws.selected_subprotocol != WS_PROTOCOL:
            raise ProtocolError(f"the server chose the websocket protocol {self.ws.selected_subprotocol!r}")
        self.reader = asyncio.ensure_future(self._read())

        # @jupyterlab/services: kernel_info_request first
        info = self._message("kernel_info_request", {})
        reply = asyncio.get_running_loop().create_future()
        self.replies[info["header"]["msg_id"]] = reply
        self._send("shell", info)
        await asyncio.wait_for(reply, self.timeout)

        # @jupyter-widgets/base (_loadFromKernel): the control comm and request_states
        self.control_id = str(uuid.uuid4())
        self.control_reply = asyncio.get_running_loop().create_future()
        self._send(
            "shell",
            self._message(
                "comm_open",
                {"comm_id": self.control_id, "target_name": "jupyter.widget.control", "data": {}},
                metadata={"version": "1.0.0"},
            ),
        )
        self._comm_msg(self.control_id, {"method": "request_states"})
        data, buffers = await asyncio.wait_for(self.control_reply, self.timeout)
        self._send("shell", self._message("comm_close", {"comm_id": self.control_id, "data": {}}))
        paths: dict[str, tuple[list, list]] = {}
        for path, buffer in zip(data.get("buffer_paths", []), buffers):
            entry = paths.setdefault(path[0], ([], []))
            entry[0].append(path[1:])
            entry[1].append(buffer)
        for model_id, spec in data["states"].items():
            state = spec["state"]
            if model_id in paths:
                put_buffers(state, *paths[model_id])
            self._add_model(model_id, spec.get("model_name", ""), spec.get("model_module", ""), state)
        missing = [view for view in views if view not in self.models]
        if missing:
            raise ProtocolError(f"the page's widget views {missing} are not among the kernel's widgets")
        for model_id in self.models:
            classes = self._classes(model_id)
            if self.target.button in classes and self.models[model_id]["name"] == "ButtonModel":
                self.button_id = model_id
            if self.target.output in classes:
                self.output_id = model_id
        if not self.button_id or not self.output_id:
            raise ProtocolError(f"no .{self.target.button} button or no .{self.target.output} among the widgets")
        for model_id in self.canvases:  # ipympl's front-end on creating a canvas model (device pixel ratio 1)
            for kind in ("refresh", "send_image_mode", "initialized"):
                self._custom(model_id, {"type": kind})
        if self.button_disabled():
            raise ProtocolError("the button is disabled when the page opens")
        seed = re.search(r"[?&]seed=(\d+)", self.query)
        if self.target.seed_shown and seed:
            from speculation_nb.languages.translator import translator

            words = translator("en")("header.seed", seed=seed.group(1))  # "seed 42", as the header says it
            shown = [
                str(m["state"].get("value", ""))
                for m in self.models.values()
                if self.target.seed_shown in m["state"].get("_dom_classes", [])
            ]
            if not any(words in text for text in shown):
                raise ProtocolError(f"the page's address did not reach the kernel: no {words!r} in the header")

    def _add_model(self, model_id: str, name: str, module: str, state: dict[str, Any]) -> None:
        self.models[model_id] = {"name": name, "module": module, "state": state}
        if module == "jupyter-matplotlib" and name == "MPLCanvasModel":
            self.canvases[model_id] = False
        self._note_errors(model_id)

    # ------------------------------------------------------------ reading
    async def _read(self) -> None:
        try:
            while True:
                data = await self.ws.read_message()
                if data is None:
                    break
                if isinstance(data, str):
                    continue  # not the v1 framing: nothing this client asked for
                channel, msg = unpack_v1(data)
                self._dispatch(channel, msg)
        except Exception as error:  # a broken frame: recorded, the session fails
            self.result.errors.append(f"reading the websocket: {error!r}")
        finally:
            for future in [*self.replies.values(), self.control_reply, self.waiting[1] if self.waiting else None]:
                if future is not None and not future.done():
                    future.set_exception(ProtocolError("the websocket closed"))

    def _dispatch(self, channel: str, msg: dict[str, Any]) -> None:
        kind = msg["header"].get("msg_type")
        content = msg["content"]
        parent = msg["parent_header"].get("msg_id")
        if channel == "shell" and parent in self.replies:
            future = self.replies.pop(parent)
            if not future.done():
                future.set_result(msg)
            return
        if channel != "iopub":
            return
        if kind == "error":
            self.result.errors.append(f"kernel error: {content.get('ename')}: {content.get('evalue')}")
        elif kind == "stream" and content.get("name") == "stderr" and "Traceback" in content.get("text", ""):
            self.result.errors.append("kernel stderr: " + content["text"][-300:])
        elif kind == "comm_open" and content.get("target_name") == "jupyter.widget":
            data = content.get("data", {})
            state = data.get("state", {})
            put_buffers(state, data.get("buffer_paths", []), msg["buffers"])
            self._add_model(content["comm_id"], state.get("_model_name", ""), state.get("_model_module", ""), state)
        elif kind == "comm_close":
            self.models.pop(content.get("comm_id", ""), None)
        elif kind == "comm_msg":
            self._on_comm_msg(content["comm_id"], content.get("data", {}), msg["buffers"])

    def _on_comm_msg(self, comm_id: str, data: dict[str, Any], buffers: list[bytes]) -> None:
        method = data.get("method")
        if comm_id == self.control_id:
            if method == "update_states" and self.control_reply and not self.control_reply.done():
                self.control_reply.set_result((data, buffers))
            return
        model = self.models.get(comm_id)
        if model is None:
            return
        if method in ("update", "echo_update"):
            state = data.get("state", {})
            put_buffers(state, data.get("buffer_paths", []), buffers)
            model["state"].update(state)
            self._note_errors(comm_id)
            if comm_id == self.output_id and "value" in state and self.waiting:
                before, future = self.waiting
                if state["value"] != before and not future.done():
                    future.set_result(time.perf_counter())
        elif method == "custom" and comm_id in self.canvases:
            # ipympl's front-end: answer "draw" with "draw" unless an image is awaited; an
            # image ("binary") ends the wait; a "resize" asks for a "refresh"
            try:
                kind = json.loads(data.get("content", {}).get("data", "{}")).get("type")
            except (TypeError, ValueError):
                return
            if kind == "draw" and not self.canvases[comm_id]:
                self.canvases[comm_id] = True
                self._custom(comm_id, {"type": "draw"})
            elif kind == "binary":
                self.canvases[comm_id] = False
            elif kind == "resize":
                self._custom(comm_id, {"type": "refresh"})

    # ------------------------------------------------------------ playing
    async def click(self, timeout: float) -> float | None:
        """Click the button; milliseconds until the output's value changed, None if it did not."""
        future = asyncio.get_running_loop().create_future()
        self.waiting = (self.value(), future)
        sent = time.perf_counter()
        self._custom(self.button_id, {"event": "click"})
        try:
            changed = await asyncio.wait_for(future, timeout)
        except asyncio.TimeoutError:
            return None
        finally:
            self.waiting = None
        return (changed - sent) * 1000

    async def close(self) -> None:
        """The tab goes: its websocket closes (the kernel is left to culling, as Voila's is)."""
        if self.ws is not None:
            self.ws.close()
            self.ws = None
        if self.reader is not None:
            try:
                await asyncio.wait_for(self.reader, 10)
            except (asyncio.TimeoutError, Exception):
                self.reader.cancel()


# ------------------------------------------------------------ browser pages
_PAGE_KERNEL_JS = """() => {
  const el = document.getElementById('jupyter-config-data');
  return el ? (JSON.parse(el.textContent).kernelId || null) : null;
}"""


# The page is complete and its one code cell has no output: the widget will never come.
_EMPTY_PAGE_JS = """() => document.readyState === 'complete'
  && document.querySelector('.jp-CodeCell.jp-mod-noOutputs') !== null
  && document.querySelector('.jp-OutputArea-output') === null"""


def _click_js() -> str:
    from bench_app import _CLICK_JS  # the same in-page click timing as the start-up benchmark

    return _CLICK_JS


class BrowserSession:
    """One student's page in headless Chromium (a fresh context: a first visit)."""

    def __init__(self, browser: Any, url: str, target: Target, result: SessionResult, timeout: float) -> None:
        from browser_fixtures import PageWatch

        self.browser, self.url, self.target, self.result, self.timeout = browser, url, target, result, timeout
        self.watch = PageWatch()
        self.context: Any = None
        self.page: Any = None
        self.disabled = False

    async def open(self, started: float) -> None:
        self.context = await self.browser.new_context(viewport={"width": 1280, "height": 800})
        self.page = await self.context.new_page()
        self.page.on("console", self.watch._on_console)
        self.page.on("pageerror", lambda error: self.watch.page_errors.append(str(error)))
        self.page.on("dialog", lambda dialog: self.watch.dialogs.append(f"{dialog.type}: {dialog.message}"))
        await self.page.goto(self.url, wait_until="commit", timeout=self.timeout * 1000)
        self.result.page_s = time.perf_counter() - started
        ready = self.page.locator(f"button.{self.target.button}:enabled").first.wait_for(
            state="visible", timeout=self.timeout * 1000
        )
        # Voila may finish a page whose cell lost its output (the widget never comes): fail then
        empty = self.page.wait_for_function(_EMPTY_PAGE_JS, timeout=self.timeout * 1000, polling=1000)
        tasks = [asyncio.ensure_future(ready), asyncio.ensure_future(empty)]
        done, pending = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)
        if tasks[1] in done and tasks[0] not in done and tasks[1].exception() is None:
            raise ProtocolError("Voila finished the page without the app's output (no widget view)")
        tasks[0].result() if tasks[0] in done else tasks[1].result()
        self.result.kernel_id = await self.page.evaluate(_PAGE_KERNEL_JS) or ""

    async def click(self, timeout: float) -> float | None:
        outcome = await self.page.evaluate(
            _click_js(), [f"button.{self.target.button}", f".{self.target.output}", int(timeout * 1000)]
        )
        if outcome.get("disabled"):
            self.disabled = True
            return None
        return outcome["ms"]

    def button_disabled(self) -> bool:
        return self.disabled

    async def check(self) -> None:
        if self.target.error and await self.page.locator(f".{self.target.error}").count():
            text = await self.page.locator(f".{self.target.error}").first.inner_text()
            self.result.errors.append(f"the page shows an error: {text[:200]}")
        await self._refresh_disabled()
        self.result.errors.extend(self.watch.problems)

    async def _refresh_disabled(self) -> None:
        self.disabled = await self.page.locator(f"button.{self.target.button}").first.is_disabled()

    async def close(self) -> None:
        if self.page is not None and not self.page.is_closed():
            await self.page.close(run_before_unload=True)
        if self.context is not None:
            await self.context.close()


# ------------------------------------------------------------------ running
@dataclass
class Options:
    sessions: int = 30
    browsers: int = 3
    clicks: int = 0  # 0: the whole deal
    think: float = 1.0
    ramp: float = 10.0
    cull_idle: int = 120  # the served default: a slow page must connect before its kernel is culled
    cull_interval: int = 2
    pool: int | None = None  # None: SPECULATION_POOL_SIZE or 0
    fill_delay: int | None = None  # None: SPECULATION_POOL_FILL_DELAY or speculation_nb.serve's
    page_timeout: float = 300.0
    click_timeout: float = 60.0
    time_limit: float = 900.0
    baseline: bool = True
    rng_seed: int = 1
    json_path: str = ""
    quiet: bool = False
    voila_config: str = ""  # an experiment: extra Voila config (JSON), NOT the README's options
    notebook: str = "app"  # "bare_mpl": the same load on the bare notebook, for comparison


class Run:
    """State shared by the phases, so that a time-out still stops everything."""

    def __init__(self, options: Options) -> None:
        self.options = options
        self.servers: list[VoilaServer] = []
        self.folders: list[Path] = []  # temporary configuration folders (--voila-config)
        self.started = time.monotonic()
        self.deadline = self.started + options.time_limit
        self.out: dict[str, Any] = {"options": asdict(options), "errors": []}
        self.target = BARE_TARGET if options.notebook == "bare_mpl" else APP_TARGET

    def say(self, text: str = "") -> None:
        if not self.options.quiet:
            print(text, flush=True)

    def left(self) -> float:
        return self.deadline - time.monotonic()

    def server(self, notebook: str) -> VoilaServer:
        env = {
            "SPECULATION_CULL_IDLE_TIMEOUT": str(self.options.cull_idle),
            "SPECULATION_CULL_INTERVAL": str(self.options.cull_interval),
        }
        if self.options.pool is not None:
            env["SPECULATION_POOL_SIZE"] = str(self.options.pool)
        if self.options.fill_delay is not None:
            env["SPECULATION_POOL_FILL_DELAY"] = str(self.options.fill_delay)
        if self.options.voila_config:  # an experiment: a voila.json in a config folder of its own
            import tempfile

            folder = Path(tempfile.mkdtemp(prefix="speculation-load-config-"))
            self.folders.append(folder)
            (folder / "voila.json").write_text(json.dumps(json.loads(self.options.voila_config)))
            env["JUPYTER_CONFIG_DIR"] = str(folder)
        server = VoilaServer(notebook, env=env, startup_timeout=min(120.0, max(10.0, self.left())))
        self.servers.append(server)
        return server.start()

    def stop_all(self) -> None:
        for server in self.servers:
            try:
                server.stop()
            except Exception as error:  # keep stopping the others
                print(f"stopping a server failed: {error!r}", file=sys.stderr)
        import shutil

        for folder in self.folders:
            shutil.rmtree(folder, ignore_errors=True)


async def _one_alone(run: Run, server: VoilaServer, target: Target, query: str, clicks: int) -> dict[str, Any]:
    """One protocol session alone: opened, a few clicks, memory of its kernel, closed."""
    result = SessionResult(index=0, kind="protocol")
    session = ProtocolSession(server.url, target, query, result, timeout=min(120.0, run.left()))
    started = time.perf_counter()
    try:
        await session.open(started)
        result.interactive_s = time.perf_counter() - started
        for _ in range(clicks):
            latency = await session.click(run.options.click_timeout)
            result.clicks += 1
            if latency is None:
                result.unanswered += 1
            else:
                result.latencies_ms.append(latency)
        await asyncio.sleep(1.0)  # let the kernel settle (pending draws, garbage)
        memory = server_memory(server)
        kernel = memory["kernels"].get(result.kernel_id)
    finally:
        await session.close()
    if kernel is None:
        raise RuntimeError(f"the kernel of the {target.notebook} session was not found")
    return {"kernel": kernel, "server": memory["server"], "session": asdict(result)}


async def pool_ready(run: Run, server: VoilaServer, when: str) -> dict[str, Any]:
    """Wait until the preheated pool is full and its kernels are idle (each waits for its
    page in ``wait_for_request``); report how long that took and what the pool holds."""
    pool = run.options.pool or 0
    started = time.perf_counter()
    loop = asyncio.get_running_loop()
    budget = max(10.0, min(300.0, run.left() - 240))
    while len(server.kernel_pids()) < pool and time.perf_counter() - started < budget:
        await asyncio.sleep(0.5)
    left = max(5.0, budget - (time.perf_counter() - started))
    try:
        await loop.run_in_executor(None, lambda: server.wait_until_quiet(busy_below=0.1, window=2.0, timeout=left))
    except TimeoutError:
        run.out["errors"].append(f"the pool of {pool} did not become idle within {budget:.0f} s")
    filled = time.perf_counter() - started
    memory = server_memory(server)
    kernels = list(memory["kernels"].values())
    pss = sum(k["pss"] for k in kernels)
    run.say(
        f"\n== Preheated pool ({when}): {len(kernels)} kernels waiting after {filled:.1f} s; "
        f"PSS {pss / MiB:.0f} MiB in all, median {median([k['pss'] / MiB for k in kernels]):.1f} MiB each "
        f"(RSS {median([k['rss'] / MiB for k in kernels]):.1f}, USS {median([k['uss'] / MiB for k in kernels]):.1f}); "
        f"load average {load_average()}"
    )
    return {
        "kernels": len(kernels),
        "filled_s": filled,
        "pss_mib": pss / MiB,
        "kernel_pss_median_mib": median([k["pss"] / MiB for k in kernels]),
        "kernel_rss_median_mib": median([k["rss"] / MiB for k in kernels]),
        "kernel_uss_median_mib": median([k["uss"] / MiB for k in kernels]),
    }


async def baseline(run: Run, app_server: VoilaServer, query: str) -> dict[str, Any]:
    run.say("\n== Baseline: one session alone on each notebook, same Voila options (protocol client, 3 clicks)")
    bare_server = run.server(BARE_MPL)
    try:
        bare = await _one_alone(run, bare_server, BARE_TARGET, "", 3)
    finally:
        bare_server.stop()
    app = await _one_alone(run, app_server, APP_TARGET, query, 3)
    for name, figures in (("bare_mpl.ipynb", bare), ("app.ipynb", app)):
        k, s = figures["kernel"], figures["session"]
        run.say(
            f"   {name:<15} kernel: RSS {k['rss'] / MiB:6.1f} MiB  USS {k['uss'] / MiB:6.1f} MiB  "
            f"PSS {k['pss'] / MiB:6.1f} MiB   (interactive in {s['interactive_s']:.1f} s; "
            f"clicks {median(s['latencies_ms']):.0f} ms median)"
        )
    ratio_rss = app["kernel"]["rss"] / bare["kernel"]["rss"]
    ratio_uss = app["kernel"]["uss"] / bare["kernel"]["uss"]
    verdict = "met" if ratio_rss <= TARGET_KERNEL_RATIO else "MISSED"
    run.say(
        f"   app / bare kernel: RSS {ratio_rss:.2f}x, USS {ratio_uss:.2f}x  "
        f"(target {TARGET_KERNEL_RATIO}x on RSS: {verdict})"
    )
    return {"bare": bare, "app": app, "ratio_rss": ratio_rss, "ratio_uss": ratio_uss}


async def _session(
    run: Run,
    index: int,
    kind: str,
    delay: float,
    phase_start: float,
    url: str,
    browser: Any,
    played: asyncio.Event,
    release: asyncio.Event,
    results: list[SessionResult],
    expected_clicks: int,
    rng: random.Random,
    whole_deal: bool,
) -> None:
    options = run.options
    result = SessionResult(index=index, kind=kind)
    results.append(result)
    await asyncio.sleep(delay)
    started = time.perf_counter()
    result.started_at = started - phase_start
    timeout = min(options.page_timeout, max(5.0, run.left() - 60))
    if kind == "browser":
        session: Any = BrowserSession(browser, url, run.target, result, timeout)
    else:
        base, _, query = url.partition("?")
        session = ProtocolSession(base, run.target, "?" + query if query else "", result, timeout)
    try:
        await session.open(started)
        now = time.perf_counter()
        result.interactive_s = now - started
        result.interactive_at = now - phase_start
        for _ in range(expected_clicks):
            if session.button_disabled():
                break
            await asyncio.sleep(options.think * rng.uniform(0.5, 1.5))
            if run.left() < 60:
                result.errors.append("stopped clicking: the time limit is near")
                break
            latency = await session.click(options.click_timeout)
            if kind == "browser" and session.button_disabled():
                break  # the page's button was already disabled: no click was made
            result.clicks += 1
            if latency is None:
                result.unanswered += 1
            else:
                result.latencies_ms.append(latency)
        if kind == "browser":
            await session.check()
        elif whole_deal:  # the button's "disabled" update after the last card (a busy kernel may be slow)
            waited = time.perf_counter()
            while not session.button_disabled() and time.perf_counter() - waited < 10:
                await asyncio.sleep(0.25)
        result.deal_over = session.button_disabled()
    except Exception as error:
        message = str(error).splitlines()[0] if str(error) else repr(error)
        result.errors.append(f"{type(error).__name__}: {message}")
    finally:
        played.set()  # counted by the caller
        try:
            await release.wait()
        finally:
            try:
                await session.close()
                result.closed = True
            except Exception as error:
                result.errors.append(f"closing: {error!r}")


async def load_phase(
    run: Run, server: VoilaServer, query: str, expected_clicks: int, whole_deal: bool
) -> dict[str, Any]:
    options = run.options
    n, b = options.sessions, min(options.browsers, options.sessions)
    browser_at = {round(k * n / b) for k in range(b)} if b else set()
    run.say(
        f"\n== Load: {n} sessions ({b} in headless Chromium, {n - b} protocol clients), opened over "
        f"{options.ramp:.0f} s, each stepping through the deal ({expected_clicks} clicks, think time "
        f"{options.think:.1f} s +-50%)"
    )
    load_at_start = load_average()
    run.say(f"   load average {load_at_start} at the start of the load")
    results: list[SessionResult] = []
    release = asyncio.Event()
    rng = random.Random(options.rng_seed)
    url = server.url + query.lstrip("/")
    samples: list[dict[str, Any]] = []
    sampling = True

    async def sample() -> None:  # the whole server's memory every 2 s, for the peak
        while sampling:
            memory = server_memory(server)
            total = memory["server"]["pss"] + sum(k["pss"] for k in memory["kernels"].values())
            samples.append({"t": time.perf_counter() - phase_start, "pss": total, "kernels": len(memory["kernels"])})
            await asyncio.sleep(2.0)

    browser = None
    playwright_cm = None
    if b:
        from browser_fixtures import CHROMIUM, CHROMIUM_ARGS
        from playwright.async_api import async_playwright

        playwright_cm = async_playwright()
        playwright = await playwright_cm.__aenter__()
        # every host name but loopback's is unresolvable: the page's CDN stylesheets fail at once
        args = [*CHROMIUM_ARGS, "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost"]
        browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=args, headless=True)
    try:
        phase_start = time.perf_counter()
        sampler = asyncio.ensure_future(sample())
        played_events = []
        tasks = []
        for index in range(n):
            played = asyncio.Event()
            played_events.append(played)
            kind = "browser" if index in browser_at else "protocol"
            delay = options.ramp * index / n
            tasks.append(
                asyncio.ensure_future(
                    _session(
                        run,
                        index,
                        kind,
                        delay,
                        phase_start,
                        url,
                        browser,
                        played,
                        release,
                        results,
                        expected_clicks,
                        random.Random(rng.random()),
                        whole_deal,
                    )
                )
            )
        budget = max(10.0, run.left() - (options.cull_idle + 4 * options.cull_interval + 60 + 5 * n))
        try:
            await asyncio.wait_for(asyncio.gather(*(e.wait() for e in played_events)), budget)
        except asyncio.TimeoutError:
            run.out["errors"].append(f"not every session had played after {budget:.0f} s")
        played_at = time.perf_counter() - phase_start
        load_when_played = load_average()
        memory = server_memory(server)
        cpu = dict.fromkeys(memory["kernels"])
        try:
            from voila_server import process_cpu_seconds

            pids = server.kernels()
            cpu = {kid: process_cpu_seconds(pid) for kid, pid in pids.items()}
            server_cpu = process_cpu_seconds(server.pid)
        except Exception:
            server_cpu = None
        sampling = False
        await sampler
        # every tab closes
        release.set()
        closing = time.perf_counter()
        await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), max(10.0, run.left() - 30))
        closed_at = time.perf_counter()
    finally:
        release.set()
        if browser is not None:
            await browser.close()
        if playwright_cm is not None:
            await playwright_cm.__aexit__(None, None, None)

    # culling: every session's kernel must go by itself
    session_kernels = {r.kernel_id for r in results if r.kernel_id}
    # Culling shuts idle kernels down one after the other, each waiting for its kernel to exit:
    # seconds apiece on a busy machine, so the wait grows with the number of sessions.
    limit = options.cull_idle + 4 * options.cull_interval + 30 + 5 * len(session_kernels)
    gone_after = None
    left: set[str] = set()
    waited_from = time.perf_counter()
    while time.perf_counter() - waited_from < min(limit, max(0.0, run.left() - 15)):
        live = set(server.kernels())
        left = session_kernels & live
        pool_only = len(live - session_kernels) <= (options.pool or 0)
        if not left and pool_only:
            gone_after = time.perf_counter() - closing
            break
        await asyncio.sleep(0.5)
    else:
        live = set(server.kernels())
        left = session_kernels & live
    return {
        "results": [asdict(r) for r in results],
        "played_at": played_at,
        "load_at_start": load_at_start,
        "load_when_played": load_when_played,
        "memory": memory,
        "kernel_cpu": cpu,
        "server_cpu": server_cpu,
        "peak_pss": max((s["pss"] for s in samples), default=0),
        "peak_kernels": max((s["kernels"] for s in samples), default=0),
        "closing_s": closed_at - closing,
        "kernels_gone_after": gone_after,
        "kernels_left": sorted(left),
        "kernels_live_after": sorted(server.kernels()),
        "session_kernels": len(session_kernels),
    }


def _server_log_problems(text: str) -> list[str]:
    """The server log's error lines (with the two lines after each), tracebacks once each."""
    lines = text.splitlines()
    found = []
    for i, line in enumerate(lines):
        if re.search(r"\[(E|C) |\bERROR\b|CRITICAL|timed out|Timeout|Kernel died|Kernel didn't respond", line):
            found.append(" | ".join(x.strip() for x in lines[i : i + 3])[:400])
    return found


def report(
    run: Run, load: dict[str, Any], base: dict[str, Any] | None, expected_clicks: int, whole_deal: bool
) -> dict[str, Any]:
    options = run.options
    results = load["results"]
    interactive = [r for r in results if r["interactive_s"] is not None]
    errors = [(r["index"], r["kind"], e) for r in results for e in r["errors"]]
    clicks = sum(r["clicks"] for r in results)
    answered = sum(len(r["latencies_ms"]) for r in results)
    unanswered = sum(r["unanswered"] for r in results)
    # played: every click made and answered, and the deal finished when the whole deal was asked for
    played = [
        r
        for r in results
        if r["interactive_s"] is not None
        and (r["deal_over"] or not whole_deal)
        and r["clicks"] == expected_clicks
        and not r["unanswered"]
    ]
    all_lat = [x for r in results for x in r["latencies_ms"]]
    say = run.say
    say(
        f"   load average {load['load_when_played']} when every session had played "
        f"({load['played_at']:.0f} s after the first page request)"
    )

    def stats(kind: str | None, key: str) -> list[float]:
        return [r[key] for r in results if r[key] is not None and (kind is None or r["kind"] == kind)]

    say(
        "\n-- Interactive (from a session's page request to its button enabled, or for a protocol client "
        "to the widget states read and the button found enabled)"
    )
    if interactive:
        last = max(r["interactive_at"] for r in interactive)
        say(
            f"   {len(interactive)}/{len(results)} sessions interactive; the last at {last:.1f} s "
            f"after the first page request (sessions opened over {options.ramp:.0f} s)"
        )
    else:
        last = None
        say(f"   0/{len(results)} sessions interactive")
    for kind in ("browser", "protocol"):
        t = stats(kind, "interactive_s")
        if t:
            pages = stats(kind, "page_s")
            say(
                f"   {kind:<8} ({len(t):2d}): time to interactive median {median(t):5.1f} s, p95 {p95(t):5.1f} s, "
                f"max {max(t):5.1f} s"
                + (f"; whole page received median {median(pages):5.1f} s" if kind == "protocol" else "")
            )
    say(f"\n-- Clicks on .{run.target.button} until the .{run.target.output} value changed (under load)")
    say(
        f"   {clicks} clicks, {answered} answered, {unanswered} unanswered within {options.click_timeout:.0f} s; "
        f"{len(played)}/{len(results)} sessions made every click"
        + (f" and played the whole deal ({expected_clicks} cards)" if whole_deal else f" ({expected_clicks} each)")
    )
    if all_lat:
        say(f"   latency: median {median(all_lat):6.0f} ms, p95 {p95(all_lat):6.0f} ms, max {max(all_lat):6.0f} ms")
    for kind in ("browser", "protocol"):
        lat = [x for r in results if r["kind"] == kind for x in r["latencies_ms"]]
        if lat:
            say(f"   {kind:<8}: median {median(lat):6.0f} ms, p95 {p95(lat):6.0f} ms (n={len(lat)})")

    memory = load["memory"]
    ids = {r["kernel_id"] for r in results if r["kernel_id"]}
    kernels = [m for kid, m in memory["kernels"].items() if kid in ids]
    others = [m for kid, m in memory["kernels"].items() if kid not in ids]
    server = memory["server"]
    total_pss = server["pss"] + sum(m["pss"] for m in memory["kernels"].values())
    say("\n-- Memory with every session open, after the deal (/proc/<pid>/smaps_rollup)")
    say(f"   Voila server:            PSS {server['pss'] / MiB:7.1f} MiB  RSS {server['rss'] / MiB:7.1f} MiB")
    if kernels:
        for key, label in (("pss", "PSS"), ("rss", "RSS"), ("uss", "USS")):
            values = [m[key] / MiB for m in kernels]
            say(
                f"   kernel per session {label}:  median {median(values):6.1f} MiB  (min {min(values):.1f}, "
                f"max {max(values):.1f}; n={len(values)})"
            )
        say(
            f"   {len(kernels)} session kernels:      PSS {sum(m['pss'] for m in kernels) / MiB:7.1f} MiB  "
            f"(RSS summed {sum(m['rss'] for m in kernels) / MiB:.0f} MiB counts shared pages again and again)"
        )
    if others:
        say(f"   {len(others)} other kernels (pool, baseline): PSS {sum(m['pss'] for m in others) / MiB:.1f} MiB")
    say(
        f"   server + kernels:        PSS {total_pss / MiB:7.1f} MiB  (peak while sampled every 2 s: "
        f"{load['peak_pss'] / MiB:.1f} MiB, {load['peak_kernels']} kernels)"
    )
    cpu = [c for kid, c in load["kernel_cpu"].items() if c is not None and kid in ids]
    if cpu:
        server_cpu = load["server_cpu"] or 0
        say(f"   CPU per session kernel so far: median {median(cpu):.1f} s; Voila server {server_cpu:.1f} s")

    say("\n-- Closing every tab")
    gone = load["kernels_gone_after"]
    if gone is not None:
        say(
            f"   all {load['session_kernels']} session kernels gone {gone:.1f} s after the tabs closed "
            f"(culling: idle {options.cull_idle} s, checked every {options.cull_interval} s)"
        )
    else:
        say(
            f"   {len(load['kernels_left'])} of {load['session_kernels']} session kernels LEFT BEHIND "
            f"(live after waiting: {len(load['kernels_live_after'])})"
        )

    log_text = run.servers[0].log_text() if run.servers else ""
    if options.json_path and log_text:
        Path(options.json_path).with_suffix(".voila.log").write_text(log_text)
    problems = _server_log_problems(log_text)
    if problems:
        say(
            f"\n-- Server log: {len(problems)} error lines"
            + (f" (whole log: {Path(options.json_path).with_suffix('.voila.log')})" if options.json_path else "")
        )
        kinds: dict[str, int] = {}
        for line in problems:
            key = re.sub(r"[0-9a-f]{8}-[0-9a-f-]{27}", "<kernel>", line)[:160]
            kinds[key] = kinds.get(key, 0) + 1
        for key, count in sorted(kinds.items(), key=lambda kv: -kv[1])[:8]:
            say(f"   {count:3d} x {key}")
    if errors:
        say(f"\n-- Session errors ({len(errors)})")
        grouped: dict[str, list[str]] = {}
        for index, kind, error in errors:
            grouped.setdefault(error[:300], []).append(f"{index}{'b' if kind == 'browser' else ''}")
        for error, where in sorted(grouped.items(), key=lambda kv: -len(kv[1]))[:10]:
            say(f"   {len(where):3d} x {error}  (sessions {', '.join(where[:12])}{'...' if len(where) > 12 else ''})")

    per_session_rss = median([m["rss"] for m in kernels]) if kernels else float("nan")
    summary = {
        "sessions": len(results),
        "interactive": len(interactive),
        "all_interactive_s": last,
        "played": len(played),
        "whole_deal": whole_deal,
        "clicks": clicks,
        "answered": answered,
        "unanswered": unanswered,
        "latency_median_ms": median(all_lat),
        "latency_p95_ms": p95(all_lat),
        "errors": len(errors) + len(run.out["errors"]),
        "server_log_errors": len(problems),
        "server_pss_mib": server["pss"] / MiB,
        "kernel_pss_median_mib": median([m["pss"] for m in kernels]) / MiB if kernels else None,
        "kernel_rss_median_mib": per_session_rss / MiB if kernels else None,
        "kernel_uss_median_mib": median([m["uss"] for m in kernels]) / MiB if kernels else None,
        "total_pss_mib": total_pss / MiB,
        "peak_pss_mib": load["peak_pss"] / MiB,
        "kernels_left": len(load["kernels_left"]),
        "kernels_gone_after_s": gone,
        "expected_clicks": expected_clicks,
        "interactive_median_s": median([r["interactive_s"] for r in interactive]),
        "kernel_cpu_median_s": median(cpu) if cpu else None,
        "server_cpu_s": load["server_cpu"],
        "load_at_start": load["load_at_start"],
        "load_when_played": load["load_when_played"],
        "pool": options.pool or 0,
    }
    if base:
        bare_rss = base["bare"]["kernel"]["rss"]
        summary["bare_kernel_rss_mib"] = bare_rss / MiB
        summary["bare_kernel_uss_mib"] = base["bare"]["kernel"]["uss"] / MiB
        summary["app_alone_kernel_rss_mib"] = base["app"]["kernel"]["rss"] / MiB
        summary["app_alone_kernel_uss_mib"] = base["app"]["kernel"]["uss"] / MiB
        summary["ratio_alone_rss"] = base["ratio_rss"]
        summary["ratio_alone_uss"] = base["ratio_uss"]
        summary["ratio_load_rss"] = per_session_rss / bare_rss if kernels else None

    say("\n== Targets")
    ok_all = summary["interactive"] == summary["sessions"] and summary["played"] == summary["sessions"]
    say(
        f"   {summary['sessions']} concurrent sessions all interactive and playing: "
        f"{'yes' if ok_all else 'NO'} ({summary['interactive']} interactive, {summary['played']} played "
        f"{'the deal' if whole_deal else 'every click'})"
    )
    say(
        f"   no error: {'yes' if not summary['errors'] else 'NO (' + str(summary['errors']) + ')'}"
        + (f"; server log error lines: {len(problems)}" if problems else "")
    )
    say(f"   every click answered: {'yes' if not unanswered and clicks else 'NO'} ({answered}/{clicks})")
    say(f"   no kernel left behind: {'yes' if not summary['kernels_left'] and gone is not None else 'NO'}")
    if base:
        verdict = "met" if summary["ratio_alone_rss"] <= TARGET_KERNEL_RATIO else "MISSED"
        extra = (
            f"; in the load, median app kernel RSS {summary['kernel_rss_median_mib']:.1f} MiB = "
            f"{summary['ratio_load_rss']:.2f}x bare"
            if summary.get("ratio_load_rss")
            else ""
        )
        say(
            f"   kernel memory within {TARGET_KERNEL_RATIO}x of bare ipywidgets + matplotlib: {verdict} "
            f"(alone: app RSS {summary['app_alone_kernel_rss_mib']:.1f} MiB / "
            f"bare {summary['bare_kernel_rss_mib']:.1f} MiB "
            f"= {summary['ratio_alone_rss']:.2f}x; USS {summary['ratio_alone_uss']:.2f}x{extra})"
        )
    return summary


async def main_async(run: Run) -> None:
    options = run.options
    seed, cards = deal_seed()
    if run.target is BARE_TARGET:  # a counter: no deal, no end
        cards = options.clicks or cards
    expected = cards if not options.clicks else min(options.clicks, cards)
    query = run.target.query.format(seed=seed)
    run.out["seed"] = seed
    run.say(
        f"load_test: {options.sessions} sessions ({min(options.browsers, options.sessions)} headless Chromium), "
        f"loopback only, time limit {options.time_limit:.0f} s"
    )
    mem_total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 1024**3
    run.say(f"machine: {os.cpu_count()} cores, {mem_total:.1f} GiB; load average {load_average()} at the start")
    if run.target is APP_TARGET:
        run.say(f"deal: {query} (seed {seed}: {cards} cards, the odds change at each)")
    server = run.server(run.target.notebook)
    run.say(f"app server: python -m voila {' '.join(server.command[3:])}")
    run.say(
        f"   (speculation_nb.serve.voila_args, as ./scripts/serve; culling set with "
        f"SPECULATION_CULL_IDLE_TIMEOUT={options.cull_idle} SPECULATION_CULL_INTERVAL={options.cull_interval}"
        + (f", SPECULATION_POOL_SIZE={options.pool}" if options.pool is not None else "")
        + f"); "
        f"answering after {server.started_in:.1f} s"
    )
    if options.voila_config:
        run.say(
            f"   EXPERIMENT: extra Voila configuration (voila.json, not the README's options): {options.voila_config}"
        )
    if run.target is not APP_TARGET:
        run.say(f"   COMPARISON: the load on {run.target.notebook}, not on the app")
    if options.pool:
        run.out["pool"] = await pool_ready(run, server, "before the lesson")
    base = await baseline(run, server, query) if options.baseline and run.target is APP_TARGET else None
    run.out["baseline"] = base
    if options.pool and base is not None:
        await pool_ready(run, server, "again, after the baseline took one")
    whole_deal = expected == cards and run.target is APP_TARGET
    load = await load_phase(run, server, query, expected, whole_deal)
    run.out["load"] = load
    run.out["summary"] = report(run, load, base, expected, whole_deal)


def _on_sigterm(*_: Any) -> None:
    raise KeyboardInterrupt("SIGTERM")  # unwinds through every finally: servers and browsers stop


def run(options: Options) -> dict[str, Any]:
    """Run the load test; return its figures (``summary``, ``baseline``, ``load``)."""
    state = Run(options)
    from tornado.httpclient import AsyncHTTPClient

    AsyncHTTPClient.configure(None, max_clients=max(10, 4 * options.sessions))

    def watchdog() -> None:  # the last resort if the event loop itself is stuck
        print("load_test: over the time limit by 60 s: stopping everything", file=sys.stderr, flush=True)
        state.stop_all()
        os._exit(3)

    timer = threading.Timer(options.time_limit + 60, watchdog)
    timer.daemon = True
    timer.start()
    previous = signal.getsignal(signal.SIGTERM)
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, _on_sigterm)
    try:
        asyncio.run(asyncio.wait_for(main_async(state), options.time_limit))
    except asyncio.TimeoutError:
        state.out["errors"].append(f"stopped at the time limit ({options.time_limit:.0f} s)")
        print(f"load_test: stopped at the time limit ({options.time_limit:.0f} s)", flush=True)
    finally:
        state.stop_all()
        timer.cancel()
        if threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGTERM, previous)
    state.out["took_s"] = time.monotonic() - state.started
    state.say(f"\nload_test took {state.out['took_s']:.0f} s; load average {load_average()} at the end")
    if options.json_path:
        Path(options.json_path).write_text(json.dumps(state.out, indent=1, default=str))
    return state.out


def _ok(summary: dict[str, Any] | None) -> bool:
    return bool(
        summary
        and summary["interactive"] == summary["sessions"]
        and summary["played"] == summary["sessions"]
        and not summary["errors"]
        and not summary["kernels_left"]
        and summary["kernels_gone_after_s"] is not None
    )


def compare_pool(options: Options, pool: int) -> int:
    """The same load twice, one after the other: no pool (a kernel per page), then a pool of
    ``pool`` filled before the sessions arrive; both printed, with the load average of each."""
    from dataclasses import replace

    runs = []
    for label, changes in (("no pool", {"pool": 0}), (f"pool of {pool}", {"pool": pool, "baseline": False})):
        json_path = options.json_path and str(Path(options.json_path).with_suffix(f".{changes['pool']}.json"))
        print(f"\n######## load_test --compare-pool: {label}", flush=True)
        runs.append((label, run(replace(options, json_path=json_path, **changes))))
    rows = [
        ("sessions interactive", "interactive", "{:.0f}"),
        ("the last interactive after (s)", "all_interactive_s", "{:.1f}"),
        ("time to interactive, median (s)", "interactive_median_s", "{:.1f}"),
        ("clicks answered / made", None, ""),
        ("click latency median / p95 (ms)", None, ""),
        ("kernel CPU per session, median (s)", "kernel_cpu_median_s", "{:.2f}"),
        ("Voila server CPU (s)", "server_cpu_s", "{:.1f}"),
        ("server + kernels PSS, peak (MiB)", "peak_pss_mib", "{:.0f}"),
        ("kernels left after closing", "kernels_left", "{:.0f}"),
        ("load average at the start of the load", "load_at_start", "{}"),
        ("load average when all had played", "load_when_played", "{}"),
    ]
    print(
        f"\n######## {options.sessions} sessions: no pool against a pool of {pool} (same command, one after the other)"
    )
    print(f"   {'':40s} {runs[0][0]:>22s} {runs[1][0]:>22s}")
    for title, key, fmt in rows:
        cells = []
        for _, out in runs:
            summary = out.get("summary") or {}
            if not summary:
                cells.append("(no figures)")
            elif title.startswith("clicks"):
                cells.append(f"{summary['answered']}/{summary['clicks']}")
            elif title.startswith("click latency"):
                cells.append(f"{summary['latency_median_ms']:.0f} / {summary['latency_p95_ms']:.0f}")
            else:
                value = summary.get(key)
                cells.append("-" if value is None else fmt.format(value))
        print(f"   {title:40s} {cells[0]:>22s} {cells[1]:>22s}")
    pool_figures = runs[1][1].get("pool")
    if pool_figures:
        print(
            f"   the pool: {pool_figures['kernels']} kernels filled in {pool_figures['filled_s']:.0f} s before the "
            f"lesson, PSS {pool_figures['pss_mib']:.0f} MiB ({pool_figures['kernel_pss_median_mib']:.0f} MiB each)"
        )
    first, second = (out.get("summary") or {} for _, out in runs)
    if first.get("all_interactive_s") and second.get("all_interactive_s"):
        print(
            f"   ratio of the last interactive: {first['all_interactive_s'] / second['all_interactive_s']:.2f}x faster"
        )
    return 0 if _ok(second) else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", type=int, default=30, help="concurrent sessions (default 30)")
    parser.add_argument("--browsers", type=int, default=3, help="of which in headless Chromium (default 3)")
    parser.add_argument("--clicks", type=int, default=0, help="clicks per session (default 0: the whole deal)")
    parser.add_argument("--think", type=float, default=1.0, help="seconds between clicks, +-50%% (default 1)")
    parser.add_argument("--ramp", type=float, default=10.0, help="seconds over which the sessions open (default 10)")
    parser.add_argument(
        "--cull-idle",
        type=int,
        default=120,
        help="SPECULATION_CULL_IDLE_TIMEOUT for the test (120, as served: shorter, a page slower to connect "
        "than that loses its kernel, 'Kernel never reached an alive state')",
    )
    parser.add_argument("--cull-interval", type=int, default=2, help="SPECULATION_CULL_INTERVAL for the test (2)")
    parser.add_argument("--pool", type=int, default=None, help="SPECULATION_POOL_SIZE (default: as the environment)")
    parser.add_argument(
        "--fill-delay", type=int, default=None, help="SPECULATION_POOL_FILL_DELAY (default: as speculation_nb.serve)"
    )
    parser.add_argument(
        "--compare-pool",
        type=int,
        default=0,
        metavar="N",
        help="run the load twice, with no pool and then with a pool of N, and compare",
    )
    parser.add_argument("--page-timeout", type=float, default=300.0, help="seconds for a page to be interactive")
    parser.add_argument("--click-timeout", type=float, default=60.0, help="seconds for a click to be answered")
    parser.add_argument("--time-limit", type=float, default=900.0, help="hard limit of the whole run (default 900 s)")
    parser.add_argument("--no-baseline", action="store_true", help="skip the bare-kernel comparison")
    parser.add_argument("--json", dest="json_path", default="", help="write the figures to this file")
    parser.add_argument("--quiet", action="store_true")
    parser.add_argument(
        "--notebook",
        choices=["app", "bare_mpl"],
        default="app",
        help="a comparison: put the same load on benchmarks/bare_mpl.ipynb instead of the app",
    )
    parser.add_argument(
        "--voila-config",
        default="",
        metavar="JSON",
        help="an experiment: extra Voila configuration, e.g. "
        '\'{"VoilaExecutor": {"iopub_timeout": 60}}\' (not the README\'s options)',
    )
    args = parser.parse_args(argv)
    if args.sessions < 1 or args.browsers < 0 or args.time_limit <= 0 or args.time_limit > 3600:
        parser.error("--sessions at least 1, --browsers at least 0, --time-limit from 1 to 3600 s")
    if args.pool is None and os.environ.get("SPECULATION_POOL_SIZE", "").strip():
        args.pool = int(os.environ["SPECULATION_POOL_SIZE"])
    options = Options(
        sessions=args.sessions,
        browsers=args.browsers,
        clicks=args.clicks,
        think=args.think,
        ramp=args.ramp,
        cull_idle=args.cull_idle,
        cull_interval=args.cull_interval,
        pool=args.pool,
        fill_delay=args.fill_delay,
        page_timeout=args.page_timeout,
        click_timeout=args.click_timeout,
        time_limit=args.time_limit,
        baseline=not args.no_baseline,
        json_path=args.json_path,
        quiet=args.quiet,
        voila_config=args.voila_config,
        notebook=args.notebook,
    )
    if args.voila_config:
        json.loads(args.voila_config)  # fails early if it is not JSON
    try:
        if args.compare_pool:
            return compare_pool(options, args.compare_pool)
        out = run(options)
    except KeyboardInterrupt as stop:
        print(
            f"load_test: stopped ({stop or 'Ctrl-C'}); every server, kernel and browser it started is stopped",
            file=sys.stderr,
            flush=True,
        )
        return 130
    summary = out.get("summary")
    if not summary:
        return 2
    return 0 if _ok(summary) else 1


if __name__ == "__main__":
    sys.exit(main())
