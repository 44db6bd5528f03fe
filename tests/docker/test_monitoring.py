"""docker/prometheus/ and docker/grafana/ checked with the real tools: promtool checks the
configuration and the alert rules and runs their unit tests; Prometheus itself scrapes a live
node and evaluates every query of the Grafana dashboard and every alert rule against it. (No
Grafana binary is packaged for this machine: the dashboard's JSON is checked for what Grafana
needs, its data source against the provisioned one, and its queries by Prometheus.)"""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import shutil
import subprocess
import time
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

import pytest
import yaml
from compose_nodes import node_processes
from redis_helpers import free_port
from wire_client import WireClient, play_randomly

from muggins.server.app import running_server
from muggins.server.config import ServerConfig

DOCKER = Path(__file__).resolve().parents[2] / "docker"
PROMETHEUS = DOCKER / "prometheus"
DASHBOARD = DOCKER / "grafana" / "dashboards" / "muggins.json"


def binary(name: str) -> str:
    """``promtool`` or ``prometheus`` (Debian's prometheus package), or skip (fail under CI)."""
    found = shutil.which(name)
    if found is None:
        message = f"{name} is not installed (apt-get install prometheus)"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(message + "; CI must install it", pytrace=False)
        pytest.skip(message)
    return found


def promtool(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [binary("promtool"), *args], cwd=PROMETHEUS, capture_output=True, text=True, check=False
    )


def dashboard() -> dict[str, Any]:
    board: dict[str, Any] = json.loads(DASHBOARD.read_text())
    return board


def queries() -> list[str]:
    return [target["expr"] for panel in dashboard()["panels"] for target in panel["targets"]]


def rule_exprs() -> list[str]:
    rules = yaml.safe_load((PROMETHEUS / "alerts.yml").read_text())
    return [rule["expr"] for group in rules["groups"] for rule in group["rules"]]


def test_the_alert_rules_pass_promtool_check() -> None:
    """``promtool check rules``: five rules, each one valid PromQL with its labels."""
    result = promtool("check", "rules", "alerts.yml")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "SUCCESS: 5 rules found" in result.stdout


def test_the_alert_rules_fire_when_they_should_and_not_before() -> None:
    """``promtool test rules``: node not ready, Redis down, p99 over 250 ms, error rate and a
    growing review backlog each fire on their series, and not on the harmless ones."""
    result = promtool("test", "rules", "alerts_test.yml")
    assert result.returncode == 0, result.stdout + result.stderr
    tested = set(re.findall(r"alertname: (\w+)", (PROMETHEUS / "alerts_test.yml").read_text()))
    named = set(re.findall(r"alert: (\w+)", (PROMETHEUS / "alerts.yml").read_text()))
    assert tested == named == {
        "MugginsNodeNotReady", "MugginsRedisDown", "MugginsSlowActions", "MugginsErrorRate",
        "MugginsReviewBacklogGrowing",
    }  # fmt: skip


def test_prometheus_scrapes_each_node_s_metrics_port() -> None:
    """``promtool check config`` passes, and the targets are compose's nodes' processes at
    their metrics ports (the public port's /metrics is not for Prometheus)."""
    result = promtool("check", "config", "prometheus.yml")
    assert result.returncode == 0, result.stdout + result.stderr
    config = yaml.safe_load((PROMETHEUS / "prometheus.yml").read_text())
    [job] = [j for j in config["scrape_configs"] if j["job_name"] == "muggins"]
    targets = {t for group in job["static_configs"] for t in group["targets"]}
    assert targets == {
        f"{name}:{process.metrics_port}"
        for name, processes in node_processes().items()
        for process in processes
    }


