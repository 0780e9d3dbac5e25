"""The service on the embedded default (SQLite, deliveries in-process) served on loopback,
with webhooks to loopback allowed, as the receivers here are on this machine."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import httpx
import pytest

from service.events.migrate import upgrade
from service.http.api_settings import HttpSettings
from service.http.app import create_app
from service.webhooks.settings import WebhookSettings
from service.wiring.settings import Settings
from tests.workers.conftest import (  # noqa: F401  (PostgreSQL, Redis and `cya worker`s)
    database_url,
    pg_template,
    redis_db,
    settings,
    workers,
)

from .servers import serving

# A message is tried 4 times, 0.1, 0.2 and 0.4 s apart, then its subscription is disabled.
HOOKS = WebhookSettings(allow_private=True, decision_deadline_s=2.5,
                        retry_schedule_s=(0.1, 0.2, 0.4), sweep_interval_s=0.5)


def service(tmp_path: Path, hooks: WebhookSettings = HOOKS) -> Iterator[httpx.Client]:
    url = f"sqlite+aiosqlite:///{tmp_path / 'cya.sqlite3'}"
    upgrade(url)
    embedded = replace(Settings(database_url=url, scheduler="in_process"), webhooks=hooks)
    app = create_app(embedded, HttpSettings(rate_limit_per_minute=0))
    with serving(app) as base, httpx.Client(base_url=base, timeout=30) as http:
        yield http


@pytest.fixture
def api(tmp_path: Path) -> Iterator[httpx.Client]:
    yield from service(tmp_path)


@pytest.fixture
def strict_api(tmp_path: Path) -> Iterator[httpx.Client]:
    """Webhooks to private and loopback addresses refused, as in production."""
    yield from service(tmp_path, replace(HOOKS, allow_private=False))
