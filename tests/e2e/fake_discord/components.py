"""Reading components on recorded messages: flattened, and found by label or custom_id."""

from __future__ import annotations

from .content import CHILD_KEYS, walk_components
from .models import JSON, StoredMessage

BUTTON, ACTION_ROW = 2, 1
CONTAINERS = frozenset({1, 9, 17, 18})


def components_of(message: StoredMessage | JSON | list[JSON]) -> list[JSON]:
    """Every component except layout containers, flattened, each a dict with at least
    type, label, custom_id, disabled and options (plus the component's other fields)."""
    if isinstance(message, StoredMessage):
        tree = message.components
    elif isinstance(message, dict):
        tree = message.get("components") or []
    else:
        tree = message
    return [_flat(c) for c in walk_components(tree) if c.get("type") not in CONTAINERS]


def _flat(component: JSON) -> JSON:
    flat = {k: v for k, v in component.items() if k not in CHILD_KEYS}
    flat.setdefault("label", None)
    flat.setdefault("custom_id", None)
    flat.setdefault("disabled", False)
    flat.setdefault("options", [])
    return flat


def component(
    message: StoredMessage | JSON, *, label: str | None = None, custom_id: str | None = None
) -> JSON:
    """The one component with this label (or custom_id); LookupError lists what exists."""
    found = [
        c
        for c in components_of(message)
        if (label is None or c["label"] == label)
        and (custom_id is None or c["custom_id"] == custom_id)
    ]
    if len(found) != 1:
        have = [(c["label"], c["custom_id"]) for c in components_of(message)]
        raise LookupError(
            f"expected one component {label or custom_id!r}, found {len(found)}: {have}"
        )
    return found[0]


def custom_id_of(message: StoredMessage | JSON, label: str) -> str:
    custom_id = component(message, label=label)["custom_id"]
    if not isinstance(custom_id, str):
        raise LookupError(f"component {label!r} has no custom_id")
    return custom_id


def labels(message: StoredMessage | JSON) -> list[str]:
    """Labels of the buttons, in order."""
    return [c["label"] for c in components_of(message) if c["type"] == BUTTON and c["label"]]


def option_values(message: StoredMessage | JSON, custom_id: str) -> list[str]:
    """The values a string select offers."""
    return [o["value"] for o in component(message, custom_id=custom_id)["options"]]
