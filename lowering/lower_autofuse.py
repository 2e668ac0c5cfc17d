"""ge-lower-autofuse: GE's first-stage fusion, compute ops -> `ge.AscBackend { AscGraph }`.

Follows GE's lowering (compiler/graph/optimize/autofuse/lowering/: asc_ir_lowerer.cpp
AscIrLowerer::Lowering, lowerings.cpp LoweringManager, op_lowering_impl/lowering_impl.cpp,
asc_lowerer/{loop_api,loop_ops,kernel_box,asc_overrides}.cpp; docs/ge/autofuse.md). Each GE
node, in topological order, gets one loop expression per output (a `KernelBox`,
lowering/loop_ir.py); a producer whose box is not realized is inlined into its reader;
after each node GE's realize rules decide which boxes become fusion boundaries. Every
realized box holding a compute op becomes one `ge.AscBackend` named
`autofuse_<fusetype>_<n>_<GETypes>` whose AscGraph loads the buffers the box reads: once
the whole graph is analysed, `fused_loop_to_asc_backend` replaces each
lowered node by the AscBackends of its realized outputs.
Nodes GE does not lower (or whose class is off) stay as GE ops and realize their inputs.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import (
    ArrayAttr,
    Float32Type,
    FloatAttr,
    IntegerType,
    ModuleOp,
    Signedness,
    StringAttr,
    TensorType,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass

from ge_dialect import ascgraph as ag
from ge_dialect import attrs as A
from ge_dialect import ge
from ge_dialect import symbolic as S
from ge_dialect.asc_backend import FUSE_TYPE_ATTR, FUSE_TYPE_MASK_ATTR
from ge_dialect.desc import tensor_desc
from ge_dialect.diagnostics import remark
from ge_dialect.dtypes import dtype_bits, ge_dtype_name
from ge_dialect.ge import GeNode, GraphOp, ge_type, node_name, value_dtype
from ge_dialect.graph import graph_nodes, graphs_to_compile, unknown_desc_reason
from ge_dialect.node_types import CONST_TYPES, LIFTING_MIN_COMPUTE_NODES, NON_COMPUTE_VIEW_TYPES, SOURCE_TYPES
from ge_dialect.pass_options import REMARKS, AnyValue, AtLeast, Flag, InRange, ListOf, OneOf, Option, check_options
from ge_dialect.reason import Reason
from ge_dialect.shape_env import ORIGIN_SYMBOL_SHAPE_ATTR
from ge_dialect.shapes import normalize_axis
from ge_fast.op_builder import clone_op, new_block, new_op
from lowering import loop_ir as L

# auto_fuse_config.h: the `--autofuse_enable_pass` classes this port lowers (all off by
# default in GE; pointwise, broadcast and the reshape family always lower).
OPTIONAL_CLASSES: tuple[str, ...] = ("reduce", "concat", "split", "transpose", "gather")
# GE's other flags name op classes this op set has no lowering for.
UNSUPPORTED_CLASSES: tuple[str, ...] = ("slice", "matmul", "conv")
# backend_spec.h: SliceSplitSpec::split_lowered_to_split false (slice) / true (split)
SPLIT_LOWERINGS: tuple[str, ...] = ("slice", "split")

# lowering_impl.cpp: REGISTER_POINTWISE_LOWER (GE type -> AscIR type); Log is AscIR Ln.
POINTWISE: dict[str, str] = {
    "Add": "Add", "Sub": "Sub", "Mul": "Mul", "RealDiv": "Div", "Div": "Div",
    "Maximum": "Maximum", "Minimum": "Minimum", "Pow": "Pow",
    "Relu": "Relu", "Abs": "Abs", "Neg": "Neg", "Exp": "Exp", "Log": "Ln", "Sqrt": "Sqrt",
    "Rsqrt": "Rsqrt", "Sigmoid": "Sigmoid", "Tanh": "Tanh", "Reciprocal": "Reciprocal",
}  # fmt: skip
# AscIR ops registered for integer dtypes as well as floats (ascir_ops.cpp dtype lists);
# the others are float-only and fall back on integers.
INT_OK: frozenset[str] = frozenset({"Add", "Sub", "Mul", "Maximum", "Minimum", "Relu", "Abs", "Neg", "Cast"})
FLOAT_DTYPES: frozenset[str] = frozenset({"DT_FLOAT", "DT_FLOAT16", "DT_BF16"})
INT_DTYPES: frozenset[str] = frozenset({"DT_INT32", "DT_INT64", "DT_INT16", "DT_INT8", "DT_UINT8"})

REDUCTIONS: dict[str, str] = {
    "ReduceSumD": "Sum", "ReduceMaxD": "Max", "ReduceMinD": "Min", "ReduceMeanD": "Mean", "ReduceProdD": "Prod",
}  # fmt: skip
RESHAPE_FAMILY: frozenset[str] = frozenset({
    "Reshape", "Squeeze", "Unsqueeze", "ExpandDims", "Flatten", "FlattenV2", "ReFormat",
    "SqueezeV2", "SqueezeV3", "UnsqueezeV2", "UnsqueezeV3", "Identity",
})  # fmt: skip
# autofuse_lowering_utils.h: heavy ops realize their outputs (only Exp).
HEAVY_OPS: frozenset[str] = frozenset({"Exp"})

# GE attribute names of the skip rules (asc_ir_lowerer.cpp: skip before lowering).
SUPER_KERNEL_SCOPE = "_super_kernel_scope"
DISABLE_AUTOFUSE_SCOPE = "_disable_autofuse_scope"
# lowering_impl.cpp: LowerReduction small-last-dim skip threshold (bytes).
REDUCE_SMALL_LAST_DIM_BYTES = 64


class Extern(Exception):
    """A node GE does not lower (fallback lowering: inputs realized, outputs extern); `reason`
    is the GE rule that decided, where one did."""

    def __init__(self, message: str, reason: Reason | None = None):
        super().__init__(message)
        self.reason = reason


@dataclass(eq=False)
class KernelBox:
    """One GE out-anchor's loop expression (asc_lowerer/kernel_box.h: KernelBox/KernelBoxMeta)."""

    node: Operation
    value: SSAValue
    expr: L.LoopExpr
    root: str  # "store", "reduce", "concat", "transpose", "split"
    bit: str  # the node's own fuse-type class
    num_ops: int  # non-Load/Store compute ops (views count 0)
    num_loads: int
    num_nodes: int  # GE nodes covered
    inlined: tuple[KernelBox, ...]
    realized: bool = False
    reason: str = ""

    def covered(self) -> list[KernelBox]:
        """This box and every box inlined into it, each once, in topological order."""
        seen: dict[int, KernelBox] = {}
        stack: list[KernelBox] = [self]
        while stack:
            b = stack.pop()
            if id(b) in seen:
                continue
            seen[id(b)] = b
            stack.extend(b.inlined)
        return list(seen.values())


@dataclass
class _Reads:
    """What a node's lowering read: inlined producer boxes, loads and ops they bring."""

    state: _State
    inlined: list[KernelBox] = field(default_factory=list)
    loads: int = 0
    ops: int = 0
    nodes: int = 0

    def read(self, v: SSAValue) -> L.LoopExpr:
        """# loop_api.cpp: Load -- inline a producer box that is not realized, else a LoadOp."""
        box = self.state.boxes.get(v)
        if box is not None and not box.realized:
            self.inlined.append(box)
            self.loads += box.num_loads
            self.ops += box.num_ops
            self.nodes += box.num_nodes
            return box.expr
        self.loads += 1
        return L.Load(_shape(v), _dtype(v), v)


