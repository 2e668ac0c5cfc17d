"""The device simulator: loads an `npu.model` once and executes it many times, as GE's
static executor does (DavinciModel::Init / NnExecute, docs/ge/executor.md).

    model = load(npu_model, frozen_inputs={0})
    outs = model.execute([x, w])          # zero-copy: x and w are the input regions
    model.refreshed                        # tasks whose args this execution refreshed

Device memory is one uint8 buffer per region: `fm`, `weight`, `var` and `workspace` are
allocated at load (weights and variables copied in), `input:<k>` / `output:<k>` are the
user's arrays of each execution (zero-copy I/O). A kernel runs on numpy views made at its
bound addresses (`buffer[offset:offset+n].view(dtype).reshape(shape)`, the dtype
ge_dialect.dtypes.numpy_dtype's: bf16 and the float8 types are ml_dtypes' dtypes, so each
tensor is GE's own bytes, 2 per bf16 element), so a wrong offset gives a wrong number:
Conv2D, MatMul, BatchMatMulV2 and the pools run the simulator's BLAS-backed kernels
(runtime/kernels.py: the same function as the reference's, accumulated in BLAS's order),
the other library kernels the reference semantics of their GE type (runtime/reference.py),
AscGraph kernels the AscGraph interpreter. Values are kept in
their storage layout (runtime/layouts.py): row-major in the origin shape for ND and the
plain formats, the padded NC1HWC0 / FRACTAL_Z / FRACTAL_NZ layouts (and permutations)
otherwise, each tensor taking its storage size; a kernel gathers its inputs into origin
shapes and scatters its outputs back (padding zeroed). A model input or output with such
a layout is a device buffer the host fills from (reads back into) the user's
origin-shaped array.

Address refresh (ModelArgsManager, docs/ge/executor.md): each task binds its
addresses to (region buffer, offset) when refreshed. The first execution refreshes every
task (kInitOneTime); later executions refresh only the tasks that reference a model I/O
region whose user buffer changed (kUpdateModelIo), never for a frozen input (refreshed on
the first execution only: a frozen input keeps the buffer it was first bound to).

Checks at load: every task operand is at its tensor's address in the table; every view
(npu.alias of a no-task node) holds each element where the node's semantics take it from
(`LoadedModel._check_views`): a wrong offset is a fault before anything runs. Checks while
running, each a `SimulatorFault` naming the task, the region and the byte range: an
address outside its buffer; a read of bytes no task (or the host) wrote in this execution,
or last written by a task that does not write the tensor read (stale bytes of another
tensor);
a write into the bytes of another tensor of the model's table while those bytes are live
(written and still to be read, per byte range: a piece of a PhonySplit input nobody reads
is dead; inputs, weights and outputs always live); a write into the
weights; two tasks of different streams touching the same bytes (one writing) with no
happens-before between them (vector clocks: program order, event record -> wait,
stream_active, docs/ge/executor.md); a wait for an event never recorded (deadlock), an
event recorded twice before its wait; a task of another stream not joined before
end_graph. Streams run round robin, one task at a time.

Labels (an If, Case or While on the static path, docs/control_flow.md): label_set marks a
position, label_goto jumps to it, label_switch_by_index reads an int32 index and jumps to
labels[index] (out of range: the last). A jump back closes a loop: the loop's tasks run
again, their reads pending and their tensors rewritten, every check as on the first pass;
more than `iteration_cap` (WHILE_ITERATION_CAP) such jumps of one goto in one execution is
a fault naming its While. A switch makes the parent's outputs it lists pending: a read of
their bytes before the branch taken writes them is a fault.

The checks above are this module's rules (`_Execution`). By default a load also makes a
check plan (runtime/simulator_plan.py: the same checks on the model's static byte ranges,
a fault replayed by the rules for their message) and compiles each AscGraph kernel
(runtime/ascgraph_compiled.py); `load(..., plan=False)` or GE_SIM_PLAIN=1 runs the rules
and the AscGraph interpreter alone, with the same results and faults. `observer` (a
`TaskObserver`, default None) is called after each kernel and memcpy task with the task
and its output values.

Known-shape subgraphs of a dynamic graph (docs/dynamic_shapes.md; runtime/dynamic_executor.py): `load(model,
frozen, device=DeviceMemory)` loads the model as GE's DavinciModelCreate does for a known
node (SetKnownNode(true), davinci_model_kernel.cc): its weights and variables are copied into
blocks of the simulated device memory (runtime/device_memory.py) once, its feature map and
workspace are the dynamic side's blocks given before each execution (`update_workspaces`:
DavinciModelUpdateWorkspaces -> UpdateHbmFmMemBases), and `execute_known_node(inputs,
outputs)` takes the device blocks of its inputs and outputs (DavinciModelExecute, which first
runs DavinciModelUpdateArgs -> UpdateKnownNodeArgs). Every kernel / memcpy operand is an args
slot holding a 64-bit device address, `active_base[allocation id] + offset`; the allocation
ids are the regions: input:k and output:k (policy kUpdateModelIo), fm and workspace
(refreshable feature map, kUpdateFmAndModelIo), weight and var (fixed: the ABSOLUTE id,
kInitOneTime). Per execution the active bases are rebuilt as
ConstructActiveMemBaseAddrsForKnownNode does (fm first, then inputs: all on the first
execution, later the non-frozen ones only, then outputs, then ABSOLUTE forced to 0; `ret_up`
the highest policy of a changed id), and ModelArgsManager::UpdateHostArgs rewrites every
slot registered under an id whose base changed (`refreshed_slots`; the bytes refreshed are
8 per slot). Before a task runs, each slot's address must lie in the block its region was
given in this execution: an address the refresh left behind (a frozen input whose block
moved) is a SimulatorFault "stale address" naming the task, the region, the address, what
the device holds there now (free memory, or another allocation) and the execution.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import chain
from typing import cast

import numpy as np
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, IntegerAttr, StringAttr, SymbolRefAttr, TensorType, i64
from xdsl.ir import Attribute, Block, Operation

from ge_dialect import ge, npu
from ge_dialect.diagnostics import LocatedError
from ge_dialect.dtypes import numpy_dtype
from ge_dialect.interval_map import IntervalMap
from ge_dialect.verify import verify_module
from ge_dialect.weights import weight_array
from runtime.ascgraph_compiled import compile_asc_graph
from runtime.ascgraph_interp import run_asc_graph
from runtime.device_memory import Allocation, DeviceMemory
from runtime.graph_interpreter import WHILE_ITERATION_CAP, ReferenceEvalError
from runtime.interpreter import ge_interpreter
from runtime.kernels import library_kernel
from runtime.layouts import gather, scatter, storage_elements, storage_index
from runtime.simulator_plan import PlannedChecks, check_plan

__all__ = ["LoadedModel", "SimulatorFault", "load"]

# ModelArgsManager::UpdatePolicy
K_NO_NEED_UPDATE, K_UPDATE_MODEL_IO, K_UPDATE_FM_AND_MODEL_IO, K_INIT_ONE_TIME = 0, 2, 3, 4
# model_args_manager.cc: kUpdatePolicyStr
UPDATE_POLICY_NAMES = {0: "no_need_update", 1: "host_input", 2: "model-io", 3: "fm-and-model-io", 4: "all-one-time"}
# model_args_manager.cc: UpdateHostArgs writes each slot as a whole 64-bit address
ARGS_SLOT_BYTES = 8
# a known node's refreshable feature-map ids (refreshable_fm_index_and_allocation_ids_)
FM_REGIONS = ("fm", "workspace")
HOST_REGIONS = ("weight", "var")
# the writer recorded over a branch output when a label_switch_by_index takes a branch: the
# branch has yet to write it (a read before any write is a fault)
PENDING_WRITER = -1


class SimulatorFault(Exception):
    """A fault of the simulated device: a bad address, an uninitialised read, a clobbered
    live tensor, a race, a deadlock, a view whose bytes are not where its node's semantics
    take them from. `task`, `region`, `start`, `end` locate it; `node` names the GE node
    of a faulting table entry (a fault found at load, outside any task)."""

    def __init__(
        self, message: str, task: str = "", region: str = "", start: int = 0, end: int = 0,
        task_op: npu.TaskOp | None = None, node: str = "",
    ):  # fmt: skip
        super().__init__(message)
        self.task, self.region, self.start, self.end = task, region, start, end
        self.task_op = task_op  # the faulting task, so tools can locate the fault at its node
        self.node = node


def _ops_by_type() -> dict[str, type[Operation]]:
    return {cls.name.split(".", 1)[1]: cls for cls in ge.GE_NODE_OPS}


@dataclass
class _Operand:
    tensor: str
    addr: npu.AddrAttr
    dtype: np.dtype | None = None
    shape: tuple[int, ...] = ()  # origin shape
    type: Attribute | None = None  # the kernel's tensor type (its storage layout)
    nbytes: int = 0  # the bytes the kernel reads or writes: the storage size
    # the address as plain ints, read once at load (each task reads them every execution)
    region: str = field(init=False)
    offset: int = field(init=False)
    end: int = field(init=False)
    length: int = field(init=False)
    # the storage layout is the origin's row-major one (runtime/layouts.py)
    identity: bool = True

    def __post_init__(self) -> None:
        a = self.addr
        self.region, self.offset, self.end, self.length = a.region.data, a.offset.data, a.end, a.length.data

    def set_type(self, ty: TensorType) -> None:
        """The kernel's tensor type of this operand: dtype, origin shape, storage layout and size."""
        self.dtype, self.shape, self.type = numpy_dtype(ty.element_type), tuple(ty.get_shape()), ty
        self.nbytes = storage_elements(ty) * self.dtype.itemsize
        self.identity = storage_index(ty) is None


