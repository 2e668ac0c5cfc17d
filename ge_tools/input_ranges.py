"""Which values ge-run's random inputs may take: an analysis over the GE graph.

ge-run (and the Python API) draw a graph's inputs at random when no files are given. An
integer input whose values reach the indices of a gather (an embedding's token ids) must
lie in range of the dim they index, and an input that reaches a divisor must hold no
zero: otherwise the run fails on inputs no model is ever given (GatherV2 refuses index -2,
an integer Div by 0 has no value). This is ours, not GE's: GE takes the user's inputs.

`input_ranges(graph)` walks the graph once, from the NetOutput back to the Data nodes (in
reverse of the block's order, which is a topological order), and keeps per value what its
consumers need of it:

* an index operand (`INDEX_OPERANDS`) needs [0, d), d the size of the dim it indexes
  (an unknown dim: [0, 1), index 0 being in range of any non-empty dim);
* a divisor (`DIVISOR_OPERANDS`) needs no zero;
* an op that passes its input's values on unchanged, only moved (`VALUE_PRESERVING`: Cast,
  Identity, the reshape family, TransposeD, BroadcastToD, Tile, slices, splits, concats,
  the data operand of a gather) hands its outputs' needs to that input; an Add or Sub of
  an integer constant c (one value, broadcast) shifts the range by -c or +c;
* two consumers' needs intersect (an input indexing dims of 10 and 4 gets [0, 4));
* a SelectV2 whose branches are the same value x, each moved by constant shifts, and whose
  condition compares x with a constant so that each branch is taken exactly where x lies in
  that branch's range (ONNX's negative indices: SelectV2(Less(i, 0), Add(i, d), i) needs i in
  [-d, d)) needs the union of the two ranges of x; any other SelectV2 hands its output's need
  to both branches.

A PartitionedCall hands its callee's needs of its Data nodes to its operands. What a Data
node needs is its `InputRange`; a float input takes only the no-zero need (an index is an
integer), and an integer range is cut to its dtype's values.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np
from xdsl.dialects.builtin import StringAttr, SymbolRefAttr
from xdsl.ir import Operation, SSAValue
from xdsl.traits import SymbolTable

from ge_dialect import attrs as A
from ge_dialect import ge
from ge_dialect.desc import shape_of
from ge_dialect.dtypes import numpy_dtype
from ge_dialect.ge import value_dtype

# Index operands: GE type -> (the index operand, the operand whose dim it indexes). The
# dim is the op's axis (`_index_axis`). Each follows the op's proto in GE's op library
# (selection_ops.h: REG_OP(Gather), REG_OP(GatherV2), REG_OP(GatherElements)).
INDEX_OPERANDS: dict[str, tuple[int, int]] = {
    "Gather": (1, 0),
    "GatherV2": (1, 0),
    "GatherElements": (1, 0),
}

# Divisors: GE type -> the divisor operand (elewise_calculation_ops.h: REG_OP(Div),
# REG_OP(RealDiv), REG_OP(FloorDiv), REG_OP(Mod), REG_OP(FloorMod): x1 / x2).
DIVISOR_OPERANDS: dict[str, int] = {"Div": 1, "RealDiv": 1, "FloorDiv": 1, "Mod": 1, "FloorMod": 1}

# Ops whose outputs hold only values of the listed operands (None: every operand): a need
# of an output is a need of those operands.
VALUE_PRESERVING: dict[str, tuple[int, ...] | None] = {
    **dict.fromkeys(
        (
            "Cast", "Identity", "Snapshot", "StopGradient", "PreventGradient",
            "Reshape", "Flatten", "FlattenV2", "ReFormat", "Squeeze", "Unsqueeze", "SqueezeV2",
            "SqueezeV3", "UnsqueezeV2", "UnsqueezeV3", "ExpandDims",
            "TransposeD", "BroadcastToD", "Tile", "StridedSliceV2",
            "SplitD", "SplitVD", "PhonySplit",
            "Gather", "GatherV2", "GatherElements",
        ),
        (0,),
    ),
    **dict.fromkeys(("ConcatD", "ConcatV2D", "Pack", "PhonyConcat"), None),
}  # fmt: skip

# Add / Sub of a constant: need [lo, hi) of x + c is [lo - c, hi - c) of x.
SHIFTS: dict[str, int] = {"Add": -1, "Sub": 1}


@dataclass(frozen=True)
class InputRange:
    """What the values of one input must be: in [low, high) when `high` is not None, and
    nonzero when `nonzero`; `why` names the consumers that need it, for ge-run's remark."""

    low: int | None = None
    high: int | None = None
    nonzero: bool = False
    why: tuple[str, ...] = ()

    def describe(self) -> str:
        """`values in [0, 50), no zero`."""
        parts = []
        if self.high is not None:
            parts.append(f"values in [{self.low}, {self.high})")
        if self.nonzero:
            parts.append("no zero")
        return ", ".join(parts) or "any value"

    def admits(self, a: np.ndarray) -> bool:
        """Whether every element of `a` satisfies the range."""
        ok = True
        if self.high is not None and a.size:
            ok = bool(a.min() >= self.low) and bool(a.max() < self.high)  # type: ignore[operator]
        if self.nonzero:
            ok = ok and not bool(np.any(a == 0))
        return ok


