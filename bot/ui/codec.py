"""Choices <-> short public codes for component custom_ids and select values.

``Act(action=steal, target=2)`` <-> ``act.steal.2``: the choice's ``type``,
then its fields in declaration order; tuples join with ``+``, None is ``-``,
booleans are ``1``/``0``. A code says only what the clicking player chose,
never anything hidden (secret choices go in ephemeral selects only).
"""

from __future__ import annotations

from enum import Enum
from typing import Any, get_args, get_origin

from pydantic import BaseModel, TypeAdapter, ValidationError

SEPARATOR = "."


class BadCode(ValueError):
    pass


def encode(choice: BaseModel) -> str:
    fields = [name for name in type(choice).model_fields if name != "type"]
    parts = [str(vars(choice)["type"])]
    parts.extend(_encode_value(getattr(choice, name)) for name in fields)
    return SEPARATOR.join(parts)


def _encode_value(value: object) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, Enum):
        return str(value.value)
    if isinstance(value, tuple | list):
        return "+".join(_encode_value(v) for v in value)
    return str(value)


def decode(code: str, adapter: TypeAdapter[Any], models: dict[str, type[BaseModel]]) -> Any:
    """The choice of ``code``; ``models`` maps each ``type`` to its class."""
    kind, *raw = code.split(SEPARATOR)
    model = models.get(kind)
    if model is None:
        raise BadCode(code)
    fields = [name for name in model.model_fields if name != "type"]
    if len(raw) != len(fields):
        raise BadCode(code)
    data: dict[str, object] = {"type": kind}
    for name, value in zip(fields, raw, strict=True):
        data[name] = _decode_value(value, model.model_fields[name].annotation)
    try:
        return adapter.validate_python(data)
    except ValidationError as error:
        raise BadCode(code) from error


def _decode_value(raw: str, annotation: Any) -> object:
    if raw == "-":
        return None
    if _is_sequence(annotation):
        return tuple(raw.split("+")) if raw else ()
    return raw


def _is_sequence(annotation: Any) -> bool:
    if get_origin(annotation) in (tuple, list):
        return True
    return any(_is_sequence(arg) for arg in get_args(annotation) if arg is not type(None))


def choice_models(choice_types: tuple[type[BaseModel], ...]) -> dict[str, type[BaseModel]]:
    """Each ``type`` literal of a game's choices, with its model class."""
    return {str(model.model_fields["type"].default): model for model in choice_types}
