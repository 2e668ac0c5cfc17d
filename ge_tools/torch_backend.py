"""`torch.compile(model, backend="ge_xdsl")`: PyTorch models through ge-compile and the device simulator.

    import torch, torchvision
    model = torchvision.models.resnet18(weights=None).eval()
    stats = {}
    fast = torch.compile(model, backend="ge_xdsl", options={"check": True, "remarks": True, "stats": stats})
    with torch.no_grad():
        y = fast(torch.randn(1, 3, 64, 64))

As TorchAir (repository Ascend/torchair, `torchair.get_npu_backend`) is GE's backend: Dynamo
captures each graph, AOTAutograd lowers it to ATen ops (`aot_autograd` with a forward
compiler, inference only), importers/fx.py converts every ATen op to GE ops (one converter
per op, TorchAir's), ge-compile compiles it once (api.compile), and each call runs the
npu.model on the device simulator (api.simulate) and returns torch tensors. Graph breaks are
Dynamo's: each compiled subgraph is its own model. A recompile happens only where Dynamo's
guards ask for one. `dynamic=True` (or a dim Dynamo marks dynamic) makes a `?` dim: the
subgraph is compiled once to a dynamic module, and run as ge-run runs one (ge_tools/run.py:
_run_dynamic): its unknown-shape parts compiled over symbols at the first call
(ge-symbolic-autofuse), every later call run by the first compiled point whose guards hold,
and compiled again only when none does (GE's guard_cache.cc).

The module's parameters are frozen into the model as ge.Const at compile time, as TorchAir's
`config.experimental_config.frozen_parameter` does (GE then constant-folds and fuses them);
buffers and the user's inputs are ge.Data, fed each call.

`options` (`torch.compile(..., options={...})`):
* `pipeline`: ge-opt's `-p` (default `ge-compile`); any other key not below is an option of
  its pass, as api.compile takes them (`streams`, `enable_pass`, ...);
* `check`: also run each call eagerly (the ATen graph on torch) and compare every output
  with ge-run's tolerance (ge_tools/run.py: within_tolerance, widened by the graph's error
  bound); a mismatch raises `GeCheckError` naming the FX node of the output and its source
  line; so do undecidable elements (an infinite error bound: ge-run's "comparison
  inconclusive") unless `accept_undecidable`, as ge-run's --accept-undecidable, accepts them
  unjudged;
* `remarks`: print what GE decided (the passes' remarks) on stderr, one line each,
  located at the user's model line;
* `stats`: a dict the backend fills: `graphs` (one entry per compiled subgraph, in
  ge-run --stats-json's meaning: graph, passes, outputs and the model's figures from the
  compile; the last call's simulator figures (tasks_by_kind, bytes_moved, peak_live_fm_bytes,
  ..., or, for a graph with `?` dims, `dynamic` and `compiles`: its compiles over symbols,
  as ge-run counts them); `executions`, the calls of that subgraph;
  `mode` "compare" with `check` (then mismatch_count, max_error, unbounded_elements against
  eager) or "run"), `compiles`, `calls`;
* `dump_dir`: write each subgraph's imported module (`graph_K.mlir`) and compiled module
  (`graph_K.compiled.mlir`) there;
* `report`: a directory; each subgraph's ge-run --report page (report/html.py: the graph
  before and after fusion and after planning, its kernels, memory plans, remarks, figures
  and, with `check`, the comparison with eager) in `DIR/graph_K/index.html`, rewritten at
  each call with that call's figures.

The backend is registered under torch's entry point (`torch_dynamo_backends` in
pyproject.toml), so `backend="ge_xdsl"` needs no import; `ge_xdsl` itself may be passed too.
Importing this module (which that lookup does) turns on Dynamo's `allow_rnn`, so nn.LSTM,
nn.GRU and nn.RNN reach the backend as graphs instead of running eagerly (_allow_rnn).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ge_tools import api
from report.html import Check, write_report

__all__ = ["GeCheckError", "ge_xdsl"]


def _allow_rnn() -> None:
    """Let Dynamo capture nn.LSTM, nn.GRU and nn.RNN (torch._dynamo.config.allow_rnn).

    Dynamo decides at trace time, before any backend sees a graph, to run an RNN module
    eagerly unless `allow_rnn` is on, and torch.compile hides a backend's own context
    (`backend_ctx_ctor`, which only torch._dynamo.optimize honours). The one moment a
    backend acts before Dynamo traces is its import: torch imports this module when
    `torch.compile(..., backend="ge_xdsl")` looks the name up (the entry point), so the
    flag is set here, process-wide, as torch.export sets it for its own tracing
    (torch/export/_trace.py: ExportDynamoConfig.allow_rnn = True). A user who wants RNNs
    run eagerly sets it back to False after the import (docs/bring_your_model.md)."""
    try:
        import torch._dynamo
    except ImportError:  # the core without the `models` extra: nothing to configure
        return
    torch._dynamo.config.allow_rnn = True


_allow_rnn()

_BACKEND_KEYS = ("pipeline", "check", "accept_undecidable", "remarks", "stats", "dump_dir", "report")


class GeCheckError(AssertionError):
    """A compiled call whose output differs from eager's (`check=True`); `str()` is one line."""