@dataclass(frozen=True)
class _Need:
    low: int | None = None
    high: int | None = None
    bound_why: str = ""
    nonzero: bool = False
    zero_why: str = ""

    def meet(self, o: _Need) -> _Need:
        """Both needs at once: the ranges intersected (the tighter bound's reason kept)."""
        n = self
        if o.high is not None:
            if n.high is None:
                n = replace(n, low=o.low, high=o.high, bound_why=o.bound_why)
            else:
                lo, hi = max(n.low or 0, o.low or 0), min(n.high, o.high)
                # the binding consumer's reason; on a tie the one first in graph order (the
                # walk runs backwards: `o` comes first)
                why = n.bound_why if n.high < o.high else o.bound_why
                n = replace(n, low=lo, high=hi, bound_why=why)
        if o.nonzero and not n.nonzero:
            n = replace(n, nonzero=True, zero_why=o.zero_why)
        return n

    def shifted(self, by: int) -> _Need:
        """The need of x where x - by is needed: the range moved by `by` (a no-zero need
        is dropped: x - by != 0 says nothing of x != 0)."""
        if self.high is None:
            return _Need()
        return _Need(self.low + by if self.low is not None else None, self.high + by, self.bound_why)


def _label(op: Operation) -> str:
    """`node 'emb' (GatherV2)`: an imported ONNX node by its ONNX name."""
    onnx = op.attributes.get("onnx_name")
    name = onnx.data if isinstance(onnx, StringAttr) else ge.node_name(op)
    return f"node '{name}' ({ge.ge_type(op)})"


def _index_axis(op: Operation) -> int | None:
    """The axis the index operand of `op` indexes, as written (None: not known)."""
    if isinstance(op, ge.GatherBase):
        return op.gather_axis()
    if ge.ge_type(op) == "GatherElements":
        return A.get_int(op, "dim", 0)
    return 0


def _index_need(op: Operation, data: SSAValue) -> _Need:
    shape = shape_of(data.type)
    axis = _index_axis(op)
    if shape is None or axis is None or not -len(shape) <= axis < len(shape):
        return _Need(0, 1, f"it indexes {_label(op)} (an unknown dim: index 0)")
    axis %= len(shape)
    dim = shape[axis]
    if dim < 0:
        return _Need(0, 1, f"it indexes {_label(op)} axis {axis} (of unknown size: index 0)")
    return _Need(0, dim, f"it indexes {_label(op)} axis {axis}")


