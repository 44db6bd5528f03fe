"""Every ``muggins serve`` option from the environment (``MUGGINS_PORT``) and from a TOML file
(``--config``), the command line winning over the environment, the environment over the file."""

from __future__ import annotations

import argparse
import dataclasses
import subprocess
import sys
from pathlib import Path

import pytest

from muggins.server.commands.config_sources import ConfigError, from_file, gather, variable
from muggins.server.config import ServerConfig, add_options, from_args, options


def serve_config(
    argv: list[str], environ: dict[str, str], file: Path | None = None
) -> ServerConfig:
    parser = argparse.ArgumentParser()
    add_options(parser)
    return from_args(parser.parse_args(argv), given=gather(environ, file))


def test_every_option_has_its_environment_variable() -> None:
    """Each option is MUGGINS_ and its field's name in capitals, and each one takes effect."""
    sample = {
        "host": "0.0.0.0", "port": "9001", "db": "/srv/m.db", "public_url": "https://c.example",
        "certfile": "/c.pem", "keyfile": "/k.pem",
        "allowed_origins": "https://a.example,https://b.example",
        "grace": "7.5", "send_buffer": "32", "log_json": "true", "log_level": "debug",
        "review_workers": "3", "trusted_proxies": "10.0.0.0/8 192.168.0.0/16",
        "metrics_port": "9100", "update_command": "pipx upgrade muggins",
        "log_file": "/var/log/muggins.log", "postgres_pool": "6",
    }  # fmt: skip
    environ = {}
    for f, how in options():
        assert variable(f, how) == "MUGGINS_" + f.name.upper()
        if f.name in sample:
            environ[variable(f, how)] = sample[f.name]
    config = serve_config([], environ)
    assert config.host == "0.0.0.0" and config.port == 9001 and config.db == Path("/srv/m.db")
    assert config.allowed_origins == ("https://a.example", "https://b.example")
    assert config.trusted_proxies == ("10.0.0.0/8", "192.168.0.0/16")
    assert config.grace == 7.5 and config.send_buffer == 32 * 1024 and config.log_json
    assert config.log_level == "debug" and config.review_workers == 3
    assert config.metrics_port == 9100 and config.update_command == "pipx upgrade muggins"
    assert config.log_file == Path("/var/log/muggins.log") and config.postgres_pool == 6
    assert config.public_url == "https://c.example" and config.keyfile == Path("/k.pem")
    untouched = {f.name for f, _ in options()} - set(sample)
    for name in untouched:  # every other option is still its command line default
        assert getattr(config, name) == getattr(serve_config([], {}), name), name


def test_the_command_line_wins_over_the_environment_which_wins_over_the_file(
    tmp_path: Path,
) -> None:
    """port from all three: the flag's; grace from two: the variable's; the rest: the file's."""
    file = tmp_path / "muggins.toml"
    file.write_text(
        'port = 7000\ngrace = 1.0\nallowed-origin = ["https://f.example"]\nmemory = true\n'
        'log_level = "warning"\n'
    )
    environ = {"MUGGINS_PORT": "8000", "MUGGINS_GRACE": "2.5"}
    config = serve_config(["--port", "9000"], environ, file)
    assert (config.port, config.grace) == (9000, 2.5)
    assert config.allowed_origins == ("https://f.example",) and config.memory
    assert config.log_level == "warning"
    # a flag given with the default's value still wins
    assert serve_config(["--port", "8765"], environ, file).port == 8765
    # the file named by MUGGINS_CONFIG
    assert serve_config([], {"MUGGINS_CONFIG": str(file)}).port == 7000


def test_where_games_are_kept_is_one_choice_across_sources(tmp_path: Path) -> None:
    """--memory on the command line sets aside a MUGGINS_DB; MUGGINS_DB with MUGGINS_MEMORY is
    refused in words."""
    config = serve_config(["--memory"], {"MUGGINS_DB": "/srv/m.db"})
    assert config.memory and config.db is None
    with pytest.raises(ValueError, match="exclude each other"):
        serve_config([], {"MUGGINS_DB": "/srv/m.db", "MUGGINS_MEMORY": "1"})


@pytest.mark.parametrize(
    ("environ", "said"),
    [
        ({"MUGGINS_PORT": "eighty"}, "$MUGGINS_PORT: 'eighty' is not a whole number"),
        ({"MUGGINS_LOG_JSON": "maybe"}, "is not a switch"),
        ({"MUGGINS_LOG_LEVEL": "loud"}, "is not one of debug, info, warning"),
    ],
)
def test_a_bad_value_is_refused_in_words(environ: dict[str, str], said: str) -> None:
    with pytest.raises(ConfigError, match=said.replace("$", r"\$")):
        serve_config([], environ)


def test_an_unknown_name_in_the_file_is_refused(tmp_path: Path) -> None:
    """A typo in the file is an error, not an option silently left at its default."""
    file = tmp_path / "muggins.toml"
    file.write_text("prot = 9000\n")
    with pytest.raises(ConfigError, match="no option 'prot'"):
        from_file(file)


def test_muggins_serve_listens_where_the_environment_says(tmp_path: Path) -> None:
    """MUGGINS_PORT and MUGGINS_MEMORY reach a real ``muggins serve``; a bad value stops it with
    a sentence."""
    from redis_helpers import free_port

    port = free_port()
    environ = {"MUGGINS_PORT": str(port), "MUGGINS_MEMORY": "yes", "PATH": "/usr/bin:/bin"}
    process = subprocess.Popen(
        [sys.executable, "-m", "muggins.client.cli", "serve"],
        env=environ, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
    )  # fmt: skip
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        assert f"listening on ws://127.0.0.1:{port}" in line, line
    finally:
        process.terminate()
        process.wait(timeout=20)
    bad = subprocess.run(
        [sys.executable, "-m", "muggins.client.cli", "serve"],
        env={"MUGGINS_PORT": "x", "PATH": "/usr/bin:/bin"},
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert bad.returncode == 2 and "$MUGGINS_PORT: 'x' is not a whole number" in bad.stdout


def test_no_field_is_left_out_of_the_sources() -> None:
    """The sources are made from ServerConfig's options: a new option needs no work here."""
    assert {f.name for f, _ in options()} <= {f.name for f in dataclasses.fields(ServerConfig)}