def ge_xdsl(gm: Any, example_inputs: Sequence[Any], options: dict[str, Any] | None = None) -> Callable[..., Any]:
    """The torch.compile backend: Dynamo's graph `gm` -> AOTAutograd's ATen graph -> a ge
    module compiled once -> a callable that runs it on the device simulator."""
    import torch
    from torch._dynamo.backends.common import aot_autograd

    opts = dict(options or {})
    pipeline = str(opts.pop("pipeline", "ge-compile"))
    check = bool(opts.pop("check", False))
    accept_undecidable = bool(opts.pop("accept_undecidable", False))
    remarks = bool(opts.pop("remarks", False))
    stats = opts.pop("stats", None)
    dump_dir = opts.pop("dump_dir", None)
    report = opts.pop("report", None)
    pass_options = opts
    if stats is not None and not isinstance(stats, dict):
        raise TypeError(f"ge_xdsl: options['stats'] must be a dict the backend fills, got {type(stats).__name__}")
    # the placeholders of Dynamo's graph, in the order of example_inputs: their names and
    # which are parameters (frozen as Const, taken outside AOTAutograd's fake-tensor mode)
    dyn_names = [n.name for n in gm.graph.nodes if n.op == "placeholder"]
    frozen = {k: _array(t) for k, t in enumerate(example_inputs) if isinstance(t, torch.nn.Parameter)}
    # subgraphs compiled with these options so far (graph_K of dump_dir and report; `compiles`)
    counter = [int(stats.get("compiles", 0)) if stats is not None else 0]

    def forward_compiler(fx: Any, fake_inputs: Sequence[Any]) -> Callable[..., Any]:
        from importers.fx import import_graph_module

        holders = [n for n in fx.graph.nodes if n.op == "placeholder"]
        if len(holders) != len(example_inputs):
            raise RuntimeError(
                f"ge_xdsl: AOTAutograd's graph has {len(holders)} inputs, Dynamo's {len(example_inputs)} "
                "(an input mutation or a training graph, which the backend does not compile)"
            )
        consts = {holders[k].name: a for k, a in frozen.items()}
        symbolic = [k for k, n in enumerate(holders) if not hasattr(n.meta.get("val"), "shape")]
        fed = [k for k in range(len(holders)) if k not in frozen and k not in symbolic]
        names = [dyn_names[k] if k < len(dyn_names) else n.name for k, n in enumerate(holders)]
        file = _user_file(fx)
        module = import_graph_module(fx, consts, file, names=names, skip=set(symbolic))
        number = counter[0]
        counter[0] += 1
        result = api.compile(module, pipeline, record=bool(report), **pass_options)
        # this subgraph's figures, in ge-run --stats-json's meaning: the compile's (graph,
        # passes, outputs, the model's), then each call's simulator figures and, with
        # `check`, the comparison with eager (ge_tools/run.py: _run_graph, _finish)
        figures: dict[str, object] = {**result.stats, "mode": "compare" if check else "run", "executions": 0}
        if stats is not None:
            stats["compiles"] = counter[0]
            stats.setdefault("graphs", []).append(figures)
            stats.setdefault("calls", 0)
        if remarks:
            for r in result.remarks:
                print(f"{r.location}: remark: {r.message}", file=sys.stderr)
        if dump_dir:
            _dump(dump_dir, number, module, result.module)
        out_nodes = _output_nodes(fx)
        execute = _executor(result, remarks)

        def run(*args: Any) -> list[Any]:
            feeds = [_array(args[k]) for k in fed]
            outs, sim_figures = execute(feeds)
            tensors = [torch.from_numpy(np.array(o, copy=True)) for o in outs]
            calls = int(figures["executions"]) + 1  # type: ignore[arg-type]
            figures.update(sim_figures)
            figures["executions"] = calls
            if stats is not None:
                stats["calls"] = stats.get("calls", 0) + 1
            checks: list[Check] = []
            failure: str | None = None
            if check:
                with torch.no_grad():
                    eager = list(fx(*args))
                verdict, failure = _judge(tensors, eager, out_nodes, module, feeds, figures, accept_undecidable)
                checks.append(verdict)
            if report:
                # ge-run --report's page for this subgraph (rewritten each call: the last call's figures)
                write_report(
                    os.path.join(str(report), f"graph_{number}"),
                    f"{file} (torch.compile subgraph {number})",
                    figures,
                    module,
                    result.recorder,
                    result.module,
                    checks,
                )
            if failure is not None:
                raise GeCheckError(failure)
            return tensors

        run._boxed_call = False  # type: ignore[attr-defined]  # AOTAutograd calls run(*args)
        return run

    return aot_autograd(fw_compiler=forward_compiler)(gm, example_inputs)