def unknown_shape_reason(node: Operation) -> Reason | None:
    """Why a node with an unknown dim (GE's -1) or rank (-2) on an input or output is not
    lowered. GE lowers most ops on symbolic dims (graph/symbolizer) and the cube ops only on
    static descs (loop_api.cpp: AreDescriptorsStatic, in IsStaticShape); this port's loops
    have static extents only, so every unknown-shape node falls back
    (lowerings.cpp: FallbackLowering) and runs as its own kernel.

    # asc_lowerer/loop_api.cpp: AreDescriptorsStatic
    While a graph is lowered over symbolic shapes, a node whose every input and output has
    one (lowering/symbolic_shape.py) lowers with symbolic axes instead.
    """
    sym = _SYMBOLIC_SHAPES.get()
    if sym is not None:
        if all(v in sym for v in (*node.operands, *node.results)):
            return None
        return unknown_desc_reason(
            node, "SymbolicShapeInference", "symbolic shape inference gave it no symbolic shape (no rule, or undecided)"
        )
    return unknown_desc_reason(node, "AreDescriptorsStatic", "the loops lowering builds need static extents")


@functools.lru_cache(maxsize=4096)
def _type_error(t: Attribute) -> str | None:
    """Why a value of type `t` cannot be lowered, if it cannot (cached per type; an unknown
    shape is unknown_shape_reason's, checked first)."""
    assert isinstance(t, TensorType)
    d = tensor_desc(t)
    if 0 in t.get_shape():
        # autofuser.cpp: an empty tensor becomes AscBackendNoKernelOp, never fused.
        return "empty tensor"
    if d.storage_format != d.origin_format:
        # Not GE's: loops here run over origin shapes, so the storage must be them.
        return f"storage format {d.storage_format} differs from origin format {d.origin_format}"
    return None


def _shape(v: SSAValue) -> tuple[int, ...]:
    sym = _SYMBOLIC_SHAPES.get()
    if sym is not None and (s := sym.get(v)) is not None:
        return s  # type: ignore[return-value]
    t = v.type
    assert isinstance(t, TensorType)
    return tuple(t.get_shape())


# While a graph is lowered over symbolic shapes (LowerAutofusePass.lower_graph_symbolic):
# each value's shape from lowering/symbolic_shape.py, its dims ints or symbolic.Dims.
_SYMBOLIC_SHAPES: ContextVar[dict[SSAValue, tuple] | None] = ContextVar("symbolic_shapes", default=None)
# the nodes whose boxes could not be realized over symbols, with why (lower_graph_symbolic)
_EXCLUDED: ContextVar[dict[Operation, str] | None] = ContextVar("symbolic_excluded", default=None)


class _RealizeNotProvable(Exception):
    def __init__(self, node: Operation, why: str):
        super().__init__(why)
        self.node, self.why = node, why


def _dtype(v: SSAValue) -> Attribute:
    return value_dtype(v)


@dataclass
class _State:
    pass_: LowerAutofusePass
    boxes: dict[SSAValue, KernelBox] = field(default_factory=dict)
    order: list[KernelBox] = field(default_factory=list)
    not_lowered: dict[Operation, str] = field(default_factory=dict)
    not_lowered_reason: dict[Operation, Reason] = field(default_factory=dict)
    # loop_ops.h: StoreSplitDesc::id_ -- the global id of the last lowered Split, shared by
    # every graph of the module (GE's is process-wide; the first Split gets 1)
    split_gid: list[int] = field(default_factory=lambda: [0])

    def realize(self, box: KernelBox, reason: str) -> None:
        if not box.realized:
            box.realized, box.reason = True, reason

    def realize_inputs(self, op: Operation, why: str) -> None:
        for v in op.operands:
            if (b := self.boxes.get(v)) is not None:
                self.realize(b, why)


