"""Reading a `.pt2` faster: torch.export.load with the type hints of torch's schema classes
computed once per class (replaces, while a load runs, the `typing.get_type_hints` that
torch/_export/serde/serialize.py: _dict_to_dataclass calls for every object it builds).

torch.export.load turns the archive's JSON into the dataclasses of
torch/_export/serde/schema.py one object at a time, and for each one asks
`typing.get_type_hints(cls, globalns=vars(schema))`, which re-evaluates the class's
annotations: 24,000 calls, 1.5 of the 3.8 CPU-s of loading DenseNet-121's program. The
schema classes and their module do not change while a program loads, so within
`schema_type_hints_cached()` each (class, namespace) is evaluated once and the same hints
are returned after. What the load builds is the same (tests/importers/test_fx_load.py);
with ge_fast's switch off (GE_XDSL_FAST=0, --no-fast-paths) torch runs as it is.
"""

from __future__ import annotations

import typing
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from ge_fast import enabled


class _TypingWithCachedHints:
    """The `typing` module as serialize.py sees it during a load: everything is typing's,
    except get_type_hints, which keeps what it computed."""

    def __init__(self) -> None:
        # (class, id(globalns), id(localns), include_extras) -> (globalns, localns, hints):
        # the namespaces kept and compared by identity, so a recycled id never matches
        self._hints: dict[tuple[object, int, int, bool], tuple[object, object, dict[str, Any]]] = {}
        self.computed = 0  # hints evaluated (the rest came from the cache)

    def __getattr__(self, name: str) -> Any:
        return getattr(typing, name)

    def get_type_hints(
        self, obj: object, globalns: dict[str, Any] | None = None, localns: dict[str, Any] | None = None,
        include_extras: bool = False,
    ) -> dict[str, Any]:  # fmt: skip
        # the namespaces by identity: schema's own module dict, the same object at each call
        key = (obj, id(globalns), id(localns), include_extras)
        got = self._hints.get(key)
        if got is not None and got[0] is globalns and got[1] is localns:
            return got[2]
        self.computed += 1
        hints = typing.get_type_hints(obj, globalns, localns, include_extras)
        self._hints[key] = (globalns, localns, hints)
        return hints


@contextmanager
def schema_type_hints_cached() -> Iterator[_TypingWithCachedHints | None]:
    """Within: torch's deserializer computes each schema class's type hints once (the
    module doc). Yields the stand-in (its `computed` count), or None when the switch is off
    or this torch's serializer does not read `typing` as this expects (then nothing changes)."""
    if not enabled():
        yield None
        return
    import torch._export.serde.serialize as serialize

    if getattr(serialize, "typing", None) is not typing:
        yield None
        return
    stand_in = _TypingWithCachedHints()
    serialize.typing = stand_in  # type: ignore[assignment]
    try:
        yield stand_in
    finally:
        serialize.typing = typing  # type: ignore[assignment]