def _shift_constant(op: Operation) -> tuple[int, int] | None:
    """(the operand that is not the constant, c) for an integer Add/Sub whose operand 1 (or
    Add's operand 0) is an integer constant of one value; None otherwise."""
    if len(op.operands) != 2 or not op.results or numpy_dtype(value_dtype(op.results[0])).kind not in "iu":
        return None
    order = (1, 0) if ge.ge_type(op) == "Add" else (1,)
    for k in order:
        vals = ge.const_ints(op.operands[k])
        if vals and len(set(vals)) == 1:
            return 1 - k, vals[0]
    return None


def _through_shifts(v: SSAValue, n: _Need) -> tuple[SSAValue, _Need]:
    """The value `v` is made of by single-operand value-preserving ops and constant shifts,
    and `n` expressed on it."""
    while isinstance(op := v.owner, Operation):
        t = ge.ge_type(op)
        if VALUE_PRESERVING.get(t) == (0,) and len(op.results) == 1 and op.operands:
            v = op.operands[0]
        elif t in SHIFTS and (sc := _shift_constant(op)) is not None:
            v, n = op.operands[sc[0]], n.shifted(SHIFTS[t] * sc[1])
        else:
            break
    return v, n


# cond's true set as an interval of x for `Cmp(x, c)`: (low, high) with None unbounded; the
# bounds as a half-open integer range [low, high)
_CMP_TRUE = {
    "Less": lambda c: (None, c),
    "LessEqual": lambda c: (None, c + 1),
    "Greater": lambda c: (c + 1, None),
    "GreaterEqual": lambda c: (c, None),
}


def _within(n: _Need, lo: int | None, hi: int | None) -> bool:
    """Whether n's range [n.low, n.high) lies in [lo, hi) (None: unbounded)."""
    assert n.high is not None
    low = n.low if n.low is not None else 0
    return (lo is None or low >= lo) and (hi is None or n.high <= hi)


def _select_union(op: Operation, out: _Need) -> tuple[SSAValue, _Need] | None:
    """(x, the union of its two ranges) for a SelectV2 both of whose branches are x moved
    by constant shifts, chosen by `Cmp(x, c)` exactly where x lies in the branch's range;
    None otherwise (module docstring)."""
    if out.high is None or out.nonzero or len(op.operands) != 3:
        return None
    r1, n1 = _through_shifts(op.operands[1], out)
    r2, n2 = _through_shifts(op.operands[2], out)
    cond = op.operands[0].owner
    if r1 is not r2 or not isinstance(cond, Operation) or ge.ge_type(cond) not in _CMP_TRUE:
        return None
    if (
        len(cond.operands) != 2
        or cond.operands[0] is not r1
        or not (vals := ge.const_ints(cond.operands[1]))
        or len(set(vals)) != 1
    ):
        return None
    lo, hi = _CMP_TRUE[ge.ge_type(cond)](vals[0])
    # the then branch only where cond holds, the else branch only where it does not
    if not _within(n1, lo, hi) or not (_within(n2, hi, None) if lo is None else _within(n2, None, lo)):
        return None
    a, b = sorted([(n1.low or 0, n1.high or 0), (n2.low or 0, n2.high or 0)])
    if a[1] < b[0]:  # not contiguous: the union is no range
        return None
    return r1, _Need(a[0], max(a[1], b[1]), out.bound_why)


