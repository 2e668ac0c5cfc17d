"""Memo tables for facts the IR computes again and again, behind one switch.

Not GE's: GE keeps a tensor's desc inside the tensor and infers a node's shapes once, when
the node is made (OpDesc::InferShapeAndType). Here the tools verify the whole module after
every pass (ge-opt's verify-each, the Python API), and the passes ask each value for its
descriptor and shape many times, while an xDSL type hashes its whole structure (shape,
element type, encoding) at every dict lookup. These tables change what is computed, never
what is decided, refused or printed: the printed IR and the remarks are the same with them
on and off (tests/dialects/test_memo.py compares both ways, byte for byte).

  IdentityTable          a fact of an immutable attribute (a type), keyed by the object's
                         identity: no structural hash. ge_dialect/desc.py keeps each
                         type's TensorDesc and origin shape here.
  ValueTable             an immutable attribute by an equal key: ge_dialect/attrs.py's
                         int_list_attr makes one i64 IntegerAttr per value (xDSL checks
                         an IntegerAttr's range each time one is made).
  NODE_VERIFIED          GeNode.verify_ (ge_dialect/ge.py) skips a node whose verify
                         inputs (GeNode.verify_inputs: its inputs and their types, its
                         result types, attributes and properties, the `value` of each
                         Const producing an input) are equal to those of its last verify
                         that passed. A node whose verify reads its graph (a region, a
                         called subgraph) is verified every time.
  COUNTS                 how many node verifies ran and how many the memo skipped (the
                         tests count them; nothing here measures time).

The switch: the environment variable GE_IR_MEMO=0 (read when this module loads) or
`set_enabled(False)` turns every table off: each fact is then computed afresh, each node
verified in full.
"""

from __future__ import annotations

import os
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

IR_MEMO_ENV = "GE_IR_MEMO"

ENABLED: bool = os.environ.get(IR_MEMO_ENV, "1") != "0"

K = TypeVar("K")
V = TypeVar("V")


class IdentityTable(Generic[K, V]):
    """Values by the identity of their key object. Each entry keeps its key alive, so an
    id is never reused while its entry stands; the table empties itself when it reaches
    `limit` entries (a bound on what it pins, not an eviction policy). For immutable keys
    only: xDSL attributes."""

    def __init__(self, limit: int = 1 << 16) -> None:
        self.limit = limit
        self._entries: dict[int, tuple[K, V]] = {}

    def get(self, key: K) -> tuple[K, V] | None:
        """(key, value) when `key` has an entry; None otherwise."""
        hit = self._entries.get(id(key))
        return hit if hit is not None and hit[0] is key else None

    def put(self, key: K, value: V) -> V:
        if len(self._entries) >= self.limit:
            self._entries.clear()
        self._entries[id(key)] = (key, value)
        return value

    def keep(self, key: K, compute: Callable[[K], V]) -> V:
        """`key`'s value: the one kept for this very object, else `compute(key)`, kept."""
        hit = self.get(key)
        return hit[1] if hit is not None else self.put(key, compute(key))

    def clear(self) -> None:
        self._entries.clear()

    def __len__(self) -> int:
        return len(self._entries)


class ValueTable(Generic[K, V]):
    """Values by an equal key (an int, a str): made once per key, emptied at `limit`
    entries. For values that are immutable and equal whenever their keys are."""

    def __init__(self, limit: int = 1 << 16) -> None:
        self.limit = limit
        self._entries: dict[K, V] = {}

    def get(self, key: K) -> V | None:
        return self._entries.get(key)

    def put(self, key: K, value: V) -> V:
        if len(self._entries) >= self.limit:
            self._entries.clear()
        self._entries[key] = value
        return value

    def clear(self) -> None:
        self._entries.clear()

    def __len__(self) -> int:
        return len(self._entries)


@dataclass
class MemoCounts:
    """Node verifies: run in full, and skipped by NODE_VERIFIED."""

    verified: int = 0
    skipped: int = 0


COUNTS = MemoCounts()

# node -> the verify inputs of its last verify that passed (weak: an erased node drops out)
NODE_VERIFIED: weakref.WeakKeyDictionary[object, tuple[object, ...]] = weakref.WeakKeyDictionary()

_TABLES: list[IdentityTable[Any, Any] | ValueTable[Any, Any]] = []


def table(limit: int = 1 << 16) -> IdentityTable[Any, Any]:
    """A new IdentityTable (annotate it where it is kept), emptied with the others by
    `set_enabled`."""
    t: IdentityTable[Any, Any] = IdentityTable(limit)
    _TABLES.append(t)
    return t


def value_table(limit: int = 1 << 16) -> ValueTable[Any, Any]:
    """A new ValueTable, emptied with the others by `set_enabled`."""
    t: ValueTable[Any, Any] = ValueTable(limit)
    _TABLES.append(t)
    return t


def set_enabled(enabled: bool) -> None:
    """Turn every table on or off (both ways they start empty)."""
    global ENABLED
    ENABLED = enabled
    for t in _TABLES:
        t.clear()
    NODE_VERIFIED.clear()


@contextmanager
def enabled(on: bool) -> Iterator[None]:
    """The tables on (or off) inside the block, as they were after it."""
    before = ENABLED
    set_enabled(on)
    try:
        yield
    finally:
        set_enabled(before)
