"""The simulator's load-time compiled form (runtime/simulator_plan.py, runtime/ascgraph_compiled.py)
against its rules (runtime/simulator.py's interpretive path, `load(plan=False)`):

* the plan finds each fault kind itself (a race, a read of bytes nobody wrote, a read of
  another tensor's bytes, a write over a live tensor, a write into the weights) on a
  program built to have it, and reports the rules' exact fault;
* on the examples (1 and 2 streams) and on random graphs the two paths give the same
  bytes and the same figures;
* the seam: GE_SIM_PLAIN=1 runs the rules alone; the task observer sees each task's outputs.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp

from conftest import EXAMPLES, count_calls
from ge_dialect import npu
from ge_tools.opt import GeOptMain
from ge_tools.parse import parse_module
from ge_tools.run import random_input
from random_graphs import Options, graph_text
from runtime import simulator
from runtime.reference import select_graph
from runtime.simulator import SimulatorFault, _Task, load

HEAD = """
npu.model @m streams = STREAMS events = EVENTS {
  npu.region fm size = 512
  npu.region weight size = 64
  npu.region input:0 size = 64 {type = tensor<1x16xf32>}
  npu.region output:0 size = 64 {type = tensor<1x16xf32>}
  npu.tensor "x:0" at #npu.addr<input:0, 0, 64> {node = "x", type = "Data"}
  npu.const "w:0" at #npu.addr<weight, 0, 64> = dense<1.0> : tensor<1x16xf32> {node = "w", type = "Const"}
  npu.tensor "a:0" at #npu.addr<fm, 0, 64> {node = "a", type = "Neg"}
  npu.tensor "b:0" at #npu.addr<fm, 0, 64> {node = "b", type = "Neg"}
  npu.tensor "c:0" at #npu.addr<fm, 64, 64> {node = "c", type = "Neg"}
  npu.tensor "y:0" at #npu.addr<output:0, 0, 64> {node = "y", type = "Neg"}
  npu.kernel_def @neg = library "Neg" {} : (tensor<1x16xf32>) -> (tensor<1x16xf32>)
"""


def _k(src: str, dst: str, node: str) -> str:
    where = {"x": "input:0, 0", "w": "weight, 0", "a": "fm, 0", "b": "fm, 0", "c": "fm, 64", "y": "output:0, 0"}
    return (
        f'npu.kernel @neg ins("{src}:0" at #npu.addr<{where[src]}, 64>) '
        f'outs("{dst}:0" at #npu.addr<{where[dst]}, 64>) {{node = "{node}"}}'
    )


def _model(streams: list[list[str]], events: int = 0) -> npu.ModelOp:
    text = HEAD.replace("STREAMS", str(len(streams))).replace("EVENTS", str(events))
    for s, tasks in enumerate(streams):
        text += f"  npu.stream {s} {{\n" + "".join(f"    {t}\n" for t in tasks) + "  }\n"
    text += "}\n"
    opt = GeOptMain([])
    mod = parse_module(opt.ctx, text, "plan.mlir")
    mod.verify()
    return next(o for o in mod.ops if isinstance(o, npu.ModelOp))


X = np.arange(16, dtype=np.float32).reshape(1, 16)

# each program has one fault; (its tasks per stream, events, the rules' message)
FAULTS = {
    # stream 1 reads a before stream 0's writer ran, no event between them
    "race before the writer": (
        [["npu.stream_active 1", _k("x", "a", "ka"), _k("a", "y", "ky"), "npu.end_graph"], [_k("a", "c", "kc")]],
        0,
        "stream 1 task 0 (npu.kernel 'kc'): race: reads fm [0, 64) of tensor \"a:0\" before its writer "
        "stream 0 task 1 (npu.kernel 'ka') on another stream ran, with no event between them",
    ),
    # stream 1 reads a after stream 0 wrote it, no event between them
    "race after the writer": (
        [
            ["npu.stream_active 1", _k("x", "a", "ka"), _k("a", "y", "ky"), "npu.end_graph"],
            [_k("x", "c", "kc"), _k("a", "c", "kd")],
        ],
        0,
        "stream 1 task 1 (npu.kernel 'kd'): race: reads fm [0, 64) written by stream 0 task 1 (npu.kernel 'ka') "
        "on another stream with no event between them",
    ),
    # stream 1 writes c over kc's value (ordered by event 0) while stream 0 reads it (not ordered)
    "write race": (
        [
            ["npu.stream_active 1", _k("x", "c", "kc"), "npu.event_record 0", _k("c", "y", "ky"), "npu.end_graph"],
            ["npu.event_wait 0", _k("x", "c", "kd")],
        ],
        1,
        "stream 1 task 1 (npu.kernel 'kd'): race: writes fm [64, 128) read by stream 0 task 3 (npu.kernel 'ky') "
        "on another stream with no event between them",
    ),
    # stream 1 writes c, which stream 0 also writes, with no event between them
    "write after write race": (
        [
            ["npu.stream_active 1", _k("x", "c", "kc"), _k("c", "y", "ky"), "npu.end_graph"],
            [_k("x", "a", "ka"), _k("a", "c", "kd")],
        ],
        0,
        "stream 1 task 1 (npu.kernel 'kd'): race: writes fm [64, 128) also written by stream 0 task 1 "
        "(npu.kernel 'kc') on another stream with no event between them",
    ),
    # nobody wrote a's bytes in this execution
    "read of unwritten bytes": (
        [[_k("a", "y", "ky"), "npu.end_graph"]],
        0,
        "stream 0 task 0 (npu.kernel 'ky'): read of uninitialised memory: fm [0, 64) (reading tensor \"a:0\" "
        "at fm [0, 64)) was not written by any task in this execution",
    ),
    # b's bytes hold a (b's own writer comes later)
    "read of another tensor's bytes": (
        [[_k("x", "a", "ka"), _k("b", "y", "ky"), _k("x", "b", "kb"), "npu.end_graph"]],
        0,
        "stream 0 task 1 (npu.kernel 'ky'): read of stale memory: fm [0, 64) (reading tensor \"b:0\" at fm [0, 64)) "
        "was last written by stream 0 task 0 (npu.kernel 'ka'), which does not write \"b:0\"",
    ),
    # b overwrites a before ky reads it
    "overlapping write": (
        [[_k("x", "a", "ka"), _k("x", "b", "kb"), _k("a", "y", "ky"), _k("b", "c", "kc"), "npu.end_graph"]],
        0,
        "stream 0 task 1 (npu.kernel 'kb'): write into a live buffer: fm [0, 64) (writing tensor \"b:0\" at "
        'fm [0, 64)) overlaps tensor "a:0" at fm [0, 64), which is still to be read',
    ),
    "write into the weights": (
        [[_k("x", "w", "kw"), _k("x", "y", "ky"), "npu.end_graph"]],
        0,
        "stream 0 task 0 (npu.kernel 'kw'): write into the weights: weight [0, 64)",
    ),
}


@pytest.mark.parametrize("case", FAULTS)
def test_the_plan_finds_each_fault_kind(case: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The plan itself detects the fault (its `refute` runs: removing the plan's check makes
    the execution pass, and this test fail), and the fault is the rules' own."""
    streams, events, message = FAULTS[case]
    refuted: list[str] = []  # the tasks at which the plan found a fault
    real = simulator._PlannedExecution.refute

    def refute(self: simulator._PlannedExecution, t: _Task) -> BaseException:
        refuted.append(t.label)
        return real(self, t)

    monkeypatch.setattr(simulator._PlannedExecution, "refute", refute)
    with pytest.raises(SimulatorFault) as planned:
        load(_model(streams, events), plan=True).execute([X.copy()])
    assert str(planned.value) == message
    if case != "overlapping write":  # the live-buffer check is the rules' own code on both paths
        assert refuted == [planned.value.task]
    with pytest.raises(SimulatorFault) as plain:
        load(_model(streams, events), plan=False).execute([X.copy()])
    assert str(plain.value) == message
    assert (planned.value.task, planned.value.region, planned.value.start, planned.value.end) == (
        plain.value.task, plain.value.region, plain.value.start, plain.value.end,
    )  # fmt: skip


def test_a_correct_program_runs_on_both_paths_without_a_replay(monkeypatch: pytest.MonkeyPatch) -> None:
    refuted = count_calls(monkeypatch, simulator._PlannedExecution, "refute")
    model = _model([[_k("x", "a", "ka"), _k("a", "c", "kc"), _k("c", "b", "kb"), _k("b", "y", "ky"), "npu.end_graph"]])
    for plan in (True, False):
        (y,) = load(model, plan=plan).execute([X.copy()])
        assert np.array_equal(y, X)  # four negations
    assert refuted == [0]


def test_the_environment_switches_the_plan_off(monkeypatch: pytest.MonkeyPatch) -> None:
    model = _model([[_k("x", "y", "ky"), "npu.end_graph"]])
    monkeypatch.delenv("GE_SIM_PLAIN", raising=False)
    assert load(model).plan
    monkeypatch.setenv("GE_SIM_PLAIN", "1")
    assert not load(model).plan
    monkeypatch.setenv("GE_SIM_PLAIN", "0")
    assert load(model).plan


def test_the_observer_sees_each_tasks_outputs() -> None:
    model = _model([[_k("x", "a", "ka"), _k("a", "c", "kc"), _k("c", "y", "ky"), "npu.end_graph"]])
    for plan in (True, False):
        loaded = load(model, plan=plan)
        seen: list[tuple[str, np.ndarray]] = []
        loaded.observer = lambda t, outs, seen=seen: seen.append((t.node, outs[0].copy()))
        loaded.execute([X.copy()])
        assert [n for n, _ in seen] == ["ka", "kc", "ky"]
        assert all(np.array_equal(v, X * (-1) ** (i + 1)) for i, (_, v) in enumerate(seen))


# -- the same results either way -------------------------------------------------------------


def _compiled(text: str, path: str, streams: int) -> tuple[ModuleOp, npu.ModelOp]:
    opt = GeOptMain(["-p", f"ge-compile{{streams={streams}}}" if streams > 1 else "ge-compile"])
    m = parse_module(opt.ctx, text, path)
    m.verify()
    c = m.clone()
    opt.apply_passes(c)
    return m, next(o for o in c.ops if isinstance(o, npu.ModelOp))


def _same_either_way(m: ModuleOp, model: npu.ModelOp) -> None:
    rng = np.random.default_rng(0)
    ins = [random_input(d, rng) for d in select_graph(m).data_nodes]
    runs = []
    for plan in (True, False):
        loaded = load(model, plan=plan)
        outs = [[o.copy() for o in loaded.execute([a.copy() for a in ins])] for _ in range(2)]
        runs.append((outs, loaded.stats))
    (a, sa), (b, sb) = runs
    assert [[x.dtype for x in r] for r in a] == [[x.dtype for x in r] for r in b]
    assert [[x.tobytes() for x in r] for r in a] == [[x.tobytes() for x in r] for r in b]
    assert sa == sb


# the static control-flow examples too: label_switch marks, loops run again (their ranges re-checked)
CONTROL = sorted(
    p for p in (Path(__file__).parents[2] / "examples" / "control").glob("*.mlir") if "dynamic" not in p.stem
)


@pytest.mark.parametrize("streams", [1, 2])
@pytest.mark.parametrize("path", EXAMPLES + CONTROL, ids=lambda p: p.stem)
def test_examples_give_the_same_bytes_either_way(path: Path, streams: int) -> None:
    try:
        m, model = _compiled(path.read_text(), str(path), streams)
    except Exception as e:  # an example ge-compile refuses (its own tests say why) has no program
        pytest.skip(f"not compiled: {str(e).splitlines()[0] if str(e) else type(e).__name__}")
    _same_either_way(m, model)


@pytest.mark.parametrize("seed", range(3000, 3020))
def test_random_graphs_give_the_same_bytes_either_way(seed: int) -> None:
    # every fourth graph may hold size-0 tensors (empty byte ranges: atoms of no bytes)
    text = graph_text(seed, Options(with_=frozenset({"zero_size"})) if seed % 4 == 3 else Options())
    try:
        m, model = _compiled(text, f"random{seed}.mlir", 1 + seed % 2)
    except Exception as e:  # a graph the compiler refuses: an open issue-17 case, not the simulator's
        pytest.skip(f"not compiled: {str(e).splitlines()[0] if str(e) else type(e).__name__}")
    _same_either_way(m, model)