@dataclass
class _Task:
    index: int
    stream: int
    pos: int
    op: npu.TaskOp
    label: str
    ins: list[_Operand] = field(default_factory=list)
    outs: list[_Operand] = field(default_factory=list)
    run: object = None  # the kernel callable
    bindings: list[tuple[np.ndarray, int]] | None = None
    # known node: the device address each args slot holds (active_base[id] + offset)
    slots: list[int] | None = None
    # a label_switch_by_index: the parent's outputs the branch taken must write
    pending: list[_Operand] = field(default_factory=list)
    # the operands' views at the current bindings: (bindings, input views (None where the
    # storage layout is gathered each run), flat output views a kernel may write in place,
    # origin-shaped output views (None where the layout is scattered))
    views: tuple[object, list[np.ndarray | None], list[np.ndarray | None], list[np.ndarray | None]] | None = None
    kind: str = field(init=False)
    node: str = field(init=False)  # the GE node of the task ("" for none)
    moves: bool = field(init=False)  # a kernel or a memcpy
    memcpy: bool = field(init=False)
    wait: bool = field(init=False)  # an event_wait
    operands: list[_Operand] = field(init=False)  # ins + outs, in args order (set once loaded)
    io_bytes: tuple[int, int] = field(init=False)  # `nbytes`, once loaded
    # its fm outputs' ranges in address order, and whether they are disjoint (once loaded)
    fm_outs: tuple[list[tuple[int, int]], bool] = field(init=False)

    @property
    def nbytes(self) -> tuple[int, int]:
        """The bytes the task's kernel reads and writes (storage sizes)."""
        return sum(o.nbytes for o in self.ins), sum(o.nbytes for o in self.outs)

    def __post_init__(self) -> None:
        self.kind = self.op.name.split(".", 1)[1]
        self.moves = isinstance(self.op, npu.KernelOp | npu.MemcpyOp)
        self.memcpy = isinstance(self.op, npu.MemcpyOp)
        self.wait = isinstance(self.op, npu.EventWaitOp)
        n = self.op.attributes.get("node")
        self.node = n.data if isinstance(n, StringAttr) else ""


@dataclass
class Stats:
    executions: int = 0
    tasks_by_kind: dict[str, int] = field(default_factory=dict)
    kernel_bytes_read: int = 0
    kernel_bytes_written: int = 0
    memcpy_bytes: int = 0
    peak_live_fm_bytes: int = 0
    refreshed_tasks: int = 0
    # args slots rewritten (ModelArgsManager::UpdateHostArgs: update_addr_num); 8 bytes each
    refreshed_slots: int = 0
    # bytes read + written by the kernel and memcpy tasks of each GE node (the tasks'
    # `node`): a no-task node has none, so it is absent
    bytes_by_node: dict[str, int] = field(default_factory=dict)


class _Tensors:
    """The model's tensor table: base tensors (a task writes them, or the host), aliases
    expanded to the base tensors they are made of, writers and readers of each."""

    def __init__(self, model: npu.ModelOp, tasks: Sequence[_Task]):
        self.range: dict[str, tuple[str, int, int]] = {}
        self.size: dict[str, int] = {}
        aliases: dict[str, list[str]] = {}
        for e in model.table():
            a = e.addr
            self.range[e.tensor_name] = (a.region.data, a.offset.data, a.end)
            self.size[e.tensor_name] = a.length.data
            if isinstance(e, npu.AliasOp):
                aliases[e.tensor_name] = e.source_names
        self.base: dict[str, list[str]] = {}

        def expand(n: str, seen: tuple[str, ...]) -> list[str]:
            if n in self.base:
                return self.base[n]
            if n not in aliases:
                return [n]
            if n in seen:
                raise SimulatorFault(f'alias "{n}" is defined through itself')
            out: list[str] = []
            for s in aliases[n]:
                out.extend(expand(s, (*seen, n)))
            self.base[n] = out
            return out

        for n in self.range:
            self.base[n] = expand(n, ())
        self.writers: dict[str, set[int]] = {n: set() for n in self.range}
        self.readers: dict[str, set[int]] = {n: set() for n in self.range}
        # per base tensor, the bytes each reading task reads of it: (task, start, end). A
        # read of an alias reads only the bytes of each base it covers (a PhonySplit piece
        # is the piece's bytes of its input, not the whole input): liveness is per piece.
        self.spans: dict[str, list[tuple[int, int, int]]] = {n: [] for n in self.range}
        # per task, the (base, start, end) it reads
        self.reads: dict[int, list[tuple[str, int, int]]] = {}
        for t in tasks:
            for o in t.outs:
                for b in self.base[o.tensor]:
                    self.writers[b].add(t.index)
            mine: list[tuple[str, int, int]] = []
            for o in t.ins:
                r, lo, hi = o.region, o.offset, o.end
                for b in self.base[o.tensor]:
                    self.readers[b].add(t.index)
                    br, bs, be = self.range[b]
                    a, z = max(lo, bs), min(hi, be)
                    if br == r and a < z:
                        mine.append((b, a, z))
            for b, a, z in dict.fromkeys(mine):
                self.spans[b].append((t.index, a, z))
            self.reads[t.index] = list(dict.fromkeys(mine))
        # per base tensor, the distinct tasks that read it; per task, the bases it reads
        self.reader_count: dict[str, int] = {n: len({r for r, _, _ in sp}) for n, sp in self.spans.items()}
        self.read_bases: dict[int, list[str]] = {
            i: list(dict.fromkeys(b for b, _, _ in r)) for i, r in self.reads.items()
        }
        self.bases = [n for n in self.range if n not in aliases]
        self.owners: dict[str, IntervalMap] = {}
        for e in model.table():
            n = e.tensor_name
            if n in aliases:
                continue
            self.owners.setdefault(e.addr.region.data, IntervalMap()).update(
                e.addr.offset.data,
                e.addr.end,
                lambda st, n=n: (*(st or ()), n),  # type: ignore[misc]
            )

        self.base_set = {n: frozenset(b) for n, b in self.base.items()}
        # the base tensors the host writes before every execution (inputs, weights, variables)
        self.host_written = frozenset(
            b for b in self.bases if self.range[b][0] in HOST_REGIONS or self.range[b][0].startswith("input:")
        )
        self.pinned_set = {n for n in self.range if self._is_pinned(n)}
        self._others: dict[tuple[int, str, int, int], tuple[frozenset[str], dict[str, tuple[int, int]]]] = {}
        self._writers_of: dict[str, frozenset[int]] = {}

    def _is_pinned(self, n: str) -> bool:
        r = self.range[n][0]
        return r in HOST_REGIONS or r.startswith("input:") or r.startswith("output:")

    def pinned(self, n: str) -> bool:
        return n in self.pinned_set

    def writers_of(self, tensor: str) -> frozenset[int]:
        """The tasks that write any base tensor `tensor` is made of."""
        got = self._writers_of.get(tensor)
        if got is None:
            got = self._writers_of[tensor] = frozenset().union(*(self.writers[b] for b in self.base[tensor]))
        return got

    def others(
        self, task: int, tensor: str, region: str, off: int, end: int
    ) -> tuple[frozenset[str], dict[str, tuple[int, int]]]:
        """The base tensors a write of `tensor` by `task` at `region` [off, end) may clobber:
        each other tensor of the table in those bytes that `task` does not itself write, with
        the bytes of it the write covers. Static: made on the first execution's write and kept."""
        key = (task, tensor, off, end)
        got = self._others.get(key)
        if got is None:
            mine = self.base_set[tensor]
            owners = self.owners.get(region)
            segments = owners.covered(off, end) if owners is not None else ()
            # each name once, in address order (neighbouring segments share most of their
            # names: a tensor spans many; deduplicated in C before the per-name tests)
            names = dict.fromkeys(chain.from_iterable(cast(tuple[str, ...], st) for _, _, st in segments))
            writers, ranges = self.writers, self.range
            spans = {}
            for n in names:
                if n not in mine and task not in writers[n]:
                    _, ns, ne = ranges[n]
                    spans[n] = (max(off, ns), min(end, ne))
            got = self._others[key] = (frozenset(spans), spans)
        return got


def _zeroed(view: np.ndarray) -> np.ndarray:
    """`view` (device memory a block was just given), its bytes set to 0."""
    view[...] = 0
    return view


