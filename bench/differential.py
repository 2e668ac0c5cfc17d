"""Differential testing of the whole pipeline on random graphs (issue 17).

    .venv/bin/python bench/differential.py --count 1000 --seed-start 100000 --out-dir /tmp/diff

Each graph comes from tests/random_graphs.py (seed = seed-start, seed-start + 1, ...) and
runs through ge-run, the real CLI entry (ge_tools/run.py `main`, in this process; with
`--subprocess`, as a child process): first `ge-run FILE --reference --seed S` (the reference
interpreter alone), then `ge-run FILE --seed S --streams K --executions E` for K = 1 and 2
(ge-compile, the device simulator, E executions, each compared with the reference).

Every run is classified:

  ok             exit 0, "outputs match the reference"
  inconclusive   output elements whose error bound is infinite (undecidable: ge-run's
                 "comparison inconclusive", exit 1; docs/tolerance.md)
  mismatch       the simulator's outputs differ from the reference's (a miscompile); the
                 class says where the difference first appears: already in the graph
                 after lowering and fusion (evaluated by the reference interpreter), or
                 only on the simulator (memory plan, offsets, tasks)
  traceback      an exception escaped the tool (a Python traceback on the command line)
  internal error the tool's one-line "internal error: ..." (an unexpected exception)
  sim fault      a located "error: simulator: ..." (bad address, uninitialised read,
                 clobbered live tensor, race): the compiled program is wrong
  user error     any other located error: every generated graph is valid, so this is
                 a wrongful rejection (or, from the reference run, a reference bug)
  hang           no answer within --timeout seconds

Runs of one class (kind + the error message with names and numbers blanked) are counted
together; the first graph of each class is saved in --out-dir as CLASS.mlir with the
command that reproduces it, and (unless --no-reduce) a reduced CLASS.min.mlir: NetOutput
entries dropped, producers cut off into new Data nodes, unary nodes bypassed, as long as
the class stays the same and the graph stays in its domain.

The counts are printed at the end; the exit status is 1 when any run failed. Seeds below
100000 are the tests' (tests/tools/test_random_differential.py uses 0..99); use others here.
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import io
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

import numpy as np  # noqa: E402

from random_graphs import Graph, Node, Options, Value, generate, nonfinite_fraction  # noqa: E402

TEST_SEEDS = range(0, 100000)  # reserved for the test suite
KINDS = ("mismatch", "inconclusive", "traceback", "internal error", "sim fault", "user error", "hang")
GRAPH_PASSES = "ge-phony-notask{stage=mark},ge-lower-autofuse,ge-autofuse"


# ---------------------------------------------------------------------------------------
# Running ge-run
# ---------------------------------------------------------------------------------------


@dataclass
class Outcome:
    code: int | str  # exit code, or "escaped <Exception>" / "hang"
    stdout: str
    stderr: str


class _Hang(BaseException):
    pass


def _alarm(signum: int, frame: object) -> None:
    raise _Hang()


def run_in_process(argv: Sequence[str], timeout: int) -> Outcome:
    """ge-run's main(argv) in this process: its exit code and what it printed."""
    from ge_tools.run import main

    out, err = io.StringIO(), io.StringIO()
    use_alarm = timeout > 0 and hasattr(signal, "SIGALRM")
    if use_alarm:
        old = signal.signal(signal.SIGALRM, _alarm)
        signal.alarm(timeout)
    code: int | str
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), np.errstate(all="ignore"):
            main(list(argv))
        code = 0
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    except _Hang:
        code = "hang"
    except BaseException as e:  # noqa: BLE001 - whatever escapes main is a traceback
        import traceback

        code = f"escaped {type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"
        err.write(traceback.format_exc())
    finally:
        if use_alarm:
            signal.alarm(0)
            signal.signal(signal.SIGALRM, old)
    return Outcome(code, out.getvalue(), err.getvalue())


def run_subprocess(argv: Sequence[str], timeout: int) -> Outcome:
    exe = Path(sys.executable).parent / "ge-run"
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "ge_tools.run"]
    try:
        p = subprocess.run([*cmd, *argv], capture_output=True, text=True, timeout=timeout or None, cwd=ROOT)
    except subprocess.TimeoutExpired:
        return Outcome("hang", "", "")
    return Outcome(p.returncode, p.stdout, p.stderr)


_LOC = re.compile(r"^\S+?:\d+:\d+: ")
_QUOTED = re.compile(r"('[^']*'|\"[^\"]*\"|@[\w.$-]+|%[\w.$#-]+)")
_NUM = re.compile(r"-?\b\d+(\.\d+)?(e[+-]?\d+)?\b")


