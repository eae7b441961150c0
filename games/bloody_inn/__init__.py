"""The Bloody Inn: greedy innkeepers bribe, kill and bury their guests (1-4 players)."""

from .cards import ActionKind, Card, GuestType
from .engine import GAME, BloodyInn
from .models import BloodyInnOptions, BloodyInnState, BloodyInnView, Length

__all__ = [
    "GAME",
    "ActionKind",
    "BloodyInn",
    "BloodyInnOptions",
    "BloodyInnState",
    "BloodyInnView",
    "Card",
    "GuestType",
    "Length",
]
