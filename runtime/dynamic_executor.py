"""Mixed execution of a dynamic-shape graph (docs/dynamic_shapes.md): GE's dynamic runtime with its
known-shape subgraphs run as static models (docs/ge/executor.md "Dynamic-shape parent";
runtime/v2/kernel/known_subgraph/davinci_model_kernel.cc).

    ex = DynamicExecutor(compiled_module)          # DYN_CONTRACT.md §3's module
    outs = ex.execute([x])                          # x of any batch size the graph allows
    ex.last_stats.args_bytes_refreshed              # what the known models' refresh cost

The module is ge-compile's output for a graph with unknown dims: a root `ge.graph` whose
nodes are Data, NetOutput and ge.PartitionedCalls, each call's `f` either a `ge.graph`
(an unknown-shape subgraph, `_is_unknown_shape = true`) or an `npu.model` with
`known_node = true` (a known-shape subgraph compiled as a static model). Per execution the
executor walks the root graph in its (topological) block order:

- the root's inputs are copied to the device (H2D) into blocks of the device memory pool
  (runtime/device_memory.py: GE's caching allocator);
- a node of the root or of an unknown-shape subgraph runs on the host with the reference
  semantics (runtime/reference.py), its output shapes computed from the concrete inputs;
  a control op (If, Case, While: ge-partition-dynamic puts it in an unknown cluster when
  its shapes or any of its subgraphs are unknown) too, as GE's control-op tasks do
  (control_op_executor.cc: IfOpNodeTask picks a branch by the cond's truth value,
  CaseOpNodeTask by its index, out of range the last, WhileOpNodeTask runs cond and body
  and feeds the outputs back), its subgraphs run with it on the host (GE would run their
  known-shape parts as static models: not done here yet);
  its inputs are read from their device blocks and its outputs written into new blocks;
- a known-shape model runs as GE's kernels do: created and loaded once, when the executor
  is made (DavinciModelCreate: runtime/simulator.py's `load` with the device memory), then on
  every execution its output blocks and its feature-map arena are taken from the pool,
  DavinciModelUpdateWorkspaces gives it the arena, DavinciModelExecute runs
  DavinciModelUpdateArgs (UpdateKnownNodeArgs: the active base table per allocation id,
  the args slots of every changed id rewritten, frozen inputs refreshed on the first
  execution only) and then the task program, and DavinciModelGetRunAddress says where each
  output is for the nodes downstream; the arena is freed when the model has run;
- a block is freed when the last node that reads it has run (its last use), so blocks are
  reused within an execution and the addresses of the same tensor differ between
  executions of different shapes (and stay the same when the shapes repeat);
- NetOutput's values are copied back to the host (D2H).

Frozen inputs (`frozen_inputs`, root Data indices: GE's ge.exec.frozenInputIndexes): such an
input keeps one device block across executions (copied into again each time) and a known
model input fed straight from it is frozen in that model (davinci_model_kernel.cc:
GetValidFrozenIndicies). When a later input no longer fits its block, the block moves, and
the model's frozen args slot points at the old one: the simulator's stale-address fault.

Per execution `last_stats` (ExecutionStats): host nodes run, known models executed, and per
model the update policy (`ret_up`), the args slots rewritten and their bytes
(ARGS_SLOT_BYTES = 8 per slot: GE's args table holds 64-bit device addresses), the
addresses it was given; the pool's mallocs, frees, reuses and peak bytes.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, SymbolRefAttr, TensorType
from xdsl.ir import Block, Operation, SSAValue

from ge_dialect import ascgraph as ag
from ge_dialect import attrs as A
from ge_dialect import ge, npu
from ge_dialect import symbolic as S
from ge_dialect.asc_backend import asc_graph_of
from ge_dialect.dtypes import numpy_dtype
from ge_dialect.graph import is_dynamic_module, is_known_model, root_graphs
from ge_dialect.shape_env import ORIGIN_SYMBOL_SHAPE_ATTR, SHAPE_ENV_ATTR, ShapeEnv, origin_symbol_shape
from ge_dialect.shapes import fmt_shape
from runtime.ascgraph_interp import run_asc_graph
from runtime.device_memory import Allocation, DeviceMemory, PoolStats
from runtime.graph_interpreter import ReferenceEvalError, check_value
from runtime.interpreter import ge_interpreter
from runtime.simulator import ARGS_SLOT_BYTES, FM_REGIONS, UPDATE_POLICY_NAMES, LoadedModel, SimulatorFault, load

__all__ = [
    "DynamicExecutor",
    "ExecutionStats",
    "KnownModelRun",
    "PartitionSummary",
    "is_dynamic_module",
    "partition_summary",
    "root_graph_name",
]

UNKNOWN_SHAPE_ATTR = "_is_unknown_shape"
PARTITIONED_ATTR = "_dynamic_shape_partitioned"


def _flag(op: Operation, name: str) -> bool | None:
    a = op.attributes.get(name)
    if isinstance(a, IntegerAttr):  # a builtin bool (`true`) is an i1 IntegerAttr
        return bool(a.value.data)
    return None


def _symbols(module: ModuleOp) -> dict[str, Operation]:
    out: dict[str, Operation] = {}
    for op in module.ops:
        if isinstance(op, ge.GraphOp | npu.ModelOp):
            out[op.sym_name.data] = op
    return out


def _callee_name(op: Operation) -> str:
    f = op.attributes.get("f")
    assert isinstance(f, SymbolRefAttr)
    return f.root_reference.data


def _root(module: ModuleOp) -> ge.GraphOp:
    """The ge.graph no node calls (the partitioned root): not a PartitionedCall's callee,
    nor a control op's branch, cond or body (those run on the host with their parent)."""
    roots = root_graphs(module)
    if len(roots) != 1:
        where: Operation = roots[1] if roots else module
        names = ", ".join(f"@{g.sym_name.data}" for g in roots) or "none"
        raise ReferenceEvalError(where, f"the dynamic executor needs one root ge.graph, the module has {names}")
    return roots[0]