def _executor(
    result: api.CompileResult, remarks: bool
) -> Callable[[list[np.ndarray]], tuple[Sequence[np.ndarray], dict[str, object]]]:
    """How a call runs, and its figures (ge-run --stats-json's): the npu.model on the device
    simulator (api.simulate: its simulator figures), or, for a graph with `?` dims
    (dynamic=True), the partitioned module on the dynamic executor as ge-run runs one
    (_GuardedPoints)."""
    if result.model() is not None:

        def simulate(feeds: list[np.ndarray]) -> tuple[Sequence[np.ndarray], dict[str, object]]:
            sim = api.simulate(result.module, feeds)
            return sim.outputs, sim.stats

        return simulate
    return _GuardedPoints(result.module, remarks)


class _GuardedPoints:
    """A dynamic module run as ge-run runs one (ge_tools/run.py: _run_dynamic): its
    unknown-shape parts compiled over symbols made from the first call's shapes
    (run.py: symbolic_compile, ge-symbolic-autofuse), each call run by the first compiled
    point whose guards hold, and a point compiled for the call's shapes only when none does
    (GE: guard_cache.cc, the guarded execution points). A root ge-partition-dynamic left
    whole and unknown runs on the host op by op, never over symbols, as in ge-run."""

    def __init__(self, module: Any, remarks: bool):
        from ge_dialect import attrs as A
        from ge_dialect import ge
        from ge_dialect.graph import select_graph
        from runtime.dynamic_executor import PARTITIONED_ATTR, partition_summary

        self.base = module
        self.remarks = remarks
        root = next((g for g in module.ops if isinstance(g, ge.GraphOp) and g is select_graph(module, None)), None)
        self.symbolic = not (
            root is not None and A.get_bool(root, A.GRAPH_UNKNOWN_FLAG) and not A.get_bool(root, PARTITIONED_ATTR)
        )
        self.points: list[Any] = []
        self.history: list[Any] = []
        self.clusters = partition_summary(module).as_dict()

    def _compile(self, feeds: list[np.ndarray]) -> Any:
        from ge_tools.registry import make_context
        from ge_tools.run import symbolic_compile
        from runtime.dynamic_executor import DynamicExecutor

        if not self.symbolic:
            return DynamicExecutor(self.base, ())
        with _remarks_on_stderr(self.remarks):
            compiled = symbolic_compile(make_context(), self.base, feeds, self.remarks)
        return DynamicExecutor(compiled, ())

    def __call__(self, feeds: list[np.ndarray]) -> tuple[Sequence[np.ndarray], dict[str, object]]:
        from ge_dialect.shape_env import GuardFailed

        outs = None
        for ex in self.points:
            ex.executions = len(self.history)
            try:
                outs = ex.execute([np.array(a, copy=True) for a in feeds])
            except GuardFailed:
                continue
            self.history.append(ex.last_stats)
            break
        if outs is None:  # no compiled point's guards hold: compile one for these shapes
            ex = self._compile(feeds)
            ex.executions = len(self.history)
            outs = ex.execute([np.array(a, copy=True) for a in feeds])
            self.history.append(ex.last_stats)
            self.points.append(ex)
        figures: dict[str, object] = {
            "compiles": len(self.points),
            "dynamic": {"clusters": self.clusters, "executions": [h.as_dict() for h in self.history]},
        }
        return outs, figures


def _remarks_on_stderr(on: bool) -> Any:
    """The symbolic compile's remarks on stderr (`remarks`), one line each, as the
    compile's; dropped otherwise."""
    from ge_dialect.diagnostics import remark_sink

    return remark_sink(
        (lambda r: print(f"{r.location}: remark: {r.message}", file=sys.stderr)) if on else (lambda r: None)
    )


def _array(t: Any) -> np.ndarray:
    t = t.detach().cpu().contiguous()
    if str(t.dtype) == "torch.bfloat16":
        import ml_dtypes

        return t.float().numpy().astype(ml_dtypes.bfloat16)
    return t.numpy()


def _user_file(fx: Any) -> str:
    from importers.fx import source_location

    for n in fx.graph.nodes:
        f, line = source_location(n, "")
        if line:
            return f
    return "<torch.compile>"


