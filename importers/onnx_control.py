"""ONNX control flow: If and Loop, the converters whose nodes hold subgraphs.

Registered with importers/onnx.py's `converts` (that module imports this one). Each
subgraph (GraphProto attribute) becomes a module-level `ge.graph` named
`<node>_<attribute>` (made unique), its Data nodes carrying `_parent_node_index` and its
NetOutput the parent output indices, imported by a child importer that shares the model's
inferred types, locations and names of origin: a node of a subgraph is located at its
parent node's line (`MODEL:k:1`), so an error inside a branch names the If it is in.

* **If** (CANN: if_plugin in the ops repository; GE's parser:
  parser/onnx/subgraph_adapter/if_subgraph_adapter.cc): `ge.If(cond, inputs...)`,
  then_branch subgraph 0 and else_branch subgraph 1 whatever the attribute order
  (IfSubgraphAdapter::ParseIfNodeSubgraphs); the values a branch reads from the outer
  scope become explicit If inputs and Data nodes of both branches, in name order
  (GetSubgraphsAllInputs collects them into a std::set; AddInputNodeForGraph,
  AddInputForParentNode). Beyond GE: an outer value that is a constant (an initializer or
  a Constant output) is copied into the branch as its own Const instead, so a branch's
  static inputs (a Reshape's shape, ...) still fold. ONNX's cond holds one element; a
  one-element cond of shape [1] is reshaped to a scalar first, since GE's If (CondPass)
  reads a non-scalar cond as true whenever it is non-empty.
* **Loop** has no GE adapter (`git grep Loop parser/parser/onnx` finds nothing): ours,
  mapped onto a While over (i, M, cond, v..., outer...) with i an int64 counter from 0,
  M the trip count (INT64_MAX when absent) and cond the condition (true when absent):
  the cond graph is LogicalAnd(Less(i, M), cond); the body graph runs the ONNX body with
  iter_num = i, cond_in = cond, v_in = v, and returns (i + 1, M, cond_out, v_out...,
  outer...); the Loop's outputs are the While's outputs 3... Scan outputs (body outputs
  after the loop-carried ones, stacked per iteration) are refused: a While's values keep
  one shape, so they need a concatenation the ge dialect's While cannot express. The trip
  count and the conditions must hold one element (a located error otherwise).
"""

from __future__ import annotations

import numpy as np
import onnx
from onnx import numpy_helper
from xdsl.dialects.builtin import SymbolRefAttr
from xdsl.ir import Block, Region, SSAValue

from ge_dialect import attrs as A
from ge_dialect import ge
from importers.onnx import (
    _ELEM,
    _T,
    INFERENCE_COMPLETIONS,
    STATIC_PRE_INFERENCE,
    OnnxImportError,
    _dtype_name,
    _Importer,
    _infer_once,
    _int,
    _name_unnamed_nodes,
    _NodeCtx,
    _valid_name,
    _Value,
    converts,
)

INT64_MAX = 2**63 - 1


def loop_carried_types(
    graph: onnx.GraphProto, types: dict[str, tuple[int, list[int | str | None] | None]], model_name: str
) -> None:
    """Give a Loop's loop-carried outputs their shape where ONNX's inference leaves none
    (LoopInferenceFunction propagates only the dtype: a value's shape may change between
    iterations): the initial value's shape, when the body returns that shape, since the
    While the Loop becomes keeps one shape per value. Walks nested subgraphs too. A Loop
    with scan outputs is refused here, before the import checks its outputs' shapes."""
    todo = [graph]
    while todo:
        g = todo.pop()
        for node in g.node:
            for a in node.attribute:
                if a.type == onnx.AttributeProto.GRAPH:
                    todo.append(a.g)
            if node.op_type != "Loop" or node.domain not in ("", "ai.onnx"):
                continue
            body = next((a.g for a in node.attribute if a.name == "body"), None)
            if body is None:
                continue
            n_v = len(node.input) - 2
            n_scan = len(body.output) - 1 - n_v
            if n_scan > 0:
                raise OnnxImportError(
                    f"{model_name}: node '{node.name}' (Loop): error: Loop with {n_scan} scan output(s) is not "
                    f"supported: its body's outputs after the {n_v} loop-carried values are stacked per iteration, "
                    "which the While it maps onto cannot express"
                )
            for k, out in enumerate(node.output[: len(node.input) - 2]):
                elem, dims = types.get(out, (0, None))
                init = types.get(node.input[2 + k])
                res = types.get(body.output[1 + k].name) if 1 + k < len(body.output) else None
                if not out or init is None or init[1] is None or res is None or res[1] is None:
                    continue
                # a named dim (dim_param) of the body's or the output's declared type agrees
                # with any extent; a known one must be the initial value's
                if _agree(init[1], res[1]) and (dims is None or _agree(init[1], dims)):
                    types[out] = (elem or init[0], init[1])


