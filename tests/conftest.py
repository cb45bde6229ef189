"""Shared test settings."""

import os

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