def _output_nodes(fx: Any) -> list[Any]:
    out = next(n for n in fx.graph.nodes if n.op == "output")
    args = out.args[0]
    return list(args) if isinstance(args, list | tuple) else [args]


def _judge(
    got: Sequence[Any],
    eager: Sequence[Any],
    nodes: Sequence[Any],
    module: Any,
    feeds: Any,
    figures: dict[str, object],
    accept_undecidable: bool,
) -> tuple[Check, str | None]:
    """ge-run's comparison of this call's outputs with eager's (ge_tools/run.py:
    compare_runs, within_tolerance widened by runtime/error_bound.py's bound of the graph
    on these inputs, as ge-run widens it against onnxruntime): its figures go to `figures` (mismatch_count,
    max_error, unbounded_elements, as --stats-json's); returns the report's Check and, when
    the call fails the check, the one-line error naming the output's FX node and source
    line: a differing element, or (unless `accept_undecidable`) an undecidable one, as
    ge-run's report_comparison fails them."""
    from ge_dialect.graph import select_graph
    from ge_tools.run import Output, compare_runs, within_tolerance
    from runtime.error_bound import output_error_bounds

    # eager PyTorch rounds each op on its own, as onnxruntime does: the bound ge-run takes
    # against onnxruntime (independent rounding; ge_tools/run.py: the onnxruntime oracle)
    bounds = output_error_bounds(select_graph(module, None), feeds, independent=True)
    ref = [Output(k, f"output {k}", _array(e)) for k, e in enumerate(eager)]
    run = [Output(k, f"output {k}", g.numpy()) for k, g in enumerate(got)]

    def where(k: int) -> str:
        from importers.fx import source_location

        node = nodes[k] if k < len(nodes) else None
        file, line = source_location(node, "<torch.compile>") if node is not None else ("<torch.compile>", 0)
        return f"{file}:{line}:1: error: output {k} (node '{getattr(node, 'name', f'output {k}')}')"

    for k, (a, b) in enumerate(zip(run, ref, strict=True)):
        if a.array.shape != b.array.shape or a.array.dtype != b.array.dtype:
            figures.update(mismatch_count=sum(o.array.size for o in run), max_error=float("inf"), unbounded_elements=0)
            figures.update(anchored_elements=0, anchored_steps=0)
            shown = {"mismatch_count": figures["mismatch_count"]}
            failure = (
                f"{where(k)}: compiled is {a.array.dtype} {a.array.shape}, eager is {b.array.dtype} {b.array.shape}"
            )
            return Check("eager PyTorch", False, shown, ["shapes or dtypes differ"]), failure
    c = compare_runs(ref, [run], bounds)
    figures.update(mismatch_count=c.mismatches, max_error=c.max_error, unbounded_elements=c.unbounded)
    # eager PyTorch's intermediate values are not captured: no anchored judgment (ge-run's, runtime/anchored.py)
    figures.update(anchored_elements=c.anchored, anchored_steps=c.anchored_steps)
    shown = {"mismatch_count": c.mismatches, "max_error": c.max_error, "unbounded_elements": c.unbounded}
    undecided = [np.isinf(e) for e in bounds]
    for k, (a, b) in enumerate(zip(run, ref, strict=True)):
        ok = within_tolerance(a.array, b.array, bounds[k]) | undecided[k]
        if not ok.all():
            bad = int(ok.size - np.count_nonzero(ok))
            first = tuple(int(i) for i in np.argwhere(~ok)[0])
            failure = (
                f"{where(k)}: {bad} of {ok.size} elements differ from eager; first at {list(first)}: "
                f"compiled {a.array[first]}, eager {b.array[first]}"
            )
            return Check("eager PyTorch", False, shown, c.report + c.undecidable), failure
    failure = None
    k = next((k for k, u in enumerate(undecided) if u.any()), None)
    if k is not None and not accept_undecidable:
        failure = (
            f"{where(k)}: comparison inconclusive: {int(np.count_nonzero(undecided[k]))} of {undecided[k].size} "
            "elements are undecidable (their error bound is infinite: ge-run --help, Tolerance); "
            "options={'accept_undecidable': True} accepts them unjudged; the other elements match eager"
        )
    passed = failure is None
    return Check("eager PyTorch", passed, shown, c.report + c.undecidable), failure


def _dump(directory: str, number: int, module: Any, compiled: Any) -> None:
    from xdsl.printer import Printer

    os.makedirs(directory, exist_ok=True)
    for suffix, m in (("", module), (".compiled", compiled)):
        with open(os.path.join(directory, f"graph_{number}{suffix}.mlir"), "w") as f:
            Printer(stream=f).print_op(m)
            f.write("\n")