@dataclass(frozen=True)
class LowerAutofusePass(ModulePass):
    """Lowers GE compute ops into `ge.AscBackend` loop nests (GE's first-stage fusion).

    Per node in topological order a loop expression is built (pointwise with numpy
    broadcasting, BroadcastToD and the reshape family as views, and with `enable-pass`:
    reductions, ConcatD/ConcatV2D, SplitD/SplitVD, TransposeD, Gather/GatherV2); unrealized
    producers are inlined into their reader; GE's realize rules (reduction, heavy op Exp,
    several readers, max-loop-ops, max-loop-loads, stream labels) end a fusion. Each
    realized box becomes an AscBackend `autofuse_<fusetype>_<n>_<GETypes>`; ops without a
    lowering stay GE ops. `remarks` tells, per node, where it went and why.

    `split-lowering` is GE's platform split lowering (BackendSpec
    slice_split_spec.split_lowered_to_split): `slice` (A2/A3, the default) makes each
    output a StridedSlice view of the input, fuse type slice; `split` (A5) makes each
    output a realized StoreSplit box whose AscGraph holds an AscIR Split with the original
    Split's global id `gid`, fuse type split (ge-autofuse then fuses the pieces back).
    """

    name = "ge-lower-autofuse"

    # auto_fuse_config.h: `--autofuse_enable_pass=reduce,concat,...` (GE default: none)
    enable_pass: tuple[str, ...] = ()
    # autofuse_lowering_utils.h: LoweringConfig defaults
    max_loop_ops: int = 64
    max_loop_loads: int = 4
    max_buffer_readers: int = 4
    recomputation_threshold: int = 1
    # asc_overrides.cpp: AscOverrides CSE (the UTs turn it off: Realize(name, false))
    cse: bool = True
    # backend_spec.h: SliceSplitSpec::split_lowered_to_split (false on A2/A3, true on A5)
    split_lowering: str = "slice"
    remarks: bool = False

    CLASSES: ClassVar[tuple[str, ...]] = OPTIONAL_CLASSES

    OPTIONS: ClassVar[dict[str, Option]] = {
        "enable_pass": Option(
            "the optional op classes to lower (GE's --autofuse_enable_pass, none by default); "
            "pointwise ops, BroadcastToD and the reshape family always lower",
            ListOf(
                OPTIONAL_CLASSES,
                tuple((c, "GE's flag exists, but this op set has no such lowering") for c in UNSUPPORTED_CLASSES),
            ),
        ),
        "max_loop_ops": Option("a fusion with more loop ops than this is realized (KernelBox::IsOversize)", AtLeast(1)),
        "max_loop_loads": Option("a fusion of several nodes with more loads than this is realized", AtLeast(1)),
        "max_buffer_readers": Option(
            "the output of a multi-output node read more times than this is realized", AnyValue("an integer")
        ),
        "recomputation_threshold": Option(
            "the output of a single-output node read more times than this is realized, "
            "else it is recomputed in each reader",
            InRange(0, 255),
        ),
        "cse": Option("merge identical loop expressions in a kernel (GE's AscOverrides CSE)", Flag()),
        "split_lowering": Option(
            "how SplitD/SplitVD lower: slice (A2/A3: StridedSlice views) or split (A5: StoreSplit boxes)",
            OneOf(SPLIT_LOWERINGS),
        ),
        "remarks": REMARKS,
    }

    def enabled(self, cls: str) -> bool:
        return cls in self.enable_pass

    def __post_init__(self) -> None:
        check_options(self)

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        counter = [0]
        split_gid = [0]
        for g in graphs_to_compile(op, self.name, self.remarks, "no lowering to AscBackends"):
            self.lower_graph(g, counter, split_gid)

    # -- one graph ----------------------------------------------------------------------

    def lower_graph(self, graph: GraphOp, counter: list[int], split_gid: list[int] | None = None) -> None:
        st = _State(self) if split_gid is None else _State(self, split_gid=split_gid)
        nodes = list(graph_nodes(graph))
        for node in nodes:
            if ge_type(node) in SOURCE_TYPES:
                continue
            self.lower_node(st, node)
        backends, made = build_backends(st, counter, self.cse)
        if self.remarks:
            self.emit_remarks(st, nodes, made)
        lowered = [n for n in nodes if n not in st.not_lowered and ge_type(n) not in SOURCE_TYPES]
        if not lowered:
            return
        fused_loop_to_asc_backend(graph.body.block, {n: backends.get(n, []) for n in lowered})

    def lower_graph_symbolic(
        self, graph: GraphOp, counter: list[int], shapes: dict[SSAValue, tuple], split_gid: list[int] | None = None
    ) -> None:
        """lower_graph over symbolic shapes (`shapes`: each value's dims, ints or
        symbolic.Dims): the AscGraphs' axes, repeats and strides are expressions, and every
        structural fact the lowering uses is a static check (a fact it cannot prove makes
        the node fall back, Reason StaticCheck)."""
        token = _SYMBOLIC_SHAPES.set(shapes)
        excluded: dict[Operation, str] = {}
        token2 = _EXCLUDED.set(excluded)
        try:
            # a box whose AscGraph needs a fact the checks cannot prove (found only when it
            # is realized): its node falls back and the graph is lowered again without it
            # (the graph is untouched until every box realized; at most one retry per node)
            start = (counter[0], list(split_gid) if split_gid is not None else None)
            while True:
                try:
                    self.lower_graph(graph, counter, split_gid)
                    return
                except _RealizeNotProvable as e:
                    excluded[e.node] = e.why
                    counter[0] = start[0]
                    if split_gid is not None and start[1] is not None:
                        split_gid[:] = start[1]
        finally:
            _EXCLUDED.reset(token2)
            _SYMBOLIC_SHAPES.reset(token)

    def lower_node(self, st: _State, node: GeNode) -> None:
        """# asc_ir_lowerer.cpp: LoweringManager::LowerNode + PostPrecessAfterLoweringNode"""
        try:
            outs = self.lower_relowering(st, node)
            # PostPrecessAfterLoweringNode 2: oversize -> realize all inputs, lower again;
            # still oversize -> fallback.
            if any(self.oversize(b) for b in outs):
                st.realize_inputs(node, f"its reader {ge_type(node)} '{node_name(node)}' would be oversize")
                outs = self.lower_relowering(st, node)
                if any(self.oversize(b) for b in outs):
                    raise Extern("oversize even with its inputs realized")
        except S.NotProvable as np_:
            # Beyond GE's rules: a structural fact about symbolic dims (equal extents, a 1
            # that broadcasts, ...) the static checks cannot prove; GE decides those
            # only through StaticCheck == kTrue too (backend_utils.cpp IsEqZero / IsEqOne).
            e = Extern(f"not provable over symbols: {np_}", Reason("StaticCheck", f"cannot prove {np_}"))
            self._fallback(st, node, e)
            return
        except Extern as e:
            self._fallback(st, node, e)
            return
        for b in outs:
            st.boxes[b.value] = b
            st.order.append(b)
        self.post_process(st, node, outs)

    def _fallback(self, st: _State, node: GeNode, e: Extern) -> None:
        """# lowerings.cpp: FallbackLowering -- realize every input, outputs stay extern."""
        st.not_lowered[node] = str(e)
        if e.reason is not None:
            st.not_lowered_reason[node] = e.reason
        st.realize_inputs(node, f"read by {ge_type(node)} '{node_name(node)}', which is not lowered")

    def lower_relowering(self, st: _State, node: GeNode) -> list[KernelBox]:
        """Lower; when a lowering needs a producer realized (a non-view reshape of an
        inlined expression), realize it and lower again."""
        for _ in range(len(node.operands) + 1):
            try:
                return self.lower_outputs(st, node)
            except _Relower as r:
                box = st.boxes.get(r.value)
                assert box is not None and not box.realized
                st.realize(box, r.reason)
        raise Extern("could not lower with its inputs realized")

    def oversize(self, b: KernelBox) -> bool:
        """# kernel_box.cpp: KernelBox::IsOversize (num_ops > max_loop_ops, or more than one
        GE node and num_loads > max_loop_loads)."""
        return b.num_ops > self.max_loop_ops or (b.num_nodes > 1 and b.num_loads > self.max_loop_loads)

    def post_process(self, st: _State, node: GeNode, outs: list[KernelBox]) -> None:
        """Realize rules after a node is lowered, in GE's order.

        # asc_ir_lowerer.cpp: PostPrecessAfterLoweringNode
        Rule 3 (optimised-away input buffers, e.g. ZerosLike) has no op here; rule 4's
        control edges cannot occur: the ge dialect has data edges only.
        """
        t = ge_type(node)
        for b in outs:
            # kernel_box.cpp: a StoreReduction / StoreConcat box realizes itself in its
            # constructor; lowering_impl.cpp: LowerTranspose realizes its Store;
            # loop_api.cpp: StoreSplit realizes each output's box.
            # lowering_impl.cpp: LowerGather realizes its Store.
            if b.root in ("reduce", "concat", "transpose", "split", "gather"):
                st.realize(b, f"{b.root} (its Store{'Reduction' if b.root == 'reduce' else ''} realizes itself)")
        if t in HEAVY_OPS:
            # PostPrecessAfterLoweringNode 4: heavy op
            for b in outs:
                st.realize(b, f"heavy op {t}")
        own_label = A.get_str(node, A.STREAM_LABEL, "") or ""
        for b in outs:
            readers = [u.operation for u in b.value.uses]
            # PostPrecessAfterLoweringNode 5, in order.
            if b.num_ops == self.max_loop_ops:
                st.realize(b, f"num_ops {b.num_ops} == max_loop_ops {self.max_loop_ops}")
            elif b.num_loads >= self.max_loop_loads:
                st.realize(b, f"num_loads {b.num_loads} >= max_loop_loads {self.max_loop_loads}")
            elif len(node.results) > 1 and len(readers) > self.max_buffer_readers:
                st.realize(b, f"{len(readers)} readers > max_buffer_readers {self.max_buffer_readers}")
            elif len(node.results) == 1 and len(readers) > self.recomputation_threshold:
                st.realize(b, f"{len(readers)} readers > recomputation_threshold {self.recomputation_threshold}")
            elif not readers:
                # Not GE's: a value nobody reads is kept (as a realized box) so lowering
                # never deletes a node.
                st.realize(b, "no reader")
            else:
                for r in readers:
                    lab = A.get_str(r, A.STREAM_LABEL, "") or ""
                    if lab and lab != own_label:
                        st.realize(b, f"reader '{node_name(r)}' has stream label '{lab}', this node '{own_label}'")
                        break

    # -- per-op-class lowering ------------------------------------------------------------

    def lower_outputs(self, st: _State, node: GeNode) -> list[KernelBox]:
        t = ge_type(node)
        excluded = _EXCLUDED.get()
        if excluded is not None and node in excluded:
            why = excluded[node]
            raise Extern(f"not provable over symbols: {why}", Reason("StaticCheck", f"cannot prove {why}"))
        # asc_ir_lowerer.cpp: skips decided before lowering
        for attr in (SUPER_KERNEL_SCOPE, DISABLE_AUTOFUSE_SCOPE):
            if attr in node.attributes:
                raise Extern(f"{attr} is set")
        if (why := unknown_shape_reason(node)) is not None:
            raise Extern(why.message, why)
        for v in (*node.operands, *node.results):
            if (err := _type_error(v.type)) is not None:
                raise Extern(err)
        rd = _Reads(st)
        lower = self.LOWERINGS.get(t) or (_lower_pointwise if t in POINTWISE else None)
        if lower is None:
            if t in RESHAPE_FAMILY:
                lower = _lower_reshape
            elif t in REDUCTIONS:
                lower = _lower_reduce
            else:
                raise Extern(f"no lowering for {t}")
        outs = lower(self, st, rd, node)
        boxes = []
        for v, (expr, root, bit, ops) in zip(node.results, outs):
            if root in ("store", "reduce") and not (expr.shape if root == "store" else expr.src.shape):  # type: ignore[attr-defined]
                # asc_ir_lowerer.cpp: DropLowerResultForScalarGraph (no loop axis)
                raise Extern("scalar (the loop nest has no axis)")
            boxes.append(KernelBox(node, v, expr, root, bit, rd.ops + ops, rd.loads, rd.nodes + 1, tuple(rd.inlined)))
        return boxes

    LOWERINGS: ClassVar[dict[str, Callable]] = {}

    def emit_remarks(self, st: _State, nodes: list[GeNode], made: dict[Operation, list[str]]) -> None:
        own: dict[Operation, list[KernelBox]] = {}
        for b in st.order:
            own.setdefault(b.node, []).append(b)
        for n in nodes:
            t = ge_type(n)
            if t in SOURCE_TYPES or t == "NetOutput":
                continue
            head = f"{t} '{node_name(n)}'"
            if n in st.not_lowered:
                why = st.not_lowered_reason.get(n)
                rule = f" ({why.rule})" if why is not None else ""
                remark(
                    n, f"{head}: not lowered ({st.not_lowered[n]}){rule}; its inputs are realized",
                    reason=why, pass_name=self.name, verdict="not lowered", nodes=(node_name(n),),
                )  # fmt: skip
                continue
            into = ", ".join(dict.fromkeys(made.get(n, [])))
            why = "; ".join(
                f"output {list[SSAValue](n.results).index(b.value)} realized: {b.reason}" if b.realized else
                f"output {list[SSAValue](n.results).index(b.value)} inlined into its reader"
                for b in own.get(n, [])
            )  # fmt: skip
            remark(
                n, f"{head}: lowered into {into}; {why}",
                pass_name=self.name, verdict="lowered", nodes=(node_name(n), *dict.fromkeys(made.get(n, []))),
            )  # fmt: skip