def load(
    model: npu.ModelOp, frozen_inputs: Sequence[int] = (), device: DeviceMemory | None = None,
    plan: bool | None = None,
) -> LoadedModel:  # fmt: skip
    """DavinciModel::Init: validate, allocate regions, copy weights, build the task lists.
    With `device`, the model is a known node of a dynamic graph (DavinciModelCreate: see the
    module doc): its memory is blocks of `device`. `plan` (default: on, unless the
    environment sets GE_SIM_PLAIN=1) runs the checks on the load-time check plan and the
    AscGraph kernels compiled at load (runtime/simulator_plan.py, runtime/ascgraph_compiled.py);
    off, the rules and the AscGraph interpreter alone: the same results and faults."""
    try:
        verify_module(model)  # xDSL's checks (ge_fast's where the switch is on), located
    except LocatedError as e:
        raise SimulatorFault(f"the model does not verify: {e.op.name}: {e.message}") from None
    if plan is None:
        plan = os.environ.get("GE_SIM_PLAIN", "") in ("", "0")
    return LoadedModel(model, frozenset(frozen_inputs), device, plan)


# What `LoadedModel.observer` is called with after each kernel or memcpy task has written
# its outputs: the task (its `label`, `node`, `kind`, `outs`) and its outputs' values (a
# kernel's: origin-shaped, in the storage's dtype; a memcpy's: its bytes), views of device
# memory that later tasks overwrite (copy what is kept). Not called on a replay.
TaskObserver = Callable[["_Task", list[np.ndarray]], None]