def test_the_dashboard_is_what_grafana_loads() -> None:
    """The dashboard's JSON: a uid, panels with unique ids that do not overlap, each on the
    provisioned data source, covering games, players, moves, latency, errors, Redis, CPU and
    memory."""
    board = dashboard()
    assert board["uid"] == "muggins" and board["title"] and board["schemaVersion"] >= 30
    sources = yaml.safe_load(
        (DOCKER / "grafana/provisioning/datasources/prometheus.yml").read_text()
    )
    [source] = sources["datasources"]
    panels = board["panels"]
    assert len({p["id"] for p in panels}) == len(panels)
    cells: set[tuple[int, int]] = set()
    for panel in panels:
        box = panel["gridPos"]
        assert box["x"] + box["w"] <= 24
        mine = {(x, y) for x in range(box["x"], box["x"] + box["w"])
                for y in range(box["y"], box["y"] + box["h"])}  # fmt: skip
        assert not cells & mine, f"panel {panel['title']} overlaps another"
        cells |= mine
        assert panel["datasource"]["uid"] == source["uid"], panel["title"]
        assert panel["targets"] and all(t["expr"] for t in panel["targets"]), panel["title"]
    titles = " ".join(p["title"].lower() for p in panels)
    for subject in ("games", "players", "moves", "latency", "errors", "redis", "cpu", "memory"):
        assert subject in titles, subject
    text = json.dumps(board)
    assert "p50" in text and "p99" in text
    provider = yaml.safe_load((DOCKER / "grafana/provisioning/dashboards/muggins.yml").read_text())
    assert provider["providers"][0]["options"]["path"] == "/var/lib/grafana/dashboards"


def get_json(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=10) as reply:
        return json.loads(reply.read())


def query(port: int, expr: str) -> list[Any]:
    found = get_json(
        f"http://127.0.0.1:{port}/api/v1/query?" + urllib.parse.urlencode({"query": expr})
    )
    assert found["status"] == "success", (expr, found)
    result: list[Any] = found["data"]["result"]
    return result


async def test_prometheus_evaluates_every_panel_and_rule_against_a_live_node(
    tmp_path: Path,
) -> None:
    """A node with a metrics port plays a match; the real Prometheus scrapes it (with the alert
    rules loaded), and every query of the dashboard gives data and every rule evaluates."""
    prometheus = binary("prometheus")
    config = ServerConfig(
        port=0, db=tmp_path / "muggins.db", metrics_port=0, bot_delay=0.0, rate=1e4, burst=10**4
    )
    async with running_server(config) as server:
        ann = await WireClient.open(server.url, name="Ann")
        bob = await WireClient.open(server.url, name="Bob")
        room = await ann.request(type="create_room", options={"game": {"target": 61}})
        await bob.request(type="join_room", code=room["code"])
        rng = random.Random(7)
        await asyncio.gather(play_randomly(ann, rng), play_randomly(bob, rng))
        web = free_port()
        (tmp_path / "alerts.yml").write_text((PROMETHEUS / "alerts.yml").read_text())
        (tmp_path / "prometheus.yml").write_text(
            yaml.safe_dump({
                "global": {"scrape_interval": "1s", "evaluation_interval": "1s"},
                "rule_files": ["alerts.yml"],
                "scrape_configs": [{
                    "job_name": "muggins",
                    "static_configs": [{"targets": [f"127.0.0.1:{server.metrics_port}"]}],
                }],
            })
        )  # fmt: skip
        process = subprocess.Popen(
            [prometheus, f"--config.file={tmp_path / 'prometheus.yml'}",
             f"--storage.tsdb.path={tmp_path / 'data'}", f"--web.listen-address=127.0.0.1:{web}"],
            stdout=subprocess.DEVNULL, stderr=(tmp_path / "prometheus.log").open("w"),
        )  # fmt: skip
        try:
            deadline = time.monotonic() + 60  # a guard only
            while True:
                try:
                    scraped = await asyncio.to_thread(
                        query, web, 'count_over_time(up{job="muggins"}[1m]) >= 5'
                    )
                except OSError:
                    scraped = []
                if scraped:
                    break
                assert time.monotonic() < deadline, (tmp_path / "prometheus.log").read_text()
                await asyncio.sleep(0.5)
            for expr in queries():
                assert await asyncio.to_thread(query, web, expr), f"no data for {expr}"
            rules = await asyncio.to_thread(get_json, f"http://127.0.0.1:{web}/api/v1/rules")
            evaluated = [r for g in rules["data"]["groups"] for r in g["rules"]]
            assert len(evaluated) == len(rule_exprs())
            for rule in evaluated:
                assert rule["health"] == "ok", rule
        finally:
            process.terminate()
            process.wait(timeout=20)
