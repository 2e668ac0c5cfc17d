"""ge-to-npu: GE's task generation, from a memory-planned ge graph to an npu.model.

Follows compiler/graph/build/task_generator.cc (TaskGenerator::GenerateTask,
FilterCandidatesNodes), task_generator_utils.cc (NoNeedGenTask), the GE-local engine's
GenerateTask (ge_local_ops_kernel_builder.cc: NoOp does nothing, GeDeletedOp::Run fails)
and the rts engine's Send/Recv/StreamActive/EndGraph/MemcpyAsync tasks
(docs/ge/executor.md; docs/ge/notask.md).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseIntOrFPElementsAttr,
    FunctionType,
    IntegerAttr,
    ModuleOp,
    StringAttr,
    SymbolRefAttr,
    TensorType,
    i32,
    i64,
)
from xdsl.ir import Attribute, Operation, Region, SSAValue
from xdsl.passes import ModulePass

from ge_dialect import attrs as A
from ge_dialect import ge, npu
from ge_dialect.desc import tensor_desc
from ge_dialect.diagnostics import LocatedError
from ge_dialect.dtypes import dtype_bits, held_bits, numpy_dtype
from ge_dialect.ge import value_type
from ge_dialect.graph import graphs_to_compile
from ge_dialect.interval_map import IntervalMap
from ge_dialect.mem_types import MEM_ALIGN_SIZE
from ge_dialect.names import UniqueNames, name_nodes
from ge_dialect.node_types import GE_LOCAL_DELETED_TYPES, GE_LOCAL_NOOP_TYPES, RESHAPE_FAMILY_TYPES
from ge_dialect.pass_options import OneOf, Option, check_options
from ge_dialect.weights import elided_error, is_elided

# An Identity that reaches task generation (IdentityPass kept it, or memory assignment
# inserted it) is placed on the rts engine, not the GE-local one: both list it
# (rts_engine op_factory.cc: REGISTER_OP_CREATOR(Identity, MemcpyAsyncOp); ge_deleted_op.cc:
# REGISTER_OP_CREATOR(Identity, GeDeletedOp)), and ops_kernel_manager.cc:
# InitOpsKernelInfo sorts an op's engines by compute cost, DNN_VM_RTS's COST_2 ahead of
# DNN_VM_GE_LOCAL's COST_9 (engine_manager.cc: RegisterRtsEngine, RegisterGeLocalEngine),
# so DNNEngineManager::GetDNNEngineName picks rts. Its MemcpyAsyncOp copies the input.
RTS_MEMCPY_TYPES = frozenset({"Identity", "ReadVariableOp"})

# ge_local_engine/ops_kernel_store/op/ge_deleted_op.cc: GeDeletedOp::Run reports which
# optimisation should have removed the node (Size/Shape/ShapeN/Rank: constant folding,
# OO_CONSTANT_FOLDING; the rest: "should have been removed during graph optimization").
_CONSTANT_FOLDED = frozenset({"Size", "Shape", "ShapeN", "Rank"})
_REMOVED_BY = {"Identity": "IdentityPass", "IdentityN": "IdentityPass", "Snapshot": "SnapshotPass",
               "StopGradient": "PreventGradientPass", "PreventGradient": "PreventGradientPass",
               "GuaranteeConst": "GuaranteeConstPass", "Placeholder": "graph preparation",
               "PlaceholderWithDefault": "PlaceholderWithDefaultPass"}  # fmt: skip


def deleted_op_message(t: str) -> str:
    if t in _CONSTANT_FOLDED:
        return (
            f"a {t} node reached task generation: it should have been folded by constant folding "
            "(OO_CONSTANT_FOLDING; GE's GeDeletedOp::Run fails on it)"
        )
    by = _REMOVED_BY.get(t, "graph optimization")
    return (
        f"a {t} node reached task generation: it should have been removed during graph "
        f"optimization ({by}); GE's GeDeletedOp::Run fails on it"
    )


@dataclass
class _Task:
    """A task before stream assignment: the op and its footprint in (region, start, end)."""

    op: npu.TaskOp
    reads: list[tuple[str, int, int]]
    writes: list[tuple[str, int, int]]
    preds: list[int] = field(default_factory=list)  # data predecessors (tasks whose writes it reads)
    deps: list[int] = field(default_factory=list)  # every ordering constraint (RAW, WAR, WAW)
    stream: int = 0
    # a control node's tasks (its labels and its subgraphs'), kept together on one stream:
    # their jumps stay on the stream that sets their labels
    group: list[npu.TaskOp] = field(default_factory=list)


@dataclass
class _Scope:
    """How one graph's regions map into the model: the root graph maps to itself; an
    inlined subgraph (PartitionedCall) gets its own arena appended to fm and weight, and
    its input:k / output:k are the call's operand and result addresses."""

    prefix: str = ""
    remap: dict[str, tuple[str, int]] = field(default_factory=dict)  # region -> (region, base)
    io_tensors: dict[str, str] = field(default_factory=dict)  # "input:k" -> caller's tensor name
    # "output:k" -> the tensor the parent declared there (an If's or Case's output, a While's
    # loop-carried value): whatever writes output k writes that tensor, in every branch and
    # every iteration
    out_tensors: dict[str, str] = field(default_factory=dict)


