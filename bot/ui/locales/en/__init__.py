"""English, the reference locale: every key must exist here.

Each module of this package holds one area's strings (``core`` and one per
game); ``STRINGS`` merges them, and a key defined twice is an error.
"""

from importlib import import_module
from pkgutil import iter_modules

STRINGS: dict[str, str] = {}
for _module in iter_modules(__path__):
    for _key, _text in import_module(f"{__name__}.{_module.name}").STRINGS.items():
        if _key in STRINGS:
            raise ValueError(f"translation key {_key!r} is defined twice")
        STRINGS[_key] = _text