@dataclass
class PartitionSummary:
    """The clusters of a partitioned root graph (DynamicShapePartitioner's kinds)."""

    data: int = 0
    input_nodes: int = 0  # Consts in the root (a module written so: the partition puts them in `_input`)
    netoutput: int = 0
    unknown_shape: list[str] = field(default_factory=list)  # the subgraphs (callee names)
    known_shape: list[str] = field(default_factory=list)
    static_models: list[str] = field(default_factory=list)  # known-shape clusters compiled to npu.model
    host_nodes: list[str] = field(default_factory=list)  # other nodes left in the root

    def as_dict(self) -> dict[str, object]:
        return {
            "data": self.data,
            "input_nodes": self.input_nodes,
            "netoutput": self.netoutput,
            "unknown_shape": list(self.unknown_shape),
            "known_shape": list(self.known_shape),
            "static_models": list(self.static_models),
            "root_host_nodes": list(self.host_nodes),
        }

    def line(self) -> str:
        models = ", ".join(f"@{m}" for m in self.static_models) or "none"
        return (
            f"clusters: {len(self.unknown_shape)} unknown-shape, {len(self.known_shape)} known-shape "
            f"({len(self.static_models)} run as static models: {models}), {self.data} data, "
            + (f"{self.input_nodes} input nodes (Const), " if self.input_nodes else "")
            + f"{self.netoutput} netoutput"
        )


def partition_summary(module: ModuleOp) -> PartitionSummary:
    root = _root(module)
    syms = _symbols(module)
    s = PartitionSummary()
    for op in root.body.block.ops:
        if isinstance(op, ge.Data | ge.RefData):
            s.data += 1
        elif isinstance(op, ge.NetOutput):
            s.netoutput += 1
        elif isinstance(op, ge.Const):
            s.input_nodes += 1
        elif isinstance(op, ge.PartitionedCall):
            name = _callee_name(op)
            callee = syms.get(name)
            unknown = _flag(op, UNKNOWN_SHAPE_ATTR)
            if is_known_model(callee):
                s.known_shape.append(name)
                s.static_models.append(name)
            elif unknown is False:
                s.known_shape.append(name)
            else:
                s.unknown_shape.append(name)
        else:
            s.host_nodes.append(ge.node_name(op))
    return s