class LoadedModel:
    def __init__(
        self, model: npu.ModelOp, frozen: frozenset[int], device: DeviceMemory | None = None, plan: bool = True
    ):
        self.model = model
        self.frozen = frozen
        self.device = device  # a known node's device memory (None: a standalone static model)
        self.plan = plan  # the load-time check plan and compiled AscGraph kernels (see `load`)
        self.check_plans: dict[tuple[tuple[str, int], ...], object] = {}  # per host extents
        self.observer: TaskObserver | None = None  # called after each task's writes (TaskObserver)
        # the kernels' semantics: the reference interpreter's for library kernels, the
        # AscGraph interpreter's for AscGraph kernels
        self.interpreter = ge_interpreter()
        self.region_sizes = model.regions_table()
        self.io_types: dict[str, TensorType] = {}
        for op in model.body.block.ops:
            if isinstance(op, npu.RegionOp) and isinstance(t := op.attributes.get("type"), TensorType):
                self.io_types[op.region.data] = t
        # InitFeatureMapAndP2PMem / InitWeightMem: device buffers of the fixed regions; a
        # known node's weights and variables are written straight into the device blocks
        # the model keeps (DavinciModelCreate -> InitParam: weight_base), so they are
        # copied in once, not into a buffer first (_create_known_node names the blocks)
        self.kept_blocks: dict[str, Allocation] = {}
        if device is not None:
            for r in HOST_REGIONS:
                if r in self.region_sizes:
                    self.kept_blocks[r] = device.malloc(self.region_sizes[r], f"@{model.sym_name.data} {r}")
        self.memory: dict[str, np.ndarray] = {
            r: _zeroed(device.view(self.kept_blocks[r].ptr, size))
            if device is not None and r in self.kept_blocks
            else np.frombuffer(bytearray(size), dtype=np.uint8)
            for r, size in self.region_sizes.items()
            if not r.startswith("input:") and not r.startswith("output:")
        }
        for e in model.table():
            if isinstance(e, npu.ConstOp):
                arr = _stored(e, _dense(e.value))
                self.memory[e.addr.region.data][e.addr.offset.data : e.addr.offset.data + arr.size] = arr
        # model I/O whose tensor has a padded or permuted storage layout: the device holds
        # the storage bytes, the user's arrays are origin-shaped, so these regions are
        # device buffers filled from the user's array before a run (inputs) and read back
        # after it (outputs), the host doing the layout transfer (runtime/layouts.py)
        self.staged: dict[str, np.ndarray] = {
            r: np.frombuffer(bytearray(self.region_sizes[r]), dtype=np.uint8)
            for r, t in self.io_types.items()
            if storage_index(t) is not None
        }
        # a model input the user's array cannot back in place (not C-contiguous: a
        # Fortran-ordered or strided array) is copied into the model's own buffer before
        # each run, made once and kept, so its address stays put
        # GE: runtime/v1/graph/load/model_manager/davinci_model.cc
        # DavinciModel::CopyInputForNoZeroCopy (called by CopyModelData before each run)
        self.copied_inputs: dict[str, np.ndarray] = {}
        self.n_streams = model.streams.value.data
        self.tasks: list[_Task] = []
        self.streams: list[list[_Task]] = []
        # label -> its position on its stream (the verifier keeps a jump on its label's stream)
        self.labels: dict[int, int] = {}
        # the most times one label_goto may jump back in one execution (a While's iterations)
        self.iteration_cap = WHILE_ITERATION_CAP
        kernels = model.kernel_defs()
        impls: dict[str, object] = {}
        for s in model.stream_ops():
            lst = []
            for pos, op in enumerate(s.tasks):
                node = op.attributes.get("node")
                label = f"stream {s.stream.value.data} task {pos} ({op.name}" + (
                    f" '{node.data}')" if isinstance(node, StringAttr) else ")"
                )
                t = _Task(len(self.tasks), s.stream.value.data, pos, op, label)
                if isinstance(op, npu.LabelSwitchByIndexOp):
                    t.pending = [_Operand(n, a) for n, a in op.branch_outputs()]
                if isinstance(op, npu.KernelOp | npu.MemcpyOp | npu.LabelSwitchByIndexOp):
                    ins, outs = op.footprint()
                    t.ins = [_Operand(n, a) for n, a in ins]
                    t.outs = [_Operand(n, a) for n, a in outs]
                    for o in (*t.ins, *t.outs):
                        o.nbytes = o.length
                if isinstance(op, npu.KernelOp):
                    k = kernels[op.kernel.root_reference.data]
                    for o, ty in (*zip(t.ins, k.function_type.inputs.data), *zip(t.outs, k.function_type.outputs.data)):
                        assert isinstance(ty, TensorType)
                        o.set_type(ty)
                    sym = k.sym_name.data
                    if sym not in impls:
                        impls[sym] = self._kernel(k)
                    t.run = impls[sym]
                if isinstance(op, npu.LabelSetOp):
                    self.labels[op.id] = pos
                t.operands = [*t.ins, *t.outs]
                self.tasks.append(t)
                lst.append(t)
            self.streams.append(lst)
        self.table = _Tensors(model, self.tasks)
        # per region, the tasks with an args slot in it (refreshed when its base changes)
        self.tasks_of_region: dict[str, list[int]] = {}
        for t in self.tasks:
            for r in dict.fromkeys(o.region for o in t.operands):
                self.tasks_of_region.setdefault(r, []).append(t.index)
            t.io_bytes = t.nbytes
            fm = sorted((o.offset, o.end) for o in t.outs if o.region == "fm")
            t.fm_outs = (fm, all(a[1] <= b[0] for a, b in zip(fm, fm[1:])))
        self._check_addresses()
        self._check_views(kernels)
        self.active_base: dict[str, int] = {}
        self.first = True
        self.refreshed: list[str] = []
        self.refreshed_slots = 0
        self.stats = Stats()
        self.last_stats = Stats()
        if device is not None:
            self._create_known_node(device)
        if plan:  # made at load, as GE prepares the task args (DavinciModel::Init)
            check_plan(self, self.host_extents({}))

    # -- load-time checks of the addresses ----------------------------------------------------

    def _check_addresses(self) -> None:
        """Every task operand is its tensor at the tensor's address in the table: a task that
        reads or writes a tensor elsewhere has a wrong offset (its args disagree with the
        memory plan the table records)."""
        rng = self.table.range
        for t in self.tasks:
            for kind, ops in (("reads", t.ins), ("writes", t.outs)):
                for o in ops:
                    want = rng.get(o.tensor)
                    got = (o.region, o.offset, o.end)
                    if want is not None and want != got:
                        raise SimulatorFault(
                            f"{t.label}: wrong offset: {kind} tensor \"{o.tensor}\" at {got[0]} [{got[1]}, {got[2]}), "
                            f"but the model's table places it at {want[0]} [{want[1]}, {want[2]})",
                            t.label, got[0], got[1], got[2], t.op,
                        )  # fmt: skip

    def _check_views(self, kernels: dict[str, npu.KernelDefOp]) -> None:
        """Every element of a view (an npu.alias made by a node with no task) lies where the
        node's semantics take it from.

        An alias naming its node's semantics (`view` = a library kernel_def of the node's
        GE type and attributes, `view_result` = which output it is; ge-to-npu writes
        them) is checked by running those semantics (the reference interpreter's, as for
        a library kernel) on the ADDRESSES of its source tensors' elements: each source
        element holds the byte address where its storage layout puts it, so the node's
        output holds, per element, the address it must be read from; the alias's own
        layout gives where it is read. Any difference is a wrong offset: a PhonySplit
        piece placed at another piece's offset, a no-task concat whose inputs are not
        side by side in the concat's storage layout, a view of non-contiguous bytes. A
        view whose node has no reference semantics (or keep_*_offset = false: a
        user-defined layout) or changes the dtype (Bitcast) is not checked.

        Only the tensors the alias is made of (its sources: a reshape-family node's input
        0) are viewed and must lie in the alias's region; the semantics' other operands
        (`view_operands`: a Reshape's shape) are parameters, given their weight's value (a
        view whose parameter is computed at run time is not checked).
        """
        rng = self.table.range
        weights = {e.tensor_name: e for e in self.model.table() if isinstance(e, npu.ConstOp)}
        for e in self.model.table():
            if not isinstance(e, npu.AliasOp):
                continue
            v, j = e.attributes.get("view"), e.attributes.get("view_result")
            if not isinstance(v, SymbolRefAttr) or not isinstance(j, IntegerAttr):
                continue
            k = kernels.get(v.root_reference.data)
            node_attr = e.attributes.get("node")
            node = node_attr.data if node_attr is not None else ""  # type: ignore[attr-defined]
            label = f'npu.alias "{e.tensor_name}"'
            if k is None or k.ge_type is None:
                raise SimulatorFault(
                    f"{label}: its view @{v.root_reference.data} is not a library kernel_def of the model", node=node
                )
            ins, outs = list(k.function_type.inputs.data), list(k.function_type.outputs.data)
            idx = j.value.data
            srcs, operands = e.source_names, e.view_operand_names
            if len(operands) != len(ins) or not 0 <= idx < len(outs) or not set(srcs) <= set(operands):
                raise SimulatorFault(
                    f"{label}: view @{k.sym_name.data} takes {len(ins)} tensors and gives {len(outs)}, the alias has "
                    f"{len(operands)} operands ({len(srcs)} of them its sources) and is output {idx}",
                    node=node,
                )  # fmt: skip
            cls = _ops_by_type().get(k.ge_type.data)
            out_t = outs[idx]
            assert isinstance(out_t, TensorType)
            # the viewed operands carry element addresses; the others (a Reshape's shape) are
            # parameters of the semantics, given their values: a weight's, known at load
            viewed = [n in srcs for n in operands]
            params = {
                q: _dense(w.value) if (w := weights.get(n)) is not None else None
                for q, n in enumerate(operands)
                if not viewed[q]
            }
            if (
                cls is None
                or not self.interpreter.implements(cls)
                or any(
                    t.element_type != out_t.element_type  # type: ignore[attr-defined]
                    for t, v in zip(ins, viewed)
                    if v
                )
                or any(p is None for p in params.values())  # a parameter computed at run time
            ):
                continue
            region, start, _ = rng[e.tensor_name]
            if any(rng[n][0] != region for n in srcs):
                where = ", ".join(f'"{n}" in {rng[n][0]}' for n in srcs)
                raise SimulatorFault(
                    f"{label} (a view in {region}) is made of tensors of other regions: {where}",
                    "",
                    region,
                    start,
                    start,
                    node=node,
                )
            item = numpy_dtype(out_t.element_type).itemsize
            tags = _view_args(
                params,
                [rng[n][1] + _element_offsets(t) * item if v else None for n, t, v in zip(operands, ins, viewed)],
            )
            block = Block(arg_types=[_i64(t) for t in ins])
            probe = cls.create(
                operands=list(block.args), result_types=[_i64(t) for t in outs], attributes=dict(k.attributes)
            )  # type: ignore[union-attr]
            block.add_op(probe)
            try:
                with np.errstate(all="ignore"):
                    got = np.asarray(self.interpreter.run_node(probe, tags)[idx])
            except ReferenceEvalError:
                continue
            want = start + _element_offsets(out_t) * item
            if got.shape != want.shape:
                continue
            bad = np.argwhere(got != want)
            if bad.size:
                at = tuple(int(i) for i in bad[0])
                # which source element it is: the same semantics on source numbers and on
                # element numbers
                shapes = [tuple(t.get_shape()) for t in ins]  # type: ignore[attr-defined]
                which = _view_args(params, [np.full(sh, q, dtype=np.int64) for q, sh in enumerate(shapes)])
                elems = _view_args(params, [np.arange(math.prod(sh), dtype=np.int64).reshape(sh) for sh in shapes])
                q = int(np.asarray(self.interpreter.run_node(probe, which)[idx])[at])
                el = np.unravel_index(
                    int(np.asarray(self.interpreter.run_node(probe, elems)[idx])[at]),
                    tuple(ins[q].get_shape()),  # type: ignore[attr-defined]
                )
                src = operands[q]
                raise SimulatorFault(
                    f"{label} ({k.ge_type.data} '{node}' output {idx}): wrong offset: its element {list(at)} is "
                    f"element {[int(i) for i in el]} of \"{src}\" (at {region} [{rng[src][1]}, {rng[src][2]})), which lies at "
                    f"{region} byte {int(got[at])}, but the alias has it at byte {int(want[at])}; "
                    f"{int(bad.shape[0])} of {got.size} elements are misplaced",
                    "", region, int(want[at]), int(want[at]) + item, node=node,
                )  # fmt: skip

    # -- kernels ----------------------------------------------------------------------------

    def _kernel(self, k: npu.KernelDefOp):  # noqa: ANN202
        outs = [tuple(t.get_shape()) for t in k.function_type.outputs.data]  # type: ignore[attr-defined]
        interpreter = self.interpreter
        if k.kind.data == "ascgraph":
            graph = k.asc_graph()
            if self.plan:  # compiled once (runtime/ascgraph_compiled.py): the interpreter's walk, resolved
                dtypes = [numpy_dtype(t.element_type) for t in k.function_type.inputs.data]  # type: ignore[attr-defined]
                compiled = compile_asc_graph(interpreter, graph, dtypes, outs)  # type: ignore[arg-type]
                if compiled is not None:
                    return compiled
            return lambda args, dst: run_asc_graph(interpreter, graph, args, outs, dst)  # type: ignore[arg-type]
        assert k.ge_type is not None
        cls = _ops_by_type().get(k.ge_type.data)
        if cls is None or not interpreter.implements(cls):
            raise SimulatorFault(f"kernel @{k.sym_name.data}: no library implementation of GE type {k.ge_type.data}")
        block = Block(arg_types=list(k.function_type.inputs.data))
        node = cls.create(
            operands=list(block.args), result_types=list(k.function_type.outputs.data), attributes=dict(k.attributes)
        )
        block.add_op(node)
        fast = library_kernel(node)
        if fast is not None:  # Conv2D, MatMul, BatchMatMulV2, pools: BLAS-backed (runtime/kernels.py)
            return lambda args, dst: fast(args)
        return lambda args, dst: interpreter.run_node(node, args)

    # -- execution ----------------------------------------------------------------------------

    def _bind_io(
        self, inputs: Sequence[np.ndarray], outputs: Sequence[np.ndarray] | None
    ) -> tuple[dict[str, np.ndarray], list[np.ndarray]]:
        n_in = sum(1 for r in self.region_sizes if r.startswith("input:"))
        n_out = sum(1 for r in self.region_sizes if r.startswith("output:"))
        if len(inputs) != n_in:
            raise SimulatorFault(f"the model takes {n_in} inputs, {len(inputs)} given")
        outs: list[np.ndarray] = []
        for k in range(n_out):
            t = self.io_types.get(f"output:{k}")
            if outputs is not None:
                outs.append(outputs[k])
            elif t is not None:
                outs.append(np.empty(tuple(t.get_shape()), dtype=numpy_dtype(t.element_type)))
            else:
                outs.append(np.empty(self.region_sizes[f"output:{k}"], dtype=np.uint8))
        bound: dict[str, np.ndarray] = {}
        for kind, arrays in (("input", inputs), ("output", outs)):
            for k, a in enumerate(arrays):
                r = f"{kind}:{k}"
                t = self.io_types.get(r)
                if kind == "input" and isinstance(a, np.ndarray) and not a.flags.c_contiguous:
                    a = self._copy_input(r, a)
                if not isinstance(a, np.ndarray) or not a.flags.c_contiguous:
                    raise SimulatorFault(f"{r}: a zero-copy buffer is a C-contiguous numpy array", region=r)
                if t is not None and (a.dtype != numpy_dtype(t.element_type) or a.shape != tuple(t.get_shape())):
                    raise SimulatorFault(f"{r}: buffer is {a.dtype} {a.shape}, the model expects {t}", region=r)
                if kind == "output" and not a.flags.writeable:
                    raise SimulatorFault(f"{r}: the output buffer is read-only", region=r)
                dev = self.staged.get(r)
                if dev is not None:
                    assert t is not None
                    if kind == "input":  # the host writes the storage layout (TransData)
                        scatter(t, a, dev[: storage_elements(t) * a.dtype.itemsize].view(a.dtype))
                    bound[r] = dev
                    continue
                bound[r] = a.reshape(-1).view(np.uint8)
        return bound, outs

    def _copy_input(self, r: str, a: np.ndarray) -> np.ndarray:
        """`a`'s values in the model's own buffer for input region `r` (no zero copy: GE's
        CopyInputForNoZeroCopy copies such an input into the model's I/O address)."""
        buf = self.copied_inputs.get(r)
        if buf is None or buf.shape != a.shape or buf.dtype != a.dtype:
            buf = self.copied_inputs[r] = np.empty(a.shape, a.dtype)
        np.copyto(buf, a)
        return buf

    def _refresh(self, bound: dict[str, np.ndarray]) -> None:
        """DavinciModel::UpdateAllNodeArgs + ModelArgsManager::UpdateForExecute."""
        ret_up = K_NO_NEED_UPDATE
        changed: set[str] = set()
        for r, buf in bound.items():
            if r.startswith("input:") and not self.first and int(r[6:]) in self.frozen:
                continue  # frozen inputs: refreshed on the first execution only
            ptr = buf.__array_interface__["data"][0]
            if self.active_base.get(r) != ptr:
                self.active_base[r] = ptr
                changed.add(r)
                ret_up = max(ret_up, K_UPDATE_MODEL_IO)
        if self.first:
            ret_up = K_INIT_ONE_TIME  # the ABSOLUTE base is forced from all-ones to 0
        self._update_host_args(ret_up, changed, {**self.memory, **bound})

    def _update_host_args(
        self, ret_up: int, changed: set[str], memory: dict[str, np.ndarray], bases: dict[str, int] | None = None
    ) -> None:
        """ModelArgsManager::UpdateForExecute / UpdateHostArgs: with `ret_up` above
        kNoNeedUpdate, rewrite every args slot registered under a changed allocation id
        (all of them on kInitOneTime), binding it to `memory[region]` at its offset (and,
        for a known node, recording its device address `bases[region] + offset`)."""
        self.refreshed = []
        self.refreshed_slots = 0
        if ret_up == K_NO_NEED_UPDATE:
            return
        if ret_up == K_INIT_ONE_TIME:
            tasks = self.tasks
        else:  # the slots registered under a changed allocation id (ModelArgsManager's per-id lists)
            tasks = [self.tasks[i] for i in sorted({i for r in changed for i in self.tasks_of_region.get(r, ())})]
        for t in tasks:
            ops = t.operands
            if not ops:
                continue
            if t.bindings is None or ret_up == K_INIT_ONE_TIME:
                t.bindings = [(memory[o.region], o.offset) for o in ops]
                self.refreshed_slots += len(ops)
                if bases is not None:
                    t.slots = [bases[o.region] + o.offset for o in ops]
            else:  # only the slots registered under a changed allocation id are rewritten
                t.bindings = [
                    (memory[o.region], o.offset) if o.region in changed else b for o, b in zip(ops, t.bindings)
                ]
                self.refreshed_slots += sum(o.region in changed for o in ops)
                if bases is not None:
                    assert t.slots is not None
                    t.slots = [bases[o.region] + o.offset if o.region in changed else a for o, a in zip(ops, t.slots)]
            self.refreshed.append(t.label)

    def execute(self, inputs: Sequence[np.ndarray], outputs: Sequence[np.ndarray] | None = None) -> list[np.ndarray]:
        """DavinciModel::NnExecute: bind the I/O buffers, refresh args, run the streams."""
        bound, outs = self._bind_io(inputs, outputs)
        self._refresh(bound)
        self.first = False
        run = self._execution(bound)
        run.go()
        for k, a in enumerate(outs):
            dev = self.staged.get(f"output:{k}")
            if dev is not None:  # the host reads the storage layout back
                t = self.io_types[f"output:{k}"]
                a[...] = gather(t, dev[: storage_elements(t) * a.dtype.itemsize].view(a.dtype))
        self._record(run)
        return outs

    def _execution(self, bound: dict[str, np.ndarray]) -> _Execution:
        return _PlannedExecution(self, bound) if self.plan else _Execution(self, bound)

    def host_extents(self, bound: dict[str, np.ndarray]) -> dict[str, int]:
        """The bytes the host writes before an execution, per region: the inputs, weights
        and variables (an input its bound buffer's length)."""
        return {
            r: len(bound[r]) if r in bound else size
            for r, size in self.region_sizes.items()
            if r in HOST_REGIONS or r.startswith("input:")
        }

    def _record(self, run: _Execution) -> None:
        """This execution's figures (`last_stats`), added to the totals (`stats`)."""
        st = run.stats
        st.executions = 1
        st.refreshed_tasks = len(self.refreshed)
        st.refreshed_slots = self.refreshed_slots
        self.last_stats = st
        total = self.stats
        total.executions += 1
        for k, v in st.tasks_by_kind.items():
            total.tasks_by_kind[k] = total.tasks_by_kind.get(k, 0) + v
        total.kernel_bytes_read += st.kernel_bytes_read
        total.kernel_bytes_written += st.kernel_bytes_written
        total.memcpy_bytes += st.memcpy_bytes
        total.peak_live_fm_bytes = max(total.peak_live_fm_bytes, st.peak_live_fm_bytes)
        total.refreshed_tasks += st.refreshed_tasks
        total.refreshed_slots += st.refreshed_slots
        for k, v in st.bytes_by_node.items():
            total.bytes_by_node[k] = total.bytes_by_node.get(k, 0) + v

    # -- a known node of a dynamic graph (davinci_model_kernel.cc) ------------------------------

    def _create_known_node(self, device: DeviceMemory) -> None:
        """DavinciModelCreate: the weights and variables go to device blocks the model keeps
        (InitParam: weight_base); the feature map and workspace come per execution."""
        if self.staged:
            r = sorted(self.staged)[0]
            raise SimulatorFault(
                f"{r}: a known-node model's input or output must be row-major ND (its storage "
                f"layout is {self.io_types[r]}); the dynamic executor hands it row-major device blocks",
                region=r,
            )
        self.current: dict[str, Allocation] = {}  # the block of each region in this execution
        self.base: dict[str, int] = {}  # the device address of each region's view
        for r, a in self.kept_blocks.items():  # the weights and variables, filled at load
            self.current[r], self.base[r] = a, a.ptr
        for r in FM_REGIONS:
            self.memory.pop(r, None)
        self.n_inputs = sum(1 for r in self.region_sizes if r.startswith("input:"))
        self.n_outputs = sum(1 for r in self.region_sizes if r.startswith("output:"))

    def region_size(self, region: str) -> int:
        return self.region_sizes.get(region, 0)

    def update_workspaces(self, blocks: dict[str, Allocation]) -> None:
        """DavinciModelUpdateWorkspaces -> UpdateHbmFmMemBases: this execution's feature-map
        (and workspace) blocks, each at least its region's size."""
        assert self.device is not None
        for r in FM_REGIONS:
            size = self.region_sizes.get(r, 0)
            a = blocks.get(r)
            if a is None:
                if size:
                    raise SimulatorFault(f"{r}: no block given for the model's {size}-byte {r}", region=r)
                continue
            if a.size < size:
                raise SimulatorFault(f"{r}: {a.describe()} is smaller than the model's {size}-byte {r}", region=r)
            self.current[r] = a

    def update_known_node_args(self, inputs: Sequence[Allocation], outputs: Sequence[Allocation]) -> int:
        """DavinciModelUpdateArgs -> DavinciModel::UpdateKnownNodeArgs: rebuild the active
        base table (ConstructActiveMemBaseAddrsForKnownNode) and rewrite the slots of every
        id whose base changed (ModelArgsManager::UpdateForExecute); returns `ret_up`."""
        assert self.device is not None
        if len(inputs) != self.n_inputs or len(outputs) != self.n_outputs:
            raise SimulatorFault(
                f"the model takes {self.n_inputs} inputs and {self.n_outputs} outputs, "
                f"{len(inputs)} and {len(outputs)} given"
            )
        for kind, blocks in (("input", inputs), ("output", outputs)):
            for k, a in enumerate(blocks):
                r = f"{kind}:{k}"
                if a.size < self.region_sizes[r]:
                    raise SimulatorFault(
                        f"{r}: {a.describe()} is smaller than the model's {self.region_sizes[r]}-byte {r}", region=r
                    )
                self.current[r] = a  # what UpdateArgs was given (frozen or not)
        ret_up = K_NO_NEED_UPDATE
        changed: set[str] = set()

        def offer(r: str, addr: int, policy: int) -> None:
            nonlocal ret_up
            if self.active_base.get(r) != addr:
                self.active_base[r] = addr
                changed.add(r)
                ret_up = max(ret_up, policy)

        # refreshable_fm_index_and_allocation_ids_: policy kUpdateFmAndModelIo (InitForUpdate)
        for r in FM_REGIONS:
            if r in self.current:
                offer(r, self.current[r].ptr, K_UPDATE_FM_AND_MODEL_IO)
        # refreshable_input_index_and_allocation_ids_ on the first execution, the non-frozen
        # ones later; the switch happens only when some input is not frozen
        # (ConstructActiveMemBaseAddrsForKnownNode: is_first_time_model_execute_)
        frozen = self.frozen if not self.first else frozenset()
        for k in range(self.n_inputs):
            if k not in frozen:
                offer(f"input:{k}", self.current[f"input:{k}"].ptr, K_UPDATE_MODEL_IO)
        if self.first and any(k not in self.frozen for k in range(self.n_inputs)):
            self.first = False
        for k in range(self.n_outputs):
            offer(f"output:{k}", self.current[f"output:{k}"].ptr, K_UPDATE_MODEL_IO)
        # the ABSOLUTE id (weights, variables: fixed addresses) starts at all-ones and is
        # forced to 0 once: kInitOneTime, so every slot is written on the first execution
        if self.active_base.get("ABSOLUTE") != 0:
            self.active_base["ABSOLUTE"] = 0
            ret_up = max(ret_up, K_INIT_ONE_TIME)
            changed |= {"weight", "var"}
        memory: dict[str, np.ndarray] = dict(self.memory)
        for r in changed:
            if r in self.current and r not in ("weight", "var"):
                a = self.current[r]
                self.base[r] = a.ptr
                memory[r] = self.device.view(a.ptr, self.region_sizes.get(r, 0))
                self.memory[r] = memory[r]
        self._update_host_args(ret_up, changed, memory, self.base)
        self.ret_up = ret_up
        return ret_up

    def execute_known_node(self, inputs: Sequence[Allocation], outputs: Sequence[Allocation]) -> None:
        """DavinciModelExecute: DavinciModelUpdateArgs, then run the streams on the device
        blocks (the outputs are written into `outputs`' blocks)."""
        assert self.device is not None
        self.update_known_node_args(inputs, outputs)
        bound = {
            r: self.device.view(a.ptr, self.region_sizes[r])
            for r, a in self.current.items()
            if r.startswith("input:") or r.startswith("output:")
        }
        run = self._execution(bound)
        run.go()
        self._record(run)

    def get_run_address(self, k: int) -> int:
        """DavinciModelGetRunAddress: the device address output k's value is at after the
        execution: the output block this execution was given (GetRunMemory maps a weight
        or file-constant output to weight_base + offset; ge-to-npu copies such an output
        into output:k, so the output block is where it is)."""
        return self.current[f"output:{k}"].ptr

    def check_slots(self, t: _Task, execution: int) -> None:
        """Each args slot of `t` holds an address inside the block its region has in this
        execution: else the refresh left a stale address behind."""
        assert self.device is not None and t.slots is not None
        for o, addr in zip((*t.ins, *t.outs), t.slots):
            n = o.length
            cur = self.current.get(o.region)
            if cur is not None and cur.live and cur.ptr <= addr and addr + n <= cur.ptr + cur.size:
                continue
            now = f"{cur.describe()}" if cur is not None else "no block"
            raise SimulatorFault(
                f"{t.label}: stale address in execution {execution}: the args slot of tensor \"{o.tensor}\" "
                f"({o.region} [{o.offset}, {o.end})) holds device address {addr:#x}, but this "
                f"execution's {o.region} is {now}; {addr:#x} is {self.device.describe(addr)}",
                t.label, o.region, o.offset, o.end, t.op,
            )  # fmt: skip