def normalize(message: str) -> str:
    """A message with its location, names and numbers blanked: the class of an error."""
    m = _LOC.sub("", message.strip())
    m = _QUOTED.sub("<name>", m)
    m = re.sub(r"tensor<[^>]*(>[^>]*)?>", "<type>", m)
    m = re.sub(r"\b(float|u?int)(8|16|32|64)\b|\bbool\b", "<dtype>", m)
    m = _NUM.sub("N", m)
    return m[:200]


def classify(o: Outcome) -> tuple[str, str]:
    """(kind, message) of one run; kind "ok" when it passed."""
    if o.code == "hang":
        return "hang", ""
    if not isinstance(o.code, int) or "Traceback (most recent call last)" in o.stderr + o.stdout:
        last = [ln for ln in o.stderr.strip().splitlines() if ln.strip()]
        return "traceback", str(o.code) if not isinstance(o.code, int) else (last[-1] if last else "")
    if o.code == 0:
        return "ok", ""
    lines = [ln for ln in o.stderr.strip().splitlines() if ln.strip()]
    first = lines[0] if lines else ""
    if "outputs do not match the reference" in o.stdout:
        return "mismatch", ""
    if "comparison inconclusive" in o.stdout:  # undecidable elements (docs/tolerance.md)
        first = next((ln for ln in o.stdout.splitlines() if ln.startswith("tolerance:")), "")
        return "inconclusive", first
    if "internal error" in first:
        return "internal error", first
    if ": error: simulator:" in first:
        return "sim fault", first
    return "user error", first or f"exit code {o.code}"


# ---------------------------------------------------------------------------------------
# Known bugs: which issue-17 case a failure is
# ---------------------------------------------------------------------------------------

# (case, kinds, message pattern, graph-text pattern). A failure matching an entry is that
# known bug; remove the entry once the case is fixed on main, so that the tests catch it
# coming back. Mismatches and simulator faults carry no message naming the cause: they are
# attributed by what the graph contains (the reduced example in the report shows it).
KNOWN: tuple[tuple[str, tuple[str, ...], str, str], ...] = ()  # every case found so far is fixed


def known_case(kind: str, message: str, text: str) -> str | None:
    """The issue-17 case (or known NEW bug) a failure is, or None."""
    for case, kinds, msg_re, text_re in KNOWN:
        if kind in kinds and re.search(msg_re, message) and (not text_re or re.search(text_re, text)):
            return case
    return None


# ---------------------------------------------------------------------------------------
# Where a mismatch appears
# ---------------------------------------------------------------------------------------


def mismatch_stage(path: str, seed: int) -> str:
    """ "graph passes" when the reference interpreter already gives other numbers on the
    graph after lowering and fusion, else "simulator" (memory, offsets, tasks)."""
    from ge_tools.opt import GeOptMain
    from ge_tools.parse import parse_module
    from ge_tools.run import _evaluate, compare, random_input
    from runtime.reference import select_graph

    try:
        opt = GeOptMain(["-p", GRAPH_PASSES])
        module = parse_module(opt.ctx, Path(path).read_bytes(), path)
        module.verify()
        graph = select_graph(module)
        rng = np.random.default_rng(seed)
        inputs = [random_input(d, rng) for d in graph.data_nodes]
        with np.errstate(all="ignore"):
            ref = _evaluate(graph, inputs)
            fused = module.clone()
            opt.apply_passes(fused)
            got = _evaluate(select_graph(fused, graph.sym_name.data), inputs)
        bad, _ = compare(ref, got)
    except BaseException as e:  # noqa: BLE001
        return f"graph passes fail ({type(e).__name__})"
    return "graph passes" if bad else "simulator"


# ---------------------------------------------------------------------------------------
# One graph
# ---------------------------------------------------------------------------------------


@dataclass
class Result:
    seed: int
    text: str
    runs: list[tuple[str, list[str], str, str]] = field(default_factory=list)  # (label, argv, kind, message)

    def failures(self) -> list[tuple[str, list[str], str, str]]:
        return [r for r in self.runs if r[2] != "ok"]

    def cases(self) -> list[str | None]:
        """The known case of each failing run (None: not a known bug)."""
        return [known_case(kind, msg, self.text) for _, _, kind, msg in self.failures()]


def configurations(path: str, seed: int, executions: int) -> list[tuple[str, list[str]]]:
    return [
        ("reference", [path, "--reference", "--seed", str(seed)]),
        ("1 stream", [path, "--seed", str(seed), "--streams", "1", "--executions", str(executions)]),
        ("2 streams", [path, "--seed", str(seed), "--streams", "2", "--executions", str(executions)]),
    ]