INFERENCE_COMPLETIONS.append(loop_carried_types)


def _set_dims(vi: onnx.ValueInfoProto, dims: list[int | str | None] | None) -> bool:
    """Give `vi` the static `dims` where its declared shape is none or named (agreeing
    with them); whether it changed."""
    if dims is None or not all(isinstance(d, int) for d in dims) or not vi.type.HasField("tensor_type"):
        return False
    tt = vi.type.tensor_type
    if tt.HasField("shape"):
        have = [d.dim_value if d.HasField("dim_value") else None for d in tt.shape.dim]
        if all(h is not None for h in have) or not _agree([h if h is not None else "?" for h in have], dims):
            return False
    tt.shape.Clear()
    for d in dims:
        tt.shape.dim.add().dim_value = int(d)  # type: ignore[arg-type]
    return True


def _clear_named(vi: onnx.ValueInfoProto) -> bool:
    """Drop a declared shape with a named or unknown dim: inference derives it."""
    tt = vi.type.tensor_type if vi.type.HasField("tensor_type") else None
    if tt is None or not tt.HasField("shape") or all(d.HasField("dim_value") for d in tt.shape.dim):
        return False
    tt.ClearField("shape")
    return True


def static_subgraph_shapes(model: onnx.ModelProto, model_name: str) -> None:
    """On a static import, a Loop body's and an If branch's declared dims that are named
    (`N`) become the static ones the outer graph gives: ONNX's LoopInferenceFunction passes
    only the dtype of a loop-carried value into the body (its shape may change between
    iterations), and a declared output keeps its name. Each loop-carried input of a body
    takes its initial value's shape (the While the Loop becomes keeps one shape per value,
    loop_carried_types), and the bodies' and branches' declared outputs with a named dim
    are left to inference. Repeated while anything changes (one more level of nesting each
    time). Ours: GE's ONNX parser takes the declared shapes as they are."""
    for _ in range(8):
        types = _infer_once(model, model_name)
        changed = False
        todo = [model.graph]
        while todo:
            g = todo.pop()
            for node in g.node:
                subs = [a.g for a in node.attribute if a.type == onnx.AttributeProto.GRAPH]
                todo.extend(subs)
                if node.domain not in ("", "ai.onnx") or node.op_type not in ("If", "Loop"):
                    continue
                if node.op_type == "Loop" and subs:
                    body = subs[0]
                    for k, vi in enumerate(body.input[2:], start=2):
                        if k < len(node.input) and node.input[k]:
                            changed |= _set_dims(vi, types.get(node.input[k], (0, None))[1])
                for sg in subs:
                    for vi in sg.output:
                        changed |= _clear_named(vi)
        if not changed:
            return


STATIC_PRE_INFERENCE.append(static_subgraph_shapes)


def _agree(a: list[int | str | None], b: list[int | str | None]) -> bool:
    return len(a) == len(b) and all(not isinstance(x, int) or not isinstance(y, int) or x == y for x, y in zip(a, b))