class _Execution:
    """One execution: stream scheduling, vector clocks, shadow memory, live bytes.

    Liveness is per byte range a task is still to read: a base tensor's bytes are live
    from its first write in this execution until the last task reading THOSE bytes (of
    it, or of a view over them: a PhonySplit piece keeps only its own bytes of the input
    live) has read them. The live-buffer check refuses a write into such bytes;
    `peak_live_fm_bytes` is the most feature-map bytes live at once, counting a running
    task's inputs and outputs together (an output no task reads is live while the task
    that writes it runs).
    """

    def __init__(self, m: LoadedModel, bound: dict[str, np.ndarray], script: list[int] | None = None):
        self.m = m
        self.bound = bound
        self.stats = Stats()
        # a replay (`script`: the label_switch indices an execution read, in order) runs the
        # checks and bookkeeping of every task, not its kernel
        self.kernels = script is None
        self.script = script
        self.switched: list[int] = []  # the label_switch indices this execution read
        n = m.n_streams
        self.vc = [[0] * n for _ in range(n)]
        self.pc = [0] * n
        self.active = [s == 0 for s in range(n)]
        self.events: dict[int, list[int] | None] = {}
        self.epoch: dict[int, tuple[int, int]] = {}
        self.end_vc: list[int] | None = None
        self.init_shadow(bound)
        tb = m.table
        self.retired: set[int] = set()  # tasks whose reads are done
        self.written: set[str] = set(tb.host_written)
        # per base tensor, its readers yet to read; the written ones still to be read (or
        # pinned): only those can be clobbered
        self.pending = dict(tb.reader_count)
        self.alive = {b for b in self.written if tb.pinned(b) or self.pending[b]}
        self.live_bytes = 0  # the fm bytes with a read pending (`live_add`)
        self.counted: set[tuple[int, str]] = set()  # (reader task, base) spans in `live`
        self.jumps: dict[int, int] = {}  # label_goto task -> backward jumps in this execution
        # label_goto task -> (the tasks of the loop it closes, the base tensors they write)
        self.loops: dict[int, tuple[list[int], set[str]]] = {}

    def init_shadow(self, bound: dict[str, np.ndarray]) -> None:
        """The shadow state per region: (writer epoch, None for the host; reads per stream)
        of each byte range, the host's over the inputs, weights and variables; and the fm
        bytes still to be read: a count of pending reads per byte range."""
        n = self.m.n_streams
        self.shadow: dict[str, IntervalMap] = {}
        host = (None, (None,) * n)
        for r, size in self.m.region_sizes.items():
            sh = IntervalMap()
            if r in HOST_REGIONS or r.startswith("input:"):
                sh.update(0, len(bound[r]) if r in bound else size, lambda _: host)
            self.shadow[r] = sh
        self.live = IntervalMap()

    def live_add(self, lo: int, hi: int, d: int) -> None:
        self.live_bytes += self.live.add(lo, hi, d)

    def unset_bytes(self, lo: int, hi: int) -> int:
        """The fm bytes of [lo, hi) with no read pending."""
        return self.live.unset_bytes(lo, hi)

    def still_read(self, n: str, a: int, b: int, t: _Task) -> bool:
        """Whether a task other than `t` has yet to read bytes [a, b) of base tensor `n`."""
        return any(r != t.index and r not in self.retired and lo < b and a < hi for r, lo, hi in self.m.table.spans[n])

    # -- happens-before ---------------------------------------------------------------------

    def hb(self, ep: tuple[int, int, str] | None, s: int) -> bool:
        return ep is None or ep[1] <= self.vc[s][ep[0]]

    def fault(self, t: _Task, what: str, region: str, start: int, end: int) -> SimulatorFault:
        return SimulatorFault(f"{t.label}: {what}", t.label, region, start, end, t.op)

    # -- memory -------------------------------------------------------------------------------

    def check_bounds(self, t: _Task, o: _Operand, buf: np.ndarray, off: int) -> None:
        n = o.length
        if off + n > len(buf):
            raise self.fault(
                t, f"address out of bounds: tensor \"{o.tensor}\" at {o.region} [{off}, {off + n}) "
                f"but the region's buffer has {len(buf)} bytes", o.region, off, off + n,
            )  # fmt: skip

    def read(self, t: _Task, o: _Operand) -> None:
        self.read_range(t, o, o.offset, o.end)

    def read_range(self, t: _Task, o: _Operand, off: int, end: int) -> None:
        r = o.region
        sh = self.shadow[r]
        gaps = sh.gaps(off, end)
        if gaps:
            a, b = gaps[0]
            tb = self.m.table
            for base in tb.base[o.tensor]:
                for w in sorted(tb.writers[base]):
                    wt = self.m.tasks[w]
                    if w not in self.epoch and wt.stream != t.stream:
                        # the writer has not run: with an event between them the read would wait
                        raise self.fault(
                            t,
                            f'race: reads {r} [{a}, {b}) of tensor "{base}" before its writer {wt.label} on another stream ran, with no event between them',
                            r,
                            a,
                            b,
                        )
            raise self.fault(
                t,
                f'read of uninitialised memory: {r} [{a}, {b}) (reading tensor "{o.tensor}" at {r} [{off}, {end})) was not written by any task in this execution',
                r,
                a,
                b,
            )
        s = t.stream
        tb = self.m.table
        mine = tb.writers_of(o.tensor)
        for a, b, st in sh.covered(off, end):
            w = st[0]  # type: ignore[index]
            if w is not None and w[3] == PENDING_WRITER:
                raise self.fault(
                    t, f"read of a branch output left unwritten: {r} [{a}, {b}) (reading tensor \"{o.tensor}\" at "
                    f"{r} [{off}, {end})) is an output of the control node whose branch {w[2]} took; that branch "
                    "did not write it", r, a, b,
                )  # fmt: skip
            if w is not None and w[3] not in mine:
                # the bytes hold another tensor's data: its own writer has not written them
                for x in sorted(mine):
                    if x not in self.epoch and self.m.tasks[x].stream != t.stream:
                        raise self.fault(
                            t,
                            f'race: reads {r} [{a}, {b}) of tensor "{o.tensor}" before its writer {self.m.tasks[x].label} on another stream ran, with no event between them',
                            r,
                            a,
                            b,
                        )
                raise self.fault(
                    t, f"read of stale memory: {r} [{a}, {b}) (reading tensor \"{o.tensor}\" at {r} [{off}, {end})) "
                    f"was last written by {w[2]}, which does not write \"{o.tensor}\"", r, a, b,
                )  # fmt: skip
            if w is not None and not self.hb(w, s):
                raise self.fault(
                    t,
                    f"race: reads {r} [{a}, {b}) written by {w[2]} on another stream with no event between them",
                    r,
                    a,
                    b,
                )
        me = (s, self.vc[s][s], t.label, t.index)

        def upd(st: object) -> object:
            w, reads = st  # type: ignore[misc]
            reads = list(reads)
            reads[s] = me
            return (w, tuple(reads))

        sh.update(off, end, upd)

    def write(self, t: _Task, o: _Operand) -> None:
        self.write_range(t, o, o.offset, o.end)

    def write_range(self, t: _Task, o: _Operand, off: int, end: int) -> None:
        r = o.region
        if r == "weight":
            raise self.fault(t, f"write into the weights: {r} [{off}, {end})", r, off, end)
        s = t.stream
        sh = self.shadow[r]
        for a, b, st in sh.covered(off, end):
            w, reads = st  # type: ignore[misc]
            if w is not None and not self.hb(w, s):
                raise self.fault(
                    t,
                    f"race: writes {r} [{a}, {b}) also written by {w[2]} on another stream with no event between them",
                    r,
                    a,
                    b,
                )
            for rd in reads:
                if rd is not None and not self.hb(rd, s):
                    raise self.fault(
                        t,
                        f"race: writes {r} [{a}, {b}) read by {rd[2]} on another stream with no event between them",
                        r,
                        a,
                        b,
                    )
        self.check_live(t, o, off, end)
        me = (s, self.vc[s][s], t.label, t.index)
        sh.assign(off, end, (me, (None,) * self.m.n_streams))
        self.mark_written(o)

    def check_live(self, t: _Task, o: _Operand, off: int, end: int) -> None:
        """The live-buffer check of `t`'s write of `o` at [off, end): no other tensor of the
        table in those bytes is written and still to be read (or pinned)."""
        r = o.region
        tb = self.m.table
        owners = tb.owners.get(r)
        mine = tb.base_set[o.tensor]
        # the other tensors of the table in these bytes (precomputed once per write) that
        # are live: only when one of them is still to be read in these bytes does the walk
        # below find the first clobbered segment
        names, spans = tb.others(t.index, o.tensor, r, off, end)
        if owners is not None and any(
            n in tb.pinned_set or self.still_read(n, *spans[n], t) for n in names & self.alive
        ):
            for a, b, names in owners.covered(off, end):
                for n in names:  # type: ignore[union-attr]
                    if n in mine or t.index in tb.writers[n]:
                        continue
                    if n in self.written and (tb.pinned(n) or self.still_read(n, a, b, t)):
                        _, ts, te = tb.range[n]
                        raise self.fault(
                            t, f"write into a live buffer: {r} [{a}, {b}) (writing tensor \"{o.tensor}\" at {r} [{off}, {end})) "
                            f"overlaps tensor \"{n}\" at {r} [{ts}, {te}), which is still to be read",
                            r, a, b,
                        )  # fmt: skip

    def mark_written(self, o: _Operand) -> None:
        """The base tensors `o` is made of are written: live while a reader is still to run
        (their fm bytes counted per reader span)."""
        tb = self.m.table
        for b in tb.base_set[o.tensor]:
            if b not in self.written:
                self.written.add(b)
                if b in tb.pinned_set or self.pending[b]:
                    self.alive.add(b)
                if tb.range[b][0] == "fm":
                    pending: dict[tuple[int, int], int] = {}  # readers per span: one update each
                    for rd, lo, hi in tb.spans[b]:
                        if rd not in self.retired and (rd, b) not in self.counted:
                            self.counted.add((rd, b))
                            pending[lo, hi] = pending.get((lo, hi), 0) + 1
                    for (lo, hi), k in pending.items():
                        self.live_add(lo, hi, k)

    def retire_reads(self, t: _Task) -> None:
        """`t` has read its inputs: no later write into them clobbers a read of `t`."""
        self.retired.add(t.index)
        pending, pinned = self.pending, self.m.table.pinned_set
        for b in self.m.table.read_bases[t.index]:
            pending[b] -= 1
            if not pending[b] and b not in pinned:
                self.alive.discard(b)

    def account(self, t: _Task) -> None:
        """The live fm bytes while `t` runs (its inputs and outputs live together), then
        its reads leave the live set."""
        outs, disjoint = t.fm_outs
        if disjoint:  # disjoint outputs: count, do not add
            running = self.live_bytes + sum(self.unset_bytes(lo, hi) for lo, hi in outs)
        else:
            for lo, hi in outs:
                self.live_add(lo, hi, 1)
            running = self.live_bytes
            for lo, hi in outs:
                self.live_add(lo, hi, -1)
        self.stats.peak_live_fm_bytes = max(self.stats.peak_live_fm_bytes, running)
        for b, lo, hi in self.m.table.reads[t.index]:
            if (t.index, b) in self.counted:
                self.counted.discard((t.index, b))
                self.live_add(lo, hi, -1)

    # -- tasks ----------------------------------------------------------------------------------

    def call_kernel(self, t: _Task, args: list[np.ndarray], dst: list[np.ndarray | None]) -> list[np.ndarray]:
        """`t`'s kernel on its input views (`dst`: the output views it may write in place)."""
        with np.errstate(all="ignore"):
            return t.run(args, dst)  # type: ignore[operator]

    def count_node_bytes(self, t: _Task, n: int) -> None:
        by_node = self.stats.bytes_by_node
        by_node[t.node] = by_node.get(t.node, 0) + n

    def run_task(self, t: _Task) -> int:
        """Run `t`; returns the position its stream continues at (the next task, or a
        label's position after a jump)."""
        s = t.stream
        self.vc[s][s] += 1
        self.epoch[t.index] = (s, self.vc[s][s])
        kind = t.kind
        self.stats.tasks_by_kind[kind] = self.stats.tasks_by_kind.get(kind, 0) + 1
        op = t.op
        if t.moves:  # a kernel or a memcpy
            assert t.bindings is not None
            for o, (buf, off) in zip(t.operands, t.bindings):
                if off + o.length > len(buf):
                    self.check_bounds(t, o, buf, off)
            if self.m.device is not None:
                self.m.check_slots(t, self.m.device.epoch)
            nin = len(t.ins)
            for o in t.ins:
                self.read(t, o)
            if t.memcpy:
                (sb, so), (db, do) = t.bindings
                n = t.ins[0].length
                self.retire_reads(t)
                self.write(t, t.outs[0])
                self.account(t)
                if self.kernels:
                    db[do : do + n] = sb[so : so + n].copy() if sb is db else sb[so : so + n]
                    if self.m.observer is not None:
                        self.m.observer(t, [db[do : do + n]])
                self.stats.memcpy_bytes += n
                self.count_node_bytes(t, 2 * n)
                return t.pos + 1
            views = t.views
            if views is None or views[0] is not t.bindings:  # made once per binding (refresh)
                views = t.views = (
                    t.bindings,
                    [_view(o, buf, off) if o.identity else None for o, (buf, off) in zip(t.ins, t.bindings[:nin])],
                    [
                        _flat_view(o, buf, off) if o.identity and _disjoint(o, buf, off, t) else None
                        for o, (buf, off) in zip(t.outs, t.bindings[nin:])
                    ],
                    [_view(o, buf, off) if o.identity else None for o, (buf, off) in zip(t.outs, t.bindings[nin:])],
                )
            args = [
                v if v is not None else _view(o, buf, off)
                for o, v, (buf, off) in zip(t.ins, views[1], t.bindings[:nin])
            ]
            # every check of the writes comes before the kernel runs: an AscGraph kernel
            # stores straight into its output views (no result buffer, no second copy),
            # as a device kernel writes its output address
            self.retire_reads(t)
            for o in t.outs:
                self.write(t, o)
            dst = views[2]
            self.account(t)
            if not self.kernels:  # a replay of the checks (_PlannedExecution.refute)
                return t.pos + 1
            try:
                results = self.call_kernel(t, args, dst)
            except ReferenceEvalError as e:
                raise self.fault(t, f"the kernel failed: {e.message}", "", 0, 0) from None
            for o, (buf, off), res, d, v in zip(t.outs, t.bindings[nin:], results, dst, views[3]):
                if v is None:  # a layout that is not the identity
                    assert o.type is not None  # a layout that is not the identity is the kernel's type's
                    scatter(o.type, np.asarray(res), _storage_view(o, buf, off))
                elif d is None or (res is not d and (res.base is None or not _same_memory(res, d))):
                    v[...] = res
            if self.m.observer is not None:
                self.m.observer(t, [_view(o, buf, off) for o, (buf, off) in zip(t.outs, t.bindings[nin:])])
            n_in, n_out = t.io_bytes
            self.stats.kernel_bytes_written += n_out
            self.stats.kernel_bytes_read += n_in
            self.count_node_bytes(t, n_in + n_out)
        elif isinstance(op, npu.EventRecordOp):
            e = op.event.value.data
            if self.events.get(e) is not None:
                raise self.fault(t, f"event {e} is recorded again before its wait consumed it", "", 0, 0)
            self.events[e] = list(self.vc[s])
        elif isinstance(op, npu.EventWaitOp):
            e = op.event.value.data
            rec = self.events[e]
            assert rec is not None
            self.vc[s] = [max(a, b) for a, b in zip(self.vc[s], rec)]
            self.events[e] = None  # EventWaitTaskInfo: wait, then reset
        elif isinstance(op, npu.StreamActiveOp):
            tgt = op.target.value.data
            self.active[tgt] = True
            self.vc[tgt] = [max(a, b) for a, b in zip(self.vc[tgt], self.vc[s])]
        elif isinstance(op, npu.EndGraphOp):
            self.end_vc = list(self.vc[s])
        elif isinstance(op, npu.LabelSwitchByIndexOp):
            return self.label_switch(t, op)
        elif isinstance(op, npu.LabelGotoOp):
            return self.label_goto(t, op)
        return t.pos + 1

    # -- labels ---------------------------------------------------------------------------------

    def label_switch(self, t: _Task, op: npu.LabelSwitchByIndexOp) -> int:
        """rtLabelSwitchByIndex: read the int32 index, jump to labels[index] (out of range:
        the last label, npu.LabelSwitchByIndexOp); the parent's outputs become pending
        until the branch taken writes them."""
        assert t.bindings is not None
        o = t.ins[0]
        buf, off = t.bindings[0]
        self.check_bounds(t, o, buf, off)
        if self.m.device is not None:
            self.m.check_slots(t, self.m.device.epoch)
        self.read(t, o)
        self.retire_reads(t)
        if self.script is not None:  # a replay: the index this execution read
            index = self.script.pop(0)
        else:
            index = int(buf[off : off + 4].view(np.int32)[0])
            self.switched.append(index)
        labels = op.label_ids()
        label = labels[index] if 0 <= index < len(labels) else labels[-1]
        self.mark_pending(t)
        return self.m.labels[label]

    def mark_pending(self, t: _Task) -> None:
        """The parent's outputs `t` lists are pending: the branch taken has yet to write them."""
        s = t.stream
        mark = ((s, self.vc[s][s], t.label, PENDING_WRITER), (None,) * self.m.n_streams)
        for p in t.pending:
            self.shadow[p.region].update(p.offset, p.end, lambda _: mark)

    def label_goto(self, t: _Task, op: npu.LabelGotoOp) -> int:
        """rtLabelGotoEx: continue at the label. A jump back closes a loop (a While's body
        back to its cond): the loop's tasks run again, their reads pending and their
        tensors rewritten; more than the iteration cap of such jumps is a fault."""
        target = self.m.labels[op.id]
        if target > t.pos:
            return target
        n = self.jumps.get(t.index, 0) + 1
        self.jumps[t.index] = n
        cap = self.m.iteration_cap
        if n > cap:
            node = op.attributes.get("node")
            who = f"While '{node.data}'" if isinstance(node, StringAttr) else "a loop"
            raise self.fault(
                t, f"{who} did not stop after {cap} iterations (the simulator's iteration cap, "
                f"WHILE_ITERATION_CAP = {cap}): its cond never became false", "", 0, 0,
            )  # fmt: skip
        loop = self.loops.get(t.index)
        if loop is None:
            body = [x.index for x in self.m.streams[t.stream][target : t.pos + 1]]
            tb = self.m.table
            bases = {b for i in body for o in self.m.tasks[i].outs for b in tb.base[o.tensor]}
            loop = self.loops[t.index] = (body, bases)
        body, bases = loop
        self.retired.difference_update(body)
        self.written.difference_update(bases)
        return target

    def blocked(self, t: _Task) -> bool:
        return t.wait and self.events.get(t.op.event.value.data) is None  # type: ignore[attr-defined]

    def go(self) -> None:
        streams = self.m.streams
        while True:
            progress = False
            for s, lst in enumerate(streams):
                if not self.active[s] or self.pc[s] >= len(lst):
                    continue
                t = lst[self.pc[s]]
                if self.blocked(t):
                    continue
                self.pc[s] = self.run_task(t)
                progress = True
            if not progress:
                break
        stuck = [streams[s][self.pc[s]] for s in range(len(streams)) if self.active[s] and self.pc[s] < len(streams[s])]
        if stuck:
            t = stuck[0]
            e = t.op.event.value.data  # type: ignore[attr-defined]
            recs = [x for x in self.m.tasks if isinstance(x.op, npu.EventRecordOp) and x.op.event.value.data == e]
            why = "which no task records" if not recs else f"whose record ({recs[0].label}) is never reached"
            raise self.fault(t, f"deadlock: waits for event {e}, {why}", "", 0, 0)
        assert self.end_vc is not None
        for s in range(1, len(streams)):
            done = [t for t in streams[s] if t.index in self.epoch]
            if done:
                last = done[-1]
                es, ec = self.epoch[last.index]
                if ec > self.end_vc[es]:
                    raise self.fault(
                        last, "not joined before end_graph: no event orders it before the model completes", "", 0, 0
                    )