def _value_needs(graph: ge.GraphOp, memo: dict[str, list[_Need]]) -> list[_Need]:
    """The need of each Data node's value, in `graph.data_nodes` order."""
    needs: dict[SSAValue, _Need] = {}

    def add(v: SSAValue, n: _Need) -> None:
        if n.high is None and not n.nonzero:
            return
        old = needs.get(v)
        needs[v] = n if old is None else old.meet(n)

    for op in reversed(graph.body.block.ops):
        t = ge.ge_type(op)
        out = _Need()
        for r in op.results:
            if (n := needs.get(r)) is not None:
                out = out.meet(n)
        if t in INDEX_OPERANDS:
            i, d = INDEX_OPERANDS[t]
            if len(op.operands) > max(i, d):
                add(op.operands[i], _index_need(op, op.operands[d]))
        if t in DIVISOR_OPERANDS and len(op.operands) > DIVISOR_OPERANDS[t]:
            add(op.operands[DIVISOR_OPERANDS[t]], _Need(nonzero=True, zero_why=f"it divides in {_label(op)}"))
        if out.high is None and not out.nonzero:
            pass  # nothing to hand on
        elif t in VALUE_PRESERVING:
            which = VALUE_PRESERVING[t]
            for k in range(len(op.operands)) if which is None else which:
                if k < len(op.operands):
                    add(op.operands[k], out)
        elif t in SHIFTS and (sc := _shift_constant(op)) is not None:
            k, c = sc
            add(op.operands[k], out.shifted(SHIFTS[t] * c))
        elif t == "SelectV2":
            if (u := _select_union(op, out)) is not None:
                add(*u)
            else:
                for k in (1, 2):
                    if k < len(op.operands):
                        add(op.operands[k], out)
        if isinstance(op, ge.PartitionedCall) and isinstance(f := op.attributes.get("f"), SymbolRefAttr):
            callee = SymbolTable.lookup_symbol(op, f)
            if isinstance(callee, ge.GraphOp):
                name = callee.sym_name.data
                if name not in memo:
                    memo[name] = []  # a cycle (refused by the verifier) ends here
                    memo[name] = _value_needs(callee, memo)
                for d, n in zip(callee.data_nodes, memo[name]):
                    k = A.get_int(d, "index", 0) or 0
                    if k < len(op.operands):
                        add(op.operands[k], n)
    return [needs.get(d.results[0], _Need()) for d in graph.data_nodes]


def input_ranges(graph: ge.GraphOp) -> list[InputRange | None]:
    """Per Data node of `graph` (in `graph.data_nodes` order), the values its random input
    must take, or None when any value will do. Integer inputs get the range their index
    uses need and no zero where they divide; float inputs only the no-zero need."""
    out: list[InputRange | None] = []
    for d, n in zip(graph.data_nodes, _value_needs(graph, {})):
        dt = numpy_dtype(value_dtype(d.results[0]))
        if dt.kind not in "iu":
            n = _Need(nonzero=n.nonzero, zero_why=n.zero_why)
        elif n.high is not None:
            info = np.iinfo(dt)
            n = replace(n, low=max(n.low or 0, int(info.min)), high=min(n.high, int(info.max) + 1))
        whys = tuple(w for w, on in ((n.bound_why, n.high is not None), (n.zero_why, n.nonzero)) if on and w)
        if n.high is None and not n.nonzero:
            out.append(None)
            continue
        if n.high is not None and _count(n.low or 0, n.high, n.nonzero) == 0:
            # no value satisfies every use (disjoint ranges through shifts): draw as usual
            out.append(InputRange(why=(f"no value satisfies every use ({'; '.join(whys)})",)))
            continue
        out.append(InputRange(n.low, n.high, n.nonzero, whys))
    return out


def _count(low: int, high: int, nonzero: bool) -> int:
    """How many integers [low, high) holds (without 0 when `nonzero`)."""
    n = max(0, high - low)
    return n - 1 if nonzero and low <= 0 < high else n


def draw_integers(
    rng: np.random.Generator, r: InputRange, default: tuple[int, int], shape: Sequence[int], dt: np.dtype
) -> np.ndarray:
    """Integers of `shape` uniform over what `r` admits: [r.low, r.high), else the
    `default` [low, high); without 0 when r.nonzero."""
    low, high = (r.low or 0, r.high) if r.high is not None else default
    skip = r.nonzero and low <= 0 < high
    v = rng.integers(low, high - 1 if skip else high, shape, dtype=np.int64)
    if skip:
        v[v >= 0] += 1
    return v.astype(dt)
