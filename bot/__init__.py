"""The Discord application core: configuration, storage, tables, timers, shared UI."""

import os

# pydantic looks for plugins among every installed package's entry points when it
# builds its first model: about 30 ms of each boot. The bot uses none (set the
# variable to an empty value to let pydantic look again).
os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