class _PlannedExecution(PlannedChecks, _Execution):
    """An execution whose checks run on the load-time check plan (runtime/simulator_plan.py);
    a fault the plan finds is this module's rules' own, found by replaying the execution."""

    def go(self) -> None:
        with np.errstate(all="ignore"):  # once per execution, not per kernel (call_kernel)
            super().go()

    def call_kernel(self, t: _Task, args: list[np.ndarray], dst: list[np.ndarray | None]) -> list[np.ndarray]:
        return t.run(args, dst)  # type: ignore[operator]

    def refute(self, t: _Task) -> BaseException:
        """The fault the rules find in this execution (the plan found one at `t`): the
        execution replayed by the rules, checks and bookkeeping only."""
        replay = _Execution(self.m, self.bound, list(self.switched))
        try:
            replay.go()
        except SimulatorFault as e:
            return e
        return AssertionError(f"internal error: the check plan refuses {t.label}, the simulator's rules do not")


def _nbytes(o: _Operand) -> int:
    assert o.dtype is not None
    n = o.dtype.itemsize
    for d in o.shape:
        n *= d
    return n


def _flat_view(o: _Operand, buf: np.ndarray, off: int) -> np.ndarray:
    assert o.dtype is not None, o.tensor  # set for every kernel operand when the model loads
    return buf[off : off + _nbytes(o)].view(o.dtype)


