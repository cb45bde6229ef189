"""The load test, small: 1 page in headless Chromium and 3 protocol clients at once.

Runs ``benchmarks/load_test.py`` as the one command it is (a subprocess, with
its own hard time limit), on the README's Voila options with culling
shortened, and checks what issue 7 asks of it: no error, every session
interactive, every click answered, the whole deal played, and no kernel left
behind once the tabs are closed; once with a kernel started per page, once with
a preheated pool (issue 12). The figures are printed (``-rP``).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys

import pytest
from browser_fixtures import CHROMIUM
from voila_server import REPO

pytestmark = pytest.mark.browser

TIME_LIMIT = 400  # a safety net: the load test stops itself by then; this test kills it 30 s later
#: Culling removes a kernel idle this long with no page connected. A kernel is idle, and not yet
#: connected, from the end of its page's rendering until the browser has loaded the page's
#: scripts and opened its websocket: on a busy 2-core machine a headless Chromium took over 30 s
#: for that, and a kernel culled meanwhile fails its page ("Kernel never reached an 'alive'
#: state"). So culling here waits as long as the served default (120 s) allows a slow page.
CULL_IDLE = 90


@pytest.mark.parametrize(
    "pool",
    [
        pytest.param(0, id="a-kernel-per-page"),
        # a preheated pool (SPECULATION_POOL_SIZE), filled before the sessions arrive: the
        # page's address reaches kernels started before it (widgets/page_address.py)
        pytest.param(5, id="preheated-pool"),
    ],
)
def test_a_small_class_at_once(tmp_path, pool: int) -> None:
    if not os.path.isfile(CHROMIUM):
        message = f"no Chromium at {CHROMIUM} (scripts/test installs Debian's chromium)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    pytest.importorskip("playwright.async_api")
    figures = tmp_path / "load.json"
    command = [
        sys.executable,
        str(REPO / "benchmarks" / "load_test.py"),
        "--sessions",
        "4",
        "--browsers",
        "1",
        "--clicks",
        "4",
        "--think",
        "0.3",
        "--ramp",
        "1",
        "--cull-idle",
        str(CULL_IDLE),
        "--cull-interval",
        "1",
        "--no-baseline",
        "--pool",
        str(pool),
        "--time-limit",
        str(TIME_LIMIT),
        "--json",
        str(figures),
    ]
    process = subprocess.Popen(
        command, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, text=True
    )
    try:
        output, _ = process.communicate(timeout=TIME_LIMIT + 30)
    except subprocess.TimeoutExpired:
        process.send_signal(signal.SIGTERM)  # the load test stops its server and browser on SIGTERM
        try:
            output, _ = process.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            output, _ = process.communicate()
        pytest.fail("the load test overran its own time limit:\n" + output[-3000:])
    print(output)
    assert figures.is_file(), output[-3000:]
    summary = json.loads(figures.read_text()).get("summary")
    assert summary, output[-3000:]
    assert summary["sessions"] == 4
    assert summary["errors"] == 0, output[-3000:]
    assert summary["server_log_errors"] == 0, output[-3000:]
    assert summary["interactive"] == 4, output[-3000:]
    assert summary["clicks"] == 4 * 4 and summary["answered"] == summary["clicks"], output[-3000:]
    assert summary["played"] == 4, output[-3000:]
    assert summary["kernels_left"] == 0 and summary["kernels_gone_after_s"] is not None, output[-3000:]
    if pool:
        figures_pool = json.loads(figures.read_text())["pool"]
        assert figures_pool["kernels"] >= pool, output[-3000:]
    assert process.returncode == 0, output[-3000:]