def outer_names(g: onnx.GraphProto) -> list[str]:
    """The values `g` (or a subgraph nested in it) reads but does not define: its outer
    scope, in first-read order. ONNX names are unique across a model's graphs (SSA), so a
    name is defined in one scope only."""
    defined = {vi.name for vi in g.input} | {t.name for t in g.initializer}
    for node in g.node:
        defined.update(o for o in node.output if o)
    out: dict[str, None] = {}
    for node in g.node:
        reads = [*node.input]
        for a in node.attribute:
            if a.type == onnx.AttributeProto.GRAPH:
                reads += outer_names(a.g)
        for v in reads:
            if v and v not in defined:
                out.setdefault(v)
    for vi in g.output:  # a branch may return an outer value as it is
        if vi.name not in defined:
            out.setdefault(vi.name)
    return list(out)


class _Subgraph:
    """One subgraph being imported: a child importer sharing the model's state."""

    def __init__(self, ctx: _NodeCtx, attr: str):
        root = ctx.imp
        self.ctx = ctx
        taken = {"main", *(g.sym_name.data for g in root.subgraphs)}
        base = _valid_name(f"{ctx.name}_{attr}")
        self.sym, k = base, 0
        while self.sym in taken:
            k += 1
            self.sym = f"{base}_{k}"
        self.imp = _Importer(
            root.model_name,
            root.opset,
            root.inferred,
            dynamic_dims=root.dynamic_dims,
            model_opset=root.model_opset,
            origin=root.origin,
            _locations=root._locations,
            checker_ctx=root.checker_ctx,
            subgraphs=root.subgraphs,
        )
        self.n_data = 0

    def data(self, onnx_name: str | None, elem: int, dims: tuple[int, ...], parent_index: int, label: str) -> SSAValue:
        """The next Data node: it stands for the parent's input `parent_index`."""
        attrs = {"index": _int(self.n_data), ge.PARENT_NODE_INDEX: _int(parent_index)}
        self.n_data += 1
        t = self.imp.tensor_type(elem, dims)
        op = self.imp.add_op(ge.Data, [], [t], attrs, onnx_name or label, self.ctx.line, None, onnx_name)
        if onnx_name:
            self.imp.values[onnx_name] = _Value(elem, dims, ssa=op.results[0], producer=f"{self.sym} input")
        return op.results[0]

    def outer(self, names: list[str], first_parent_index: int) -> list[str]:
        """Data nodes for the outer values in `names` (in order, parent indices from
        `first_parent_index`); a constant one is copied in instead (module doc). Returns
        the names passed as inputs."""
        passed: list[str] = []
        for n in names:
            v = self.ctx.imp.values[n]
            if v.const is not None:
                self.imp.values[n] = _Value(v.elem, v.dims, const=v.const, producer=v.producer, const_name=v.const_name)
                continue
            self.data(n, v.elem, v.dims, first_parent_index + len(passed), n)
            passed.append(n)
        return passed

    def convert(self, g: onnx.GraphProto) -> None:
        _name_unnamed_nodes(g)
        for t in g.initializer:  # a subgraph's own initializers: constants of its scope
            arr = numpy_helper.to_array(t)
            self.imp.values[t.name] = _Value(
                t.data_type, tuple(arr.shape), const=arr, producer=f"initializer '{t.name}'", const_name=t.name
            )
        for node in g.node:
            self.imp.convert_node(node, self.ctx.line)

    def value(self, name: str) -> SSAValue:
        v = self.imp.values.get(name)
        if v is None:
            raise self.ctx.error(f"subgraph @{self.sym}: output '{name}' is not produced by any node or input")
        return self.imp.ssa_of(name, v)

    def finish(self, outs: list[SSAValue], parent_outputs: bool = True) -> SymbolRefAttr:
        attrs = {ge.PARENT_NODE_INDEX: A.int_list_attr(range(len(outs)))} if parent_outputs else {}
        net = ge.NetOutput.create(operands=outs, attributes=attrs)
        net.location = self.imp.location(f"node '{self.ctx.name}' ({self.ctx.op_type})", self.ctx.line)
        self.imp.ops.append(net)
        self.imp.subgraphs.append(ge.GraphOp(self.sym, Region(Block(self.imp.ops))))
        return SymbolRefAttr(self.sym)


