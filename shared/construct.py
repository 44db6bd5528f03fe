"""Models built without validation: the engine's events, views and states, valid by construction.

Kept apart from the models so that it compiles in the compiled build (setup.py): it runs about
ten times a move, and the compiled engine calls :func:`trusted` without a Python frame between.
"""

from __future__ import annotations

from typing import Any, Final, TypeVar

from pydantic import BaseModel

M = TypeVar("M", bound=BaseModel)

# BaseModel's slots, set through their descriptors (one call each, no attribute lookup by name).
# Final: compiled, they are read from C variables, not looked up in the module's namespace.
_new: Final = object.__new__
_set_dict: Final = BaseModel.__dict__["__dict__"].__set__
_set_fields_set: Final = BaseModel.__dict__["__pydantic_fields_set__"].__set__
_set_extra: Final = BaseModel.__dict__["__pydantic_extra__"].__set__
_set_private: Final = BaseModel.__dict__["__pydantic_private__"].__set__


def unvalidated(cls: type[M], values: dict[str, Any], fields_set: set[str]) -> M:
    """A ``cls`` holding ``values`` (every field, in order) without validation, as
    ``model_construct`` makes it at a fraction of its cost: for the engine's events, views and
    states, valid by construction. ``fields_set`` is kept as given, so a frozen kind may share
    one set among all its models (a copy gets a set of its own)."""
    model: M = _new(cls)
    _set_dict(model, values)
    _set_fields_set(model, fields_set)
    _set_extra(model, None)
    _set_private(model, None)
    return model


DEFAULTS: Final[dict[type[BaseModel], dict[str, Any]]] = {}
"""Every field of each engine model in order, with its default (None where it must be given):
filled as the models are defined (``shared.actions.Model``)."""


def trusted(cls: type[M], **values: Any) -> M:
    """``cls(**values)`` without validation, for values the engine made valid by construction.

    The result equals ``cls(**values)`` provided each value already has the type validation
    would give it (tuples, not lists; :class:`~shared.cards.Card`, not text). The models'
    ``Model.trusted`` is this; the compiled engine calls it directly.
    """
    defaults = DEFAULTS[cls]
    data = defaults | values  # the fields' order, the given values over the defaults
    assert len(data) == len(defaults), f"unknown field in {sorted(values)}"
    return unvalidated(cls, data, set(values))