def check_text(text: str, path: str, seed: int, args: argparse.Namespace) -> Result:
    """Run every configuration on `text` (written to `path`); inputs from `seed`."""
    Path(path).write_text(text)
    runner = run_subprocess if args.subprocess else run_in_process
    res = Result(seed, text)
    for label, argv in configurations(path, seed, args.executions):
        o = runner(argv, args.timeout)
        kind, msg = classify(o)
        if kind == "mismatch":
            msg = f"mismatch ({mismatch_stage(path, seed)})"
        res.runs.append((label, argv, kind, msg))
        if label == "reference" and kind != "ok":
            break  # without a reference there is nothing to compare
    return res


def class_key(label: str, kind: str, msg: str, text: str) -> str:
    where = "reference" if label == "reference" else "compile"
    case = known_case(kind, msg, text)
    tag = f"case {case}" if case and not case.startswith("NEW") else (case or "NEW?")
    return f"[{tag}] {kind} [{where}]: {normalize(msg) if kind != 'mismatch' else msg}"


def keys_of(res: Result) -> set[str]:
    return {class_key(label, kind, msg, res.text) for label, _, kind, msg in res.failures()}


# ---------------------------------------------------------------------------------------
# Reducing a failing graph
# ---------------------------------------------------------------------------------------


def _users(g: Graph) -> dict[int, list[Node]]:
    users: dict[int, list[Node]] = {}
    for n in g.nodes:
        for v in n.ins:
            users.setdefault(id(v), []).append(n)
    return users


def _dce(g: Graph) -> Graph:
    """Drop nodes no output of which is read (NetOutput stays); renumber the Data nodes."""
    changed = True
    while changed:
        changed = False
        users = _users(g)
        keep = []
        for n in g.nodes:
            if n.op != "NetOutput" and not any(id(v) in users for v in n.outs):
                changed = True
                continue
            keep.append(n)
        g.nodes = keep
    k = 0
    for n in g.nodes:
        if n.op == "Data":
            n.attrs = f"index = {k}"
            k += 1
    return g


def _replace_uses(g: Graph, old: Value, new: Value) -> None:
    for n in g.nodes:
        n.ins = [new if v is old else v for v in n.ins]


def _candidates(g: Graph):
    """Smaller variants of g, biggest cuts first."""
    out = g.nodes[-1]
    for i in range(len(out.ins)):
        if len(out.ins) > 1:
            h = copy.deepcopy(g)
            h.nodes[-1].ins.pop(i)
            yield _dce(h)
    for i, n in enumerate(g.nodes):
        if n.op in ("Data", "Const", "NetOutput"):
            continue
        for j, _v in enumerate(n.outs):
            h = copy.deepcopy(g)
            hv = h.nodes[i].outs[j]
            d = Value(hv.shape, hv.dtype, -1, 1, hv.fmt)
            d.node = Node("Data", [], [d], "index = 0")
            h.nodes.insert(0, d.node)
            _replace_uses(h, hv, d)
            yield _dce(h)
        if len(n.ins) == 1 and len(n.outs) == 1 and n.ins[0].type == n.outs[0].type:
            h = copy.deepcopy(g)
            hn = h.nodes[i]
            _replace_uses(h, hn.outs[0], hn.ins[0])
            yield _dce(h)


def reduce_graph(g: Graph, key: str, seed: int, path: str, args: argparse.Namespace, budget: int = 400) -> Graph:
    """Greedy reduction of g keeping the failure class `key` and the domain (<= 1 %
    non-finite intermediate values)."""
    g = copy.deepcopy(g)
    tries = 0
    improved = True
    while improved and tries < budget:
        improved = False
        for h in _candidates(g):
            tries += 1
            if tries > budget:
                break
            if len(h.nodes) >= len(g.nodes) and len(h.nodes[-1].ins) >= len(g.nodes[-1].ins):
                continue
            text = h.text()
            try:
                bad, total = nonfinite_fraction(text, seed)
            except BaseException:  # noqa: BLE001 - a variant the reference rejects
                continue
            if total and bad / total > 0.01:
                continue
            if key in keys_of(check_text(text, path, seed, args)):
                g = h
                improved = True
                break
    return g


# ---------------------------------------------------------------------------------------
# The campaign
# ---------------------------------------------------------------------------------------


@dataclass
class Stats:
    graphs: int = 0
    runs: int = 0
    failing_graphs: int = 0
    kinds: dict[str, int] = field(default_factory=lambda: {k: 0 for k in KINDS})
    classes: dict[str, dict] = field(default_factory=dict)