def _outer_of(ctx: _NodeCtx, graphs: list[onnx.GraphProto]) -> list[str]:
    """The outer values the graphs read, by name (IfSubgraphAdapter::GetSubgraphsAllInputs:
    a std::set), each one the parent scope has."""
    names = sorted({n for g in graphs for n in outer_names(g)})
    for n in names:
        if n not in ctx.imp.values:
            raise ctx.error(
                f"a subgraph reads '{n}', which no earlier node, input or initializer of the outer graph makes"
            )
    return names


def _one_element(ctx: _NodeCtx, imp: _Importer, v: SSAValue, dims: tuple[int, ...], what: str) -> SSAValue:
    """`v` as a scalar: a [1]-like one-element tensor is reshaped; more elements are refused."""
    if dims == ():
        return v
    if any(d < 0 for d in dims) or int(np.prod(dims)) != 1:
        raise ctx.error(f"{what} must hold one element (a scalar), got shape {list(dims)}")
    elem = _T.INT64
    shape = imp.const_op(np.zeros((0,), np.int64), elem, f"{ctx.name}_scalar_shape", ctx.line, (ctx.name, ctx.op_type))
    t = v.type
    op = imp.add_op(
        ge.Reshape,
        [v, shape],
        [imp.tensor_type(_elem_of(ctx, t), ())],
        {},
        f"{ctx.name}_scalar",
        ctx.line,
        (ctx.name, ctx.op_type),
    )
    return op.results[0]


def _elem_of(ctx: _NodeCtx, t: object) -> int:
    for code, et in _ELEM.items():
        if et == t.element_type:  # type: ignore[attr-defined]
            return code
    raise ctx.error(f"internal error: no ONNX dtype for {t}")


@converts("If")
def _if(ctx: _NodeCtx) -> None:
    # CANN: onnx if_plugin (ops repository); parser/onnx/subgraph_adapter/if_subgraph_adapter.cc:
    # IfSubgraphAdapter::ParseIfNodeSubgraphs (then_branch -> 0, else_branch -> 1)
    branches = [ctx.attr("then_branch"), ctx.attr("else_branch")]
    assert all(isinstance(g, onnx.GraphProto) for g in branches)  # the checker requires both
    outer = _outer_of(ctx, branches)  # type: ignore[arg-type]
    cond = _one_element(ctx, ctx.imp, ctx.x(0), ctx.dims(0), "cond (input 0)")
    n = len(ctx.node.output)
    syms: list[SymbolRefAttr] = []
    passed: list[str] = []
    for attr, g in zip(("then_branch", "else_branch"), branches):
        assert isinstance(g, onnx.GraphProto)
        sub = _Subgraph(ctx, attr)
        passed = sub.outer(outer, 1)  # the cond is input 0
        sub.convert(g)
        if len(g.output) != n:
            raise ctx.error(f"{attr} returns {len(g.output)} values for the If's {n} outputs")
        syms.append(sub.finish([sub.value(vi.name) for vi in g.output]))
    ins = [cond, *(ctx.imp.ssa_of(name, ctx.imp.values[name]) for name in passed)]
    op = ctx.emit(
        ge.If,
        ins,
        [ctx.out_type(i) for i in range(n)],
        {ge.THEN_BRANCH: syms[0], ge.ELSE_BRANCH: syms[1]},
    )
    for i in range(n):
        ctx.bind(i, op.results[i])


