"""GE's loop IR (asc_lowerer/loop_ops.h, loop_api.h), and its realization into an AscGraph
(asc_lowerer/asc_overrides.cpp, StoreOp::RealizeImpl; docs/ge/autofuse.md).

A loop expression is an immutable DAG of `LoopExpr` nodes, each with the logical shape and
dtype of the value it computes. As in TorchInductor's `ops` handler and GE's `LoopOp`s, an
expression is a function of an index: `Load` reads a buffer (a ge SSA value) at that
index, pointwise ops combine their arguments at the same index, and the view ops
(`BroadcastView`, `PermuteView`, `UnitReshapeView`, `SliceView`) compute nothing: their
`reindex` maps the index they are read at to the index their source is read at. The
roots `ReduceOp`, `ConcatOp`, `TransposeOp` and `SplitOp` only appear at the top of an
expression (GE realizes their KernelBoxes: StoreReduction, StoreConcat, a realized
transpose, StoreSplit).

An index is a list of affine forms over the loop variables z0..z{n-1} (`Affine`).
`AscGraphBuilder.realize` starts from the store's index [z0..zn-1], pushes it through the
views down to every `Load`, linearises it with the buffer's contiguous strides, and
splits it into per-axis strides and an offset: that is the `ascgraph.Data` view (repeat 1
and stride 0 where an axis does not move the address), so broadcast, slice and permute are
encoded in the Data view (docs/ge/autofuse.md). Nodes are CSE'd by a textual key.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from xdsl.dialects.builtin import ArrayAttr, StringAttr
from xdsl.ir import Attribute, Operation, Region, SSAValue

from ge_dialect import ascgraph as ag
from ge_dialect import attrs as A
from ge_dialect import symbolic as S
from ge_fast.op_builder import new_block, new_op

Shape = tuple[int, ...]


# ---------------------------------------------------------------------------------------
# Index expressions
# ---------------------------------------------------------------------------------------


class Affine(NamedTuple):
    """sum(coefs[i] * z_i) + const over the loop variables z0..z{n-1} (a tuple: realize
    keys its memo by indices, and a tuple hashes without a Python call)."""

    coefs: tuple[int, ...]
    const: int = 0

    @staticmethod
    def var(i: int, n: int) -> Affine:
        return Affine(tuple(1 if k == i else 0 for k in range(n)))

    @staticmethod
    def zero(n: int) -> Affine:
        return Affine((0,) * n)

    def plus(self, c: int) -> Affine:
        return Affine(self.coefs, self.const + c)


Index = tuple[Affine, ...]


def ge_contiguous_strides(shape: Sequence[int]) -> tuple[int, ...]:
    """stride[i] = prod(dim[j] for j > i), forced to 0 where the dim is 1 or 0.

    # asc_lowerer/asc_overrides.cpp: StoreOp::RealizeImpl (contiguous strides, docs/ge/autofuse.md)
    """
    return ag.contiguous_strides(shape)


# ---------------------------------------------------------------------------------------
# Loop expressions
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class LoopExpr:
    shape: Shape
    dtype: Attribute

    def reindex(self, idx: Index) -> Index:
        raise NotImplementedError(type(self).__name__)


@dataclass(frozen=True, eq=False)
class Load(LoopExpr):
    """Reads `buffer` (a ge value, contiguous) viewed with this logical `shape`: a reshape
    of a buffer is the same buffer read with another shape."""

    buffer: SSAValue


@dataclass(frozen=True, eq=False)
class Pointwise(LoopExpr):
    """An AscIR pointwise op (`Add`, `Exp`, `Cast`, ...) over arguments of this shape."""

    asc_type: str
    args: tuple[LoopExpr, ...]
    # the node's ir_attr (GE AscNodeAttr ir_attr, e.g. LeakyRelu's negative_slope)
    attrs: tuple[tuple[str, Attribute], ...] = ()


@dataclass(frozen=True, eq=False)
class BroadcastView(LoopExpr):
    """numpy broadcast of `src` to `shape` (right-aligned): a size-1 source dim is read at
    0, a new leading dim is dropped (loop_ops.h: BroadcastOp::ReIndex)."""

    src: LoopExpr

    def reindex(self, idx: Index) -> Index:
        off = len(self.shape) - len(self.src.shape)
        n = len(idx[0].coefs) if idx else 0
        return tuple(Affine.zero(n) if d == 1 else idx[j + off] for j, d in enumerate(self.src.shape))


@dataclass(frozen=True, eq=False)
class PermuteView(LoopExpr):
    """Output dim i is source dim perm[i] (loop_ops.h: PermuteOp::ReIndex)."""

    src: LoopExpr
    perm: tuple[int, ...]

    def reindex(self, idx: Index) -> Index:
        out = [idx[0]] * len(self.perm)
        for i, p in enumerate(self.perm):
            out[p] = idx[i]
        return tuple(out)


@dataclass(frozen=True, eq=False)
class UnitReshapeView(LoopExpr):
    """A reshape that only inserts or removes size-1 dims (Squeeze, Unsqueeze, ExpandDims,
    a keep-dim reduction over size-1 axes): the non-1 dims map in order, the source's
    size-1 dims are read at 0 (loop_ops.h: SqueezeOp / UnsqueezeOp::ReIndex)."""

    src: LoopExpr

    def reindex(self, idx: Index) -> Index:
        n = len(idx[0].coefs) if idx else 0
        dst = [i for i, d in enumerate(self.shape) if d != 1]
        it = iter(dst)
        return tuple(Affine.zero(n) if d == 1 else idx[next(it)] for d in self.src.shape)


@dataclass(frozen=True, eq=False)
class SliceView(LoopExpr):
    """`src[..., offset : offset + shape[dim], ...]` (StridedSlice's reindex i*1 + begin)."""

    src: LoopExpr
    dim: int
    offset: int

    def reindex(self, idx: Index) -> Index:
        return tuple(a.plus(self.offset) if j == self.dim else a for j, a in enumerate(idx))


@dataclass(frozen=True, eq=False)
class ReduceOp(LoopExpr):
    """StoreReduction root: `kind` (Sum/Max/Min/Mean/Prod) over `axes` of `src`, keep dims;
    `shape` is the keep-dim output shape, the loop nest is `src.shape`."""

    kind: str
    src: LoopExpr
    axes: tuple[int, ...]


@dataclass(frozen=True, eq=False)
class ConcatOp(LoopExpr):
    """StoreConcat root: `inputs` along `dim`; each input runs under its own extent there."""

    inputs: tuple[LoopExpr, ...]
    dim: int


@dataclass(frozen=True, eq=False)
class TransposeOp(LoopExpr):
    """A realized transpose: Load of `src` (a buffer), then an explicit AscIR Transpose."""

    src: Load
    perm: tuple[int, ...]


@dataclass(frozen=True, eq=False)
class SplitOp(LoopExpr):
    """StoreSplit root (loop_ops.h: StoreSplitOp, A5's split_lowered_to_split): output
    `index` of splitting `src` (a buffer Load) along `dim` into pieces of extents `sizes`;
    `gid` is the original Split's global id (StoreSplitDesc::id_). The loop nest is
    `src.shape`; `shape` is this piece's."""

    src: Load
    dim: int
    sizes: tuple[int, ...]
    index: int
    gid: int


@dataclass(frozen=True, eq=False)
class GatherLoad(LoopExpr):
    """LoadGatherOp (loop_ops.h; loop_api.cpp GatherLoad): gathers `params` (a buffer
    Load) along `axis` at `indices` (a buffer Load); `shape` is params[:axis] +
    indices + params[axis+1:]. GE realizes its Store at once (lowering_impl.cpp
    LowerGather), so it is only ever the root of a box."""

    params: Load
    indices: Load
    axis: int
    negative_index_support: bool = False


VIEW_TYPES = (BroadcastView, PermuteView, UnitReshapeView, SliceView)


# ---------------------------------------------------------------------------------------
# Realization into an AscGraph
# ---------------------------------------------------------------------------------------


# Attributes are immutable values: building them (xDSL verifies each on construction)
# dominates the realization time, so equal ones are built once.


@functools.cache
def _sched(n: int) -> Attribute:
    return A.int_list_attr(range(n))


@functools.cache
def _int(v: int) -> Attribute:
    if isinstance(v, S.Dim):  # offsets and indices stay ints (ascgraph.py)
        raise S.NotProvable(f"an integer attribute of value {v}")
    return A.make_int(v)


int_attr = _int  # for the lowering's other integer attributes (lower_autofuse: masks, counts, indices)


@functools.lru_cache(maxsize=65536)
def _ttype(
    dtype: Attribute, axis: tuple[int, ...], reps: tuple[int, ...], strides: tuple[int, ...]
) -> ag.AscTensorType:
    return ag.AscTensorType(dtype, axis, reps, strides)


@functools.lru_cache(maxsize=65536)
def _contiguous_ttype(dtype: Attribute, n: int, reps: tuple[int, ...]) -> ag.AscTensorType:
    """The view over axes 0..n-1 with `reps` and GE's contiguous strides."""
    return _ttype(dtype, tuple(range(n)), reps, ag.contiguous_strides(reps))


@functools.lru_cache(maxsize=65536)
def _axis(i: int, size: int) -> ag.AxisAttr:
    return ag.AxisAttr(i, f"z{i}", size)


@functools.lru_cache(maxsize=4096)
def _axes(dims: Shape) -> ArrayAttr:
    """An AscGraph's axis table z0..z{n-1} over `dims`."""
    return ArrayAttr([_axis(i, d) for i, d in enumerate(dims)])


@functools.cache
def _hint(cls: type[ag.AscNode]) -> str:
    """A node's result name: its AscIR type in lower case (`%load`, `%sigmoid`)."""
    return cls.name.split(".", 1)[1].lower()


@dataclass
class AscGraphBuilder:
    """Builds one AscGraph for a realized KernelBox whose store target has `dims`.

    # asc_lowerer/asc_overrides.cpp: AscOverrides (Load / Store / pointwise emission, CSE)
    `buffers` lists, in Data index order, the ge value each `ascgraph.Data` reads.
    """

    dims: Shape
    cse: bool = True
    ops: list = field(default_factory=list)
    buffers: list[SSAValue] = field(default_factory=list)
    _keys: dict = field(default_factory=dict)
    _memo: dict = field(default_factory=dict)
    n: int = field(init=False)  # the loop axes

    def __post_init__(self) -> None:
        self.n = len(self.dims)

    def _tensor(
        self, dtype: Attribute, repeats: Sequence[int], strides: Sequence[int] | None = None
    ) -> ag.AscTensorType:
        if strides is None:
            return _contiguous_ttype(dtype, self.n, tuple(repeats))
        return _ttype(dtype, tuple(range(self.n)), tuple(repeats), tuple(strides))

    def _add(
        self, cls: type[ag.AscNode], operands: Sequence[SSAValue], t: ag.AscTensorType, attrs: dict, key: object | None
    ) -> SSAValue:
        # asc_lowerer/asc_overrides.cpp: AscOverrides CSE by textual key (`Type(args)`)
        if self.cse and key is not None and key in self._keys:
            return self._keys[key]
        op = new_op(cls, operands, (t,), attrs, hints=(_hint(cls),))
        self.ops.append(op)
        if key is not None:
            self._keys[key] = op.results[0]
        return op.results[0]

    def _compute_attrs(self) -> dict:
        return {ag.SCHED_AXIS: _sched(self.n)}

    # -- Load ---------------------------------------------------------------------------

    def load(self, e: Load, idx: Index, reps: Shape) -> SSAValue:
        """# asc_lowerer/asc_overrides.cpp: LoadOp realize (linearise, per-axis strides, offset)"""
        cstr = ge_contiguous_strides(e.shape)
        coefs = [sum(idx[j].coefs[a] * cstr[j] for j in range(len(cstr))) for a in range(self.n)]
        offset = sum(idx[j].const * cstr[j] for j in range(len(cstr)))
        # Repeat 1 where the axis does not move the address; stride 0 where the repeat is 1.
        d_reps = [reps[a] if coefs[a] != 0 and reps[a] > 1 else 1 for a in range(self.n)]
        d_strides = [coefs[a] if d_reps[a] > 1 else 0 for a in range(self.n)]
        d_type = self._tensor(e.dtype, d_reps, d_strides)
        # the view's parts (its axes are 0..n-1 in every view of this builder)
        data_key = ("Data", e.buffer, e.dtype, tuple(d_reps), tuple(d_strides))
        data = self._keys.get(data_key) if self.cse else None
        if data is None:
            attrs = {"index": _int(len(self.buffers))}
            self.buffers.append(e.buffer)
            data = self._add(ag.Data, [], d_type, attrs, data_key)
        attrs = {"offset": _int(offset), ag.SCHED_AXIS: _sched(self.n)}
        return self._add(ag.Load, [data], self._tensor(e.dtype, reps), attrs, ("Load", data, offset, reps))

    # -- expressions --------------------------------------------------------------------

    def emit(self, e: LoopExpr, idx: Index, reps: Shape) -> SSAValue:
        mkey = (id(e), idx, reps)
        if self.cse and mkey in self._memo:
            return self._memo[mkey]
        if isinstance(e, Load):
            v = self.load(e, idx, reps)
        elif isinstance(e, Pointwise):
            args = [self.emit(a, idx, reps) for a in e.args]
            cls = getattr(ag, e.asc_type)
            v = self._add(
                cls,
                args,
                self._tensor(e.dtype, reps),
                {**self._compute_attrs(), **dict(e.attrs)},
                (e.asc_type, tuple(args), e.dtype, e.attrs),
            )
        elif isinstance(e, VIEW_TYPES):
            v = self.emit(e.src, e.reindex(idx), reps)
        elif isinstance(e, ReduceOp):
            # lowering_impl.cpp: LowerReduction -> StoreReduction: loop nest = input shape,
            # output repeats 1 on the reduced axes (keep dims).
            src = self.emit(e.src, idx, reps)
            out = tuple(1 if a in e.axes else r for a, r in enumerate(reps))
            v = self._add(
                getattr(ag, e.kind), [src], self._tensor(e.dtype, out), self._compute_attrs(), (e.kind, src, e.axes)
            )
        elif isinstance(e, ConcatOp):
            # lowering_impl.cpp: LowerConcat -> StoreConcat: each input under its own extent
            # on the concat axis, read at its own coordinates there.
            ins = []
            for x in e.inputs:
                r = tuple(x.shape[e.dim] if a == e.dim else r for a, r in enumerate(reps))
                ins.append(self.emit(x, idx, r))
            v = self._add(ag.Concat, ins, self._tensor(e.dtype, reps), self._compute_attrs(), ("Concat", tuple(ins)))
        elif isinstance(e, TransposeOp):
            v = self.transpose(e)
        elif isinstance(e, SplitOp):
            v = self.split(e, idx, reps)
        elif isinstance(e, GatherLoad):
            v = self.gather(e)
        else:
            raise TypeError(f"cannot realize {type(e).__name__}")
        if self.cse:
            self._memo[mkey] = v
        return v

    def transpose(self, e: TransposeOp) -> SSAValue:
        """Data/Load in the input's dim order (axis ids of the output loop), then an explicit
        Transpose to the loop order: GE's form after back-stepping (test FallBackTransposeOK).

        # lowering_impl.cpp: LowerTranspose; asc_adapt GeFallback (Transpose made explicit)
        """
        src = e.src
        inv = [0] * len(e.perm)
        for i, p in enumerate(e.perm):
            inv[p] = i
        axis = inv  # input dim j runs under output loop axis inv[j]
        reps = src.shape
        view = _ttype(src.dtype, tuple(axis), reps, ag.contiguous_strides(reps))
        data = self._add(ag.Data, [], view, {"index": _int(len(self.buffers))}, None)
        self.buffers.append(src.buffer)
        load = self._add(ag.Load, [data], view, {"offset": _int(0), ag.SCHED_AXIS: _sched(self.n)}, None)
        return self._add(ag.Transpose, [load], self._tensor(e.dtype, self.dims), self._compute_attrs(), None)

    def split(self, e: SplitOp, idx: Index, reps: Shape) -> SSAValue:
        """Load the whole input, then one AscIR Split with a result per piece (repeats the
        piece's extent on the split axis), of which this box stores result `index`.

        # asc_lowerer/asc_overrides.cpp: AscOverrides::StoreSplit (Split node, gid)
        GE's lowered Split node has the one output it stores and records `index`; here it
        keeps every piece as a result, so each piece's offset (the extents before it) is in
        the IR and the verifier and interpreter need no side table. Node counts are GE's.
        """
        src = self.emit(e.src, idx, reps)
        types = [self._tensor(e.dtype, tuple(s if a == e.dim else r for a, r in enumerate(reps))) for s in e.sizes]
        attrs = {**self._compute_attrs(), "gid": _int(e.gid)}
        op = new_op(ag.Split, (src,), types, attrs, hints=[f"split{k}" if k else "split" for k in range(len(types))])
        self.ops.append(op)
        return op.results[e.index]

    def gather(self, e: GatherLoad) -> SSAValue:
        """Data(params), Data(indices), Gather over the whole loop (no Load).

        # asc_lowerer/asc_overrides.h: AscOverrides::GatherLoad (Data views with axis ids
        # 0..rank-1 by position, contiguous strides; Gather with ir_attr axis and
        # negative_index_support; output over asc_axis_ with contiguous strides)
        """
        datas = []
        for b in (e.params, e.indices):
            reps = b.shape
            view = _ttype(b.dtype, tuple(range(len(reps))), reps, ag.contiguous_strides(reps))
            datas.append(self._add(ag.Data, [], view, {"index": _int(len(self.buffers))}, None))
            self.buffers.append(b.buffer)
        attrs = {**self._compute_attrs(), "axis": _int(e.axis)}
        if e.negative_index_support:
            attrs["negative_index_support"] = A.bool_attr(True)
        return self._add(ag.Gather, datas, self._tensor(e.dtype, self.dims), attrs, None)

    # -- Store --------------------------------------------------------------------------

    def realize(self, root: LoopExpr, out_dtype: Attribute, name: str) -> ag.AscGraphOp:
        """Store(root) to Output 0 over the loop axes z0..z{n-1} of `self.dims`.

        # asc_lowerer/asc_overrides.cpp: StoreOp::RealizeImpl
        """
        n = self.n
        idx = tuple(Affine.var(i, n) for i in range(n))
        v = self.emit(root, idx, self.dims)
        t = ag.tensor_type(v)
        if t.element_type != out_dtype:
            # StoreOp::RealizeImpl: a Cast where the stored dtype differs from the value's.
            v = self._add(
                ag.Cast,
                [v],
                _ttype(out_dtype, t.axis_ids, t.repeat_list, t.stride_list),
                self._compute_attrs(),
                ("Cast", v, out_dtype),
            )
            t = ag.tensor_type(v)
        st = t
        store = self._add(ag.Store, [v], st, {"offset": _int(0), ag.SCHED_AXIS: _sched(n)}, None)
        self._add(ag.Output, [store], st, {"index": _int(0)}, None)
        return new_op(
            ag.AscGraphOp,
            properties={"sym_name": StringAttr(name), "axis": _axes(self.dims)},
            regions=(Region(new_block(self.ops)),),
        )


# ---------------------------------------------------------------------------------------
# Realizing equal boxes once
# ---------------------------------------------------------------------------------------


_EXPR, _EXPRS, _BUFFER, _VALUE = range(4)
# a field's kind by its annotation (the module's annotations are strings)
_FIELD_KINDS = {"LoopExpr": _EXPR, "Load": _EXPR, "tuple[LoopExpr, ...]": _EXPRS, "SSAValue": _BUFFER}


@functools.cache
def _expr_fields(cls: type[LoopExpr]) -> tuple[tuple[str, int], ...]:
    """Each field of an expression class with its kind: a sub-expression, a tuple of
    them, a buffer, or a plain value."""
    return tuple((f.name, _FIELD_KINDS.get(str(f.type), _VALUE)) for f in dataclasses.fields(cls))


def structure_key(root: LoopExpr, dims: Shape, out_dtype: Attribute, cse: bool) -> tuple[tuple, list[SSAValue]]:
    """What `AscGraphBuilder(dims, cse).realize(root, out_dtype, name)` builds depends on:
    every expression node's class and fields, with each sub-expression by its number (in
    post-order; a shared one once) and each buffer by the order it is first met. Returns
    that key and the buffers in that order. Two boxes with one key realize the same nodes,
    attributes and types, reading the same buffer positions (realize only compares
    buffers, never looks into them)."""
    num: dict[LoopExpr, int] = {}
    bufnum: dict[SSAValue, int] = {}
    recs: list[tuple] = []

    def visit(e: LoopExpr) -> int:
        n = num.get(e)
        if n is not None:
            return n
        rec: list[object] = [type(e)]
        for f, kind in _expr_fields(type(e)):
            v = getattr(e, f)
            if kind == _VALUE:
                rec.append(v)
            elif kind == _EXPR:
                rec.append(visit(v))
            elif kind == _EXPRS:
                rec.append(tuple([visit(x) for x in v]))
            else:
                rec.append(bufnum.setdefault(v, len(bufnum)))
        recs.append(tuple(rec))
        num[e] = n = len(recs) - 1
        return n

    visit(root)
    return (dims, out_dtype, cse, tuple(recs)), list(bufnum)


@dataclass(frozen=True)
class _GraphSpec:
    """A realized AscGraph as data: per node its class, operands (node, result), result
    types, attributes and result names; per Data index the buffer's structure_key number."""

    nodes: tuple[tuple[type[Operation], tuple[tuple[int, int], ...], tuple[Attribute, ...], dict, tuple], ...]
    buffers: tuple[int, ...]
    axis: ArrayAttr


@dataclass
class AscGraphCache:
    """Realizes each distinct box structure (`structure_key`) once per pass run: a box
    equal to one realized before gets a copy of that one's nodes, built straight from its
    recorded spec (fanout 4k: 3,686 AscGraphs of 145 distinct structures). `realized`
    and `copied` count the two paths."""

    # a key's spec, or the builder and graph of its first realization until a second box
    # asks for it (nothing changes those between two boxes of one build_backends)
    specs: dict[tuple, _GraphSpec | tuple[AscGraphBuilder, ag.AscGraphOp, list[SSAValue]]] = field(default_factory=dict)
    realized: int = 0
    copied: int = 0

    def realize(
        self, dims: Shape, root: LoopExpr, out_dtype: Attribute, name: str, cse: bool = True
    ) -> tuple[ag.AscGraphOp, list[SSAValue]]:
        """The AscGraph `AscGraphBuilder(dims, cse).realize(root, out_dtype, name)` builds,
        and its builder's `buffers`."""
        key, bufs = structure_key(root, dims, out_dtype, cse)
        spec = self.specs.get(key)
        if spec is None:
            self.realized += 1
            builder = AscGraphBuilder(dims, cse=cse)
            graph = builder.realize(root, out_dtype, name)
            self.specs[key] = (builder, graph, bufs)
            return graph, builder.buffers
        if isinstance(spec, tuple):
            self.specs[key] = spec = _record(*spec)
        self.copied += 1
        made: list[Operation] = []
        for cls, operands, types, attrs, names in spec.nodes:
            made.append(new_op(cls, [made[i].results[r] for i, r in operands], types, attrs, hints=names))
        graph = new_op(
            ag.AscGraphOp,
            properties={"sym_name": StringAttr(name), "axis": spec.axis},
            regions=(Region(new_block(made)),),
        )
        return graph, [bufs[k] for k in spec.buffers]


def _record(builder: AscGraphBuilder, graph: ag.AscGraphOp, bufs: list[SSAValue]) -> _GraphSpec:
    where: dict[SSAValue, tuple[int, int]] = {}
    nodes = []
    for i, op in enumerate(builder.ops):
        operands = tuple(where[v] for v in op.operands)
        for r in op.results:
            where[r] = (i, r.index)
        nodes.append(
            (
                type(op),
                operands,
                tuple(r.type for r in op.results),
                dict(op.attributes),
                tuple(r.name_hint for r in op.results),
            )
        )
    pos = {v: k for k, v in enumerate(bufs)}
    axis = graph.properties["axis"]
    assert isinstance(axis, ArrayAttr)
    return _GraphSpec(tuple(nodes), tuple(pos[v] for v in builder.buffers), axis)