def build_backends(
    st: _State, counter: list[int], cse: bool
) -> tuple[dict[Operation, list[tuple[SSAValue, ge.AscBackend]]], dict[Operation, list[str]]]:
    """One AscBackend per realized box, in topological order, numbered by `counter` (one
    count over the module's graphs), not yet in the graph: per lowered node, its realized
    outputs with their AscBackends; and per node, the names of the AscBackends covering it.

    # lowerings.cpp: LoweringManager::FusedLoopToAscBackendOp
    A whole-graph analysis: a box's name counts the realized boxes before it. An
    AscBackend's operands are the values its box loads, as the graph has them now; the
    rewrite (fused_loop_to_asc_backend) rewires those another AscBackend replaces.
    """
    backends: dict[Operation, list[tuple[SSAValue, ge.AscBackend]]] = {}
    made: dict[Operation, list[str]] = {}
    pos = {id(b): i for i, b in enumerate(st.order)}
    graphs = L.AscGraphCache()
    for b in st.order:
        if not b.realized:
            continue
        covered = _topo(pos, b.covered())
        fuse = _fuse_type(b, covered)
        types = "_".join(ge_type(x.node) for x in covered)
        name = f"autofuse_{fuse}_{counter[0]}_{types}"
        counter[0] += 1
        try:
            backend = _asc_backend(b, name, fuse, covered, cse, graphs)
        except S.NotProvable as e:
            raise _RealizeNotProvable(b.node, str(e)) from None
        backends.setdefault(b.node, []).append((b.value, backend))
        for x in covered:
            made.setdefault(x.node, []).append(name)
    return backends, made


def _asc_backend(
    b: KernelBox, name: str, fuse: str, covered: list[KernelBox], cse: bool, graphs: L.AscGraphCache
) -> ge.AscBackend:
    """The AscBackend of realized box `b`: its AscGraph, fuse type attributes and, when
    lifting may restore it, the GE ops it covers."""
    dims = b.expr.src.shape if b.root in ("reduce", "split") else b.expr.shape  # type: ignore[attr-defined]
    k = list[SSAValue](b.node.results).index(b.value)
    graph, buffers = graphs.realize(dims, b.expr, _dtype(b.value), f"{node_name(b.node)}_out{k}_graph", cse)
    mask = ag.fuse_type_bit(fuse)
    for x in covered:
        mask |= ag.fuse_type_bit(x.bit)
    attrs: dict[str, Attribute] = {
        A.NODE_NAME: StringAttr(name),
        FUSE_TYPE_ATTR: _string_attr(fuse),
        FUSE_TYPE_MASK_ATTR: L.int_attr(mask),
        "origin_nodes": ArrayAttr([StringAttr(node_name(x.node)) for x in covered]),
        "fusion_nodes_size": L.int_attr(ag.node_count(graph)),
    }
    sym = _SYMBOLIC_SHAPES.get()
    if sym is not None and (shape := sym.get(b.value)) is not None:
        # GE: the output's SymbolicDescAttr (origin symbol shape); the dynamic executor
        # evaluates it for each execution's symbol values
        attrs[ORIGIN_SYMBOL_SHAPE_ATTR] = ArrayAttr([StringAttr(str(d)) for d in shape])
    backend = new_op(ge.AscBackend, buffers, (b.value.type,), attrs, regions=(Region(new_block([graph])),))
    backend.results[0].name_hint = b.value.name_hint
    backend.location = b.node.location
    nodes = list(dict.fromkeys(x.node for x in covered))
    if sum(ge_type(n) not in NON_COMPUTE_VIEW_TYPES for n in nodes) < LIFTING_MIN_COMPUTE_NODES:
        # is_fuse_from_lowering: keep the GE ops lifting may restore (ge-autofuse)
        origin = _origin_region(nodes, buffers, b.value)
        if origin is not None:
            backend.add_region(origin)
    return backend


