"""Memory types and alignment constants (docs/ge/notask.md).

The RT_MEMORY_* values come from the CANN runtime headers (rt_mem.h; not in the GE
repository), RT_MEMORY_UB (GE's ``kRtMemoryUB``) from
``inc/framework/common/framework_types_internal.h``.
"""

from __future__ import annotations

__all__ = [
    "GE_LOCAL_MEM_ALIGN_SIZE",
    "LX_MEMORY_TYPES",
    "MEMORY_TYPE_NAMES",
    "MEM_ALIGN_SIZE",
    "NOTASK_TENSOR_ALIGN_SIZE",
    "RT_MEMORY_DDR",
    "RT_MEMORY_DEFAULT",
    "RT_MEMORY_HBM",
    "RT_MEMORY_L1",
    "RT_MEMORY_L2",
    "RT_MEMORY_UB",
    "is_memory_type_special",
    "memory_type_name",
]

RT_MEMORY_DEFAULT = 0x0  # runtime rt_mem.h
RT_MEMORY_HBM = 0x2  # runtime rt_mem.h
RT_MEMORY_DDR = 0x4  # runtime rt_mem.h
RT_MEMORY_L1 = 1 << 16  # runtime rt_mem.h (65536)
RT_MEMORY_L2 = 1 << 17  # runtime rt_mem.h (131072)
RT_MEMORY_UB = 1 << 15  # framework_types_internal.h: kRtMemoryUB (32768)

# LxFusion memory types (on-chip buffers).
LX_MEMORY_TYPES: frozenset[int] = frozenset({RT_MEMORY_L1, RT_MEMORY_L2, RT_MEMORY_UB})

MEMORY_TYPE_NAMES: dict[int, str] = {
    RT_MEMORY_DEFAULT: "RT_MEMORY_DEFAULT",
    RT_MEMORY_HBM: "RT_MEMORY_HBM",
    RT_MEMORY_DDR: "RT_MEMORY_DDR",
    RT_MEMORY_L1: "RT_MEMORY_L1",
    RT_MEMORY_L2: "RT_MEMORY_L2",
    RT_MEMORY_UB: "RT_MEMORY_UB",
}

# concat_notask_pass / notask_pass_base.cc: NOTASK_TENSOR_ALIGN_SIZE, each input's byte size
# must be a multiple of it.
NOTASK_TENSOR_ALIGN_SIZE = 32
# compiler/graph/build/memory/mem_assigner.h: MEM_ALIGN_SIZE
MEM_ALIGN_SIZE = 512
# ge_local_ops_kernel_builder.cc: kMemAlignSize (= kAlignNum = 32, the default padding size)
GE_LOCAL_MEM_ALIGN_SIZE = 32


def is_memory_type_special(memory_type: int) -> bool:
    """False for DEFAULT, HBM and DDR, true for anything else.

    base/common/memory/mem_type_utils.cc: MemTypeUtils::IsMemoryTypeSpecial
    """
    return memory_type not in (RT_MEMORY_DEFAULT, RT_MEMORY_HBM, RT_MEMORY_DDR)


def memory_type_name(memory_type: int) -> str:
    """A readable name for messages ("RT_MEMORY_L1", or the hex value if unknown)."""
    return MEMORY_TYPE_NAMES.get(memory_type, f"memory type {memory_type:#x}")
