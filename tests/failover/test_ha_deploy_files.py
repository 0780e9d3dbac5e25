"""The high-availability deployment files (deploy/compose.ha.yaml and deploy/ha/), checked
without Docker: the shape the runbook describes, addresses that meet, and settings the code
reads. The shape itself is run for real, on this machine's own packages, by
tests/failover/test_failover.py."""

from __future__ import annotations

import re
import shlex
from pathlib import Path
from typing import Any

import pytest
import yaml

from service.redis_clients import sentinel_target
from tests.workers.test_deploy import settings_the_code_reads

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
SENTINELS = {"sentinel-1", "sentinel-2", "sentinel-3"}
PATRONIS = {"patroni-1", "patroni-2"}


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load((DEPLOY / "compose.ha.yaml").read_text())
    return loaded


def test_given_the_ha_compose_file_then_every_host_role_runs_twice_and_sentinels_thrice(
        compose: dict[str, Any]) -> None:
    services = compose["services"]

    assert {"etcd", "haproxy", "redis-master", "redis-replica", "migrate", "api", "worker",
            *PATRONIS, *SENTINELS} <= set(services)
    assert services["api"]["deploy"]["replicas"] >= 2
    assert services["worker"]["deploy"]["replicas"] >= 2
    assert services["redis-replica"]["command"][-3:] == ["--replicaof", "redis-master", "6379"]


def test_given_the_app_settings_then_the_database_is_haproxy_and_redis_the_sentinels(
        compose: dict[str, Any]) -> None:
    env = compose["services"]["worker"]["environment"]
    target = sentinel_target(env["CYA_REDIS_URL"])
    sentinel_conf = (DEPLOY / "ha" / "sentinel.conf").read_text()

    assert {k for k in env if k.startswith("CYA_")} <= settings_the_code_reads()
    assert env["CYA_DATABASE_URL"].startswith("postgresql+asyncpg://cya:cya@haproxy:5000/")
    assert target is not None
    assert {host for host, _ in target.sentinels} == SENTINELS
    assert {port for _, port in target.sentinels} == {26379}
    assert f"sentinel monitor {target.master} redis-master 6379 2" in sentinel_conf
    assert "port 26379" in sentinel_conf


def test_given_haproxy_then_it_sends_to_the_node_patroni_names_primary() -> None:
    config = (DEPLOY / "ha" / "haproxy.cfg").read_text()
    servers = re.findall(r"server (\S+) (\S+):5432 .*check port 8008", config)

    assert "bind *:5000" in config
    assert "option httpchk OPTIONS /primary" in config
    assert "on-marked-down shutdown-sessions" in config
    assert {name for name, _ in servers} == {host for _, host in servers} == PATRONIS


def test_given_patroni_then_commits_wait_for_the_standby_and_a_crash_fails_over() -> None:
    config = yaml.safe_load((DEPLOY / "ha" / "patroni.yml").read_text())
    dcs = config["bootstrap"]["dcs"]

    assert dcs["synchronous_mode"] is True
    assert dcs["primary_start_timeout"] == 0
    assert dcs["postgresql"]["use_pg_rewind"] is True
    assert "/archive/%f" in dcs["postgresql"]["parameters"]["archive_command"]
    assert config["restapi"]["listen"].endswith(":8008")
    assert config["postgresql"]["listen"].endswith(":5432")
    assert (DEPLOY / "ha" / "post_bootstrap.sh").exists()


def test_given_the_patroni_dockerfile_then_it_copies_what_exists() -> None:
    lines = (DEPLOY / "ha" / "patroni.Dockerfile").read_text().splitlines()
    for line in (ln for ln in lines if ln.startswith("COPY ")):
        for source in shlex.split(line)[1:-1]:
            assert (ROOT / source).exists(), source