def fused_loop_to_asc_backend(block: Block, backends: dict[Operation, list[tuple[SSAValue, ge.AscBackend]]]) -> None:
    """Each lowered GE node becomes the AscBackends of its realized outputs (every reader
    of such an output reads the AscBackend instead); the node goes.

    # lowerings.cpp: LoweringManager::FusedLoopToAscBackendOp
    Not local by itself: which outputs are realized and what their loops hold is
    lowering's analysis of the whole graph (LowerAutofusePass.lower_node in topological
    order, then build_backends), given here as `backends`: every lowered node, with its
    realized outputs and their AscBackends. Done in reverse node order (readers first),
    so an output that is not realized has lost its readers (lowered nodes, inlined) when
    its node goes, and an AscBackend reading a realized output is in the graph when that
    output is replaced. (What a PatternRewriteWalker over the block in reverse, applying
    this once per op, does, without its worklist.)
    """
    for op in reversed(list(block.ops)):
        outs = backends.get(op)
        if outs is None:
            continue
        block.insert_ops_before([backend for _, backend in outs], op)
        for value, backend in outs:
            value.replace_all_uses_with(backend.results[0])
        block.erase_op(op)


def _origin_region(nodes: list[Operation], buffers: list[SSAValue], out: SSAValue) -> Region | None:
    """The AscBackend's origin nodes as a ge graph body: Data per input (by index), copies
    of the GE ops it covers, NetOutput of the value it computes (ge.AscBackend.origin); None when an op reads a
    value that is neither an input nor computed inside (then it is not lifted)."""
    ops: list[Operation] = []
    vmap: dict[SSAValue, SSAValue] = {}
    for i, v in enumerate(buffers):
        d = new_op(ge.Data, (), (v.type,), {"index": L.int_attr(i)})
        d.results[0].name_hint = v.name_hint
        ops.append(d)
        vmap[v] = d.results[0]
    for n in nodes:
        for v in n.operands:
            # a constant operand the lowering folded (GatherV2's axis): copied along, so
            # lifting can restore the node reading it (passes/autofuse/lifting.py maps it back)
            if v not in vmap and isinstance(v.owner, Operation) and ge_type(v.owner) in CONST_TYPES:
                c = v.owner.clone()
                ops.append(c)
                vmap.update(zip(v.owner.results, c.results))
        if any(v not in vmap for v in n.operands):
            return None  # reads a value the box reaches through a view of another node
        ops.append(clone_op(n, vmap))
    if out not in vmap:
        return None
    ops.append(new_op(ge.NetOutput, (vmap[out],)))
    return Region(new_block(ops))


_string_attr = functools.lru_cache(maxsize=256)(StringAttr)  # fuse types: a few distinct strings


def _topo(pos: dict[int, int], boxes: list[KernelBox]) -> list[KernelBox]:
    return sorted(boxes, key=lambda b: pos[id(b)]) if len(boxes) > 1 else boxes


def _fuse_type(b: KernelBox, covered: list[KernelBox]) -> str:
    """The primary FuseType (kernel_box.cpp: KernelBoxMeta fuse type from the root op,
    otherwise pointwise / slice / reshape by what the box holds), FuseTypeToString."""
    if b.root != "store":
        return b.root
    bits = {x.bit for x in covered}
    for kind in ("pointwise", "slice"):
        if kind in bits:
            return kind
    return "reshape"


# ---------------------------------------------------------------------------------------
# Per-op-class lowerings (lowering_impl.cpp). Each returns, per output,
# (expression, root kind, own fuse-type class, own compute-op count).
# ---------------------------------------------------------------------------------------

Out = tuple[L.LoopExpr, str, str, int]


def _check_dtype(node: GeNode, asc_types: list[str]) -> None:
    """GE falls back on an unsupported dtype (PostPrecessAfterLoweringNode 1)."""
    for v in (*node.operands, *node.results):
        name = _dtype_name(_dtype(v))
        if name in FLOAT_DTYPES:
            continue
        if name in INT_DTYPES and all(a in INT_OK for a in asc_types):
            continue
        raise Extern(f"dtype {name} is not supported by AscIR {'/'.join(asc_types)}")


_dtype_name = functools.lru_cache(maxsize=64)(ge_dtype_name)


def _same_shape(a: tuple, b: tuple) -> bool:
    """Shapes equal dim by dim; ranks first (a tuple compares items before lengths, and
    a symbolic dim compares only through a static check)."""
    return len(a) == len(b) and a == b


def _broadcast_to(e: L.LoopExpr, shape: tuple[int, ...]) -> L.LoopExpr:
    return e if _same_shape(e.shape, shape) else L.BroadcastView(shape, e.dtype, e)


def _lower_pointwise(p: LowerAutofusePass, st: _State, rd: _Reads, node: GeNode) -> list[Out]:
    """# lowering_impl.cpp: LowerPointwise (broadcast shape of the inputs, Broadcast(Load),
    kernel, Store); a single input gets no broadcast."""
    t = ge_type(node)
    asc = POINTWISE[t]
    _check_dtype(node, [asc])
    out = node.results[0]
    shape = _shape(out)
    args = [rd.read(v) for v in node.operands]
    if len(args) > 1:
        args = [_broadcast_to(a, shape) for a in args]
    return [(L.Pointwise(shape, _dtype(out), asc, tuple(args)), "store", "pointwise", 1)]


def _lower_square(p: LowerAutofusePass, st: _State, rd: _Reads, node: GeNode) -> list[Out]:
    """# lowering_impl.cpp: Square lowers to Mul(x, x)"""
    _check_dtype(node, ["Mul"])
    out = node.results[0]
    x = rd.read(node.operands[0])
    return [(L.Pointwise(_shape(out), _dtype(out), "Mul", (x, x)), "store", "pointwise", 1)]


def _lower_addn(p: LowerAutofusePass, st: _State, rd: _Reads, node: GeNode) -> list[Out]:
    """# lowering_impl.cpp: AddN lowers to a chain of Add over the broadcast inputs"""
    _check_dtype(node, ["Add"])
    out = node.results[0]
    shape = _shape(out)
    args = [_broadcast_to(rd.read(v), shape) for v in node.operands]
    acc = args[0]
    for a in args[1:]:
        acc = L.Pointwise(shape, _dtype(out), "Add", (acc, a))
    return [(acc, "store", "pointwise", len(args) - 1)]


def _lower_cast(p: LowerAutofusePass, st: _State, rd: _Reads, node: GeNode) -> list[Out]:
    """# lowering_impl.cpp: Cast lowers to ops.Cast to the output dtype"""
    _check_dtype(node, ["Cast"])
    out = node.results[0]
    x = rd.read(node.operands[0])
    if x.dtype == _dtype(out):
        return [(x, "store", "pointwise", 0)]
    return [(L.Pointwise(_shape(out), _dtype(out), "Cast", (x,)), "store", "pointwise", 1)]


def _lower_broadcast_to(p: LowerAutofusePass, st: _State, rd: _Reads, node: GeNode) -> list[Out]:
    """# lowering_impl.cpp: LowerBroadcastTo -- a view (BroadcastOp reindex), no compute op"""
    out = node.results[0]
    x = rd.read(node.operands[0])
    return [(_broadcast_to(x, _shape(out)), "store", "pointwise", 0)]


