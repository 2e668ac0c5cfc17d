"""GE's node-type sets: which op types GE classes together, one home per fact.

Each set is the type list of one GE function or table, cited beside it; passes, lowering
and the memory planner import them from here, so a rule that reads a set reads GE's set
and a change to it reaches every reader.
"""

from __future__ import annotations

# -- data, constants, variables -----------------------------------------------------------

# graph_metadef op_type_utils.cc: kDataOpSet (OpTypeUtils::IsDataNode)
DATA_NODE_TYPES: frozenset[str] = frozenset({"Data", "RefData", "AippData", "AnnData", "QueueData"})
# graph_metadef op_type_utils.cc: IsConstNode (Const, Constant) and IsVariableNode
CONST_TYPES: frozenset[str] = frozenset({"Const", "Constant"})
VARIABLE_TYPES: frozenset[str] = frozenset({"Variable"})
# Nodes whose output is a buffer the graph is given, not one it computes: graph inputs,
# constants and variables (what lowering leaves alone and kernel counts skip).
SOURCE_TYPES: frozenset[str] = DATA_NODE_TYPES | CONST_TYPES | VARIABLE_TYPES

# -- no-task ------------------------------------------------------------------------------

# notask_pass_base.cc: NotaskPassBase::IsPreNodeTypeValid (DATA, REFDATA, VARIABLE,
# CONSTANTOP, CONSTANT): a no-task node's producer must not be one of these. Autofuse's
# lower_concat_helper.cpp: IsPeerNodeValidForNoTask refuses the same sources.
INVALID_PRE_NODE_TYPES: frozenset[str] = frozenset({"Data", "RefData", "Variable", "Constant", "Const"})

# -- the GE-local engine ------------------------------------------------------------------

# local_engine/ops_kernel_store/op/no_op.cc: REGISTER_OP_CREATOR(..., NoOp) (docs/ge/notask.md)
GE_LOCAL_NOOP_TYPES: frozenset[str] = frozenset({
    "Data", "RefData", "QueueData", "AippData",
    "NoOp", "Variable", "Constant", "Const", "ControlTrigger", "Merge", "FileConstant",
    "ConstPlaceHolder",
    "If", "_If", "StatelessIf", "Case", "StatelessCase", "While", "_While", "StatelessWhile",
    "For", "PartitionedCall", "StatefulPartitionedCall",
    "OpTiling", "ConditionCalc", "UnfedData",
    "Stack", "StackPush", "StackPop", "StackClose",
    "Reshape", "Bitcast", "PhonyConcat", "PhonySplit",
    "Flatten", "FlattenV2", "ExpandDims", "ReFormat", "Squeeze", "Unsqueeze", "SqueezeV2",
    "UnsqueezeV2", "SqueezeV3", "UnsqueezeV3",
})  # fmt: skip

# The reshape family: views of their input 0. ge_local_ops_kernel_calc_op_param.h:
# kReuseInputOpTypes (CalcNodeOffsetByReuseInput: output 0 reuses input 0) and Reshape, a
# ref of input 0 (graph_utils.cc GetRefMapping through RefOpTransfer's kRefOps). A further
# input (Reshape's shape, an axes input) is a parameter: its bytes are not viewed.
RESHAPE_FAMILY_TYPES: frozenset[str] = frozenset({
    "Reshape", "Bitcast", "Flatten", "FlattenV2", "ExpandDims", "ReFormat", "Squeeze", "Unsqueeze",
    "SqueezeV2", "SqueezeV3", "UnsqueezeV2", "UnsqueezeV3",
})  # fmt: skip

# local_engine/ops_kernel_store/op/ge_deleted_op.cc: REGISTER_OP_CREATOR(..., GeDeletedOp)
GE_LOCAL_DELETED_TYPES: frozenset[str] = frozenset({
    "TemporaryVariable", "DestroyTemporaryVariable", "GuaranteeConst", "PreventGradient",
    "StopGradient", "Size", "Shape", "ShapeN", "Rank",
    "_Retval", "ReadVariableOp", "VarHandleOp", "VarIsInitializedOp", "Snapshot", "RefIdentity",
    "Identity", "IdentityN",
    "VariableV2", "Empty", "PlaceholderWithDefault", "IsVariableInitialized", "PlaceholderV2",
    "Placeholder", "End",
    "Switch", "RefMerge", "RefSwitch", "TransShape", "GatherShapes",
})  # fmt: skip

# ge_local_ops_kernel_builder.cc: CalcMemSizeByNodeType (PHONYCONCAT, PARTITIONEDCALL: the
# output size is padded by AlignOutputMemSize)
ALIGNED_OUTPUT_TYPES: frozenset[str] = frozenset({"PhonyConcat", "PartitionedCall"})

# -- autofuse -----------------------------------------------------------------------------

# autofuse_utils.cpp: IsSplitType -- the GE types a split AscBackend comes from
SPLIT_TYPES: frozenset[str] = frozenset({"Split", "SplitD", "SplitV", "SplitVD"})
# autofuse_utils.cpp: GetComputeOps -- these view types are not compute ops
NON_COMPUTE_VIEW_TYPES: frozenset[str] = frozenset({"ExpandDims", "Reshape", "Squeeze", "Unsqueeze"})
# liftings.cpp: kMinComputeNodes (a kernel of fewer compute ops is lifted back)
LIFTING_MIN_COMPUTE_NODES = 2
