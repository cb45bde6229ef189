"""Shared test settings."""

import os

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "default",
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("ci", parent=settings.get_profile("default"), derandomize=True)
settings.load_profile("ci" if os.environ.get("CI") else "default")

# The browser fixtures live here, once for every module: a session-scoped fixture
# imported into two test modules would start Playwright twice in one run.
from browser_fixtures import browser, open_page, playwright_session  # noqa: E402,F401

# The one real redis-server of the session (the table store's tests and the shared table's
# browser tests share it).
from redis_server import redis_server  # noqa: E402,F401

# The static site's build, server and offline browser: one of each for every module that uses them.
from site_fixtures import built_site, outside, site_browser, site_url  # noqa: E402,F401
from voila_server import running_servers  # noqa: E402


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    """A failing test's report ends with the log of every Voila server still running: the
    server's temporary folder, and its log with it, goes when the server stops."""
    report = yield
    if report.failed:
        for server in running_servers():
            report.sections.append((f"Voila log {server.url} (last 80 lines)", server.log_tail(80)))
    return report