@dataclass
class KnownModelRun:
    """One known-shape model's execution (DavinciModelUpdateArgs + DavinciModelExecute)."""

    call: str  # the PartitionedCall node
    model: str
    ret_up: int  # ModelArgsManager::UpdatePolicy of this refresh
    refreshed_slots: int  # args slots rewritten
    refreshed_tasks: int
    input_addresses: list[int]
    output_addresses: list[int]
    fm_address: int | None

    @property
    def refreshed_bytes(self) -> int:
        return self.refreshed_slots * ARGS_SLOT_BYTES


@dataclass
class ExecutionStats:
    execution: int = 0
    input_shapes: list[tuple[int, ...]] = field(default_factory=list)
    host_nodes: int = 0  # nodes run on the host (reference semantics)
    device_kernels: int = 0  # symbolic fused AscBackends run as device kernels
    symbols: dict[str, int] = field(default_factory=dict)  # this execution's symbol values
    guards_checked: int = 0  # guards, asserts and source checks done before it ran
    guard_check_seconds: float = 0.0
    tilings_computed: int = 0  # kernels tiled for new symbol values (the others hit the cache)
    known_models: list[KnownModelRun] = field(default_factory=list)
    pool: PoolStats = field(default_factory=PoolStats)  # this execution's mallocs, frees, reuses, peak

    @property
    def known_models_executed(self) -> int:
        return len(self.known_models)

    @property
    def refreshed_slots(self) -> int:
        return sum(m.refreshed_slots for m in self.known_models)

    @property
    def args_bytes_refreshed(self) -> int:
        return self.refreshed_slots * ARGS_SLOT_BYTES

    def as_dict(self) -> dict[str, object]:
        return {
            "execution": self.execution,
            "input_shapes": [list(s) for s in self.input_shapes],
            "host_nodes": self.host_nodes,
            "device_kernels": self.device_kernels,
            "symbols": dict(self.symbols),
            "guards_checked": self.guards_checked,
            "tilings_computed": self.tilings_computed,
            "known_models_executed": self.known_models_executed,
            "refreshed_slots": self.refreshed_slots,
            "args_bytes_refreshed": self.args_bytes_refreshed,
            "models": [
                {
                    "call": m.call,
                    "model": m.model,
                    "update_policy": m.ret_up,
                    "update_policy_name": UPDATE_POLICY_NAMES.get(m.ret_up, "unknown"),
                    "refreshed_slots": m.refreshed_slots,
                    "refreshed_bytes": m.refreshed_bytes,
                    "refreshed_tasks": m.refreshed_tasks,
                    "input_addresses": [f"{a:#x}" for a in m.input_addresses],
                    "output_addresses": [f"{a:#x}" for a in m.output_addresses],
                    "fm_address": None if m.fm_address is None else f"{m.fm_address:#x}",
                }
                for m in self.known_models
            ],
            "pool": {
                "mallocs": self.pool.mallocs,
                "frees": self.pool.frees,
                "reused_blocks": self.pool.reused_blocks,
                "peak_in_use_bytes": self.pool.peak_in_use_bytes,
                "reserved_bytes": self.pool.reserved_bytes,
            },
        }


def _c_order(arr: np.ndarray) -> np.ndarray:
    """`arr` C-contiguous, its shape kept (np.ascontiguousarray makes a 0-d array 1-d)."""
    arr = np.asarray(arr)
    return arr if arr.flags.c_contiguous else arr.copy(order="C")


