"""Reading and lowering a `.pt2` faster, two stand-ins for torch code while it runs:

* `schema_type_hints_cached`: torch.export.load with the type hints of torch's schema
  classes computed once per class (replaces the `typing.get_type_hints` that
  torch/_export/serde/serialize.py: _dict_to_dataclass calls for every object it builds);
* `cia_ops_memoized`: `run_decompositions` with torch's set of preservable
  CompositeImplicitAutograd ops computed once per state of the dispatcher (replaces
  torch/_export/utils.py: _collect_all_valid_cia_ops, below).

torch.export.load turns the archive's JSON into the dataclasses of
torch/_export/serde/schema.py one object at a time, and for each one asks
`typing.get_type_hints(cls, globalns=vars(schema))`, which re-evaluates the class's
annotations: 24,000 calls, 1.5 of the 3.8 CPU-s of loading DenseNet-121's program. The
schema classes and their module do not change while a program loads, so within
`schema_type_hints_cached()` each (class, namespace) is evaluated once and the same hints
are returned after. What the load builds is the same (tests/importers/test_fx_load.py);
with ge_fast's switch off (GE_XDSL_FAST=0, --no-fast-paths) torch runs as it is.

`ExportedProgram.run_decompositions` asks twice per call (once materializing the default
table, once splitting it) for every CompositeImplicitAutograd op it may preserve:
`_collect_all_valid_cia_ops` walks each op namespace, and for each one reads the
dispatcher's whole CIA registration list again (about 800 names) and every overload's
schema. That is 0.2 of the 0.42 CPU-s of lowering a two-op program, whatever its size. Its
answer depends only on the ops registered: within `cia_ops_memoized()` it is computed once
per key (the namespaces with their op counts and the dispatcher's CIA registrations, both
read in under a millisecond), so a custom op registered later gets a fresh answer. The
set is handed out as a copy (torch's callers edit theirs).
"""

from __future__ import annotations

import typing
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from ge_fast import enabled

# The CIA op sets computed, by key (see cia_ops_memoized); at most a few per process
_CIA_SETS: dict[tuple[object, ...], frozenset[Any]] = {}


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


def _cia_key(torch: Any) -> tuple[object, ...]:
    """What `_collect_all_valid_cia_ops` reads: the op namespaces with the ops each holds
    now, and the dispatcher's CompositeImplicitAutograd registrations."""
    spaces = tuple((name, len(getattr(getattr(torch.ops, name), "_dir", ()))) for name in torch.ops._dir)
    return spaces, tuple(torch._C._dispatch_get_registrations_for_dispatch_key("CompositeImplicitAutograd"))


class CiaOpsMemo:
    """`_collect_all_valid_cia_ops` as run_decompositions sees it within cia_ops_memoized:
    torch's own function, asked once per key."""

    def __init__(self, torch: Any, collect: Any) -> None:
        self._torch = torch
        self._collect = collect
        self.computed = 0  # sets computed by torch's function (the rest came from the memo)

    def __call__(self) -> set[Any]:
        key = _cia_key(self._torch)
        got = _CIA_SETS.get(key)
        if got is None:
            self.computed += 1
            got = _CIA_SETS[key] = frozenset(self._collect())
            key = _cia_key(self._torch)  # collecting materializes ops: the key it leaves
            _CIA_SETS[key] = got
        return set(got)


# The modules that call _collect_all_valid_cia_ops by the name they imported
_CIA_CALLERS = ("torch._export.utils", "torch.export.exported_program", "torch.export.decomp_utils")


@contextmanager
def cia_ops_memoized() -> Iterator[CiaOpsMemo | None]:
    """Within: run_decompositions reads torch's preservable CIA ops from a memo (the module
    doc). Yields the stand-in (its `computed` count), or None when the switch is off or
    this torch does not call `_collect_all_valid_cia_ops` as this expects (then nothing
    changes)."""
    if not enabled():
        yield None
        return
    import importlib

    import torch

    modules = [importlib.import_module(name) for name in _CIA_CALLERS]
    collect = getattr(modules[0], "_collect_all_valid_cia_ops", None)
    if collect is None or any(getattr(m, "_collect_all_valid_cia_ops", None) is not collect for m in modules):
        yield None
        return
    if isinstance(collect, CiaOpsMemo):  # nested in an open one: that memo serves
        yield collect
        return
    stand_in = CiaOpsMemo(torch, collect)
    for m in modules:
        m._collect_all_valid_cia_ops = stand_in  # type: ignore[attr-defined]
    try:
        yield stand_in
    finally:
        for m in modules:
            m._collect_all_valid_cia_ops = collect  # type: ignore[attr-defined]
