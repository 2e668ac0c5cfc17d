"""Anchored judgment: each step of a computation judged on the inputs it actually read
(docs/tolerance.md, "Anchored judgment").

The end-to-end comparison (runtime/error_bound.py) carries every op's possible rounding
difference through every later op by worst case; over dozens of layers the bounds compound
until elements become undecidable. Here the comparison is anchored at the values another
implementation materialised, in the spirit of translation validation:

* the simulator: `capture` executes the loaded model once more with an observer that
  copies each kernel's outputs out right after the kernel wrote them (memory is reused;
  the copy is taken before any later task runs, and every memory check of the simulator
  stays on). A kernel output named `node:k` whose node and shape and dtype are those of
  the original graph's value `node:k` is that value, materialised (`simulator_anchors`); a
  fused AscBackend's internals and a no-task view are not materialised;
* onnxruntime: ge_tools/onnx_oracle.py's `onnxruntime_anchors` runs the model once with
  every intermediate ONNX tensor the importer mapped to a ge value added as an output
  (optimisations off), the values onnxruntime computed node by node.

`judge` then evaluates the original graph on the reference interpreter where each
anchored value is replaced, for the ops after it, by the anchor (exact: bound 0), so each
op's reference and bound are computed from the other implementation's own inputs
(runtime/error_bound.py: anchored_bounds). Each anchor is judged against the reference of
the step that produced it with the step's own bound (the same tolerance formula as the
end-to-end comparison), and each final output against its last step's. A bound never
compounds beyond one step: the ops between two materialised values (one kernel, one
fused loop nest, an ONNX node). A step outside its tolerance is a wrong step: the first
one in graph order is the first wrong kernel. A step with undecidable elements leaves every
value after it unjudged (`Verdict.unjudged`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
from xdsl.ir import Operation, OpResult, SSAValue

from ge_dialect import ge, npu
from ge_dialect.dtypes import numpy_dtype
from runtime.error_bound import anchored_bounds
from runtime.simulator import load

__all__ = ["StepCheck", "Verdict", "capture", "judge", "judge_simulator", "simulator_anchors"]

# (got, reference, bound) -> where got lies within the tolerance (an infinite bound: never)
Within = Callable[[np.ndarray, np.ndarray, np.ndarray], np.ndarray]


@dataclass
class StepCheck:
    """One anchored value judged against the reference of the step that produced it."""

    node: Operation  # the original graph's node whose output it is
    index: int  # which output
    size: int
    bad: int  # elements outside the tolerance
    undecidable: int  # elements whose step bound is infinite
    first: tuple[int, ...] = ()  # the first bad (else undecidable) element
    got: float = 0.0
    want: float = 0.0
    bound: float = 0.0

    def describe(self, who: str) -> str:
        name = f"'{ge.node_name(self.node)}' ({self.node.name.split('.', 1)[-1]}) output {self.index}"
        if self.bad:
            return (
                f"step {name}: {self.bad} of {self.size} elements outside the tolerance on the inputs {who} read; "
                f"first at {list(self.first)}: {who} {self.got:.6g}, reference {self.want:.6g} (bound {self.bound:.3g})"
            )
        return f"step {name}: {self.undecidable} of {self.size} elements undecidable even on its own inputs, at {list(self.first)}"


@dataclass
class Verdict:
    """The anchored judgment of one execution: its steps, and per output the reference and
    bound of its last step (on the anchored inputs) and whether a step before it was left
    undecidable."""

    steps: int = 0  # anchored values judged
    wrong: list[StepCheck] = field(default_factory=list)  # outside the tolerance, graph order
    undecided: list[StepCheck] = field(default_factory=list)  # with undecidable elements
    refs: list[np.ndarray] = field(default_factory=list)
    bounds: list[np.ndarray] = field(default_factory=list)
    tainted: list[bool] = field(default_factory=list)  # after a step left undecidable

    def outputs(self, got: Sequence[np.ndarray], within: Within) -> tuple[list[np.ndarray], list[np.ndarray]]:
        """Per output of `got` (final outputs of the same execution): the elements outside
        their last step's tolerance, and the elements left unjudged (an infinite bound, or
        after an undecidable step)."""
        bad, unjudged = [], []
        for g, ref, bound, t in zip(got, self.refs, self.bounds, self.tainted):
            if g.shape != ref.shape:
                bad.append(np.ones(ref.shape, bool))
                unjudged.append(np.zeros(ref.shape, bool))
                continue
            inf = np.isinf(bound) | t
            bad.append(~within(g, ref, bound) & ~inf)
            unjudged.append(np.broadcast_to(inf, ref.shape).copy())
        return bad, unjudged


def capture(
    model: npu.ModelOp, inputs: Sequence[np.ndarray], frozen: Sequence[int] = ()
) -> tuple[dict[str, np.ndarray], list[np.ndarray]]:
    """Load `model` and execute it once on copies of `inputs`, copying each kernel output
    out as its kernel writes it: (tensor name -> value, the model's outputs). A tensor
    written more than once in the execution (a loop body's) is left out: no one value is
    its."""
    loaded = load(model, frozen)
    seen: dict[str, np.ndarray] = {}
    twice: set[str] = set()

    def observe(task: object, results: Sequence[np.ndarray]) -> None:
        memcpy = getattr(task, "memcpy", False)
        for o, res in zip(task.outs, results):  # type: ignore[attr-defined]
            if o.tensor in seen:
                twice.add(o.tensor)
            a = np.asarray(res)
            if memcpy:  # a memcpy's destination bytes, raw: its tensor's value when they fit
                if o.dtype is None or a.nbytes != int(np.prod(o.shape)) * np.dtype(o.dtype).itemsize:
                    twice.add(o.tensor)
                    continue
                a = np.ascontiguousarray(a).view(o.dtype)
            seen[o.tensor] = np.array(a.reshape(o.shape) if a.size == int(np.prod(o.shape)) else a, dtype=o.dtype)

    loaded.observer = observe
    outs = loaded.execute([np.array(a, copy=True) for a in inputs])
    return {n: a for n, a in seen.items() if n not in twice}, outs


def _values(graph: ge.GraphOp) -> list[tuple[Operation, OpResult]]:
    return [(op, r) for op in graph.body.block.ops if not isinstance(op, ge.NetOutput) for r in op.results]


def matches(v: SSAValue, a: np.ndarray) -> bool:
    """Whether array `a` has value `v`'s shape and numpy dtype."""
    t = v.type
    try:
        shape, dt = tuple(t.get_shape()), numpy_dtype(t.element_type)  # type: ignore[attr-defined]
    except (AttributeError, KeyError, ValueError):
        return False
    return a.shape == shape and a.dtype == dt


def simulator_anchors(graph: ge.GraphOp, captured: dict[str, np.ndarray]) -> dict[SSAValue, np.ndarray]:
    """The values of `graph` a kernel materialised: output k of node N is the tensor
    `N:k` the compiled program wrote (the passes keep a node's name, ge_dialect/names.py),
    where its shape and dtype are the value's. Inputs and constants are exact already."""
    out: dict[SSAValue, np.ndarray] = {}
    for op, r in _values(graph):
        if isinstance(op, ge.Data | ge.RefData | ge.Const):
            continue
        a = captured.get(f"{ge.node_name(op)}:{r.index}")
        if a is not None and matches(r, a):
            out[r] = a
    return out


def _first(mask: np.ndarray) -> tuple[int, ...]:
    return tuple(int(i) for i in np.argwhere(mask)[0]) if mask.ndim else ()


def _check(
    op: Operation, index: int, got: np.ndarray, want: np.ndarray, bound: np.ndarray, within: Within
) -> StepCheck:
    inf = np.isinf(bound)
    bad = ~within(got, want, bound) & ~inf
    c = StepCheck(op, index, int(want.size), int(np.count_nonzero(bad)), int(np.count_nonzero(inf)))
    where = bad if c.bad else inf
    if c.bad or c.undecidable:
        c.first = _first(where)
        at = c.first
        c.got, c.want, c.bound = float(np.asarray(got)[at]), float(np.asarray(want)[at]), float(bound[at])
    return c


def judge(
    graph: ge.GraphOp,
    inputs: Sequence[np.ndarray],
    anchors: dict[SSAValue, np.ndarray],
    within: Within,
    independent: bool = False,
) -> Verdict:
    """Judge every anchor against the reference of its step on the anchored inputs (module
    doc); `Verdict.outputs` judges the final outputs against their last steps'.
    `independent`: every op's own rounding counts (another implementation of the model,
    onnxruntime; runtime/error_bound.py)."""
    v = Verdict()
    at_anchor: dict[SSAValue, tuple[np.ndarray, np.ndarray]] = {}
    undecided: set[SSAValue] = set()

    def anchor(r: SSAValue, ref: np.ndarray, bound: np.ndarray) -> np.ndarray | None:
        a = anchors.get(r)
        if a is None:
            return None
        assert isinstance(r.owner, Operation)
        c = _check(r.owner, r.index, a, ref, bound, within)  # type: ignore[attr-defined]
        v.steps += 1
        if c.bad:
            v.wrong.append(c)
        if c.undecidable:
            v.undecided.append(c)
            undecided.add(r)
        at_anchor[r] = (ref, bound)
        return a

    refs, bounds = anchored_bounds(graph, inputs, anchor, independent)
    # a value after a step left undecidable is unjudged: the chain of judged steps breaks there
    tainted: set[SSAValue] = set(undecided)
    for op in graph.body.block.ops:
        if any(x in tainted for x in op.operands):
            tainted.update(op.results)
    for r, ref, bound in zip(graph.net_output.operands, refs, bounds):
        ref, bound = at_anchor.get(r, (ref, bound))
        v.refs.append(ref)
        v.bounds.append(bound)
        v.tainted.append(r in tainted)
    return v


def judge_simulator(
    model: npu.ModelOp, graph: ge.GraphOp, inputs: Sequence[np.ndarray], frozen: Sequence[int], within: Within
) -> tuple[Verdict, list[np.ndarray]]:
    """`model` (compiled from `graph`) executed once on `inputs` and judged step by step
    against the reference: (the verdict, that execution's outputs)."""
    captured, outs = capture(model, inputs, frozen)
    return judge(graph, inputs, simulator_anchors(graph, captured), within), outs
