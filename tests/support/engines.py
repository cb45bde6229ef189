"""The other browser engines students have, behind one small page interface.

Chromium is driven by Playwright (``browser_fixtures.py``). Here:

* **Firefox**: Debian's ``firefox-esr``, driven over WebDriver BiDi by npm's ``puppeteer-core``
  in a Node process (``node/firefox_driver.mjs``), one JSON command a line;
* **WebKit**, the engine of every iPhone browser: Debian's WebKitGTK ``MiniBrowser`` through
  ``WebKitWebDriver`` and Selenium, on a virtual screen (Xvfb).

Both answer the same calls (:class:`EnginePage`), so a test is written once for both. Scripts are
JavaScript *expressions* (``"document.title"``), evaluated in the page. Nothing reaches beyond
loopback: Firefox aborts outside requests and reports them in :meth:`EnginePage.problems`; WebKit
reports there the page's resource entries for another host. :meth:`EnginePage.console` gives
Firefox's console messages.
"""

from __future__ import annotations

import glob
import json
import os
import shutil
import subprocess
import time
from contextlib import suppress
from pathlib import Path
from typing import Any, Protocol

NODE_TOOLS = Path(__file__).resolve().parent / "node"
AXE = NODE_TOOLS / "node_modules" / "axe-core" / "axe.min.js"
FIREFOX = "/usr/bin/firefox-esr"
WEBKIT_DRIVER = "/usr/bin/WebKitWebDriver"


class EngineMissing(RuntimeError):
    """The engine (or its driver) is not installed on this machine: the test is skipped."""


class EnginePage(Protocol):
    name: str

    def viewport(self, width: int, height: int) -> None: ...
    def goto(self, url: str, timeout: float = 120) -> None: ...
    def wait(self, selector: str, timeout: float = 120) -> None: ...
    def wait_for(self, expression: str, timeout: float = 60) -> None: ...
    def click(self, selector: str) -> None: ...
    def evaluate(self, expression: str) -> Any: ...
    def add_script(self, path: Path) -> None: ...
    def screenshot(self, path: Path) -> None: ...
    def problems(self) -> list[str]: ...
    def console(self) -> list[str]: ...
    def version(self) -> str: ...


class FirefoxPage:
    """One Firefox page in a Node process (see the module docstring)."""

    name = "firefox"

    def __init__(self) -> None:
        if not Path(FIREFOX).exists() or shutil.which("node") is None:
            raise EngineMissing("Debian's firefox-esr and node are needed")
        if not (NODE_TOOLS / "node_modules" / "puppeteer-core").is_dir():
            raise EngineMissing("npm's puppeteer-core is missing: npm ci in tests/support/node")
        self._process = subprocess.Popen(
            ["node", str(NODE_TOOLS / "firefox_driver.mjs")],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "FIREFOX": FIREFOX},
        )
        self._next = 0

    def _call(self, cmd: str, **args: Any) -> Any:
        assert self._process.stdin is not None and self._process.stdout is not None
        self._next += 1
        self._process.stdin.write(json.dumps({"id": self._next, "cmd": cmd, "args": args}) + "\n")
        self._process.stdin.flush()
        line = self._process.stdout.readline()
        if not line:
            error = self._process.stderr.read() if self._process.stderr else ""
            raise RuntimeError(f"Firefox's driver stopped: {error[-2000:]}")
        answer = json.loads(line)
        if not answer["ok"]:
            raise AssertionError(f"Firefox: {cmd} {args}: {answer['error']}")
        return answer["value"]

    def viewport(self, width: int, height: int) -> None:
        self._call("viewport", width=width, height=height)

    def goto(self, url: str, timeout: float = 120) -> None:
        self._call("goto", url=url, timeout=timeout * 1000)

    def wait(self, selector: str, timeout: float = 120) -> None:
        self._call("wait", selector=selector, timeout=timeout * 1000)

    def wait_for(self, expression: str, timeout: float = 60) -> None:
        self._call("waitFunction", script=expression, timeout=timeout * 1000)

    def click(self, selector: str) -> None:
        self._call("click", selector=selector)

    def evaluate(self, expression: str) -> Any:
        return self._call("evaluate", script=expression)

    def add_script(self, path: Path) -> None:
        self._call("addScript", path=str(path))

    def screenshot(self, path: Path) -> None:
        self._call("screenshot", path=str(path))

    def problems(self) -> list[str]:
        return list(self._call("problems"))

    def console(self) -> list[str]:
        """The console's messages since the last call, ``"<type>: <text>"``."""
        return list(self._call("console"))

    def version(self) -> str:
        return str(self._call("version"))

    def close(self) -> None:
        with suppress(Exception):  # "close" has no answer: the driver closes Firefox and ends
            assert self._process.stdin is not None
            self._process.stdin.write(json.dumps({"id": 0, "cmd": "close"}) + "\n")
            self._process.stdin.close()
        try:
            self._process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()