def campaign(args: argparse.Namespace) -> Stats:
    out_dir = Path(args.out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    options = Options(without=frozenset(args.without), with_=frozenset(args.with_))
    stats = Stats()
    tmp = tempfile.mkdtemp(prefix="ge_diff_")
    start = time.time()
    for seed in range(args.seed_start, args.seed_start + args.count):
        g = generate(seed, options)
        path = os.path.join(tmp, f"g{seed}.mlir")
        res = check_text(g.text(), path, seed, args)
        stats.graphs += 1
        stats.runs += len(res.runs)
        if res.failures():
            stats.failing_graphs += 1
        for label, argv, kind, msg in res.failures():
            stats.kinds[kind] += 1
            key = class_key(label, kind, msg, res.text)
            c = stats.classes.setdefault(
                key, {"count": 0, "graphs": set(), "first_seed": seed, "message": msg, "config": label}
            )
            c["count"] += 1
            c["graphs"].add(seed)
            if c["first_seed"] == seed and "file" not in c:
                name = f"class{len(stats.classes):02d}"
                f = out_dir / f"{name}.mlir"
                f.write_text(g.text())
                c["file"] = str(f)
                c["argv"] = ["ge-run", str(f), *argv[1:]]
                if not args.no_reduce:
                    m = reduce_graph(g, key, seed, os.path.join(tmp, "reduce.mlir"), args)
                    fm = out_dir / f"{name}.min.mlir"
                    fm.write_text(m.text())
                    c["min_file"] = str(fm)
                    c["min_nodes"] = len(m.nodes)
        if args.progress and stats.graphs % args.progress == 0:
            print(
                f"... {stats.graphs} graphs, {stats.failing_graphs} failing, {time.time() - start:.0f} s",
                file=sys.stderr,
                flush=True,
            )
    return stats


def report(stats: Stats, out_dir: str) -> str:
    lines = [
        f"graphs: {stats.graphs}, ge-run runs: {stats.runs}, graphs with a failure: {stats.failing_graphs}",
        "runs by kind: " + ", ".join(f"{k} {v}" for k, v in stats.kinds.items()),
    ]
    if stats.classes:
        lines.append(f"failure classes ({len(stats.classes)}; first example of each in {out_dir}):")
        for key, c in sorted(stats.classes.items(), key=lambda kv: -kv[1]["count"]):
            lines.append(f"  {c['count']:5d} runs, {len(c['graphs']):4d} graphs  {key}")
            lines.append(f"         first: seed {c['first_seed']} ({c['config']}): {' '.join(c.get('argv', []))}")
            if "min_file" in c:
                lines.append(f"         reduced: {c['min_file']} ({c['min_nodes']} nodes)")
            if c["message"] and c["message"] != key:
                lines.append(f"         message: {c['message'][:300]}")
    return "\n".join(lines)


def build_arg_parser() -> argparse.ArgumentParser:
    from random_graphs import FEATURES

    p = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        epilog=__doc__.split("\n\n", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--count", type=int, default=1000, help="number of graphs (default 1000)")
    p.add_argument(
        "--seed-start", type=int, default=100000, help="first seed (default 100000; the tests use seeds below 100000)"
    )
    p.add_argument("--executions", type=int, default=3, help="ge-run --executions per compiled run (default 3)")
    p.add_argument("--timeout", type=int, default=60, help="seconds before a run counts as a hang (default 60)")
    p.add_argument("--out-dir", default="differential_out", help="where the first example of each failure class goes")
    p.add_argument("--no-reduce", action="store_true", help="do not reduce the saved examples")
    p.add_argument("--subprocess", action="store_true", help="run ge-run as a child process (default: in this process)")
    p.add_argument(
        "--without",
        action="append",
        default=[],
        choices=FEATURES,
        metavar="FEATURE",
        help=f"a generator feature never to use (repeat; one of {', '.join(FEATURES)})",
    )
    p.add_argument(
        "--with",
        dest="with_",
        action="append",
        default=[],
        choices=FEATURES,
        metavar="FEATURE",
        help="a feature off by default to allow (zero_size)",
    )
    p.add_argument("--json", metavar="PATH", help="also write the counts and classes as JSON")
    p.add_argument("--progress", type=int, default=100, metavar="N", help="a progress line every N graphs (0: none)")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = build_arg_parser().parse_args(argv)
    if args.seed_start < TEST_SEEDS.stop and args.seed_start + args.count > TEST_SEEDS.start:
        print(
            f"note: seeds {args.seed_start}.. overlap the test suite's ({TEST_SEEDS.start}..{TEST_SEEDS.stop - 1})",
            file=sys.stderr,
        )
    stats = campaign(args)
    print(report(stats, args.out_dir))
    if args.json:
        data = {
            "graphs": stats.graphs, "runs": stats.runs, "failing_graphs": stats.failing_graphs, "kinds": stats.kinds,
            "classes": {k: {**c, "graphs": sorted(c["graphs"])} for k, c in stats.classes.items()},
        }  # fmt: skip
        Path(args.json).write_text(json.dumps(data, indent=2, sort_keys=True) + "\n")
    return 1 if stats.failing_graphs else 0


if __name__ == "__main__":
    sys.exit(main())