def _disjoint(o: _Operand, buf: np.ndarray, off: int, t: _Task) -> bool:
    """Output `o` at `buf[off:]` shares no byte with any other operand of task `t` (its
    inputs, its other outputs): only then may the kernel write it while it still reads."""
    assert t.bindings is not None
    end = off + max(_nbytes(o), o.length)
    for p, (b, q) in zip((*t.ins, *t.outs), t.bindings):
        if p is o or b is not buf:
            continue
        if q < end and off < q + p.length:
            return False
    return True


def _same_memory(a: np.ndarray, b: np.ndarray) -> bool:
    """`a` is `b`'s memory (the kernel wrote `b` in place)."""
    return (
        a.__array_interface__["data"][0] == b.__array_interface__["data"][0]
        and a.nbytes == b.nbytes
        and a.flags.c_contiguous
    )


def _storage_view(o: _Operand, buf: np.ndarray, off: int) -> np.ndarray:
    """Operand `o`'s storage elements at byte `off` of `buf` (its storage size)."""
    assert o.dtype is not None, o.tensor  # set for every kernel operand when the model loads
    return buf[off : off + o.nbytes].view(o.dtype)


def _view(o: _Operand, buf: np.ndarray, off: int) -> np.ndarray:
    """The origin-shaped value of operand `o` at byte `off` of `buf`, as a GE kernel sees
    its tensor (a PhonyConcat / PhonySplit piece too: one offset, no strides): a view when
    its storage layout is the origin's row-major one, else gathered from the storage
    layout (runtime/layouts.py)."""
    if not o.identity:
        assert o.type is not None  # a layout that is not the identity is the kernel's type's
        return gather(o.type, _storage_view(o, buf, off))
    return _flat_view(o, buf, off).reshape(o.shape)


