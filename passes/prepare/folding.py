"""GE's FoldingPass::Folding (folding_pass.cc), shared by ge-dimension-compute-pass and
ge-constant-folding-pass: a node whose outputs a host kernel computed is replaced by one
new Const per used output, and its producers left without consumers are deleted. Not a
pass itself.

* folding_pass.cc: AddConstNodeToGraph: each Const is made by OpDescUtils::CreateConstOpZeroCopy
  (named `dynamic_const_<k>`, op_desc_utils.cc: GetConstantOpName with k counting every
  Const made, one counter per run here) and carries `_is_from_constant_folding = true`;
  GE adds it at the graph's front (AddNodeFront), here it goes just before the folded node
  (the same graph, the order only changes the printed position);
* folding_pass.cc: Folding: the folded node goes (IsolateAndDeleteNode(node, {})), then
  every producer of it without other consumers, except a Data (OpTypeUtils::IsDataNode).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, cast

from xdsl.dialects.builtin import BytesAttr, DenseIntOrFPElementsAttr, IntegerType, ModuleOp, TensorType
from xdsl.ir import Operation
from xdsl.rewriter import InsertPoint, Rewriter

from ge_dialect import attrs as A
from ge_dialect.desc import shape_of
from ge_dialect.diagnostics import op_location, remark
from ge_dialect.dtypes import numpy_dtype
from ge_dialect.ge import Const, Constant, DataLike, GeNode, GraphOp
from ge_dialect.graph import graphs_in_pass_order
from ge_dialect.names import UniqueNames, ge_type, name_nodes, node_name
from ge_dialect.weights import const_value_array, weight_bytes

if TYPE_CHECKING:  # numpy is imported where an array is made (passes/prepare/dimension_kernels.py)
    import numpy as np

# folding_pass.cc: AddConstNodeToGraph (SetBool "_is_from_constant_folding")
IS_FROM_CONSTANT_FOLDING = "_is_from_constant_folding"
# ge_attr_define.cc: ATTR_NO_NEED_CONSTANT_FOLDING
NO_NEED_CONSTANT_FOLDING = "no_need_constant_folding"
_DYNAMIC_CONST = re.compile(r"dynamic_const_(\d+)")


def const_array(op: Operation) -> np.ndarray | None:
    """The value of a Const/Constant as an array of its output's numpy dtype (GE's
    OpDescUtils::GetWeightsFromNodes), or None for anything else; an elided value (printed
    without its data) is a located error (ge_dialect/weights.py: elided_error)."""
    if not isinstance(op, Const | Constant):
        return None
    # the dense bytes are the dtype's own (bf16 and float8 as ml_dtypes' encoding): GE's
    # byte-copying kernels (reshape_kernel.cc, identity_kernel.cc, ...) fold them; its
    # arithmetic kernels' dtype tables (host_kernels.py) take no bf16 or float8. A
    # read-only view of the bytes: a kernel makes new arrays, it never writes its inputs
    v = const_value_array(op, op.attributes.get("value"))
    if v is None:
        return None
    s = shape_of(op.results[0].type)
    assert s is not None  # the verifier checks the value's type is the output's
    return v.reshape(s)


def static_type(t: Any) -> bool:
    s = shape_of(t)
    return s is not None and all(d >= 0 for d in s)


def all_outputs_empty(op: Operation) -> bool:
    """AreAllOutputsEmptyShape: every output holds no element (ReplaceWithEmptyConstPass's
    case, which both folding passes leave alone)."""
    shapes = [shape_of(r.type) for r in op.results]
    return bool(shapes) and all(s is not None and 0 in s for s in shapes)


def dense_attr(arr: np.ndarray, t: TensorType) -> DenseIntOrFPElementsAttr:
    """`arr` as the `value` of a Const of type `t` (raw bytes; i1 `true` is the byte -1)."""
    import numpy as np

    et = t.element_type
    if isinstance(et, IntegerType) and et.width.data == 1:
        data = np.where(np.asarray(arr, dtype=bool), -1, 0).astype(np.int8).tobytes()
    else:
        # a result that is a whole weight's bytes (Reshape, Identity, ... folded) shares them
        data = weight_bytes(np.ascontiguousarray(arr).astype(numpy_dtype(et), copy=False))
    return DenseIntOrFPElementsAttr(cast("TensorType[Any]", t), BytesAttr(data))


class Folder:
    """One run of a folding pass: names the Consts it makes and replaces folded nodes."""

    def __init__(self, taken: Sequence[str], count: int):
        self.names = UniqueNames(taken)
        # op_desc_utils.cc: GetConstantOpName (const_count, one counter for the process:
        # here it continues after the highest dynamic_const_<k> the module has)
        self.count = count

    def fold(self, op: Operation, outputs: Sequence[np.ndarray]) -> tuple[list[str], list[str]]:
        """Replace `op` by Consts holding `outputs`; returns (the Consts' names, the
        producers deleted with it)."""
        made: list[str] = []
        for r, arr in zip(op.results, outputs):
            if not r.uses:
                continue  # folding_pass.cc: GetIndexAndPeerInDataAnchors (used outputs only)
            t = r.type
            assert isinstance(t, TensorType) and tuple(arr.shape) == shape_of(t), (arr.shape, t)
            # op_desc_utils.cc: GetConstantOpName (MULTI_THREAD_COMPILE = 0: dynamic_const_<k>)
            name = self.names.get(f"dynamic_const_{self.count}")
            self.count += 1
            c = Const.create(
                result_types=[t],
                attributes={"value": dense_attr(arr, t), IS_FROM_CONSTANT_FOLDING: A.bool_attr(True)},
            )
            c.location = op.location
            c.results[0].name_hint = name
            Rewriter.insert_op(c, InsertPoint.before(op))
            r.replace_all_uses_with(c.results[0])
            made.append(name)
        producers: list[Operation] = []
        for v in op.operands:
            p = v.owner
            if isinstance(p, Operation) and p not in producers:
                producers.append(p)
        Rewriter.erase_op(op)
        # folding_pass.cc: Folding (an in-data node left without out-data nodes goes,
        # unless it is a Data: OpTypeUtils::IsDataNode)
        gone: list[str] = []
        for p in producers:
            if isinstance(p, DataLike) or any(r.uses for r in p.results):
                continue
            gone.append(node_name(p))
            Rewriter.erase_op(p)
        return made, gone


def fmt_value(arr: np.ndarray) -> str:
    """A short text of a folded value for remarks: the values of a small one, else the shape."""
    import numpy as np

    if arr.size <= 8:
        vals = ", ".join(str(v) for v in np.asarray(arr).reshape(-1).tolist())
        return f"[{vals}]" if arr.ndim else vals
    return f"{math.prod(arr.shape)} values of shape {list(arr.shape)}"


def run_folding(
    module: ModuleOp,
    pass_name: str,
    try_fold: Callable[[Operation], tuple[list[np.ndarray], str] | None],
    remarks: bool,
    may_fold: Callable[[Operation], bool] = lambda op: True,
    before: Callable[[Operation], None] | None = None,
) -> None:
    """The GEPass walk of a folding pass: root graphs, then subgraphs; in each, nodes in
    graph order, each tried once (a Const made before a later node's turn is what it
    sees, as GE's re-pass of a folded node's consumers gives); `try_fold` gives the
    outputs and the kernel's name, or None (GE's NOT_CHANGED). `may_fold` is a cheap
    necessary condition of `try_fold`'s success (its pass's first check), asked before
    the shape checks; the names the Consts must avoid are read at a graph's first fold.
    `before` runs on each node first (GEPass's earlier passes on the node: InferShapePass)."""
    graphs = graphs_in_pass_order(module)
    for graph in graphs:
        name_nodes(graph.body.block)  # names follow the input graph
    count: int | None = None  # the next dynamic_const_<k>: read at the first fold
    for graph in graphs:
        block = graph.body.block
        folder: Folder | None = None
        for op in list(block.ops):
            if before is not None and op.parent is block and isinstance(op, GeNode):
                before(op)
            if op.parent is not block or not isinstance(op, GeNode) or not op.results or not may_fold(op):
                continue
            if NO_NEED_CONSTANT_FOLDING in op.attributes or all_outputs_empty(op):
                continue  # folding_pass::IsNoNeedConstantFolding; NeedIgnorePass
            if not all(static_type(r.type) for r in op.results):
                continue  # a Const has a static shape
            got = try_fold(op)
            if got is None:
                continue
            outputs, kernel = got
            if count is None:  # no node was folded yet: every name is the input's
                count = _next_dynamic_const(graphs)
            if folder is None:  # nothing of this graph was folded yet: its names as they came
                folder = Folder([node_name(n) for n in block.ops], count)
            what, name = ge_type(op), node_name(op)
            loc = op_location(op)
            used = [a for a, r in zip(outputs, op.results) if r.uses]
            made, gone = folder.fold(op, outputs)
            if remarks:
                vals = ", ".join(fmt_value(a) for a in used)
                tail = f"; its producers {', '.join(repr(g) for g in gone)} removed" if gone else ""
                remark(
                    None,
                    f"{pass_name}: {what} '{name}' folded to Const {', '.join(repr(m) for m in made)} = {vals} "
                    f"({kernel}){tail}",
                    pass_name=pass_name,
                    location=loc,
                )
        if folder is not None:
            count = folder.count


def _next_dynamic_const(graphs: Sequence[GraphOp]) -> int:
    """One past the largest k of the module's `dynamic_const_<k>` nodes (0 without one)."""
    count = 0
    for graph in graphs:
        for n in graph.body.block.ops:
            m = _DYNAMIC_CONST.fullmatch(node_name(n))
            if m:
                count = max(count, int(m.group(1)) + 1)
    return count
