"""Where ``muggins serve``'s options come from besides the command line: the environment
(``MUGGINS_PORT=9000``) and a TOML configuration file (``--config muggins.toml`` or
``MUGGINS_CONFIG``). The command line wins over the environment, which wins over the file.

Every option of :class:`~muggins.server.config.ServerConfig` can be given in all three ways,
under one name: the field's (``allowed_origins``; in the environment in capitals after
``MUGGINS_``), or in the file also the flag's (``allowed-origin``). Values are what the command
line takes, in its units (``send_buffer`` in KiB): in the environment as text (a list separated
by commas, a switch ``1``/``true``/``yes`` or ``0``/``false``/``no``), in the file as TOML values.
"""

from __future__ import annotations

import dataclasses
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from muggins.server.config import Option, flag_of, kind_of, options

PREFIX = "MUGGINS_"
CONFIG_VARIABLE = "MUGGINS_CONFIG"
TRUE = frozenset({"1", "true", "yes", "on"})
FALSE = frozenset({"0", "false", "no", "off", ""})


class ConfigError(ValueError):
    """A value from the environment or the file that is not one the option takes."""


def variable(f: dataclasses.Field[Any], how: Option) -> str:
    """The environment variable of an option: ``MUGGINS_`` and the field's name in capitals."""
    return how.env or PREFIX + f.name.upper()


def convert(f: dataclasses.Field[Any], how: Option, raw: Any, where: str) -> Any:
    """``raw`` (text from the environment, or a TOML value) as the command line would give it."""
    if f.default is False:
        if isinstance(raw, bool):
            return raw
        text = str(raw).strip().lower()
        if text in TRUE | FALSE:
            return text in TRUE
        raise ConfigError(f"{where}: {raw!r} is not a switch (true or false)")
    if isinstance(f.default, tuple):
        items = raw if isinstance(raw, list) else str(raw).replace(",", " ").split()
        return [str(item) for item in items]
    if isinstance(raw, list | dict | bool):
        raise ConfigError(f"{where}: {raw!r} is not one value")
    if how.choices and str(raw) not in how.choices:
        raise ConfigError(f"{where}: {raw!r} is not one of {', '.join(how.choices)}")
    kind = kind_of(f)
    try:
        return kind(raw) if kind is not str else str(raw)
    except ValueError:
        named = {int: "a whole number", float: "a number"}.get(kind, f"a {kind.__name__}")
        raise ConfigError(f"{where}: {raw!r} is not {named}") from None


def from_environment(environ: Mapping[str, str]) -> dict[str, Any]:
    """The options the environment sets (an empty variable sets nothing)."""
    found: dict[str, Any] = {}
    for f, how in options():
        name = variable(f, how)
        if environ.get(name, "") != "":
            found[f.name] = convert(f, how, environ[name], f"${name}")
    return found


def from_file(path: Path) -> dict[str, Any]:
    """The options a TOML file sets; an unknown name is refused (a typo would go unseen)."""
    try:
        with path.open("rb") as file:
            table = tomllib.load(file)
    except OSError as error:
        raise ConfigError(f"cannot read {path}: {error.strerror or error}") from error
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{path} is not TOML: {error}") from error
    names: dict[str, tuple[dataclasses.Field[Any], Option]] = {}
    for f, how in options():
        for name in (f.name, f.name.replace("_", "-"), flag_of(f, how).removeprefix("--")):
            names[name] = (f, how)
    found: dict[str, Any] = {}
    for key, raw in table.items():
        if key not in names:
            raise ConfigError(f"{path}: no option {key!r} (muggins serve --help lists them)")
        f, how = names[key]
        found[f.name] = convert(f, how, raw, f"{key} in {path}")
    return found


def gather(environ: Mapping[str, str], config: Path | None) -> dict[str, Any]:
    """What the file (``config``, else ``$MUGGINS_CONFIG``) and then the environment set."""
    path = config or (Path(environ[CONFIG_VARIABLE]) if environ.get(CONFIG_VARIABLE) else None)
    found = from_file(path) if path is not None else {}
    found.update(from_environment(environ))
    return found
