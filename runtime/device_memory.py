"""Simulated device memory (HBM) for the dynamic executor: a flat address space with GE's
caching allocator (runtime/v1/graph/manager/caching_allocator.cc: CachingAllocator).

    dev = DeviceMemory()
    a = dev.malloc(1000, "relu:0")     # an Allocation: a.ptr, a.size (1024: rounded to 512)
    dev.view(a.ptr, 1000)[...] = ...    # the bytes at that device address (a numpy uint8 view)
    dev.free(a)                         # back into its bin; a later malloc may reuse it

Device addresses are simulated virtual addresses: each segment the allocator takes from
the device (rtMalloc, `TryExtendCache`) gets the next free range of an address space that
starts at DEVICE_BASE, and holds its bytes in one numpy uint8 array. A block is
`(ptr, size)` inside one segment; the allocator's rules are GE's:

- every request is rounded up to a multiple of 512 bytes, 0 bytes to 512 (GetBlockSize,
  kRoundBlockSize);
- free blocks sit in 7 bins by size (bin_ranges: <= 512 KiB, <= 8 MiB + 512, <= 32 MiB +
  512, <= 128 MiB + 512, <= 256 MiB + 512, <= 512 MiB + 512, larger), each ordered by
  (size, address) (BlockComparator); a request takes the first block of its own bin not
  smaller than it (FindFreeBlock: lower_bound), split when the request is at most half the
  block (ShouldSplitBlock, kSplitThreshold 0.5: the request at the block's start, the rest
  stays free), the whole block otherwise;
- when its bin has no such block, a new segment of the bin's range (or whole GiBs beyond
  the last bin) is taken from the device (TryExtendCache, GetAllocationSize);
- a freed block merges with its free neighbours of the same segment (FreeBlock,
  MergeBlocks); segments are never returned (the cache keeps them).

So the address a tensor gets depends on what was allocated and freed before it: the same
sequence of sizes gives the same addresses, other shapes give other addresses, which is
what makes a known-shape model's I/O addresses change between executions.

Every allocation has a serial number and a tag (what the caller stored there); `owner(addr)`
says which live allocation holds an address, or which one last held it before it was
freed, so a stale address (an args slot that still points at a freed or reused block) is
reported with what is at that address now.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field

import numpy as np

__all__ = ["DEVICE_BASE", "Allocation", "DeviceMemory", "block_size"]

# the first simulated device address (segments follow, each 2 MiB aligned)
DEVICE_BASE = 0x1_0000_0000
SEGMENT_ALIGN = 2 << 20

# caching_allocator.h: kRoundBlockSize, kSplitThreshold, kNumBins
K_ROUND_BLOCK_SIZE = 512
K_SPLIT_THRESHOLD = 0.5
_KB, _MB, _GB = 1024, 1 << 20, 1 << 30
# caching_allocator.cc: bin_ranges
BIN_RANGES = (
    K_ROUND_BLOCK_SIZE * _KB,
    8 * _MB + K_ROUND_BLOCK_SIZE,
    32 * _MB + K_ROUND_BLOCK_SIZE,
    128 * _MB + K_ROUND_BLOCK_SIZE,
    256 * _MB + K_ROUND_BLOCK_SIZE,
    512 * _MB + K_ROUND_BLOCK_SIZE,
    _GB,
)


def block_size(size: int) -> int:
    """caching_allocator.cc: GetBlockSize: a multiple of 512, at least 512."""
    if size <= 0:
        return K_ROUND_BLOCK_SIZE
    return K_ROUND_BLOCK_SIZE * ((size + K_ROUND_BLOCK_SIZE - 1) // K_ROUND_BLOCK_SIZE)


def _bin_index(size: int) -> int:
    """caching_allocator.cc: GetBinIndex."""
    for i, r in enumerate(BIN_RANGES):
        if size <= r:
            return i
    return len(BIN_RANGES) - 1


def _allocation_size(size: int) -> int:
    """caching_allocator.cc: GetAllocationSize: a new segment is the bin's range, or whole GiBs."""
    r = BIN_RANGES[_bin_index(size)]
    return r if r >= size else _GB * ((size + _GB - 1) // _GB)


@dataclass(eq=False)
class _Block:
    ptr: int
    size: int
    segment: int
    bin: int
    allocated: bool = False
    prev: _Block | None = None
    next: _Block | None = None
    allocation: Allocation | None = None

    def key(self) -> tuple[int, int]:
        return (self.size, self.ptr)  # caching_allocator.cc: BlockComparator


@dataclass(eq=False)
class Allocation:
    """One live (or freed) block handed out by `malloc`: its device address and size
    (rounded), the caller's tag and the allocation's serial number."""

    serial: int
    ptr: int
    size: int
    requested: int
    tag: str
    live: bool = True
    freed_at: int | None = None  # the execution in which it was freed (DeviceMemory.epoch)

    def describe(self) -> str:
        return f"allocation #{self.serial} ('{self.tag}', {self.size} bytes at {self.ptr:#x})"


@dataclass
class PoolStats:
    mallocs: int = 0
    frees: int = 0
    segments: int = 0
    reserved_bytes: int = 0  # the segments' bytes (what the cache took from the device)
    in_use_bytes: int = 0
    peak_in_use_bytes: int = 0
    reused_blocks: int = 0  # mallocs served from the cache (no new segment)


@dataclass
class _Segment:
    va: int
    data: np.ndarray
    history: list[tuple[int, int, Allocation]] = field(default_factory=list)  # (start, end, allocation), freed


class DeviceMemory:
    """A flat simulated device memory with GE's CachingAllocator (see the module doc)."""

    def __init__(self) -> None:
        self.segments: list[_Segment] = []
        self._vas: list[int] = []
        self._next_va = DEVICE_BASE
        self.bins: list[list[tuple[int, int]]] = [[] for _ in BIN_RANGES]  # sorted (size, ptr) of free blocks
        self._free_by_key: dict[tuple[int, int], _Block] = {}
        self._allocated: dict[int, _Block] = {}  # ptr -> block (caching_allocator.cc: allocated_blocks_)
        self._live_ptrs: list[int] = []  # sorted ptrs of allocated blocks
        self.serial = 0
        self.epoch = 0  # the caller's execution number, recorded on each free
        self.stats = PoolStats()

    # -- the allocator ----------------------------------------------------------------------

    def malloc(self, size: int, tag: str) -> Allocation:
        """CachingAllocator::Malloc: a block of at least `size` bytes (rounded to 512)."""
        self.stats.mallocs += 1
        want = block_size(size)
        block = self._find_free_block(want)
        if block is None:
            self._extend_cache(want)
            block = self._find_free_block(want)
            assert block is not None
        else:
            self.stats.reused_blocks += 1
        self.serial += 1
        a = Allocation(self.serial, block.ptr, block.size, size, tag)
        block.allocation = a
        self.stats.in_use_bytes += block.size
        self.stats.peak_in_use_bytes = max(self.stats.peak_in_use_bytes, self.stats.in_use_bytes)
        return a

    def free(self, a: Allocation) -> None:
        """CachingAllocator::Free + FreeBlock: back into its bin, merged with free neighbours."""
        block = self._allocated.pop(a.ptr, None)
        if block is None or block.allocation is not a:
            raise ValueError(f"free of {a.describe()}, which is not allocated")
        self.stats.frees += 1
        self.stats.in_use_bytes -= block.size
        del self._live_ptrs[bisect.bisect_left(self._live_ptrs, a.ptr)]
        a.live, a.freed_at = False, self.epoch
        self.segments[block.segment].history.append((a.ptr, a.ptr + a.size, a))
        block.allocated, block.allocation = False, None
        for other in (block.prev, block.next):
            self._merge(block, other)
        self._insert_free(block)

    def _find_free_block(self, size: int) -> _Block | None:
        """CachingAllocator::FindFreeBlock: lower_bound in the request's bin, split if large."""
        b = _bin_index(size)
        keys = self.bins[b]
        i = bisect.bisect_left(keys, (size, 0))
        if i == len(keys):
            return None
        block = self._free_by_key.pop(keys.pop(i))
        if size <= block.size * K_SPLIT_THRESHOLD:  # ShouldSplitBlock
            block = self._split(block, size)
        block.allocated = True
        self._allocated[block.ptr] = block
        bisect.insort(self._live_ptrs, block.ptr)
        return block

    def _split(self, block: _Block, size: int) -> _Block:
        """CachingAllocator::SplitBlock: the request at the block's start, the rest stays free."""
        new = _Block(block.ptr, size, block.segment, block.bin, prev=block.prev, next=block)
        if new.prev is not None:
            new.prev.next = new
        block.prev = new
        block.ptr += size
        block.size -= size
        self._insert_free(block)
        return new

    def _merge(self, dst: _Block, src: _Block | None) -> None:
        """CachingAllocator::MergeBlocks: a free neighbour joins `dst` (which leaves no bin yet)."""
        if src is None or src.allocated:
            return
        self._remove_free(src)
        if dst.prev is src:
            dst.ptr = src.ptr
            dst.prev = src.prev
            if dst.prev is not None:
                dst.prev.next = dst
        else:
            dst.next = src.next
            if dst.next is not None:
                dst.next.prev = dst
        dst.size += src.size

    def _extend_cache(self, size: int) -> None:
        """CachingAllocator::TryExtendCache: a new segment from the device, as one free block."""
        n = _allocation_size(size)
        va = self._next_va
        self._next_va = va + ((n + SEGMENT_ALIGN - 1) // SEGMENT_ALIGN) * SEGMENT_ALIGN
        self.segments.append(_Segment(va, np.zeros(n, dtype=np.uint8)))
        self._vas.append(va)
        self.stats.segments += 1
        self.stats.reserved_bytes += n
        # AddToBlockBin: the segment goes to the bin of its own size
        self._insert_free(_Block(va, n, len(self.segments) - 1, _bin_index(n)))

    def _insert_free(self, block: _Block) -> None:
        # a block stays in its segment's bin (SplitBlock gives the new block `&bin`,
        # FreeBlock inserts into `*block->bin`)
        bisect.insort(self.bins[block.bin], block.key())
        self._free_by_key[block.key()] = block

    def _remove_free(self, block: _Block) -> None:
        keys = self.bins[block.bin]
        del keys[bisect.bisect_left(keys, block.key())]
        del self._free_by_key[block.key()]

    # -- the bytes --------------------------------------------------------------------------

    def _segment(self, addr: int) -> _Segment | None:
        i = bisect.bisect_right(self._vas, addr) - 1
        if i < 0:
            return None
        s = self.segments[i]
        return s if addr < s.va + len(s.data) else None

    def view(self, addr: int, nbytes: int) -> np.ndarray:
        """The bytes [addr, addr + nbytes) of device memory, as a writable uint8 view."""
        s = self._segment(addr)
        if s is None or addr + nbytes > s.va + len(s.data):
            raise ValueError(f"device address range [{addr:#x}, {addr + nbytes:#x}) is not in any segment")
        off = addr - s.va
        return s.data[off : off + nbytes]

    def segment_view(self, addr: int) -> tuple[np.ndarray, int]:
        """The segment holding `addr` and `addr`'s offset in it."""
        s = self._segment(addr)
        if s is None:
            raise ValueError(f"device address {addr:#x} is not in any segment")
        return s.data, addr - s.va

    def owner(self, addr: int) -> Allocation | None:
        """The live allocation holding device address `addr`, or None."""
        i = bisect.bisect_right(self._live_ptrs, addr) - 1
        if i < 0:
            return None
        b = self._allocated[self._live_ptrs[i]]
        return b.allocation if addr < b.ptr + b.size else None

    def last_owner(self, addr: int) -> Allocation | None:
        """The most recently freed allocation that held `addr` (None if none ever did)."""
        s = self._segment(addr)
        if s is None:
            return None
        for lo, hi, a in reversed(s.history):
            if lo <= addr < hi:
                return a
        return None

    def describe(self, addr: int) -> str:
        """What device address `addr` is now: inside a live allocation, free, or unmapped."""
        a = self.owner(addr)
        if a is not None:
            return f"inside live {a.describe()}"
        if self._segment(addr) is None:
            return "not device memory"
        last = self.last_owner(addr)
        if last is None:
            return "free memory (never allocated)"
        return f"free memory (last held {last.describe()}, freed in execution {last.freed_at})"
