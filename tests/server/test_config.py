"""``muggins serve``'s options are made from ServerConfig's fields: one list of options."""

from __future__ import annotations

import argparse
import dataclasses
import os
from pathlib import Path

import pytest

from muggins.server.commands.config_sources import gather
from muggins.server.config import ServerConfig, add_options, from_args


def parse(*argv: str) -> ServerConfig:
    """The configuration ``muggins serve ARGV`` runs with, the environment included."""
    parser = argparse.ArgumentParser()
    add_options(parser)
    return from_args(parser.parse_args(list(argv)), given=gather(os.environ, None))


def test_no_flags_give_the_defaults_but_one_reviewer() -> None:
    """The command line's only different default is one review worker."""
    assert parse() == dataclasses.replace(ServerConfig(), review_workers=1)


def test_each_kind_of_option_lands_in_its_field() -> None:
    """Paths, numbers, repeatable flags, switches, units and choices each reach the config."""
    config = parse(
        "--host", "0.0.0.0", "--port", "0", "--db", "x.db", "--grace", "5",
        "--allowed-origin", "https://a.example", "--allowed-origin", "https://b.example",
        "--trusted-proxy", "10.0.0.0/8", "--send-buffer", "64", "--log-json",
        "--log-level", "debug", "--review-workers", "0",
    )  # fmt: skip
    assert config.host == "0.0.0.0" and config.port == 0 and config.db == Path("x.db")
    assert config.grace == 5.0
    assert config.allowed_origins == ("https://a.example", "https://b.example")
    assert config.trusted_proxies == ("10.0.0.0/8",)
    assert config.send_buffer == 64 * 1024
    assert config.log_json and config.log_level == "debug" and config.review_workers == 0


def test_where_games_are_kept_is_one_choice() -> None:
    """--db, --memory and --redis exclude each other."""
    with pytest.raises(SystemExit):
        parse("--memory", "--redis", "redis://localhost")


def test_every_field_is_an_option_or_deliberately_internal() -> None:
    """A new field is either on the command line or in this list of internal ones."""
    internal = {f.name for f in dataclasses.fields(ServerConfig) if "option" not in f.metadata}
    assert internal == {
        "max_message", "flood_close_after", "hello_timeout",
        "idle_timeout", "socket_buffer", "extra_levels", "reuse_port", "own_port",
    }  # fmt: skip


def test_the_public_url_comes_from_its_flag_or_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """--public-url sets the address players reach the server at; MUGGINS_PUBLIC_URL does when
    the flag is not given; the flag wins over the variable."""
    assert parse().public_url is None
    assert parse("--public-url", "https://a.example").public_url == "https://a.example"
    monkeypatch.setenv("MUGGINS_PUBLIC_URL", "https://env.example")
    assert parse().public_url == "https://env.example"
    assert parse("--public-url", "https://a.example").public_url == "https://a.example"


@pytest.mark.parametrize(
    ("given", "kept"),
    [
        ("https://cribbage.example/", "https://cribbage.example"),
        ("http://10.0.0.5:8765", "http://10.0.0.5:8765"),
        ("https://[2001:db8::1]:8443/", "https://[2001:db8::1]:8443"),
    ],
)
def test_a_public_url_is_kept_without_its_last_slash(given: str, kept: str) -> None:
    from muggins.server.config import public_url

    assert public_url(given) == kept


@pytest.mark.parametrize(
    "given", ["cribbage.example", "ftp://x.example", "https://a b", "", "https://x.example/sub"]
)
def test_a_public_url_that_is_no_address_is_refused_in_words(given: str) -> None:
    from muggins.server.config import public_url

    with pytest.raises(ValueError, match="is not an address like https://"):
        public_url(given)
