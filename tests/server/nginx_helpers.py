"""Debian's nginx running the shipped docker/nginx.conf, rendered for this machine.

The compose service names do not resolve outside Docker, so the upstream addresses and the port
are replaced by local ones, and the paths an unprivileged nginx needs (pid, logs, temporary
files) are added; everything else runs as shipped.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

CONF = Path(__file__).resolve().parents[2] / "docker" / "nginx.conf"  # tests/server/ -> root


def nginx_binary() -> str:
    """Debian's nginx, or skip (fail under CI=true, where .ci/run installs it)."""
    found = shutil.which("nginx") or next(
        (p for p in ("/usr/sbin/nginx", "/usr/bin/nginx") if Path(p).exists()), None
    )
    if found is None:
        message = "nginx is not installed (apt-get install nginx)"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(message + "; CI must install it", pytrace=False)
        pytest.skip(message)
    return found


def render(conf: str, *, port: int, upstreams: list[str], work: Path) -> str:
    """The shipped config with local addresses, and writable paths for an unprivileged nginx."""
    # Each node is listed in every upstream (the rooms' and the lobby's): the n-th name is the
    # n-th address wherever it appears.
    names = list(dict.fromkeys(re.findall(r"^\s*server\s+(server-[a-z]+):8765\b", conf, re.M)))
    assert len(names) == len(upstreams), names
    for name, address in zip(names, upstreams, strict=True):
        conf = re.sub(rf"^(\s*server\s+){name}:8765\b", rf"\g<1>{address}", conf, flags=re.M)
    assert conf.count("listen 8765;") == 1
    conf = conf.replace("listen 8765;", f"listen 127.0.0.1:{port};")
    paths = "\n".join(
        f"    {name} {work / folder};"
        for name, folder in (
            ("client_body_temp_path", "body"),
            ("proxy_temp_path", "proxy"),
            ("fastcgi_temp_path", "fastcgi"),
            ("uwsgi_temp_path", "uwsgi"),
            ("scgi_temp_path", "scgi"),
        )
    )
    conf = conf.replace("http {", f"http {{\n    access_log {work / 'access.log'};\n{paths}", 1)
    return f"pid {work / 'nginx.pid'};\nerror_log {work / 'error.log'} info;\n{conf}"


class Nginx:
    def __init__(self, binary: str, conf: Path, work: Path, port: int) -> None:
        self.work = work
        self.port = port
        test = subprocess.run(
            [binary, "-t", "-p", str(work), "-c", str(conf)], capture_output=True, text=True
        )
        assert test.returncode == 0, test.stderr
        self.process = subprocess.Popen(
            [binary, "-p", str(work), "-c", str(conf), "-g", "daemon off;"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while not self.healthy():
            assert self.process.poll() is None, (work / "error.log").read_text()
            assert time.monotonic() < deadline, "nginx did not answer in 10 s"
            time.sleep(0.05)

    def healthy(self) -> bool:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/healthz", timeout=1) as r:
                return bool(r.status == 200)
        except OSError:
            return False

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)


def run_shipped(work: Path, *, port: int, upstreams: list[str]) -> Nginx:
    """nginx on ``port`` with the shipped config, its upstreams at ``upstreams``; files in
    ``work``. It blocks until nginx answers ``/healthz`` through an upstream."""
    binary = nginx_binary()
    work.mkdir()
    conf = work / "nginx.conf"
    conf.write_text(render(CONF.read_text(), port=port, upstreams=upstreams, work=work))
    return Nginx(binary, conf, work, port)