class _Value:
    """A tensor on the device: its block, shape, dtype, and the reads still to come."""

    __slots__ = ("alloc", "dtype", "persistent", "refs", "shape")

    def __init__(self, alloc: Allocation, shape: tuple[int, ...], dtype: np.dtype, refs: int, persistent: bool):
        self.alloc, self.shape, self.dtype, self.refs, self.persistent = alloc, shape, dtype, refs, persistent

    @property
    def nbytes(self) -> int:
        return math.prod(self.shape) * self.dtype.itemsize


class DynamicExecutor:
    """Runs DYN_CONTRACT.md §3's compiled module (see the module doc)."""

    def __init__(self, module: ModuleOp, frozen_inputs: Sequence[int] = (), device: DeviceMemory | None = None):
        self.module = module
        self.root = _root(module)
        self.symbols = _symbols(module)
        self.device = device if device is not None else DeviceMemory()
        self.interpreter = ge_interpreter(module)
        self.frozen_inputs = frozenset(frozen_inputs)
        self.datas = self.root.data_nodes
        n = len(self.datas)
        for k in sorted(self.frozen_inputs):
            if not 0 <= k < n:
                raise ReferenceEvalError(self.root, f"frozen input {k}: the graph has {n} inputs")
        # DavinciModelCreate: one model per PartitionedCall node, loaded once
        self.models: dict[Operation, LoadedModel] = {}
        self._create_models(self.root.body.block, ())
        self.frozen_blocks: dict[int, _Value] = {}
        self.consts: dict[Operation, _Value] = {}
        self.executions = 0
        self.last_stats = ExecutionStats()
        self.history: list[ExecutionStats] = []
        # ge-symbolic-autofuse's ShapeEnv: the symbols bound from each execution's inputs,
        # the guards checked before it runs (a GuardFailed means: compile again)
        self.shape_env: ShapeEnv | None = None
        env = self.root.attributes.get(SHAPE_ENV_ATTR)
        if env is not None:
            try:
                self.shape_env = ShapeEnv.from_attr(env)
            except ValueError as e:
                raise ReferenceEvalError(self.root, str(e)) from None
        self.values: dict[str, int] = {}
        # autofuse_op_kernel.cc GetSymbolTilingCacheKey: per kernel, its tiling (the
        # AscGraph instantiated) per the values of the symbols it uses
        self.tilings: dict[tuple[Operation, tuple[int, ...]], ag.AscGraphOp] = {}

    # -- creation ---------------------------------------------------------------------------

    def _create_models(self, block: Block, stack: tuple[str, ...]) -> None:
        for op in block.ops:
            if not isinstance(op, ge.PartitionedCall):
                continue
            name = _callee_name(op)
            callee = self.symbols.get(name)
            if callee is None:
                raise ReferenceEvalError(op, f"PartitionedCall calls @{name}, which is not in the module")
            if isinstance(callee, npu.ModelOp):
                if not is_known_model(callee):
                    raise ReferenceEvalError(op, f"@{name} is an npu.model without known_node = true")
                frozen = self._frozen_model_inputs(op) if block is self.root.body.block else set()
                try:
                    self.models[op] = load(callee, sorted(frozen), self.device)
                except SimulatorFault as e:
                    raise self._located(e, op, f"known-shape model @{name}: ") from None
            elif isinstance(callee, ge.GraphOp):
                if name in stack:
                    raise ReferenceEvalError(
                        op, f"recursive subgraph call {' -> '.join('@' + s for s in (*stack, name))}"
                    )
                self._create_models(callee.body.block, (*stack, name))

    def _frozen_model_inputs(self, call: Operation) -> set[int]:
        """davinci_model_kernel.cc: GetValidFrozenIndicies: model input i is frozen when the
        call's operand i is a root Data whose index is a frozen input."""
        out: set[int] = set()
        for i, v in enumerate(call.operands):
            d = v.owner
            if isinstance(d, ge.Data | ge.RefData) and (A.get_int(d, "index") or 0) in self.frozen_inputs:
                out.add(i)
        return out

    @staticmethod
    def _located(e: SimulatorFault, call: Operation, prefix: str) -> SimulatorFault:
        f = SimulatorFault(prefix + str(e), e.task, e.region, e.start, e.end, e.task_op, ge.node_name(call))
        return f

    # -- memory -----------------------------------------------------------------------------

    def _array(self, v: _Value) -> np.ndarray:
        """The tensor's bytes on the device as a read-only array of its shape."""
        a = self.device.view(v.alloc.ptr, v.nbytes).view(v.dtype).reshape(v.shape)
        a.flags.writeable = False
        return a

    def _store(self, arr: np.ndarray, tag: str, refs: int, persistent: bool = False) -> _Value:
        # memory_kernel.cc: AllocMemory (a node's outputs from the caching allocator)
        arr = _c_order(arr)
        a = self.device.malloc(arr.nbytes, tag)
        self.device.view(a.ptr, arr.nbytes)[...] = arr.reshape(-1).view(np.uint8)
        return _Value(a, tuple(arr.shape), arr.dtype, refs, persistent)

    def _release(self, v: _Value) -> None:
        """One read of `v` is done; the block is freed after its last read (the FreeMemory
        kernel guarding each output runs once all its users ran: generate_exe_graph.cc /
        ValueHolder::CreateVoidGuarder("FreeMemory"), memory_kernel.cc: FreeMemory)."""
        v.refs -= 1
        if v.refs <= 0 and not v.persistent and v.alloc.live:
            self.device.free(v.alloc)

    # -- execution --------------------------------------------------------------------------

    def execute(self, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        """One execution of the root graph on `inputs` (in Data index order): the NetOutput
        values as host arrays."""
        dev = self.device
        dev.epoch = self.executions
        before = PoolStats(**vars(dev.stats))
        dev.stats.peak_in_use_bytes = dev.stats.in_use_bytes
        st = ExecutionStats(self.executions)
        self._stats = st
        if len(inputs) != len(self.datas):
            raise ReferenceEvalError(
                self.root, f"graph @{self.root.sym_name.data} takes {len(self.datas)} inputs, {len(inputs)} given"
            )
        for d in self.datas:
            k = A.get_int(d, "index") or 0
            arr = inputs[k]
            if not isinstance(arr, np.ndarray):
                raise ReferenceEvalError(d, f"input {k} is a {type(arr).__name__}, not a numpy array")
            check_value(d, d.results[0], arr, f"input {k}")
        if self.shape_env is not None:
            # guarded_execution_point.cc: the guards first (GuardFailed: compile again)
            t0 = time.perf_counter()
            env_ = self.shape_env
            self.values = env_.bind([np.shape(inputs[A.get_int(d, "index") or 0]) for d in self.datas])
            st.guard_check_seconds = time.perf_counter() - t0
            st.guards_checked = len(env_.sources) + len(env_.guards) + len(env_.asserts)
            st.symbols = dict(self.values)
        env: dict[SSAValue, _Value] = {}
        for d in self.datas:
            k = A.get_int(d, "index") or 0
            arr = inputs[k]
            st.input_shapes.append(tuple(arr.shape))
            env[d.results[0]] = self._h2d(k, d, arr)
        outs = self._run_block(self.root.body.block, env, top=True)
        result = []
        for v in outs:  # the NetOutput values back to the host (D2H)
            result.append(np.array(self._array(v)))
        for v in outs:
            self._release(v)
        for d in self.datas:  # inputs nobody read
            v = env[d.results[0]]
            if not v.persistent and v.alloc.live and v.refs <= 0:
                dev.free(v.alloc)
        now = dev.stats
        st.pool = PoolStats(
            mallocs=now.mallocs - before.mallocs,
            frees=now.frees - before.frees,
            segments=now.segments,
            reserved_bytes=now.reserved_bytes,
            in_use_bytes=now.in_use_bytes,
            peak_in_use_bytes=now.peak_in_use_bytes,
            reused_blocks=now.reused_blocks - before.reused_blocks,
        )
        self.last_stats = st
        self.history.append(st)
        self.executions += 1
        return result

    def _h2d(self, k: int, d: Operation, arr: np.ndarray) -> _Value:
        uses = d.results[0].uses.get_length()
        name = ge.node_name(d)
        if k not in self.frozen_inputs:  # memory_copy.cc: CopyH2D into a fresh block
            return self._store(arr, f"{name}:0", uses)
        # a frozen input keeps its block while the data fits it
        arr = _c_order(arr)
        old = self.frozen_blocks.get(k)
        if old is not None and old.alloc.size >= arr.nbytes:
            self.device.view(old.alloc.ptr, arr.nbytes)[...] = arr.reshape(-1).view(np.uint8)
            old.shape, old.dtype = tuple(arr.shape), arr.dtype
            return old
        if old is not None:
            self.device.free(old.alloc)
        v = self._store(arr, f"{name}:0 (frozen)", uses, persistent=True)
        self.frozen_blocks[k] = v
        return v

    def _run_block(self, block: Block, env: dict[SSAValue, _Value], top: bool = False) -> list[_Value]:
        for op in block.ops:
            if isinstance(op, ge.Data | ge.RefData):
                continue  # bound by the caller
            if isinstance(op, ge.NetOutput):
                return [env[v] for v in op.operands]
            if isinstance(op, ge.Const):
                v = self.consts.get(op)
                if v is None:  # a constant's block is made once and kept
                    (arr,) = self.interpreter.run_node(op, [])
                    v = self._store(np.asarray(arr), f"{ge.node_name(op)}:0", 0, persistent=True)
                    self.consts[op] = v
                env[op.results[0]] = v
                continue
            args = [env[v] for v in op.operands]
            callee: Operation | None = None
            if isinstance(op, ge.PartitionedCall):
                callee = self.symbols[_callee_name(op)]
                if isinstance(callee, npu.ModelOp):
                    results = self._run_known(op, callee, args)
                else:
                    assert isinstance(callee, ge.GraphOp)
                    results = self._run_subgraph(op, callee, args)
            elif isinstance(op, ge.AscBackend) and self.shape_env is not None and _symbolic_kernel(op):
                results = self._run_kernel(op, args)
            elif isinstance(op, ge.FusedAscBackend) and self.shape_env is not None and _symbolic_fused(op):
                results = self._run_fused(op, args)
            else:
                results = self._run_host(op, args)
            for r, v in zip(op.results, results):
                env[r] = v
            if not (isinstance(op, ge.PartitionedCall) and isinstance(callee, ge.GraphOp)):
                for v in args:
                    self._release(v)
            for r, v in zip(op.results, results):
                if not r.uses.get_length() and not v.persistent and v.alloc.live and v.refs <= 0:
                    self.device.free(v.alloc)
        raise ReferenceEvalError(block.parent_op() or self.root, "the graph does not end with ge.NetOutput")

    def _run_host(self, op: Operation, args: Sequence[_Value]) -> list[_Value]:
        """A node on the host: the reference semantics on the concrete inputs."""
        self._stats.host_nodes += 1
        with np.errstate(all="ignore"):
            outs = self.interpreter.run_node(op, [self._array(v) for v in args])
        if len(outs) != len(op.results):
            raise ReferenceEvalError(op, f"{len(outs)} outputs for {len(op.results)} results")
        vals = []
        name = ge.node_name(op)
        for r, a in zip(op.results, outs):
            a = np.asarray(a)
            check_value(op, r, a, f"output {r.index}")
            v = self._store(a, f"{name}:{r.index}", 0)
            v.refs = r.uses.get_length()
            vals.append(v)
        return vals

    def _tiling(self, op: ge.AscBackend, graph: ag.AscGraphOp) -> ag.AscGraphOp:
        """The kernel's AscGraph for this execution's symbol values, computed once per
        values of the symbols it uses and kept (autofuse_op_kernel.cc: SymbolTilingParse,
        GetSymbolTilingCacheKey); the concrete graph passes the static verifier."""
        names = sorted({n for a in graph.axis.data for n in _dim_symbols(a.size)}, key=lambda n: int(n[1:]))
        key = (op, tuple(self.values[n] for n in names))
        inst = self.tilings.get(key)
        if inst is None:
            inst = ag.instantiate(graph, self.values)
            try:
                inst.verify()
            except Exception as e:  # a VerifyException: the symbolic graph is wrong at these values
                raise ReferenceEvalError(op, f"kernel at {ShapeEnv.fmt_values(self.values)}: {e}") from None
            self.tilings[key] = inst
            self._stats.tilings_computed += 1
        return inst

    def _run_kernel(self, op: ge.AscBackend, args: Sequence[_Value]) -> list[_Value]:
        """A fused AscBackend over symbolic axes, as a device kernel (autofuse_node_converter.cc:
        LoweringAutofuseNode / AutofuseLaunch): its output shapes and its AscGraph evaluated
        for this execution's symbol values, its output blocks from the pool, the kernel run
        on the device bytes of its inputs and outputs. Every Load and Store view is checked
        against the block it reads or writes (ascgraph_interp.gm_view), as the simulator
        checks a static kernel's accesses."""
        self._stats.device_kernels += 1
        graph = self._tiling(op, asc_graph_of(op))
        name = ge.node_name(op)
        shapes: list[tuple[int, ...]] = []
        for k, r in enumerate(op.results):
            t = r.type
            assert isinstance(t, TensorType)
            dims = list(t.get_shape())
            if any(d < 0 for d in dims):
                if ORIGIN_SYMBOL_SHAPE_ATTR not in op.attributes:
                    raise ReferenceEvalError(op, f"output {k} has unknown dims and no {ORIGIN_SYMBOL_SHAPE_ATTR}")
                exprs = [S.parse(e.data) for e in origin_symbol_shape(r).data]  # type: ignore[attr-defined]
                dims = [S.evaluate(e, self.values) for e in exprs]
            shapes.append(tuple(dims))
        ins = [self._array(v).reshape(-1) for v in args]
        outs: list[_Value] = []
        bufs: list[np.ndarray] = []
        for k, (r, shape) in enumerate(zip(op.results, shapes)):
            t = r.type
            assert isinstance(t, TensorType)
            dt = numpy_dtype(t.element_type)
            n = math.prod(shape) * dt.itemsize
            a = self.device.malloc(n, f"{name}:{k}")
            outs.append(_Value(a, shape, dt, r.uses.get_length(), False))
            bufs.append(self.device.view(a.ptr, n).view(dt))
        with np.errstate(all="ignore"):
            got = run_asc_graph(self.interpreter, graph, ins, shapes, bufs)
        for buf, g in zip(bufs, got):
            if not np.shares_memory(buf, g):
                buf[...] = np.asarray(g).reshape(-1)
        return outs

    def _run_fused(self, op: ge.FusedAscBackend, args: Sequence[_Value]) -> list[_Value]:
        """A FusedAscBackend over symbolic axes: one device kernel (GE launches the fused
        node as one), its AscBackends run in its body's order on the device blocks of
        their inputs and outputs; its Data nodes are its operands, its NetOutput its results."""
        self._stats.device_kernels += 1
        kernels = self._stats.device_kernels
        block = op.regions[0].block
        inner: dict[SSAValue, _Value] = {}
        for d in block.ops:
            if isinstance(d, ge.Data):
                v = args[A.get_int(d, "index") or 0]
                v.refs += d.results[0].uses.get_length()
                inner[d.results[0]] = v
        outs = self._run_block(block, inner)  # (the caller releases the op's own reads)
        self._stats.device_kernels = kernels  # its AscBackends are parts of this one kernel
        for r, v in zip(op.results, outs):
            v.refs += r.uses.get_length()
        for v in outs:
            self._release(v)
        return outs

    def _run_subgraph(self, call: Operation, graph: ge.GraphOp, args: Sequence[_Value]) -> list[_Value]:
        """A ge.graph subgraph (unknown-shape): its Data nodes are the call's operands'
        blocks, its NetOutput's values the call's results (no copy)."""
        inner: dict[SSAValue, _Value] = {}
        for d in graph.data_nodes:
            i = A.get_int(d, "index") or 0
            v = args[i]
            v.refs += d.results[0].uses.get_length()
            inner[d.results[0]] = v
        for v in args:  # the call's reads become its Data nodes' readers' reads
            self._release(v)
        outs = self._run_block(graph.body.block, inner)
        for r, v in zip(call.results, outs):
            v.refs += r.uses.get_length()
        for v in outs:  # NetOutput's reads
            self._release(v)
        return outs

    def _run_known(self, call: Operation, model: npu.ModelOp, args: Sequence[_Value]) -> list[_Value]:
        """DavinciModelUpdateWorkspaces, DavinciModelExecute (UpdateArgs + the tasks),
        DavinciModelGetRunAddress, for the model created for `call`."""
        lm = self.models[call]
        name = model.sym_name.data
        dev = self.device
        for k, v in enumerate(args):
            t = lm.io_types.get(f"input:{k}")
            if isinstance(t, TensorType):
                want = (tuple(t.get_shape()), numpy_dtype(t.element_type))
                if (v.shape, v.dtype) != want:
                    raise ReferenceEvalError(
                        call,
                        f"input {k} of known-shape model @{name} is {v.dtype} {fmt_shape(v.shape)} in execution "
                        f"{self.executions}, but the model was compiled for {t}",
                    )
        outs = [dev.malloc(lm.region_size(f"output:{k}"), f"@{name} output:{k}") for k in range(lm.n_outputs)]
        fm = {r: dev.malloc(lm.region_size(r), f"@{name} {r}") for r in FM_REGIONS if lm.region_size(r)}
        try:
            lm.update_workspaces(fm)
            lm.execute_known_node([v.alloc for v in args], outs)
        except SimulatorFault as e:
            raise self._located(e, call, f"known-shape model @{name} (call '{ge.node_name(call)}'): ") from None
        for a in fm.values():
            dev.free(a)
        self._stats.known_models.append(
            KnownModelRun(
                ge.node_name(call), name, lm.ret_up, lm.refreshed_slots, len(lm.refreshed),
                [v.alloc.ptr for v in args], [a.ptr for a in outs],
                fm["fm"].ptr if "fm" in fm else None,
            )
        )  # fmt: skip
        vals = []
        for k, (r, a) in enumerate(zip(call.results, outs)):
            assert lm.get_run_address(k) == a.ptr
            t = r.type
            assert isinstance(t, TensorType)
            vals.append(_Value(a, tuple(t.get_shape()), numpy_dtype(t.element_type), r.uses.get_length(), False))
        return vals


def _symbolic_kernel(op: ge.AscBackend) -> bool:
    """An AscBackend ge-symbolic-autofuse made: over symbolic axes, or with a symbolic
    output shape (its axes all constants once a dim was specialised to 0 or 1)."""
    if ORIGIN_SYMBOL_SHAPE_ATTR in op.attributes:
        return True
    try:
        return ag.is_symbolic(asc_graph_of(op))
    except Exception:  # no AscGraph: the host's reference semantics say why
        return False


def _symbolic_fused(op: ge.FusedAscBackend) -> bool:
    return ORIGIN_SYMBOL_SHAPE_ATTR in op.attributes or any(
        isinstance(x, ge.AscBackend) and _symbolic_kernel(x) for x in op.regions[0].block.ops
    )


def _dim_symbols(a: object) -> list[str]:
    return S.free_symbols(a.data.e) if isinstance(a, ag.SymDimAttr) else []


def root_graph_name(module: ModuleOp) -> str:
    return _root(module).sym_name.data
