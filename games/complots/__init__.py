"""Complots (the Coup family), with the Ambassador or the Inquisitor."""

from .cards import ActionKind, Character, Variant
from .engine import GAME, Complots
from .models import ComplotsOptions, ComplotsState, ComplotsView

__all__ = [
    "GAME",
    "ActionKind",
    "Character",
    "Complots",
    "ComplotsOptions",
    "ComplotsState",
    "ComplotsView",
    "Variant",
]