@converts("Loop")
def _loop(ctx: _NodeCtx) -> None:
    # Beyond GE (no Loop adapter in GE's ONNX parser): a While over (i, M, cond, v...,
    # outer...), the module doc says how.
    body = ctx.attr("body")
    assert isinstance(body, onnx.GraphProto)
    n_v = len(ctx.node.input) - 2  # (scan outputs are refused by loop_carried_types)
    imp = ctx.imp
    origin = (ctx.name, ctx.op_type)
    if ctx.has(0):
        if ctx.elem(0) != _T.INT64:
            raise ctx.error(f"M (input 0) must be int64, got {_dtype_name(ctx.elem(0)).lower()}")
        trip = _one_element(ctx, imp, ctx.x(0), ctx.dims(0), "the trip count M (input 0)")
    else:
        trip = imp.const_op(np.array(INT64_MAX, np.int64), _T.INT64, f"{ctx.name}_M", ctx.line, origin)
    if ctx.has(1):
        cond = _one_element(ctx, imp, ctx.x(1), ctx.dims(1), "the condition cond (input 1)")
    else:
        cond = imp.const_op(np.array(True), _T.BOOL, f"{ctx.name}_cond", ctx.line, origin)
    i0 = imp.const_op(np.array(0, np.int64), _T.INT64, f"{ctx.name}_i", ctx.line, origin)
    outer = _outer_of(ctx, [body])
    carried = [ctx.value(2 + k) for k in range(n_v)]

    # the cond graph: LogicalAnd(Less(i, M), cond)
    cg = _Subgraph(ctx, "cond")
    i_c = cg.data(None, _T.INT64, (), 0, "i")
    m_c = cg.data(None, _T.INT64, (), 1, "M")
    c_c = cg.data(None, _T.BOOL, (), 2, "cond")
    for k, v in enumerate(carried):
        cg.data(None, v.elem, v.dims, 3 + k, f"v_{k}")
    passed = cg.outer(outer, 3 + n_v)
    b = imp.tensor_type(_T.BOOL, ())
    less = cg.imp.add_op(ge.Less, [i_c, m_c], [b], {}, "Less", ctx.line, origin).results[0]
    both = cg.imp.add_op(ge.LogicalAnd, [less, c_c], [b], {}, "LogicalAnd", ctx.line, origin).results[0]
    cond_sym = cg.finish([both], parent_outputs=False)

    # the body graph: the ONNX body with iter_num = i, cond_in = cond, v_in = v
    bg = _Subgraph(ctx, "body")
    names = [vi.name for vi in body.input]
    i_b = bg.data(names[0] or None, _T.INT64, (), 0, "i")
    m_b = bg.data(None, _T.INT64, (), 1, "M")
    bg.data(names[1] or None, _T.BOOL, (), 2, "cond")
    v_b = [bg.data(names[2 + k] or None, v.elem, v.dims, 3 + k, f"v_{k}") for k, v in enumerate(carried)]
    passed_b = bg.outer(outer, 3 + n_v)
    assert passed_b == passed
    bg.convert(body)
    one = bg.imp.const_op(np.array(1, np.int64), _T.INT64, "one", ctx.line, origin)
    i_next = bg.imp.add_op(ge.Add, [i_b, one], [imp.tensor_type(_T.INT64, ())], {}, "i_next", ctx.line, origin)
    c_name = body.output[0].name
    c_out = _one_element(ctx, bg.imp, bg.value(c_name), bg.imp.values[c_name].dims, "the body's condition output")
    v_out = [bg.value(vi.name) for vi in body.output[1 : 1 + n_v]]
    outer_b = [bg.imp.values[n].ssa for n in passed]
    body_sym = bg.finish([i_next.results[0], m_b, c_out, *v_out, *(s for s in outer_b if s is not None)])
    del v_b

    ins = [i0, trip, cond, *(ctx.x(2 + k) for k in range(n_v)), *(imp.ssa_of(n, imp.values[n]) for n in passed)]
    op = ctx.emit(ge.While, ins, [v.type for v in ins], {ge.COND: cond_sym, ge.BODY: body_sym})
    for k in range(n_v):
        ctx.bind(k, op.results[3 + k])
