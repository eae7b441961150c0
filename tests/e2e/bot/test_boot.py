"""What booting leaves the process with."""

from __future__ import annotations

import gc

from bot.app import FULL_COLLECTION_EVERY

from .harness import World


async def test_boot_freezes_its_heap_and_makes_full_collections_rare(world: World) -> None:
    default = (700, 10, 10)
    gc.set_threshold(*default)
    gc.unfreeze()
    try:
        async with world.fake.running(world.bot()):
            assert gc.get_freeze_count() > 0, "what boot loaded is not frozen"
            assert gc.get_threshold() == (700, 10, FULL_COLLECTION_EVERY)
    finally:
        gc.unfreeze()
        gc.set_threshold(*default)
