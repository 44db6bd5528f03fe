"""The examples in the docstrings run as written (the doctests of every module)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import muggins.client
import muggins.server
import muggins.shared


def _modules() -> list[str]:
    names = []
    for package in (muggins.shared, muggins.server, muggins.client):
        names.append(package.__name__)
        names += [m.name for m in pkgutil.walk_packages(package.__path__, package.__name__ + ".")]
    return sorted(names)


def _with_examples() -> list[str]:
    finder = doctest.DocTestFinder()
    return [
        name
        for name in _modules()
        if any(test.examples for test in finder.find(importlib.import_module(name)))
    ]


MODULES = _with_examples()


def test_the_modules_with_examples_are_found() -> None:
    assert {"muggins.shared.scoring", "muggins.shared.bots.belief"} <= set(MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run_as_written(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), report=True, verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"