class WebKitPage:
    """One WebKitGTK MiniBrowser window under Xvfb, through Selenium (see the module docstring)."""

    name = "webkit"

    def __init__(self) -> None:
        browsers = glob.glob("/usr/lib/*/webkit2gtk-4.*/MiniBrowser")
        if not browsers or not Path(WEBKIT_DRIVER).exists() or shutil.which("Xvfb") is None:
            raise EngineMissing("Debian's webkit2gtk-driver and xvfb are needed")
        try:
            from selenium import webdriver
        except ImportError as error:
            raise EngineMissing("selenium is missing") from error
        self._xvfb, display = _start_xvfb()
        options = webdriver.WebKitGTKOptions()
        options.binary_location = browsers[0]
        options.add_argument("--automation")
        service = webdriver.WebKitGTKService(executable_path=WEBKIT_DRIVER, env={**os.environ, "DISPLAY": display})
        try:
            self._driver = webdriver.WebKitGTK(options=options, service=service)
        except Exception:
            self._xvfb.kill()
            raise

    def viewport(self, width: int, height: int) -> None:
        """The page's own viewport ``width`` x ``height``: the window's frame takes part of the
        window's size, and WebKitGTK applies a new size after the call returns, so each size is
        waited for (a page measured or clicked in between is laid out for neither size)."""
        self._resize(width, height)
        frame = self.evaluate("[window.outerWidth - window.innerWidth, window.outerHeight - window.innerHeight]")
        self._resize(width + frame[0], height + frame[1])

    def _resize(self, width: int, height: int) -> None:
        """Ask for a window size, and wait until the page has it (the driver says what the window
        became: MiniBrowser's window is never narrower than its toolbar, 447 px here)."""
        self._driver.set_window_size(width, height)
        size = self._driver.get_window_size()
        self.wait_for(f"window.outerWidth === {size['width']} && window.outerHeight === {size['height']}", timeout=10)

    def wait_for(self, expression: str, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while not self.evaluate(expression):
            if time.monotonic() > deadline:
                raise AssertionError(f"WebKit: waited {timeout} s for {expression}")
            time.sleep(0.1)

    def goto(self, url: str, timeout: float = 120) -> None:
        self._driver.set_page_load_timeout(timeout)
        self._driver.get(url)

    def wait(self, selector: str, timeout: float = 120) -> None:
        expression = (
            f"(() => {{ const e = document.querySelector({json.dumps(selector)});"
            " return !!e && !!(e.offsetWidth || e.offsetHeight || e.getClientRects().length); })()"
        )
        self.wait_for(expression, timeout)

    def click(self, selector: str) -> None:
        """Click the element as a person does, once it is in view and nothing covers it (the
        kernel may be redrawing the area: WebKit's driver then says "not interactable")."""
        from selenium.common.exceptions import ElementNotInteractableException, StaleElementReferenceException
        from selenium.webdriver.common.by import By

        deadline = time.monotonic() + 30
        while True:
            try:
                element = self._driver.find_element(By.CSS_SELECTOR, selector)
                self._driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", element)
                element.click()
                return
            except (ElementNotInteractableException, StaleElementReferenceException):
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)

    def evaluate(self, expression: str) -> Any:
        return self._driver.execute_script(f"return ({expression});")

    def add_script(self, path: Path) -> None:
        self._driver.execute_script(path.read_text(encoding="utf-8"))

    def screenshot(self, path: Path) -> None:
        self._driver.save_screenshot(str(path))

    def problems(self) -> list[str]:
        """Requests for another host among the page's resource entries: WebKitWebDriver cannot
        intercept requests as Firefox's driver does, and WebKit keeps no entry for a request that
        failed (measured: an image from an unresolvable host leaves none), so on an offline machine
        this finds only what a connected one would have loaded."""
        return [f"outside request: {url}" for url in self.evaluate(_OUTSIDE_RESOURCES_JS)]

    def console(self) -> list[str]:
        """Nothing: MiniBrowser writes console messages to its stdout only for the windows it
        opens itself (``--enable-write-console-messages-to-stdout``), not for the automation's
        (measured with WebKitGTK 2.50); run MiniBrowser alone under Xvfb to read a page's console."""
        return []

    def version(self) -> str:
        return str(self._driver.capabilities.get("browserVersion", "?"))

    def close(self) -> None:
        with suppress(Exception):
            self._driver.quit()
        self._xvfb.terminate()
        try:
            self._xvfb.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self._xvfb.kill()


#: The page's own requests (its resource entries) for any host but loopback.
_OUTSIDE_RESOURCES_JS = """performance.getEntriesByType('resource').map(e => e.name).filter(u => {
  const url = new URL(u);
  return !['data:', 'blob:'].includes(url.protocol) && !['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
})"""


def _start_xvfb() -> tuple[subprocess.Popen[bytes], str]:
    """A virtual screen on the first free display number (``-displayfd`` tells which)."""
    read, write = os.pipe()
    process = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write), "-screen", "0", "1920x1200x24", "-nolisten", "tcp"],
        pass_fds=(write,),
        stderr=subprocess.DEVNULL,
    )
    os.close(write)
    with os.fdopen(read) as pipe:
        number = pipe.readline().strip()
    if not number:
        process.kill()
        raise EngineMissing("Xvfb did not start")
    return process, f":{number}"


ENGINES = {"firefox": FirefoxPage, "webkit": WebKitPage}


def axe_violations(
    page: EnginePage, tags: tuple[str, ...] = ("wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa")
) -> Any:
    """axe-core's WCAG violations on the page as it is now (npm's axe-core, injected: no outside request)."""
    page.add_script(AXE)
    script = (
        "axe.run(document, {runOnly: {type: 'tag', values: " + json.dumps(list(tags)) + "}})"
        ".then(r => r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,"
        " nodes: v.nodes.map(n => n.target.join(' ')).slice(0, 5)})))"
    )
    return page.evaluate(script)
