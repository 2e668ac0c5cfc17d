"""ge-symbolic-autofuse: autofuse of a dynamic-shape graph's unknown-shape parts over symbols.

GE compiles a graph with unknown dims for its first real inputs: the inputs' `-1` dims
become symbols whose hints are those inputs' dims (symbolic_shape_symbolizer.cc:
SymbolizeShape, held by the graph's ShapeEnvAttr), symbolic shape inference gives every
tensor a symbolic shape and records guards (symbolic_shape_inference.cc), and autofuse
lowers the unknown-shape nodes into AscBackends whose axes are those expressions
(compiler/graph/optimize/autofuse/**); the compiled graph serves every later input whose
shapes pass the guards (api/session/jit_execution/exe_points/guarded_execution_point.cc).

This pass does that on ge-compile's output (the partitioned root, its known-shape models
compiled, its unknown-shape subgraphs left as ge graphs): given the first inputs' shapes
(`input-shapes`, one `AxBxC` per root Data in index order) it builds the ShapeEnv from the
root's Data nodes, infers symbolic shapes through the root and into the unknown-shape
subgraphs it calls (lowering/symbolic_shape.py), lowers each unknown-shape graph with
ge-lower-autofuse over those shapes (LowerAutofusePass.lower_graph_symbolic: every
structural fact a static check, never a hint), and keeps the ShapeEnv on the root as
`_shape_env` for the dynamic executor, which binds the symbols from each execution's
inputs and checks the guards first (ge_dialect/shape_env.py).

With `remarks`: each symbol with its source and hint, each guard and assert, and each
node lowered or not (ge-lower-autofuse's remarks). The second stage is ge-autofuse's,
with `symbolic=true` (passes/autofuse/autofuse.py): ge-run runs both.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ArrayAttr, ModuleOp, StringAttr, SymbolRefAttr, TensorType
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass

from ge_dialect import attrs as A
from ge_dialect import ge
from ge_dialect import symbolic as S
from ge_dialect.diagnostics import remark
from ge_dialect.graph import dynamic_graphs, graphs_in_pass_order
from ge_dialect.pass_options import REMARKS, AnyValue, Flag, OneOf, Option, PassOptionError, check_options
from ge_dialect.shape_env import ORIGIN_SYMBOL_SHAPE_ATTR, SHAPE_ENV_ATTR, DynamicMode, ShapeEnv, ShapeEnvSetting
from lowering.lower_autofuse import OPTIONAL_CLASSES, LowerAutofusePass
from lowering.symbolic_shape import NoRule, SymShape, infer_node, static_shape, symbolize_data

MODES: tuple[str, ...] = tuple(m.value for m in DynamicMode)
# nodes that only carry values (a root of calls has nothing to lower)
_CARRIERS = (ge.Data, ge.RefData, ge.Const, ge.PartitionedCall, ge.NetOutput)


def parse_shape(text: str) -> tuple[int, ...]:
    """`8x16x64` (`scalar` for rank 0) as a shape."""
    if text in ("", "scalar"):
        return ()
    try:
        dims = tuple(int(d) for d in text.split("x"))
    except ValueError:
        raise ValueError(f"bad shape {text!r}: expected dims joined by x, e.g. 8x16x64") from None
    if any(d < 0 for d in dims):
        raise ValueError(f"bad shape {text!r}: dims are >= 0")
    return dims


@dataclass(frozen=True)
class SymbolicAutofusePass(ModulePass):
    """Lowers the unknown-shape graphs of a dynamic module into AscBackends over symbolic
    shapes, symbols made from the first inputs' shapes (`input-shapes`), guards recorded
    in the root's `_shape_env` (see the module doc)."""

    name = "ge-symbolic-autofuse"

    input_shapes: tuple[str, ...] = ()
    # GE's ShapeEnvSetting: DynamicMode and specialize_zero_one
    mode: str = "duck"
    specialize_zero_one: bool = True
    # ge-lower-autofuse's enable-pass for these graphs: reductions and concat/split on by
    # default, the op classes a transformer's softmax and LayerNorm decompose into
    enable_pass: tuple[str, ...] = ("reduce", "concat", "split")
    remarks: bool = False

    OPTIONS: ClassVar[dict[str, Option]] = {
        "input_shapes": Option(
            "the first inputs' shapes, one AxBxC per root Data in index order: the hints the symbols are made from",
            AnyValue("a comma-separated list of shapes such as 8x16x64"),
        ),
        "mode": Option(
            "GE's DynamicMode: duck (equal hints share a symbol), dynamic (a symbol per dim), "
            "static (a symbol per dim asserted equal to its hint)",
            OneOf(MODES),
        ),
        "specialize_zero_one": Option("a dim that was 0 or 1 is compiled as that constant (guarded)", Flag()),
        "enable_pass": LowerAutofusePass.OPTIONS["enable_pass"],
        "remarks": REMARKS,
    }

    def __post_init__(self) -> None:
        check_options(self)
        for s in self.input_shapes:
            try:
                parse_shape(s)
            except ValueError as e:
                raise PassOptionError(self.name, "input-shapes", str(e)) from None
        for c in self.enable_pass:
            assert c in OPTIONAL_CLASSES

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        dynamic = dynamic_graphs(op)
        graphs = {g.sym_name.data: g for g in op.ops if isinstance(g, ge.GraphOp)}
        roots = [g for g in graphs_in_pass_order(op) if g.sym_name.data in dynamic]
        if not roots:
            return
        root = roots[0]
        env = ShapeEnv(ShapeEnvSetting(self.specialize_zero_one, DynamicMode(self.mode)))
        shapes: dict[SSAValue, SymShape] = {}
        datas = root.data_nodes
        hints = [parse_shape(s) for s in self.input_shapes]
        if len(hints) != len(datas):
            raise PassOptionError(
                self.name, "input-shapes", f"{len(hints)} shapes for the {len(datas)} inputs of @{root.sym_name.data}"
            )
        for d in datas:
            k = A.get_int(d, "index") or 0
            try:
                shapes[d.results[0]] = symbolize_data(env, k, d.results[0], hints[k])
            except NoRule as e:
                raise PassOptionError(self.name, "input-shapes", str(e)) from None
        order: list[ge.GraphOp] = []
        self._infer_block(env, root, shapes, graphs, dynamic, order, ())
        lower = LowerAutofusePass(enable_pass=self.enable_pass, remarks=self.remarks)
        counter = [0]
        for g in order:
            for d in g.body.block.ops:
                # GE: a Data's SymbolicDescAttr (what CanFuse's memory scores read)
                if isinstance(d, ge.Data) and any(isinstance(x, S.Dim) for x in shapes.get(d.results[0], ())):
                    d.attributes[ORIGIN_SYMBOL_SHAPE_ATTR] = ArrayAttr(
                        [StringAttr(str(x)) for x in shapes[d.results[0]]]
                    )
            if any(not isinstance(n, _CARRIERS) for n in g.body.block.ops):
                lower.lower_graph_symbolic(g, counter, shapes)
        root.attributes[SHAPE_ENV_ATTR] = env.to_attr()
        if self.remarks:
            self._emit_remarks(root, env)

    def _infer_block(
        self,
        env: ShapeEnv,
        graph: ge.GraphOp,
        shapes: dict[SSAValue, SymShape],
        graphs: dict[str, ge.GraphOp],
        dynamic: set[str],
        order: list[ge.GraphOp],
        stack: tuple[str, ...],
    ) -> None:
        """Symbolic shapes for the nodes of `graph` in order, into the unknown-shape
        graphs it calls; `order` gets each dynamic graph once, in the order it is reached."""
        if graph not in order:
            order.append(graph)
        for node in graph.body.block.ops:
            if isinstance(node, ge.Data | ge.RefData | ge.NetOutput):
                continue
            if isinstance(node, ge.Const):
                s = static_shape(node.results[0])
                if s is not None:
                    shapes[node.results[0]] = s
                continue
            ins = [shapes.get(v) for v in node.operands]
            if isinstance(node, ge.PartitionedCall):
                f = node.attributes.get("f")
                callee = graphs.get(f.root_reference.data) if isinstance(f, SymbolRefAttr) else None
                if callee is not None and callee.sym_name.data in dynamic and callee.sym_name.data not in stack:
                    self._infer_call(env, node, callee, ins, shapes, graphs, dynamic, order, stack)
                    continue
                for r in node.results:  # a known-shape model: its outputs are static
                    s = static_shape(r)
                    if s is not None:
                        shapes[r] = s
                continue
            if any(s is None for s in ins):
                continue
            try:
                outs = infer_node(env, node, ins)  # type: ignore[arg-type]
            except NoRule:
                continue
            for r, s in zip(node.results, outs):
                if _agrees(r, s):
                    shapes[r] = s

    def _infer_call(
        self,
        env: ShapeEnv,
        call: Operation,
        callee: ge.GraphOp,
        ins: list[SymShape | None],
        shapes: dict[SSAValue, SymShape],
        graphs: dict[str, ge.GraphOp],
        dynamic: set[str],
        order: list[ge.GraphOp],
        stack: tuple[str, ...],
    ) -> None:
        if callee in order:
            return  # a graph called twice keeps the shapes of its first call
        for d in callee.data_nodes:
            k = A.get_int(d, "index") or 0
            if k < len(ins) and ins[k] is not None:
                shapes[d.results[0]] = ins[k]  # type: ignore[assignment]
        self._infer_block(env, callee, shapes, graphs, dynamic, order, (*stack, callee.sym_name.data))
        outs = callee.net_output.operands
        for r, v in zip(call.results, outs):
            if v in shapes:
                shapes[r] = shapes[v]

    def _emit_remarks(self, root: ge.GraphOp, env: ShapeEnv) -> None:
        for line in env.describe_symbols():
            remark(root, f"symbol {line}", pass_name=self.name, verdict="symbol")
        if env.lower > 1 and env.symbol_to_value:
            remark(
                root,
                f"guard: every symbol >= {env.lower} (0/1 specialisation)",
                pass_name=self.name,
                verdict="guard",
            )
        for g in env.guards:
            remark(root, f"guard {g.text()} (from {g.dfx_info})", pass_name=self.name, verdict="guard")
        for g in env.asserts:
            remark(root, f"assert {g.text()} (from {g.dfx_info})", pass_name=self.name, verdict="assert")


def _agrees(v: SSAValue, s: SymShape) -> bool:
    """The inferred shape fits the value's type (its rank, and its static dims)."""
    t = v.type
    if not isinstance(t, TensorType):
        return False
    dims = t.get_shape()
    if len(dims) != len(s):
        return False
    for d, x in zip(dims, s):
        if d >= 0 and not (isinstance(x, int) and x == d):
            return False
    return True