def _lower_reshape(p: LowerAutofusePass, st: _State, rd: _Reads, node: GeNode) -> list[Out]:
    """The reshape family as views (lowering_impl.cpp: LowerReshape / LowerSqueeze /
    LowerUnsqueeze; loop_ops.h ReshapeOp/SqueezeOp/UnsqueezeOp). A reshape that only adds
    or drops size-1 dims reindexes; another reshape of a buffer reads the buffer with the
    new shape; another reshape of an inlined expression realizes that producer first (its
    index would not be affine in the loop variables)."""
    out = node.results[0]
    shape = _shape(out)
    src = node.operands[0]
    x = rd.read(src)
    if _same_shape(x.shape, shape):
        return [(x, "store", "reshape", 0)]
    if [d for d in x.shape if d != 1] == [d for d in shape if d != 1]:
        return [(L.UnitReshapeView(shape, x.dtype, x), "store", "reshape", 0)]
    if isinstance(x, L.Load):
        return [(L.Load(shape, x.dtype, x.buffer), "store", "reshape", 0)]
    raise _Relower(src, f"read by {ge_type(node)} '{node_name(node)}', a reshape that is not a view of its expression")


class _Relower(Exception):
    def __init__(self, value: SSAValue, reason: str):
        super().__init__(reason)
        self.value, self.reason = value, reason


def _lower_reduce(p: LowerAutofusePass, st: _State, rd: _Reads, node: GeNode) -> list[Out]:
    """# lowering_impl.cpp: LowerReduction -- constant axes, StoreReduction over the input
    shape, keep dims; GE's small-last-dim skip; a reduction over size-1 dims only is a
    Store/Squeeze (tests OptimizeReduceTo{Store,Squeeze}AsKeepDimAndSrcDimIsOne)."""
    if not p.enabled("reduce"):
        raise Extern("class 'reduce' is not in enable-pass")
    assert isinstance(node, ge.ReduceD)
    kind = REDUCTIONS[ge_type(node)]
    _check_dtype(node, [kind])
    in_shape = _shape(node.operands[0])
    axes = node.reduced_axes() or []
    rank = len(in_shape)
    if rank > 1:
        last_r, prev_r = (rank - 1) in axes, (rank - 2) in axes
        nbytes = in_shape[-1] * dtype_bits(_dtype(node.operands[0])) // 8
        if last_r != prev_r and nbytes < REDUCE_SMALL_LAST_DIM_BYTES:
            raise Extern(
                f"small last dim: {in_shape[-1]} x {nbytes // in_shape[-1]} bytes < {REDUCE_SMALL_LAST_DIM_BYTES}"
            )
    x = rd.read(node.operands[0])
    out = node.results[0]
    eff = tuple(a for a in axes if in_shape[a] != 1)
    if not eff:
        view = x if _same_shape(x.shape, _shape(out)) else L.UnitReshapeView(_shape(out), x.dtype, x)
        return [(view, "store", "reshape", 0)]
    keep = tuple(1 if a in eff else d for a, d in enumerate(in_shape))
    return [(L.ReduceOp(keep, _dtype(out), kind, x, eff), "reduce", "reduce", 1)]


def _lower_concat(p: LowerAutofusePass, st: _State, rd: _Reads, node: GeNode) -> list[Out]:
    """# lowering_impl.cpp: LowerConcat -- StoreConcat over the output dims; one input is
    Store(Load)."""
    if not p.enabled("concat"):
        raise Extern("class 'concat' is not in enable-pass")
    assert isinstance(node, ge.ConcatBase)
    # lowering_impl.cpp: CollectConcatInputs / ConcatCanBeConvertedToBrc index each input's
    # dims at concat_dim, which a rank-0 input (GE's infer counts it as shape [1]) lacks:
    # such a concat is left to the ConcatD kernel.
    if len(node.operands) > 1 and any(not _shape(v) for v in node.operands):
        raise Extern("a rank-0 input has no dim at concat_dim")
    ins = [rd.read(v) for v in node.operands]
    out = node.results[0]
    if len(ins) == 1:
        return [(ins[0], "store", "concat", 0)]
    dim = node.axis()
    assert dim is not None
    return [(L.ConcatOp(_shape(out), _dtype(out), tuple(ins), dim), "concat", "concat", 1)]


# lowering/asc_lowerer/loop_ops.h: StoreSplitOp::kSplitCanFuseMaxOutput and
# kSplitCanLowerEndDimMaxOutput
SPLIT_CAN_FUSE_MAX_OUTPUT = 512
SPLIT_CAN_LOWER_END_DIM_MAX_OUTPUT = 48


def _lower_split(p: LowerAutofusePass, st: _State, rd: _Reads, node: GeNode) -> list[Out]:
    """# lowering_impl.cpp: LowerSplit -- on A2/A3 a Split becomes one StridedSlice per
    output (reindex i + begin), each output its own box; with split-lowering=split (A5),
    LowerSplitToNormalSplit."""
    if not p.enabled("split"):
        raise Extern("class 'split' is not in enable-pass")
    in_shape = _shape(node.operands[0])
    dim = normalize_axis(A.get_int(node, "split_dim", 0) or 0, len(in_shape), "split_dim")
    if p.split_lowering == "split":
        return _lower_split_to_normal_split(p, st, rd, node, dim)
    # lowering_impl.cpp: LowerSplitToStridedSlices -- CheckEndDimHasOne: not lowered
    if _end_dim_has_one(node):
        raise Extern("an output's last dim is 1 (CheckEndDimHasOne: no strided-slice lowering)")
    x = rd.read(node.operands[0])
    outs: list[Out] = []
    off = 0
    for r in node.results:
        shape = _shape(r)
        outs.append((L.SliceView(shape, x.dtype, x, dim, off), "store", "slice", 0))
        off += shape[dim]
    return outs


def _end_dim_has_one(node: GeNode) -> bool:
    """# lowering_impl.cpp: CheckEndDimHasOne -- some output's last dim is 1."""
    return any(_shape(r)[-1:] == (1,) for r in node.results)


def _lower_split_to_normal_split(p: LowerAutofusePass, st: _State, rd: _Reads, node: GeNode, dim: int) -> list[Out]:
    """# lowering_impl.cpp: LowerSplitToNormalSplit; loop_api.cpp: StoreSplit -- the input's
    box is realized, then every output gets its own realized StoreSplit box, all with the
    Split's new global id."""
    n_out = len(node.results)
    if n_out > SPLIT_CAN_FUSE_MAX_OUTPUT:
        raise Extern(f"{n_out} outputs > {SPLIT_CAN_FUSE_MAX_OUTPUT} (kSplitCanFuseMaxOutput)")
    rank = len(_shape(node.operands[0]))
    if rank != 1 and dim == rank - 1 and _end_dim_has_one(node) and n_out > SPLIT_CAN_LOWER_END_DIM_MAX_OUTPUT:
        raise Extern(
            f"last-dim split with a size-1 output end dim and {n_out} outputs > "
            f"{SPLIT_CAN_LOWER_END_DIM_MAX_OUTPUT} (kSplitCanLowerEndDimMaxOutput)"
        )
    src = node.operands[0]
    if (b := st.boxes.get(src)) is not None:
        st.realize(b, f"read by {ge_type(node)} '{node_name(node)}' (StoreSplit realizes its input)")
    x = rd.read(src)
    assert isinstance(x, L.Load)
    st.split_gid[0] += 1  # StoreSplitDescBuilder::Build: id_++ for output 0
    gid = st.split_gid[0]
    sizes = tuple(_shape(r)[dim] for r in node.results)
    return [
        (L.SplitOp(_shape(r), x.dtype, x, dim, sizes, k, gid), "split", "split", 1) for k, r in enumerate(node.results)
    ]


