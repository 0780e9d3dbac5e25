"""Settings from the environment: empty is unset, and a value that cannot be used stops the
start with a message naming the variable, not a traceback from deep inside a driver."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from service.cli.main import main
from service.events.engine import DEFAULT_DATABASE_URL
from service.events.migrate import head_revision
from service.http.api_settings import HttpSettings
from service.pipeline.hooks import NoScheduler
from service.wiring.bootstrap import build
from service.wiring.settings import ConfigError, Settings, get_settings

VARIABLES = ("CYA_DATABASE_URL", "CYA_REDIS_URL", "CYA_SCHEDULER", "CYA_DUE_WORK",
             "CYA_STATE_CACHE",
             "CYA_STATE_CACHE_SIZE", "CYA_CATCH_UP_FIRST", "CYA_SWEEP_GRACE_S",
             "CYA_VIEWS_FROM_MEMORY", "CYA_MAX_BODY_BYTES", "CYA_WEBHOOKS_RETRY_SCHEDULE_S",
             "CYA_WEBHOOKS_LEASE_S", "CYA_WEBHOOKS_SECRET_OVERLAP_S", "CYA_RECEIPTS",
             "CYA_RECEIPT_KEYS", "CYA_RECEIPT_KEYS_FILE")


@pytest.fixture(autouse=True)
def clean_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in VARIABLES:
        monkeypatch.delenv(name, raising=False)


def test_given_empty_variables_then_each_takes_its_default(monkeypatch):
    for name in VARIABLES:
        monkeypatch.setenv(name, "")
    assert Settings.from_env() == Settings(scheduler="in_process")
    assert Settings.from_env().database_url == DEFAULT_DATABASE_URL
    assert HttpSettings.from_env() == HttpSettings()


def test_given_no_receipt_keys_then_the_embedded_default_keeps_them_beside_its_database(
        monkeypatch):
    sqlite = Settings.from_env()
    monkeypatch.setenv("CYA_DATABASE_URL", "postgresql+asyncpg://u@h/cya")
    postgres = Settings.from_env()
    monkeypatch.setenv("CYA_RECEIPT_KEYS_FILE", "/run/secrets/ring.json")
    monkeypatch.setenv("CYA_RECEIPTS", "off")
    configured = Settings.from_env()

    assert sqlite.receipts and sqlite.receipt_keys_path == "./cya.sqlite3-receipt-keys.json"
    assert postgres.receipt_keys_path == "./cya-receipt-keys.json"
    assert configured.receipt_keys_path == "/run/secrets/ring.json" and not configured.receipts
    assert Settings(database_url="postgresql+asyncpg://u@h/cya").receipt_keys_path is None
    assert "SECRET" not in repr(Settings(receipt_keys='{"private_key": "SECRET"}'))


def test_given_values_then_they_are_read(monkeypatch):
    monkeypatch.setenv("CYA_STATE_CACHE", "off")
    monkeypatch.setenv("CYA_STATE_CACHE_SIZE", " 64 ")
    monkeypatch.setenv("CYA_CATCH_UP_FIRST", "yes")
    monkeypatch.setenv("CYA_SWEEP_GRACE_S", "0.5")
    monkeypatch.setenv("CYA_SCHEDULER", "none")
    monkeypatch.setenv("CYA_VIEWS_FROM_MEMORY", "0")
    monkeypatch.setenv("CYA_MAX_BODY_BYTES", "1024")
    monkeypatch.setenv("CYA_WEBHOOKS_RETRY_SCHEDULE_S", "0, 5,300")
    monkeypatch.setenv("CYA_WEBHOOKS_LEASE_S", "12.5")
    monkeypatch.setenv("CYA_WEBHOOKS_SECRET_OVERLAP_S", "0")
    settings = Settings.from_env()
    assert settings.webhooks.secret_overlap_s == 0
    assert settings.webhooks.retry_schedule_s == (0.0, 5.0, 300.0)
    assert settings.webhooks.lease_s == 12.5
    assert (settings.state_cache, settings.state_cache_size, settings.catches_up_first,
            settings.sweep_grace_s, settings.scheduler) == (False, 64, True, 0.5, "none")
    http = HttpSettings.from_env()
    assert (http.views_from_memory, http.max_body_bytes) == (False, 1024)


@pytest.mark.parametrize(("name", "value", "message"), [
    ("CYA_STATE_CACHE_SIZE", "lots", "CYA_STATE_CACHE_SIZE must be an integer, not 'lots'"),
    ("CYA_SWEEP_GRACE_S", "5s", "CYA_SWEEP_GRACE_S must be a number, not '5s'"),
    ("CYA_STATE_CACHE", "maybe", "CYA_STATE_CACHE must be 1 or 0"),
    ("CYA_SCHEDULER", "celery", "CYA_SCHEDULER must be one of rq, in_process, none, not 'celery'"),
    ("CYA_DUE_WORK", "celery", "CYA_DUE_WORK must be one of rq, in_process, none, not 'celery'"),
    ("CYA_MAX_BODY_BYTES", "64k", "CYA_MAX_BODY_BYTES must be an integer, not '64k'"),
    ("CYA_REDIS_URL", "redis+sentinel://127.0.0.1:26379", "CYA_REDIS_URL: a Sentinel URL is "
                                                         "redis\\+sentinel://host:port"),
    ("CYA_SWEEP_INTERVAL_S", "-1", "CYA_SWEEP_INTERVAL_S must be a number of at least 0.0, "
                                   "not '-1'"),
    ("CYA_SWEEP_GRACE_S", "nan", "CYA_SWEEP_GRACE_S must be a number of at least 0.0"),
    ("CYA_BOT_DELAY_MS", "-5", "CYA_BOT_DELAY_MS must be an integer of at least 0"),
    ("CYA_SSE_HEARTBEAT_SECONDS", "0", "CYA_SSE_HEARTBEAT_SECONDS must be an integer of at "
                                       "least 1"),
    ("CYA_WEBHOOKS_RETRY_SCHEDULE_S", "5s,1m", "CYA_WEBHOOKS_RETRY_SCHEDULE_S must be "
                                              "comma-separated numbers, not '5s,1m'"),
    ("CYA_WEBHOOKS_RETRY_SCHEDULE_S", "5,-1", "CYA_WEBHOOKS_RETRY_SCHEDULE_S must be numbers "
                                             "of at least 0.0"),
    ("CYA_WEBHOOKS_LEASE_S", "5", r"CYA_WEBHOOKS_LEASE_S \(5\) must be longer than "
                                  r"CYA_WEBHOOKS_TOTAL_TIMEOUT_S \(10\)"),
    ("CYA_WEBHOOKS_DISABLE_AFTER", "10", "CYA_WEBHOOKS_DISABLE_AFTER is no longer read: set "
                                         "CYA_WEBHOOKS_RETRY_SCHEDULE_S instead"),
])
def test_given_an_unusable_value_then_the_error_names_the_variable(monkeypatch, name, value,
                                                                   message):
    monkeypatch.setenv(name, value)
    with pytest.raises(ConfigError, match=message):
        Settings.from_env()
        HttpSettings.from_env()


def test_given_only_the_old_name_cya_due_work_then_it_picks_the_scheduler(monkeypatch):
    monkeypatch.setenv("CYA_DUE_WORK", "none")
    assert Settings.from_env().scheduler == "none"
    monkeypatch.setenv("CYA_SCHEDULER", "none")  # the same value under both names: no quarrel
    assert Settings.from_env().scheduler == "none"


def test_given_cya_scheduler_and_a_different_cya_due_work_then_the_error_names_both(monkeypatch):
    monkeypatch.setenv("CYA_SCHEDULER", "rq")
    monkeypatch.setenv("CYA_DUE_WORK", "in_process")
    with pytest.raises(ConfigError, match=r"CYA_SCHEDULER \('rq'\) and CYA_DUE_WORK "
                                          r"\('in_process'\), its old name, differ"):
        Settings.from_env()


def test_given_an_unusable_value_then_the_cli_says_so_without_a_traceback(monkeypatch):
    monkeypatch.setenv("CYA_STATE_CACHE_SIZE", "lots")
    get_settings.cache_clear()
    try:
        result = CliRunner().invoke(main, ["db", "upgrade"])
    finally:
        get_settings.cache_clear()
    assert result.exit_code == 1
    assert result.output == "Error: CYA_STATE_CACHE_SIZE must be an integer, not 'lots'\n"


@pytest.mark.parametrize("command", [["simulate", "-n", "1"], ["audit", "verify", "g"],
                                     ["projections", "rebuild"]])
def test_given_an_unmigrated_database_then_the_cli_says_to_migrate_it(tmp_path, command):
    url = f"sqlite+aiosqlite:///{tmp_path / 'new.sqlite3'}"
    get_settings.cache_clear()
    try:
        result = CliRunner().invoke(main, ["--database-url", url, *command])
    finally:
        get_settings.cache_clear()
    assert result.exit_code == 1
    assert result.output.startswith("Error: schema at revision none, this code needs ")
    assert result.output.endswith(": run `cya db upgrade`\n"), result.output


def test_given_db_upgrade_then_it_names_the_revision_the_database_is_at(tmp_path):
    url = f"sqlite+aiosqlite:///{tmp_path / 'db.sqlite3'}"
    get_settings.cache_clear()
    try:
        def cya(*args: str):
            return CliRunner().invoke(main, ["--database-url", url, "db", "upgrade", *args])

        first, older, unknown = cya(), cya("0005"), cya("9999")
        unreachable = CliRunner().invoke(main, [
            "--database-url", "postgresql+asyncpg://nobody@127.0.0.1:1/none", "db", "upgrade"])
    finally:
        get_settings.cache_clear()
    assert first.exit_code == 0 and first.output == f"database at {head_revision()}\n"
    assert older.exit_code == 0, older.output
    assert older.output == (f"database at {head_revision()} (asked for 0005: migrations only "
                            "go up)\n")
    assert unknown.exit_code == 1 and unknown.output.startswith("Error: ")
    assert "9999" in unknown.output and "Traceback" not in unknown.output
    assert unreachable.exit_code == 1, unreachable.output
    assert unreachable.output.startswith("Error: cannot reach the database: ")
    assert len(unreachable.output.splitlines()) <= 3


@pytest.mark.parametrize("scheduler", [None, NoScheduler()], ids=["its own", "a given one"])
def test_given_rq_without_redis_then_the_start_fails_whatever_the_scheduler(tmp_path,
                                                                           scheduler):
    # Where work runs is chosen once: the tournaments' wake-ups and the webhook deliveries
    # used to fall back to this process, unseen, when a scheduler was given.
    url = f"sqlite+aiosqlite:///{tmp_path / 'db.sqlite3'}"
    with pytest.raises(ValueError, match="scheduler=rq needs CYA_REDIS_URL"):
        build(Settings(database_url=url, scheduler="rq"), scheduler=scheduler)


def test_given_quick_play_settings_then_they_are_read_and_nonsense_refused(monkeypatch):
    monkeypatch.setenv("CYA_MATCH_WIDEN_PER_S", "2.5")
    monkeypatch.setenv("CYA_MATCH_TICK_S", "0.5")
    read = Settings.from_env()
    assert (read.match_widen_per_s, read.match_tick_s) == (2.5, 0.5)

    monkeypatch.setenv("CYA_MATCH_TICK_S", "0")
    with pytest.raises(ConfigError, match="CYA_MATCH_TICK_S"):
        Settings.from_env()


def test_given_an_arena_size_then_it_is_read_and_one_seat_refused(monkeypatch):
    monkeypatch.setenv("CYA_BOT_ARENA_PLAYERS", "4")
    assert Settings.from_env().bot_arena_players == 4
    monkeypatch.setenv("CYA_BOT_ARENA_PLAYERS", "1")
    with pytest.raises(ConfigError, match="CYA_BOT_ARENA_PLAYERS"):
        Settings.from_env()