class _Lowering:
    def __init__(self, module: ModuleOp, graph: ge.GraphOp, streams: int):
        self.module = module
        self.graph = graph
        self.streams = streams
        self.table: list[Operation] = []
        self.kernels: dict[tuple[object, ...], npu.KernelDefOp] = {}
        self.views: dict[tuple[object, ...], npu.KernelDefOp] = {}
        self.tasks: list[_Task] = []
        self.regions: dict[str, int] = {}
        self.names: dict[SSAValue, str] = {}
        self.addr: dict[SSAValue, npu.AddrAttr] = {}
        self.fm_top = A.get_int(graph, A.MEMORY_SIZE, 0) or 0
        # the model's lower bound: the root graph's, plus that of each inlined call's arena
        self.lower_bound = A.get_int(graph, A.MEMORY_LOWER_BOUND, 0) or 0
        self.weight_top = A.get_int(graph, A.WEIGHT_SIZE, 0) or 0
        self.var_top = A.get_int(graph, A.VAR_SIZE, 0) or 0
        self.workspace_top = 0
        self.stack: list[str] = []
        self.io_types: dict[str, Attribute] = {}
        # The model's node names: a graph's node names are unique (name_nodes); with the
        # call prefix of an inlined subgraph they are made unique across the model too
        # (`call/x` could also be a root node's `name`), so no tensor is declared twice.
        self.node_names = UniqueNames(())
        # how many times lower_graph runs each graph for this model (a subgraph called from
        # two places is inlined twice): a graph lowered once gives its kernels' AscGraphs
        # away (the ge graphs are erased after ge-to-npu), one lowered again copies them
        self.lowerings = _lowering_counts(module, graph)
        # Attributes are immutable values: an address read by several tasks (a tensor with
        # many readers) and a type's byte size are built or computed once per model. Only
        # what was built or computed without error is kept, so a failing one fails again,
        # with its own message, wherever it is asked for. `addrs_built` counts the builds
        # (tests/lowering/test_lowering_work2.py).
        self._addrs: dict[tuple[str, int, int], npu.AddrAttr] = {}
        self._raws: dict[int, tuple[Attribute, int]] = {}  # id(type) -> (type, bytes); the type held
        self.addrs_built = 0
        # labels used in this model: LabelAllocator's ids, and fresh ones past its count for
        # a subgraph inlined twice
        self.labels_used: set[int] = set()
        self.next_label = A.get_int(graph, A.LABEL_NUM, 0) or 0

    # -- helpers ------------------------------------------------------------------------

    def grow(self, region: str, end: int) -> None:
        self.regions[region] = max(self.regions.get(region, 0), end)

    def address(self, region: str, offset: int, length: int) -> npu.AddrAttr:
        """`npu.AddrAttr(region, offset, length)`, one object per distinct address."""
        key = (region, offset, length)
        a = self._addrs.get(key)
        if a is None:
            a = self._addrs[key] = npu.AddrAttr(region, offset, length)
            self.addrs_built += 1
        return a

    def raw(self, op: Operation, v: SSAValue) -> int:
        """raw_bytes(op, v), computed once per type object (the type held, so its id is
        no other object's while it is here)."""
        t = v.type
        known = self._raws.get(id(t))
        if known is not None and known[0] is t:
            return known[1]
        n = self.raw_bytes(op, v)
        self._raws[id(t)] = (t, n)
        return n

    @staticmethod
    def raw_bytes(op: Operation, v: SSAValue) -> int:
        """The bytes a task reads or writes of `v`: its storage size, the elements of its
        storage shape (graph_metadef tensor_utils.cc: TensorUtils::CalcTensorMemSize of
        GeTensorDesc::GetShape, the runtime shape), not of its origin shape: a padded
        layout (NC1HWC0 with C not a multiple of C0, FRACTAL_NZ, ...) is bigger."""
        t = value_type(v)
        elem = t.element_type
        held = held_bits(elem)  # numpy_dtype(elem).itemsize * 8, without importing numpy
        if held != dtype_bits(elem):
            raise LocatedError(
                op,
                f"{t}: the simulator keeps {elem} in {numpy_dtype(elem)}, so its addresses cannot follow GE's byte sizes",
            )
        shape = tensor_desc(t).storage_shape
        if shape is None:
            return npu.raw_bytes(t)
        return max(math.prod(shape) * (held // 8), npu.raw_bytes(t))

    @staticmethod
    def _list(op: Operation, name: str, n: int) -> list[Attribute]:
        a = op.attributes.get(name)
        if not isinstance(a, ArrayAttr) or len(a.data) != n:
            raise LocatedError(
                op,
                f"{ge.node_name(op)} has no memory plan ('{name}' with {n} entries): run ge-assign-memory first",
            )
        return list(a.data)

    def out_addr(self, op: Operation, i: int, scope: _Scope) -> npu.AddrAttr:
        regs = self._list(op, A.OUTPUT_REGION, len(op.results))
        offs = self._list(op, A.OUTPUT_OFFSET, len(op.results))
        r, o = regs[i], offs[i]
        assert isinstance(r, StringAttr) and isinstance(o, IntegerAttr)
        return self.place(op, r.data, o.value.data, self.raw(op, op.results[i]), scope)

    def in_addr(self, op: Operation, j: int) -> npu.AddrAttr:
        """Where `op` reads input j: GE's input_i offset, in the producer output's region."""
        offs = self._list(op, A.INPUT_OFFSET, len(op.operands))
        o = offs[j]
        assert isinstance(o, IntegerAttr)
        v = op.operands[j]
        src = self.addr[v]
        # The producer's planned address is (region, planned offset); input_offset is in the
        # same region, so the read address is the producer's region base + input_offset.
        base = src.offset.data - self.planned[v]
        return self.address(src.region.data, base + o.value.data, self.raw(op, v))

    def place(self, op: Operation, region: str, offset: int, length: int, scope: _Scope) -> npu.AddrAttr:
        if npu.region_error(region) is not None:
            raise LocatedError(op, f"{ge.node_name(op)}: {npu.region_error(region)}")
        if region in scope.remap:
            region, base = scope.remap[region]
            offset += base
        a = self.address(region, offset, length)
        self.grow(region, a.end)
        return a

    def define(self, op: Operation, v: SSAValue, addr: npu.AddrAttr, name: str, planned: int) -> None:
        self.names[v] = name
        self.addr[v] = addr
        self.planned[v] = planned

    def kernel_def(
        self, op: ge.GeNode, kind: str, ins: Sequence[Attribute], outs: Sequence[Attribute], body: Region | None
    ) -> str:
        attrs = {k: v for k, v in op.attributes.items() if k not in A.MEMORY_ATTRS and k != A.NODE_NAME}
        ft = FunctionType.from_lists(list(ins), list(outs))
        t = ge.ge_type(op)
        if body is None:
            key: tuple[object, ...] = (t, tuple(sorted(attrs.items(), key=lambda kv: kv[0])), ft)
            k = self.kernels.get(key)
            if k is not None:
                return k.sym_name.data
        else:
            key = ("ascgraph", len(self.kernels))
        sym = f"{t.lower()}_{len(self.kernels)}"
        if body is None:
            k = npu.KernelDefOp(sym, "library", ft, t, attributes=attrs)
        else:
            k = npu.KernelDefOp(sym, "ascgraph", ft, body=body)
        self.kernels[key] = k
        return sym

    def view_def(self, op: ge.GeNode) -> str:
        """A library kernel_def `@view_<type>_<n>` holding a no-task node's GE type,
        attributes and types: the semantics of its outputs' views, which no task runs."""
        attrs = {k: v for k, v in op.attributes.items() if k not in A.MEMORY_ATTRS and k != A.NODE_NAME}
        ft = FunctionType.from_lists([v.type for v in op.operands], [r.type for r in op.results])
        t = ge.ge_type(op)
        key = (t, tuple(sorted(attrs.items(), key=lambda kv: kv[0])), ft)
        k = self.views.get(key)
        if k is None:
            k = npu.KernelDefOp(f"view_{t.lower()}_{len(self.views)}", "library", ft, t, attributes=attrs)
            self.views[key] = k
        return k.sym_name.data

    def emit(self, op: npu.TaskOp) -> None:
        ins, outs = op.footprint()  # type: ignore[attr-defined]
        self.tasks.append(
            _Task(
                op,
                [(a.region.data, a.offset.data, a.end) for _, a in ins],
                [(a.region.data, a.offset.data, a.end) for _, a in outs],
            )
        )

    # -- nodes ----------------------------------------------------------------------------

    def lower_graph(self, graph: ge.GraphOp, scope: _Scope, call: ge.GeNode | None) -> list[tuple[str, npu.AddrAttr]]:
        """Lower one graph; returns, per NetOutput input, the tensor and address holding it."""
        outputs: list[tuple[str, npu.AddrAttr]] = []
        move = self.lowerings.get(graph.sym_name.data, 0) <= 1
        name_nodes(graph.body.block)
        for op in graph.body.block.ops:
            if not isinstance(op, ge.GeNode):
                continue
            name = self.node_names.get(scope.prefix + ge.node_name(op))
            t = ge.ge_type(op)
            info: dict[str, Attribute] = {"node": StringAttr(name), "type": StringAttr(t)}
            if isinstance(op, ge.NetOutput):
                outputs = self.lower_net_output(op, name, scope, call is None)
                continue
            planned = [o.value.data for o in self._list(op, A.OUTPUT_OFFSET, len(op.results))] if op.results else []  # type: ignore[attr-defined]
            outs = [self.out_addr(op, i, scope) for i in range(len(op.results))]
            tnames = [f"{name}:{i}" for i in range(len(op.results))]
            shared: set[int] = set()  # outputs written into a tensor the parent declared
            if scope.out_tensors and op.results:
                for i, r in enumerate(self._list(op, A.OUTPUT_REGION, len(op.results))):
                    n = scope.out_tensors.get(r.data)  # type: ignore[attr-defined]
                    if n is not None:
                        tnames[i] = n
                        shared.add(i)
            for i, r in enumerate(op.results):
                self.define(op, r, outs[i], tnames[i], planned[i])
            if isinstance(op, ge.Data | ge.RefData):
                k = A.get_int(op, "index", 0)
                region = f"input:{k}"
                if call is not None:
                    # the subgraph's input k is the call's operand k
                    self.table.append(npu.AliasOp(tnames[0], outs[0], [scope.io_tensors[region]], info))
                else:
                    self.table.append(npu.TensorOp(tnames[0], outs[0], info))
                    self.io_types[region] = op.results[0].type
                continue
            if isinstance(op, ge.Const | ge.Constant | ge.Variable):
                v = op.attributes.get("value")
                if is_elided(v):  # printed without its data: a weight needs its bytes
                    raise elided_error(op, v)  # pyright: ignore[reportArgumentType]
                if isinstance(v, DenseIntOrFPElementsAttr):
                    rt = op.results[0].type
                    # the weight is loaded in its storage layout (the simulator's `layout`)
                    extra = {"layout": rt} if rt != v.get_type() else {}
                    self.table.append(npu.ConstOp(tnames[0], outs[0], v, {**info, **extra}))
                else:  # a Variable without value starts as zeros (the var region's fill)
                    self.table.append(npu.TensorOp(tnames[0], outs[0], info))
                continue
            if isinstance(op, ge.PartitionedCall):
                self.lower_call(op, name, outs, tnames, info)
                continue
            if isinstance(op, ge.ControlOp):
                self.lower_control(op, name, outs, tnames, info, shared)
                continue
            in_tensors = [(self.names[v], self.in_addr(op, j)) for j, v in enumerate(op.operands)]
            # task_generator_utils.cc: NoNeedGenTask (_no_task, or a GE-local NoOp type):
            # FilterCandidatesNodes drops the node; its outputs are views of its inputs.
            if A.get_bool(op, A.NO_TASK) or t in GE_LOCAL_NOOP_TYPES:
                names = [n for n, _ in in_tensors]
                # the view is made of the tensors it views: a reshape-family node's input 0
                # only (its shape or axes input is a parameter, whose bytes it does not take),
                # every input of a no-task concat, pack or split
                srcs = names[:1] if t in RESHAPE_FAMILY_TYPES else names
                # the node's semantics, for the simulator to check where each element of
                # the view lies (LoadedModel._check_views): not a task, nothing runs it;
                # `view_operands` lists the semantics' operands when they are more than the
                # sources
                sym = self.view_def(op)
                view: dict[str, Attribute] = {"view": SymbolRefAttr(sym)}
                if srcs != names:
                    view[npu.VIEW_OPERANDS] = ArrayAttr([StringAttr(n) for n in names])
                for i in range(len(op.results)):
                    view["view_result"] = IntegerAttr(i, i64)
                    self.table.append(npu.AliasOp(tnames[i], outs[i], srcs, {**info, **view}))
                continue
            if t in RTS_MEMCPY_TYPES:
                # memcpy_async_op.cc: MemcpyAsyncOp::Run, one copy per input i into output i
                # of min(input, output) bytes; CheckInputSize: a 0-byte copy has no task
                for i in range(len(op.results)):
                    if i not in shared:
                        self.table.append(npu.TensorOp(tnames[i], outs[i], info))
                    if min(in_tensors[i][1].length.data, outs[i].length.data) > 0:
                        self.emit(npu.MemcpyOp(in_tensors[i], (tnames[i], outs[i]), {"node": StringAttr(name)}))
                continue
            if t in GE_LOCAL_DELETED_TYPES:
                # ge_deleted_op.cc: GeDeletedOp::Run
                raise LocatedError(op, deleted_op_message(t))
            for i in range(len(op.results)):
                if i not in shared:
                    self.table.append(npu.TensorOp(tnames[i], outs[i], info))
            if isinstance(op, ge.FusedAscBackend):
                self.lower_fused(op, name, in_tensors, list(zip(tnames, outs)), move)
                continue
            if isinstance(op, ge.AscBackend):
                body = _kernel_body(op, move)
                sym = self.kernel_def(op, "ascgraph", [v.type for v in op.operands], [r.type for r in op.results], body)
            else:
                sym = self.kernel_def(op, "library", [v.type for v in op.operands], [r.type for r in op.results], None)
            self.emit(npu.KernelOp(sym, in_tensors, list(zip(tnames, outs)), {"node": StringAttr(name)}))
        return outputs

    def lower_net_output(
        self, op: ge.NetOutput, name: str, scope: _Scope, root: bool
    ) -> list[tuple[str, npu.AddrAttr]]:
        res = []
        for k, v in enumerate(op.operands):
            if root:
                self.io_types[f"output:{k}"] = v.type
            src = (self.names[v], self.in_addr(op, k))
            dst_region = f"output:{k}"
            where = scope.remap.get(dst_region, (dst_region, 0))
            a = src[1]
            if a.region.data == where[0] and a.offset.data == where[1]:
                res.append(src)  # zero-copy: the producer wrote the output buffer
                continue
            # davinci_model.cc: CopyOutputData for an output that is not zero-copy (the rts
            # engine's MemcpyAsync task when it is sunk into the model)
            dst = self.place(op, dst_region, 0, a.length.data, scope)
            dname = scope.out_tensors.get(dst_region, f"{name}:{k}")
            if dst_region not in scope.out_tensors:
                self.table.append(npu.TensorOp(dname, dst, {"node": StringAttr(name), "type": StringAttr("NetOutput")}))
            self.emit(npu.MemcpyOp(src, (dname, dst), {"node": StringAttr(name)}))
            res.append((dname, dst))
        return res

    def lower_call(
        self, op: ge.PartitionedCall, name: str, outs: list[npu.AddrAttr], tnames: list[str], info: dict[str, Attribute]
    ) -> None:
        """A known-shape subgraph runs inside the model: its arena is appended to the fm and
        weight regions, its inputs/outputs are the call's operand/result addresses."""
        callee = op.callee()
        sub = callee.sym_name.data
        if sub in self.stack:
            raise LocatedError(op, f"recursive subgraph call @{sub}")
        scope = _Scope(prefix=f"{name}/")
        self.arena(callee, scope)
        for j, v in enumerate(op.operands):
            a = self.in_addr(op, j)
            scope.remap[f"input:{j}"] = (a.region.data, a.offset.data)
            scope.io_tensors[f"input:{j}"] = self.names[v]
        for i, a in enumerate(outs):
            scope.remap[f"output:{i}"] = (a.region.data, a.offset.data)
        self.stack.append(sub)
        results = self.lower_graph(callee, scope, op)
        self.stack.pop()
        for i, (tn, _) in enumerate(results):
            self.table.append(npu.AliasOp(tnames[i], outs[i], [tn], info))

    # -- functional control flow (label tasks) ---------------------------------------------

    def arena(self, callee: ge.GraphOp, scope: _Scope) -> None:
        """The subgraph's own arena, appended to the model's fm, weight and var regions; its
        lower bound adds to the model's (while the subgraph runs its blocks live there)."""
        if A.get_int(callee, A.MEMORY_SIZE) is None:
            raise LocatedError(
                callee, f"subgraph @{callee.sym_name.data} has no memory plan: run ge-assign-memory first"
            )
        scope.remap["fm"] = ("fm", self.fm_top)
        self.fm_top += -(-(A.get_int(callee, A.MEMORY_SIZE, 0) or 0) // MEM_ALIGN_SIZE) * MEM_ALIGN_SIZE
        self.lower_bound += A.get_int(callee, A.MEMORY_LOWER_BOUND, 0) or 0
        scope.remap["weight"] = ("weight", self.weight_top)
        self.weight_top += A.get_int(callee, A.WEIGHT_SIZE, 0) or 0
        scope.remap["var"] = ("var", self.var_top)
        self.var_top += A.get_int(callee, A.VAR_SIZE, 0) or 0

    def label_ids(self, op: ge.ControlOp, n: int) -> list[int]:
        """The node's labels (LabelAllocator's `_label_indexes`); a subgraph lowered a
        second time in this model takes fresh ones."""
        ids = A.get_int_list(op, A.LABEL_INDEXES)
        if ids is None or len(ids) != n:
            raise LocatedError(
                op, f"{ge.ge_type(op)} '{ge.node_name(op)}' has no labels ({n} expected): run ge-label-allocator first"
            )
        out = []
        for i in ids:
            if i in self.labels_used:
                i = self.next_label
                self.next_label += 1
            self.labels_used.add(i)
            out.append(i)
        return out

    def sub_scope(
        self, op: ge.ControlOp, name: str, graph: ge.GraphOp, outs: dict[str, tuple[str, npu.AddrAttr]]
    ) -> _Scope:
        """A control node's subgraph inlined with its own arena: its Data k (parent input
        p = `_parent_node_index`) is the node's input p, its output:k the given tensor
        (GraphUtils::HandleSubgraphInput / HandleSubgraphOutput: one symbol across the border)."""
        scope = _Scope(prefix=f"{name}/{graph.sym_name.data}/")
        self.arena(graph, scope)
        for d in graph.data_nodes:
            k = A.get_int(d, "index", 0) or 0
            p = d.int_attr(ge.PARENT_NODE_INDEX)
            assert p is not None  # the node's verifier checks it
            a = self.in_addr(op, p)
            scope.remap[f"input:{k}"] = (a.region.data, a.offset.data)
            scope.io_tensors[f"input:{k}"] = self.names[op.operands[p]]
        for region, (tn, a) in outs.items():
            scope.remap[region] = (a.region.data, a.offset.data)
            scope.out_tensors[region] = tn
        return scope

    def inline(
        self, op: ge.ControlOp, name: str, graph: ge.GraphOp, outs: dict[str, tuple[str, npu.AddrAttr]]
    ) -> list[tuple[str, npu.AddrAttr]]:
        sub = graph.sym_name.data
        if sub in self.stack:
            raise LocatedError(op, f"recursive subgraph call @{sub}")
        scope = self.sub_scope(op, name, graph, outs)
        self.stack.append(sub)
        results = self.lower_graph(graph, scope, op)
        self.stack.pop()
        return results

    @staticmethod
    def check_index(op: ge.ControlOp, v: SSAValue, what: str) -> None:
        """The switch's index is an int32 scalar (CondPass made the cond one)."""
        t = v.type
        if not (isinstance(t, TensorType) and t.element_type == i32 and math.prod(t.get_shape()) == 1):
            raise LocatedError(
                op,
                f"{ge.ge_type(op)} '{ge.node_name(op)}': LabelSwitchByIndex reads an int32 index, but {what} is {t}: "
                "run ge-cond-pass first",
            )

    def lower_control(
        self,
        op: ge.ControlOp,
        name: str,
        outs: list[npu.AddrAttr],
        tnames: list[str],
        info: dict[str, Attribute],
        shared: set[int],
    ) -> None:
        """If, Case and While of a known graph as the label makers lay them out
        (compiler/graph/label/*_label_maker.cc), their subgraphs inlined in between, each
        with its own arena: LabelSwitchByIndex picks a branch, LabelSet marks where each
        one starts, LabelGotoEx leaves a branch or closes the loop. The node's tasks form one
        group on one stream (their labels are that stream's positions)."""
        start = len(self.tasks)
        node: dict[str, Attribute] = {"node": StringAttr(name)}
        kind = ge.ge_type(op).removeprefix("Stateless")
        if kind == "While":
            self.lower_while(op, name, outs, tnames, info, node)
        else:
            for i in range(len(op.results)):
                if i not in shared:
                    self.table.append(npu.TensorOp(tnames[i], outs[i], info))
            results = {f"output:{i}": (tnames[i], outs[i]) for i in range(len(op.results))}
            branches = [op.subgraph(i) for i in range(len(op.subgraph_refs()))]
            if kind == "Case" and len(branches) == 1:
                # case_op_label_maker.cc: a single branch is called without a switch
                self.inline(op, name, branches[0], results)
            else:
                self.check_index(op, op.operands[0], "its cond" if kind == "If" else "its branch index")
                index = (self.names[op.operands[0]], self.in_addr(op, 0))
                pending = list(results.values())
                if kind == "If":
                    # if_op_label_maker.cc: IfOpLabelMaker::Run: labels then-enter, else-enter,
                    # else-leave; switch_labels {else, then} (0 = false -> else, 1 = true -> then)
                    then_l, else_l, leave_l = self.label_ids(op, 3)
                    self.emit(npu.LabelSwitchByIndexOp(index, [else_l, then_l], pending, node))
                    self.emit(npu.LabelSetOp(then_l, node))
                    self.inline(op, name, branches[0], results)
                    self.emit(npu.LabelGotoOp(leave_l, node))
                    self.emit(npu.LabelSetOp(else_l, node))
                    self.inline(op, name, branches[1], results)
                    self.emit(npu.LabelSetOp(leave_l, node))
                else:
                    # case_op_label_maker.cc: CaseOpLabelMaker::Run: a label per branch and the
                    # leave label; the switch at branch 0's head; each branch but the last
                    # jumps to the leave label, the last sets it
                    ids = self.label_ids(op, len(branches) + 1)
                    leave_l = ids[-1]
                    self.emit(npu.LabelSwitchByIndexOp(index, ids[:-1], pending, node))
                    for i, g in enumerate(branches):
                        self.emit(npu.LabelSetOp(ids[i], node))
                        self.inline(op, name, g, results)
                        if i + 1 < len(branches):
                            self.emit(npu.LabelGotoOp(leave_l, node))
                    self.emit(npu.LabelSetOp(leave_l, node))
        self.group(start)

    def lower_while(
        self,
        op: ge.ControlOp,
        name: str,
        outs: list[npu.AddrAttr],
        tnames: list[str],
        info: dict[str, Attribute],
        node: dict[str, Attribute],
    ) -> None:
        """# while_op_label_maker.cc: WhileOpLabelMaker::Run: labels cond-enter, body-enter,
        # body-leave; cond graph: LabelSet(cond-enter) ... LabelSwitchByIndex on its output
        # (0 -> body-leave, 1 -> body-enter); body graph: LabelSet(body-enter) ...
        # LabelGotoEx(cond-enter), then LabelSet(body-leave).
        The loop-carried value k is one buffer (ge-assign-memory joined input and output k):
        the cond and body read it through their Data k, the body writes it as its output k,
        all as the tensor that fed input k."""
        carried: dict[str, tuple[str, npu.AddrAttr]] = {}
        for k, v in enumerate(op.operands):
            a = self.in_addr(op, k)
            if (a.region.data, a.offset.data) != (outs[k].region.data, outs[k].offset.data):
                raise LocatedError(
                    op,
                    f"While '{ge.node_name(op)}': output {k} at {outs[k]} is not its input {k} at {a}: the "
                    "loop-carried value must live in place (run ge-assign-memory)",
                )
            carried[f"output:{k}"] = (self.names[v], a)
        cond_g, body_g = op.subgraph(0), op.subgraph(1)
        cond_l, body_l, leave_l = self.label_ids(op, 3)
        # the cond's value: a slot of its own, appended to the feature map
        cv = cond_g.net_output.operands[0]
        n = self.raw(op, cv)
        slot = self.address("fm", self.fm_top, n)
        self.fm_top += -(-n // MEM_ALIGN_SIZE) * MEM_ALIGN_SIZE
        self.lower_bound += -(-n // MEM_ALIGN_SIZE) * MEM_ALIGN_SIZE  # live while the While runs
        self.grow("fm", slot.end)
        cname = self.node_names.get(f"{name}/cond")
        self.table.append(npu.TensorOp(f"{cname}:0", slot, {"node": StringAttr(name), "type": StringAttr("While")}))
        self.emit(npu.LabelSetOp(cond_l, node))
        res = self.inline(op, name, cond_g, {"output:0": (f"{cname}:0", slot)})
        self.check_index(op, cv, f"the output of its cond @{cond_g.sym_name.data}")
        self.emit(npu.LabelSwitchByIndexOp(res[0], [leave_l, body_l], (), node))
        self.emit(npu.LabelSetOp(body_l, node))
        self.inline(op, name, body_g, carried)
        self.emit(npu.LabelGotoOp(cond_l, node))
        self.emit(npu.LabelSetOp(leave_l, node))
        for k in range(len(op.results)):
            self.table.append(npu.AliasOp(tnames[k], outs[k], [carried[f"output:{k}"][0]], info))

    def group(self, start: int) -> None:
        """The tasks emitted since `start` become one task of one stream (their footprints
        united): a jump stays on the stream that sets its label."""
        ts = self.tasks[start:]
        if not ts:
            return
        ops = [o for t in ts for o in (t.group or [t.op])]
        reads = [x for t in ts for x in t.reads]
        writes = [x for t in ts for x in t.writes]
        del self.tasks[start:]
        self.tasks.append(_Task(ops[0], reads, writes, group=ops))

    def lower_fused(
        self,
        op: ge.FusedAscBackend,
        name: str,
        ins: list[tuple[str, npu.AddrAttr]],
        outs: list[tuple[str, npu.AddrAttr]],
        move: bool,
    ) -> None:
        """A FusedAscBackend is its AscBackends, one kernel each, with workspace buffers for
        the values passed between them (GE: the node's workspace); `move` as _kernel_body's."""
        where: dict[SSAValue, tuple[str, npu.AddrAttr]] = {}
        block_ops = list(op.body.block.ops)
        net = block_ops[-1]
        assert isinstance(net, ge.NetOutput)
        to_out: dict[SSAValue, int] = {}
        for k, v in enumerate(net.operands):
            to_out.setdefault(v, k)
        name_nodes(op.body.block)
        for inner in block_ops:
            if isinstance(inner, ge.Data | ge.RefData):
                where[inner.results[0]] = ins[A.get_int(inner, "index", 0) or 0]
            elif isinstance(inner, ge.AscBackend):
                iname = self.node_names.get(f"{name}/{ge.node_name(inner)}")
                res = []
                for i, r in enumerate(inner.results):
                    k = to_out.get(r)
                    if k is not None and where.get(r) is None:
                        res.append(outs[k])
                    else:
                        n = self.raw(inner, r)
                        a = npu.AddrAttr("workspace", self.workspace_top, n)
                        self.workspace_top += -(-n // MEM_ALIGN_SIZE) * MEM_ALIGN_SIZE
                        self.grow("workspace", a.end)
                        tn = f"{iname}:{i}"
                        self.table.append(
                            npu.TensorOp(tn, a, {"node": StringAttr(iname), "type": StringAttr("workspace")})
                        )
                        res.append((tn, a))
                    where[r] = res[-1]
                sym = self.kernel_def(
                    inner,
                    "ascgraph",
                    [v.type for v in inner.operands],
                    [r.type for r in inner.results],
                    _kernel_body(inner, move),
                )
                self.emit(npu.KernelOp(sym, [where[v] for v in inner.operands], res, {"node": StringAttr(iname)}))
        for k, v in enumerate(net.operands):
            if where[v] is not outs[k]:  # a Data or a value already placed: copy it out
                self.emit(npu.MemcpyOp(where[v], outs[k], {"node": StringAttr(name)}))

    # -- streams ----------------------------------------------------------------------------

    def dependencies(self) -> None:
        """RAW, WAR and WAW constraints between tasks from their address footprints (one
        interval map per region: last writer and readers since of every byte range)."""
        maps: dict[str, IntervalMap] = {}
        for i, t in enumerate(self.tasks):
            deps: set[int] = set()
            preds: set[int] = set()
            for r, s, e in t.reads:
                m = maps.setdefault(r, IntervalMap())
                for _, _, st in m.covered(s, e):
                    w, _ = st  # type: ignore[misc]
                    if w is not None:
                        deps.add(w)
                        preds.add(w)
                m.update(s, e, lambda st, i=i: (None, frozenset({i})) if st is None else (st[0], st[1] | {i}))  # type: ignore[index]
            for r, s, e in t.writes:
                m = maps.setdefault(r, IntervalMap())
                for _, _, st in m.covered(s, e):
                    w, rs = st  # type: ignore[misc]
                    if w is not None:
                        deps.add(w)
                    deps.update(rs)
                m.update(s, e, lambda st, i=i: (i, frozenset()))
            deps.discard(i)
            preds.discard(i)
            t.deps, t.preds = sorted(deps), sorted(preds)

    def assign_streams(self) -> None:
        """streams=2: a task continues its first data predecessor's stream unless that
        predecessor already has a successor there; then it opens the other stream (an
        independent branch). Tasks with no predecessor branch off a virtual root."""
        children: dict[int, int] = {}
        for t in self.tasks:
            p = t.preds[0] if t.preds else -1
            ps = self.tasks[p].stream if p >= 0 else 0
            n = children.get(p, 0)
            children[p] = n + 1
            t.stream = (ps + n) % self.streams

    def build(self) -> npu.ModelOp:
        self.planned: dict[SSAValue, int] = {}
        self.lower_graph(self.graph, _Scope(), None)
        self.dependencies()
        if self.streams > 1:
            self.assign_streams()
        used = sorted({t.stream for t in self.tasks} | {0})
        n_streams = len(used)
        # stream_allocator.cc: a Send/Recv event pair per cross-stream edge, minus the
        # ones an earlier event on the same pair of streams already implies.
        pos: dict[int, int] = {}
        lists: dict[int, list[list[npu.TaskOp]]] = {s: [] for s in used}
        known = {(a, b): -1 for a in used for b in used}
        events = 0
        for i, t in enumerate(self.tasks):
            waits: list[npu.TaskOp] = []
            # latest first: one wait on a stream's later record covers its earlier tasks
            for d in sorted(t.deps, key=lambda d: -pos[d]):
                ds = self.tasks[d].stream
                if ds == t.stream or pos[d] <= known[(t.stream, ds)]:
                    continue
                e = events
                events += 1
                lists[ds][pos[d]].append(npu.EventRecordOp(e))
                waits.append(npu.EventWaitOp(e))
                known[(t.stream, ds)] = max(known[(t.stream, ds)], pos[d])
            pos[i] = len(lists[t.stream])
            lists[t.stream].append([*waits, *(t.group or [t.op])])
        tail: list[npu.TaskOp] = []
        for s in used[1:]:
            if lists[s] and known[(0, s)] < len(lists[s]) - 1:
                e = events
                events += 1
                lists[s][-1].append(npu.EventRecordOp(e))
                tail.append(npu.EventWaitOp(e))
        # every address names its stream by position; renumber streams densely
        stream_ops = []
        for s in used:
            ops = [op for group in lists[s] for op in group]
            if s == 0:
                # davinci_model.cc: BindModelStream, non-head streams start on STREAM_ACTIVE
                ops = [npu.StreamActiveOp(x) for x in used[1:]] + ops + tail + [npu.EndGraphOp()]
            stream_ops.append(npu.StreamOp(used.index(s), ops))
        regions = [npu.RegionOp("fm", max(self.fm_top, self.regions.get("fm", 0)))]
        for r in sorted(k for k in self.regions if k != "fm"):
            size = self.regions[r]
            if r == "weight":
                size = max(size, self.weight_top)
            reg = npu.RegionOp(r, size)
            if r in self.io_types:
                reg.attributes["type"] = self.io_types[r]
            regions.append(reg)
        attrs: dict[str, Attribute] = {}
        for k in (A.MEMORY_SIZE, A.MEMORY_LOWER_BOUND, A.MEMORY_PROVEN_BOUND, A.WEIGHT_SIZE):
            if k in self.graph.attributes:
                attrs[k] = self.graph.attributes[k]
        # the model's figures cover the inlined calls' arenas: memory_size is the fm
        # region's size, memory_lower_bound the root's bound plus each call arena's (while
        # a call runs its blocks live in its own arena, appended after the root's)
        if A.MEMORY_SIZE in attrs:
            attrs[A.MEMORY_SIZE] = IntegerAttr(regions[0].size.value.data, i64)
        if A.MEMORY_LOWER_BOUND in attrs:
            attrs[A.MEMORY_LOWER_BOUND] = IntegerAttr(self.lower_bound, i64)
        body: list[Operation] = [*regions, *self.table, *self.kernels.values(), *self.views.values(), *stream_ops]
        return npu.ModelOp(self.graph.sym_name.data, n_streams, events, body, attrs)


def _kernel_body(op: ge.AscBackend, move: bool) -> Region:
    """The AscBackend's AscGraph region for its kernel_def: moved out of `op` (which keeps an
    empty region) when its graph is lowered only once, else a copy."""
    if not move:
        return op.regions[0].clone()
    body = Region()
    op.regions[0].move_blocks(body)
    return body


def _lowering_counts(module: ModuleOp, root: ge.GraphOp) -> dict[str, int]:
    """How many times building `root`'s model lowers each graph: once the root, and each
    subgraph once per call path to it (PartitionedCalls are inlined). A path that calls
    back into a graph on it stops there (lower_call reports the recursion)."""
    graphs = {g.sym_name.data: g for g in module.ops if isinstance(g, ge.GraphOp)}
    callees: dict[str, list[str]] = {}
    counts: dict[str, int] = {}
    stack: list[str] = []

    def visit(name: str) -> None:
        counts[name] = counts.get(name, 0) + 1
        g = graphs.get(name)
        if g is None or name in stack:
            return
        if name not in callees:
            # a PartitionedCall's callee, and each subgraph of a control node (inlined between
            # its labels)
            callees[name] = [c for n in g.body.block.ops for c in ge.called_graph_names(n)]
        stack.append(name)
        for c in callees[name]:
            visit(c)
        stack.pop()

    visit(root.sym_name.data)
    return counts


# davinci_model.h: known_node_ (a model run as a kernel of a dynamic graph: DavinciModelExecute)
KNOWN_NODE = "known_node"


@dataclass(frozen=True)
class GeToNpuPass(ModulePass):
    """Generate the task program of each root graph: an npu.model replaces the ge graphs.

    Runs after ge-assign-memory (a node without its memory attributes is an error). Per
    node in order (GE TaskGenerator): Data, Const and Variable become table entries
    (input:<k>, weight, var); a `_no_task` node or a GE-local NoOp-class node (reshape
    family, PhonyConcat, PhonySplit, ...) gets no task and its outputs become aliases of
    its inputs; an Identity (one ge-identity-pass kept, or one ge-assign-memory inserted)
    is the rts engine's MemcpyAsync, a memcpy of its input into its output (none for 0
    bytes); another GeDeletedOp type (Shape, Size, ...) is an error naming the
    optimisation that should have removed it; an AscBackend is one AscGraph
    kernel; a FusedAscBackend is one kernel per inner AscBackend with workspace buffers
    between them; any other node is one library kernel of its GE type; a PartitionedCall
    runs its subgraph inline, in its own arena appended to the model's fm and weight
    regions; an If, Case or While (labels from ge-label-allocator) runs its subgraphs
    inline between LabelSet / LabelGotoEx / LabelSwitchByIndex tasks laid out as GE's label
    makers place them (lower_control), each subgraph in its own arena, its Data at the
    parent's input and its outputs in the parent's output buffers (a While's in place); a
    NetOutput input that is not in its output:<k> region is copied there by a memcpy. Data/NetOutput produce no kernels (zero-copy I/O).
    With streams=2, tasks of independent branches go to stream 1 (activated by a
    stream_active at the head of stream 0) with an event record/wait pair at each
    cross-stream dependency: data, and reuse of the same bytes (the planner reused memory
    in the single-stream order), and a join before end_graph.
    The ge graphs are dropped: the module holds only the npu models (ge-run keeps the
    original module for the reference interpreter). In a module ge-partition-dynamic
    partitioned, the root and its unknown-shape subgraphs stay ge graphs (run op by op by
    the dynamic executor), and each known-shape subgraph they call becomes an npu.model of
    the same name with `known_node = true` (GE's DavinciModel known_node_), in the graph's
    place.
    """

    name = "ge-to-npu"

    streams: int = 1

    OPTIONS: ClassVar[dict[str, Option]] = {
        "streams": Option(
            "1: every task on stream 0; 2: tasks of independent branches on stream 1, with events "
            "at each cross-stream dependency",
            OneOf((1, 2)),
        ),
    }

    def __post_init__(self) -> None:
        check_options(self)

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        # A dynamic-shape module (ge-partition-dynamic): the root and the unknown-shape
        # subgraphs stay ge graphs (dynamic_graphs); each known-shape subgraph becomes a
        # model of its own, a known-node model (davinci_model.h: known_node_).
        graphs = graphs_to_compile(op, self.name, False, "")
        compiled = {g.sym_name.data for g in graphs}
        inlined: set[str] = set()
        known_callees: set[str] = set()
        for g in op.ops:
            if not isinstance(g, ge.GraphOp):
                continue
            for n in g.body.block.ops:
                if isinstance(n, ge.ControlOp) and g.sym_name.data in compiled:
                    inlined.update(n.subgraph_names())  # run between its labels in its caller's model
                    continue
                f = n.attributes.get("f") if isinstance(n, ge.PartitionedCall) else None
                if not isinstance(f, SymbolRefAttr):
                    continue
                if g.sym_name.data in compiled:
                    inlined.add(f.root_reference.data)  # run inside its caller's model
                elif f.root_reference.data in compiled:
                    known_callees.add(f.root_reference.data)  # a known call of a dynamic graph
        models: dict[str, npu.ModelOp] = {}
        for g in graphs:
            name = g.sym_name.data
            if name in inlined:
                continue
            if A.get_int(g, A.MEMORY_SIZE) is None:
                raise LocatedError(g, f"graph @{name} has no memory plan (memory_size): run ge-assign-memory first")
            m = _Lowering(op, g, self.streams).build()
            if name in known_callees:
                # davinci_model.cc: SetKnownNode (known_node_ = true: its inputs and outputs are
                # the caller's addresses, refreshed per execution, not user zero-copy buffers)
                m.attributes = {KNOWN_NODE: A.bool_attr(True), **m.attributes}
            models[name] = m
        for g in graphs:
            m = models.get(g.sym_name.data)
            if m is not None:
                op.body.block.insert_op_before(m, g)
            g.detach()
            g.erase()