# lowering_impl.cpp: LowerTranspose supported perms: 2-D {1,0} and the five non-identity
# 3-D perms. GE's fifteen 4-D perms depend on a platform transpose_mode not recorded here,
# so 4-D transposes fall back.
TRANSPOSE_PERMS: frozenset[tuple[int, ...]] = frozenset({
    (1, 0), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0),
})  # fmt: skip


def _lower_transpose(p: LowerAutofusePass, st: _State, rd: _Reads, node: GeNode) -> list[Out]:
    """# lowering_impl.cpp: LowerTranspose -- flag, fp16/fp32, supported perm; the input box
    is realized and the transpose's own Store is realized immediately."""
    if not p.enabled("transpose"):
        raise Extern("class 'transpose' is not in enable-pass")
    dt = ge_dtype_name(_dtype(node.operands[0]))
    if dt not in ("DT_FLOAT", "DT_FLOAT16"):
        raise Extern(f"transpose needs fp16 or fp32, got {dt}")
    perm = tuple(A.get_int_list(node, "perm") or [])
    if perm not in TRANSPOSE_PERMS:
        raise Extern(f"perm {list(perm)} is not a supported transpose")
    src = node.operands[0]
    if (b := st.boxes.get(src)) is not None:
        st.realize(b, f"read by {ge_type(node)} '{node_name(node)}' (a transpose realizes its input)")
    x = rd.read(src)
    assert isinstance(x, L.Load)
    out = node.results[0]
    return [(L.TransposeOp(_shape(out), _dtype(out), x, perm), "transpose", "transpose", 1)]


# lowering_impl.cpp: gather_mode_two, the `_op_impl_mode_enum` of a high-performance Gather
GATHER_MODE_HIGH_PERFORMANCE = 2
# backend_spec.h: GatherSpec::enable_non_tail_gather (false on A2/A3: GatherV2 lowers only
# on the last axis of x)
ENABLE_NON_TAIL_GATHER = False


def _lower_gather(p: LowerAutofusePass, st: _State, rd: _Reads, node: GeNode) -> list[Out]:
    """# lowering_impl.cpp: LowerGather -- not a high-performance Gather, batch_dims 0;
    every input box is realized; Gather gathers on axis 0, GatherV2 on its Const axis,
    which on A2/A3 must be x's last axis; loop_api.cpp GatherLoad, then a Store realized
    at once (fuse type gather)."""
    if not p.enabled("gather"):
        raise Extern("class 'gather' is not in enable-pass")
    assert isinstance(node, ge.GatherBase)
    if A.get_int(node, "_op_impl_mode_enum", -1) == GATHER_MODE_HIGH_PERFORMANCE:
        raise Extern("Gather is in high_performance mode")
    if node.batch_dims() != 0:
        raise Extern(f"batch_dims is {node.batch_dims()}, not 0")
    x_shape = _shape(node.operands[0])
    if isinstance(node, ge.GatherV2):
        if ge.const_ints(node.operands[2]) is None:
            raise Extern("axis is not a Const input")
        axis = node.normalized_axis()
        assert axis is not None
        if not ENABLE_NON_TAIL_GATHER and axis + 1 != len(x_shape):
            raise Extern(f"axis {axis} is not the last dim of x (A2/A3: enable_non_tail_gather is false)")
    else:
        axis = 0
    if not _shape(node.operands[1]):
        # Not GE's: a 0-d index has no loop axis of its own (GE's positional Data axis ids
        # would name an axis the output does not have).
        raise Extern("scalar indices")
    dt = _dtype_name(_dtype(node.operands[0]))
    if dt not in FLOAT_DTYPES and dt not in INT_DTYPES:
        raise Extern(f"dtype {dt} is not supported by AscIR Gather")
    why = f"read by {ge_type(node)} '{node_name(node)}' (LowerGather realizes its inputs)"
    for v in node.operands:
        if (b := st.boxes.get(v)) is not None:
            st.realize(b, why)
    params, indices = rd.read(node.operands[0]), rd.read(node.operands[1])
    assert isinstance(params, L.Load) and isinstance(indices, L.Load)
    out = node.results[0]
    # GE's LowerGather passes GatherLoad's default negative_index_support; the attribute
    # is carried here so the kernel means what the op means.
    neg = A.get_bool(node, "negative_index_support")
    return [(L.GatherLoad(_shape(out), _dtype(out), params, indices, axis, neg), "gather", "gather", 1)]


LowerAutofusePass.LOWERINGS.update({
    "Gather": _lower_gather, "GatherV2": _lower_gather,
    "Square": _lower_square, "AddN": _lower_addn, "Cast": _lower_cast,
    "BroadcastToD": _lower_broadcast_to, "ConcatD": _lower_concat, "ConcatV2D": _lower_concat,
    "SplitD": _lower_split, "SplitVD": _lower_split, "TransposeD": _lower_transpose,
})  # fmt: skip


# ---------------------------------------------------------------------------------------
# Comparisons, logic, selection, clipping and the activations GE lowers
# (lowering_impl.cpp: REGISTER_POINTWISE_LOWER(Equal, loop::Eq) ... (Gelu, loop::Gelu),
# REGISTER_LOWERING(ClipByValue / LeakyRelu / Elu)). A bool value is uint8 inside an
# AscGraph (docs/ge/autofuse.md: bool is stored as uint8): comparisons, IsNan and the
# logical nodes yield uint8, read by Where and the logical nodes as they are; a bool output
# is the Store's Cast of that uint8. Elu is GE's formula over Scalars. The GE ops of the
# activation section without a lowering in GE (Softplus, Mish, Floor, IsInf, SoftmaxV2,
# LayerNorm, ...) stay kernels.
# ---------------------------------------------------------------------------------------

_UINT8 = IntegerType(8, Signedness.UNSIGNED)
_BOOL_LIKE: frozenset[str] = frozenset({"DT_BOOL", "DT_UINT8"})

COMPARISONS: dict[str, str] = {
    "Equal": "Eq", "NotEqual": "Ne", "Greater": "Gt", "GreaterEqual": "Ge", "Less": "Lt", "LessEqual": "Le",
}  # fmt: skip
LOGICAL: dict[str, str] = {"LogicalAnd": "LogicalAnd", "LogicalOr": "LogicalOr", "LogicalNot": "LogicalNot"}
# ascir_ops.h: Erf, Gelu and Isnan take float32/float16 (Erf and Isnan bf16 too), Sign
# float32/float16/int32 (int64 on the later platforms)
FLOAT_UNARY: dict[str, tuple[str, frozenset[str]]] = {
    "Erf": ("Erf", FLOAT_DTYPES),
    "Gelu": ("Gelu", frozenset({"DT_FLOAT", "DT_FLOAT16"})),
    "IsNan": ("Isnan", FLOAT_DTYPES),
    "Sign": ("Sign", frozenset({"DT_FLOAT", "DT_FLOAT16", "DT_INT32"})),
}


