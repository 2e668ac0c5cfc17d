"""Output memory sizes of GE-local nodes, as GeLocalOpsKernelBuilder::CalcOpRunningParam
sets them (compiler/engines/local_engine/ops_kernel_store/ge_local_ops_kernel_builder.cc).

A plain analysis, no pass: memory assignment asks it for the stored size (GE's
TensorUtils::GetSize) of each output of a GE-local node. The size of a PhonyConcat or
PartitionedCall output is padded by AlignOutputMemSize, a Data-like output by
GetTensorMemorySizeInBytesWithAutoPadding, any other GE-local output is the raw byte size.
"""

from __future__ import annotations

from xdsl.ir import Operation

from ge_dialect.desc import tensor_desc
from ge_dialect.diagnostics import LocatedError
from ge_dialect.ge import ge_type
from ge_dialect.mem_types import GE_LOCAL_MEM_ALIGN_SIZE
from ge_dialect.node_types import ALIGNED_OUTPUT_TYPES, DATA_NODE_TYPES, GE_LOCAL_DELETED_TYPES, GE_LOCAL_NOOP_TYPES

# graph_metadef TensorUtilsEx::GetPaddingSize: AICoreSpec.padding_size, 32 by default.
DEFAULT_PADDING_SIZE = 32


def is_ge_local_op(op: Operation) -> bool:
    """Whether GE gives the node to the GE-local engine (DNN_VM_GE_LOCAL): its type is
    registered by REGISTER_OP_CREATOR in the NoOp or GeDeletedOp lists."""
    t = ge_type(op)
    return t in GE_LOCAL_NOOP_TYPES or t in GE_LOCAL_DELETED_TYPES


def align_output_mem_size(raw: int, padding_size: int = DEFAULT_PADDING_SIZE) -> int:
    """ceil(raw / 32) * 32 + padding_size (0 -> 32).

    # ge_local_ops_kernel_builder.cc: AlignOutputMemSize
    """
    a = GE_LOCAL_MEM_ALIGN_SIZE
    return (raw + a - 1) // a * a + padding_size


def memory_size_with_auto_padding(raw: int, padding_size: int = DEFAULT_PADDING_SIZE) -> int:
    """((raw + 32 + padding_size - 1) // 32) * 32: at least 32.

    # graph_metadef tensor_utils.cc: TensorUtils::GetTensorMemorySizeInBytes (what
    # CalcMemSizeByNodeType calls for data nodes: (raw + 2*32 - 1) // 32 * 32), the same as
    # GetTensorMemorySizeInBytesWithAutoPadding with the default padding size 32
    """
    a = GE_LOCAL_MEM_ALIGN_SIZE
    return (raw + a + padding_size - 1) // a * a


def ge_local_output_size(op: Operation, index: int) -> int:
    """The stored size in bytes of output `index` of a GE-local node.

    # ge_local_ops_kernel_builder.cc: GeLocalOpsKernelBuilder::CalcOpRunningParam /
    # CalcMemSizeByNodeType
    The raw size is TensorUtils::CalcTensorMemSize of the runtime (storage) shape: element
    count times the dtype size, sub-byte types rounded up. Raises ValueError for a node
    GE-local does not build, LocatedError for an output of unknown shape (GE skips those:
    their size is decided at run time).
    """
    if not is_ge_local_op(op):
        raise ValueError(f"{ge_type(op)} is not a GE-local op; its kernel builder sizes its outputs")
    if not 0 <= index < len(op.results):
        raise ValueError(f"{ge_type(op)} has {len(op.results)} outputs, no output {index}")
    raw = tensor_desc(op.results[index].type).size_in_bytes
    if raw is None:
        raise LocatedError(op, f"CalcOpRunningParam: output {index} has unknown shape; its size is decided at run time")
    t = ge_type(op)
    if t in DATA_NODE_TYPES:
        return memory_size_with_auto_padding(raw)
    if t in ALIGNED_OUTPUT_TYPES:
        return align_output_mem_size(raw)
    return raw
