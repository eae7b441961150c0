"""How the renderer joins outbox entries into messages."""

from __future__ import annotations

from bot.storage.models import OutboxEntry, OutboxKind
from bot.ui.limits import CONTENT
from bot.ui.renderer import _groups

CHANNEL, ALICE, BOB = 10, 20, 30


def entry(
    number: int, kind: OutboxKind, target: int, content: str = "", embed: bool = False
) -> OutboxEntry:
    return OutboxEntry(
        id=number,
        table_id=1,
        version=number,
        kind=kind,
        target=target,
        content=content or f"line {number}",
        embed_json='{"title": "hand"}' if embed else None,
    )


def ids(groups: list[list[OutboxEntry]]) -> list[list[int | None]]:
    return [[e.id for e in group] for group in groups]


def test_each_place_keeps_its_order_and_dms_do_not_split_lines() -> None:
    entries = [
        entry(1, OutboxKind.POST, CHANNEL),
        entry(2, OutboxKind.DM, ALICE),
        entry(3, OutboxKind.POST, CHANNEL),
        entry(4, OutboxKind.DM, BOB),
        entry(5, OutboxKind.DM, ALICE),
        entry(6, OutboxKind.POST, CHANNEL),
    ]
    assert ids(_groups(entries)) == [[1, 3, 6], [2, 5], [4]]


def test_an_embed_goes_alone_and_ends_its_places_group() -> None:
    entries = [
        entry(1, OutboxKind.DM, ALICE),
        entry(2, OutboxKind.DM, ALICE, embed=True),
        entry(3, OutboxKind.DM, ALICE),
        entry(4, OutboxKind.DM, ALICE),
    ]
    assert ids(_groups(entries)) == [[1], [2], [3, 4]]


def test_a_group_never_outgrows_one_message() -> None:
    third = "x" * (CONTENT // 3 + 30)  # two fit in one message, three do not
    entries = [entry(n, OutboxKind.POST, CHANNEL, third) for n in range(1, 6)]
    groups = _groups(entries)
    assert ids(groups) == [[1, 2], [3, 4], [5]]
    assert all(len("\n".join(e.content for e in g)) <= CONTENT for g in groups)