def _check_inputs(node: GeNode, allowed: frozenset[str], asc: str, positions: tuple[int, ...] | None = None) -> None:
    """GE falls back when an input's dtype is not registered for the AscIR node
    (PostPrecessAfterLoweringNode 1)."""
    for i, v in enumerate(node.operands):
        if positions is not None and i not in positions:
            continue
        name = _dtype_name(_dtype(v))
        if name not in allowed:
            raise Extern(f"dtype {name} is not supported by AscIR {asc}")


def _broadcast_all(rd: _Reads, node: GeNode) -> tuple[tuple[int, ...], list[L.LoopExpr]]:
    shape = _shape(node.results[0])
    return shape, [_broadcast_to(rd.read(v), shape) for v in node.operands]


def _lower_compare(p: LowerAutofusePass, st: _State, rd: _Reads, node: GeNode) -> list[Out]:
    """# lowering_impl.cpp: REGISTER_POINTWISE_LOWER(Equal, loop::Eq), (Greater, loop::Gt), ..."""
    asc = COMPARISONS[ge_type(node)]
    _check_inputs(node, FLOAT_DTYPES | INT_DTYPES, asc)
    shape, args = _broadcast_all(rd, node)
    return [(L.Pointwise(shape, _UINT8, asc, tuple(args)), "store", "pointwise", 1)]


def _lower_logical(p: LowerAutofusePass, st: _State, rd: _Reads, node: GeNode) -> list[Out]:
    """# lowering_impl.cpp: REGISTER_POINTWISE_LOWER(LogicalAnd / LogicalOr / LogicalNot)"""
    asc = LOGICAL[ge_type(node)]
    shape, args = _broadcast_all(rd, node)
    for a in args:
        if _dtype_name(a.dtype) not in _BOOL_LIKE:
            raise Extern(f"dtype {_dtype_name(a.dtype)} is not supported by AscIR {asc}")
    return [(L.Pointwise(shape, _UINT8, asc, tuple(args)), "store", "pointwise", 1)]


def _lower_select_v2(p: LowerAutofusePass, st: _State, rd: _Reads, node: GeNode) -> list[Out]:
    """# lowering_impl.cpp: REGISTER_POINTWISE_LOWER(SelectV2, loop::Where) -- the three inputs
    broadcast to the output shape"""
    _check_inputs(node, FLOAT_DTYPES | INT_DTYPES, "Where", (1, 2))
    shape, args = _broadcast_all(rd, node)
    out = node.results[0]
    return [(L.Pointwise(shape, _dtype(out), "Where", tuple(args)), "store", "pointwise", 1)]


def _lower_float_unary(p: LowerAutofusePass, st: _State, rd: _Reads, node: GeNode) -> list[Out]:
    """# lowering_impl.cpp: REGISTER_POINTWISE_LOWER(Erf, loop::Erf), (Gelu, loop::Gelu),
    (IsNan, loop::IsNan), (Sign, loop::Sign)"""
    asc, allowed = FLOAT_UNARY[ge_type(node)]
    _check_inputs(node, allowed, asc)
    out = node.results[0]
    dt = _UINT8 if asc == "Isnan" else _dtype(out)
    x = rd.read(node.operands[0])
    return [(L.Pointwise(_shape(out), dt, asc, (x,)), "store", "pointwise", 1)]


def _lower_leaky_relu(p: LowerAutofusePass, st: _State, rd: _Reads, node: GeNode) -> list[Out]:
    """# lowering_impl.cpp: REGISTER_LOWERING(LeakyRelu) -- loop::LeakyRelu(Load(x), negative_slope)"""
    assert isinstance(node, ge.LeakyRelu)
    _check_inputs(node, frozenset({"DT_FLOAT", "DT_FLOAT16"}), "LeakyRelu")
    out = node.results[0]
    x = rd.read(node.operands[0])
    slope = FloatAttr(node.fattr("negative_slope"), Float32Type())
    return [
        (
            L.Pointwise(_shape(out), _dtype(out), "LeakyRelu", (x,), (("negative_slope", slope),)),
            "store",
            "pointwise",
            1,
        )
    ]


def _lower_clip_by_value(p: LowerAutofusePass, st: _State, rd: _Reads, node: GeNode) -> list[Out]:
    """# lowering_impl.cpp: REGISTER_LOWERING(ClipByValue) -- the bounds unsqueezed to x's rank
    and broadcast, Maximum(Minimum(x, max), min)"""
    _check_dtype(node, ["Minimum", "Maximum"])
    shape, (x, lo, hi) = _broadcast_all(rd, node)
    dt = _dtype(node.results[0])
    m = L.Pointwise(shape, dt, "Minimum", (x, hi))
    return [(L.Pointwise(shape, dt, "Maximum", (m, lo)), "store", "pointwise", 2)]


LowerAutofusePass.LOWERINGS.update({
    **{t: _lower_compare for t in COMPARISONS},
    **{t: _lower_logical for t in LOGICAL},
    **{t: _lower_float_unary for t in FLOAT_UNARY},
    "SelectV2": _lower_select_v2, "LeakyRelu": _lower_leaky_relu, "ClipByValue": _lower_clip_by_value,
})  # fmt: skip


def _scalar(shape: tuple[int, ...], dtype: Attribute, value: float) -> L.LoopExpr:
    """loop::Broadcast(loop::Scalar(value, dtype)) over `shape` (the value printed with 7
    decimals, as GE's lowerings print a float attribute: oss.precision(7) << std::fixed)."""
    return L.Pointwise(shape, dtype, "Scalar", (), (("value", StringAttr(f"{value:.7f}")),))


def _lower_elu(p: LowerAutofusePass, st: _State, rd: _Reads, node: GeNode) -> list[Out]:
    """# lowering_impl.cpp: REGISTER_LOWERING(Elu) -- (Exp(Minimum(x, 0) * input_scale) - 1) *
    alpha + Maximum(x, 0), times scale; the ONNX Elu has input_scale = scale = 1."""
    assert isinstance(node, ge.Elu)
    _check_dtype(node, ["Minimum", "Mul", "Exp", "Sub", "Maximum", "Add"])
    out = node.results[0]
    shape, dt = _shape(out), _dtype(out)
    x = rd.read(node.operands[0])
    zero, one = _scalar(shape, dt, 0.0), _scalar(shape, dt, 1.0)
    alpha = _scalar(shape, dt, node.fattr("alpha"))
    scale = input_scale = one  # Elu's scale and input_scale attributes (absent: 1.0)

    def pw(asc: str, *args: L.LoopExpr) -> L.LoopExpr:
        return L.Pointwise(shape, dt, asc, args)

    neg = pw("Sub", pw("Exp", pw("Mul", pw("Minimum", x, zero), input_scale)), one)
    y = pw("Mul", pw("Add", pw("Mul", neg, alpha), pw("Maximum", x, zero)), scale)
    return [(y, "store", "pointwise", 8)]


LowerAutofusePass.LOWERINGS["Elu"] = _lower_elu