def _element_offsets(t: Attribute) -> np.ndarray:
    """Per element of static tensor type `t` (origin shape), its element offset in the
    tensor's bytes: its storage layout's flat index (row-major when the identity)."""
    assert isinstance(t, TensorType)
    idx = storage_index(t)
    shape = tuple(t.get_shape())
    return idx.astype(np.int64) if idx is not None else np.arange(math.prod(shape), dtype=np.int64).reshape(shape)


def _view_args(params: dict[int, np.ndarray | None], viewed: Sequence[np.ndarray | None]) -> list[np.ndarray]:
    """The operands of a view check's semantics: `viewed[q]` for a viewed operand q, a
    parameter's value (as int64, the probe's element type) for the others."""
    return [np.asarray(params[q], dtype=np.int64) if q in params else a for q, a in enumerate(viewed)]  # type: ignore[misc]


def _i64(t: Attribute) -> TensorType:
    """`t`'s shape with i64 elements (the addresses a view check computes with)."""
    assert isinstance(t, TensorType)
    return TensorType(i64, t.get_shape())


def _stored(e: npu.ConstOp, value: np.ndarray) -> np.ndarray:
    """A weight's bytes in its storage layout (the `layout` tensor type ge-to-npu records
    for a weight whose desc is not the origin row-major layout)."""
    t = e.attributes.get("layout")
    if not isinstance(t, TensorType) or storage_index(t) is None:
        return np.ascontiguousarray(value).reshape(-1).view(np.uint8)
    flat = np.zeros(storage_elements(t), dtype=value.dtype)
    scatter(t, value, flat)
    return flat.view(np.uint8)


def _dense(attr: DenseIntOrFPElementsAttr) -> np.ndarray:
    """A weight's value as a C-contiguous array of its type: a read-only view of the
    attribute's bytes (ge_dialect/weights.py), copied once, into the weight region, at
    load (davinci_model.cc: DavinciModel::InitWeightMem)."""
    return weight_array(attr)
