"""Bad input never reaches a traceback: a deterministic fuzzer of ge-opt and ge-run.

Every example and a few small generated graphs (bench/gen_graphs.py) are mutated with
fixed seeds — truncation, deleting or duplicating a token or a line, swapping two SSA
names, changing a number, changing a dtype, removing an attribute, renaming an op to
another ge op — and each mutant runs in-process through ge-opt: parse+verify, the whole
`ge-compile` pipeline, and each pass alone (ge-assign-memory after the no-task passes,
ge-to-npu after ge-assign-memory). Mutants that still verify also run through ge-run.

The policy checked (DESIGN.md, "What users see"): exit code 0 or 1; on 1, the error is
exactly one line `FILE:LINE:COL: error: ...` (or `ge-opt: error: ...` / `ge-run: error:`
for a command-line error), never a traceback, never "internal error". Located warnings
and remarks (`FILE:LINE:COL: warning|remark: ...`) may precede the error line. Each test
collects every violation and fails once with the whole report, each entry naming the
source, the mutation and the first line of stderr, so a failure can be reproduced.

The pass pipeline is input too: test_pipeline_mutants mutates well-formed `-p` strings
and their options (sometimes with one of ge-opt's flags) under the same policy.

Classes of bad input (bytes that are not UTF-8, nesting deeper than the parser's limit,
garbage after a comment, misplaced graphs and nodes, recursive calls, tensor sizes past
GE's int64 limit or the host's memory, unterminated strings) each get several inputs
whose one error must be at a given line and column, from ge-opt and ge-run alike.

ge-run's own inputs (bad .npy files, --graph, --executions, --seed) are checked one by
one at the end.
"""

from __future__ import annotations

import contextlib
import io
import os
import random
import re
import signal
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np
import pytest

from bench.gen_graphs import generate
from conftest import EXAMPLES, ROOT
from ge_tools import opt as ge_opt
from ge_tools import run as ge_run

GENERATED = [("mixed", 40, 1), ("concat_tree", 30, 2), ("diamond", 25, 3), ("fanout", 30, 4)]
LOWERED = ("split_relu_concat.mlir", "phony_concat_split.mlir")

# GE_ROBUST_SCALE=N multiplies the mutant counts for a deeper (still deterministic) run.
SCALE = int(os.environ.get("GE_ROBUST_SCALE", "1"))
MUTANTS_PER_SOURCE = 45 * SCALE  # 13 sources x 45 = 585 mutants through parse+verify
PASS_MUTANTS_PER_SOURCE = 6 * SCALE  # mutants per source that still verify, run through the passes
SEARCH_LIMIT = 300 * SCALE  # seeds tried per source to find them
# One run that spends more than this much CPU time (this process's user time, SIGVTALRM:
# a loaded machine stretches wall time, not the work a run does) is reported as a hang.
# The largest mutant run takes about 1 s of CPU.
CPU_LIMIT_S = 20

ERROR_LINE = re.compile(r"^\S+:\d+:\d+: error: ")
TOOL_ERROR_LINE = re.compile(r"^ge-(opt|run): error: ")
NOTE_LINE = re.compile(r"^\S+:\d+:\d+: (warning|remark): ")

DTYPES = ("f16", "f32", "bf16", "f64", "i1", "i4", "i8", "i16", "i32", "i64", "ui8", "ui16", "si8", "index")
NUMBERS = (0, 1, -1, 2, 3, 7, 16, 33, -2, -100, 1 << 20, 1 << 62)

TOKEN = re.compile(r"%[\w$.-]+|@[\w$.-]+|#[\w.]+|-?\d+(?:\.\d+)?|[A-Za-z_][\w.]*|->|\S")


@cache
def ge_op_names() -> tuple[str, ...]:
    from ge_dialect.ge import GE

    return tuple(sorted(op.name for op in GE.operations if op.name != "ge.graph"))


# ---------------------------------------------------------------------------------------
# Mutations: each returns the mutated text and a short description, or None when the text
# has nothing to mutate that way.
# ---------------------------------------------------------------------------------------

Mutation = Callable[[str, random.Random], tuple[str, str] | None]


def _tokens(text: str, pattern: re.Pattern[str] = TOKEN) -> list[re.Match[str]]:
    return [m for m in pattern.finditer(text) if not _in_comment(text, m.start())]


def _in_comment(text: str, pos: int) -> bool:
    line_start = text.rfind("\n", 0, pos) + 1
    return "//" in text[line_start:pos]


def _replace(text: str, m: re.Match[str] | tuple[int, int], new: str) -> str:
    s, e = (m.start(), m.end()) if isinstance(m, re.Match) else m
    return text[:s] + new + text[e:]


def _line_of(text: str, pos: int) -> int:
    return text.count("\n", 0, pos) + 1


def truncate(text: str, rng: random.Random) -> tuple[str, str] | None:
    if len(text) < 2:
        return None
    cut = rng.randrange(1, len(text))
    return text[:cut], f"truncate at char {cut} (line {_line_of(text, cut)})"


def delete_token(text: str, rng: random.Random) -> tuple[str, str] | None:
    toks = _tokens(text)
    if not toks:
        return None
    m = rng.choice(toks)
    return _replace(text, m, ""), f"delete token {m.group()!r} at line {_line_of(text, m.start())}"


def duplicate_token(text: str, rng: random.Random) -> tuple[str, str] | None:
    toks = _tokens(text)
    if not toks:
        return None
    m = rng.choice(toks)
    return _replace(
        text, m, m.group() + " " + m.group()
    ), f"duplicate token {m.group()!r} at line {_line_of(text, m.start())}"


def _code_lines(text: str) -> list[int]:
    lines = text.split("\n")
    return [i for i, ln in enumerate(lines) if ln.strip() and not ln.strip().startswith("//")]


def delete_line(text: str, rng: random.Random) -> tuple[str, str] | None:
    lines, code = text.split("\n"), _code_lines(text)
    if not code:
        return None
    i = rng.choice(code)
    return "\n".join(lines[:i] + lines[i + 1 :]), f"delete line {i + 1}"


def duplicate_line(text: str, rng: random.Random) -> tuple[str, str] | None:
    lines, code = text.split("\n"), _code_lines(text)
    if not code:
        return None
    i = rng.choice(code)
    j = rng.randrange(len(lines) + 1)
    return "\n".join(lines[:j] + [lines[i]] + lines[j:]), f"copy line {i + 1} before line {j + 1}"


def swap_ssa(text: str, rng: random.Random) -> tuple[str, str] | None:
    toks = [m for m in _tokens(text) if m.group().startswith("%")]
    if len({m.group() for m in toks}) < 2:
        return None
    a = rng.choice(toks)
    b = rng.choice([m for m in toks if m.group() != a.group()])
    first, second = sorted((a, b), key=lambda m: m.start())
    out = (
        text[: first.start()]
        + second.group()
        + text[first.end() : second.start()]
        + first.group()
        + text[second.end() :]
    )
    return (
        out,
        f"swap {a.group()} (line {_line_of(text, a.start())}) with {b.group()} (line {_line_of(text, b.start())})",
    )


_NUMBER = re.compile(r"(?<![\w.%@#])-?\d+(?![\w.])|(?<=[<x])\d+(?=x)")


def change_number(text: str, rng: random.Random) -> tuple[str, str] | None:
    toks = [m for m in _NUMBER.finditer(text) if not _in_comment(text, m.start())]
    if not toks:
        return None
    m = rng.choice(toks)
    n = int(m.group())
    new = rng.choice((n + 1, n - 1, 2 * n, -n) + NUMBERS)
    if new == n:
        new = n + 1
    return _replace(text, m, str(new)), f"number {n} -> {new} at line {_line_of(text, m.start())}"


_DTYPE = re.compile(r"(?<=[<x])(f16|f32|f64|bf16|i1|i8|i16|i32|i64|ui8|si8)(?=[>,])")


def change_dtype(text: str, rng: random.Random) -> tuple[str, str] | None:
    toks = [m for m in _DTYPE.finditer(text) if not _in_comment(text, m.start())]
    if not toks:
        return None
    m = rng.choice(toks)
    new = rng.choice([d for d in DTYPES if d != m.group()])
    return _replace(text, m, new), f"dtype {m.group()} -> {new} at line {_line_of(text, m.start())}"


_ATTR = re.compile(r"(\w+) = (\[[^\]]*\]|@\w+|\"[^\"]*\"|dense<[^>]*> : tensor<[^>]*>|[^,{}]+)(, )?")


def remove_attribute(text: str, rng: random.Random) -> tuple[str, str] | None:
    spans = []
    for brace in re.finditer(r"\{[^{}\n]*\}", text):
        if _in_comment(text, brace.start()):
            continue
        for m in _ATTR.finditer(text, brace.start() + 1, brace.end() - 1):
            spans.append(m)
    if not spans:
        return None
    m = rng.choice(spans)
    return _replace(text, m, ""), f"remove attribute {m.group(1)} at line {_line_of(text, m.start())}"


_OP = re.compile(r"\bge\.([A-Z]\w*)")


def rename_op(text: str, rng: random.Random) -> tuple[str, str] | None:
    toks = [m for m in _OP.finditer(text) if not _in_comment(text, m.start())]
    if not toks:
        return None
    m = rng.choice(toks)
    new = rng.choice([n for n in ge_op_names() if n != m.group()])
    return _replace(text, m, new), f"op {m.group()} -> {new} at line {_line_of(text, m.start())}"


_DIM = re.compile(r"(?<=[<x])\d+(?=x)")


def unknown_dim(text: str, rng: random.Random) -> tuple[str, str] | None:
    toks = [m for m in _DIM.finditer(text) if not _in_comment(text, m.start())]
    if not toks:
        return None
    m = rng.choice(toks)
    return _replace(text, m, "?"), f"dim {m.group()} -> ? at line {_line_of(text, m.start())}"


def flip_bool(text: str, rng: random.Random) -> tuple[str, str] | None:
    toks = [m for m in re.finditer(r"\b(true|false)\b", text) if not _in_comment(text, m.start())]
    if not toks:
        return None
    m = rng.choice(toks)
    new = "false" if m.group() == "true" else "true"
    return _replace(text, m, new), f"{m.group()} -> {new} at line {_line_of(text, m.start())}"


# GE attributes the passes read (ge_dialect/attrs.py), with values of the right kind and
# of the wrong arity or range: the verifier takes them, the passes must cope.
NODE_ATTRS = (
    "_no_task = true", "_no_padding_continuous_input = true", "_no_padding_continuous_output = true",
    "_output_reuse_input = true", "_reuse_input_on_dim_index = 0", "_reuse_input_on_dim_index = 5",
    "continuous_input = true", "continuous_output = true", "reference = true",
    "atomic_output_index = [0]", "_input_memory_type = [2]", "_output_memory_type = [2]",
    "_input_memory_type = [0, 0, 0]", "_output_memory_type = [1]",
    "_output_offset_list_for_continuous = [0]", "_input_offset_list_for_continuous = [0, 64]",
    "_output_offset_for_buffer_fusion = [32]", "_stream_label = \"s1\"",
    "can_reused_for_concat_optimize = [false]", "can_reused_for_pack_optimize = [true]",
    "reuse_input = [true]", "reuse_input_index = [0]", "keep_input_offset = true",
    "name = \"dup\"",
)  # fmt: skip
GRAPH_ATTRS = (
    "_single_op_scene = true", "_memory_discontiguous_allocation = true",
    "_dynamic_shape_partitioned = true", "_graph_unknown_flag = true",
)  # fmt: skip


def add_attribute(text: str, rng: random.Random) -> tuple[str, str] | None:
    if rng.random() < 0.25:
        graphs = [
            m for m in re.finditer(r"ge\.graph @[\w$.-]+ (attributes \{)?", text) if not _in_comment(text, m.start())
        ]
        if not graphs:
            return None
        m, attr = rng.choice(graphs), rng.choice(GRAPH_ATTRS)
        new = m.group() + f"{attr}, " if m.group(1) else m.group() + f"attributes {{{attr}}} "
        return _replace(text, m, new), f"graph attribute {attr} at line {_line_of(text, m.start())}"
    # After the op name and its inputs: `ge.X(...) {` / `ge.X(...) :` / `ge.X {` / `ge.X :`.
    ops = [m for m in re.finditer(r"\bge\.[A-Z]\w*(\([^()]*\))? (\{|:)", text) if not _in_comment(text, m.start())]
    if not ops:
        return None
    m, attr = rng.choice(ops), rng.choice(NODE_ATTRS)
    head = m.group()[:-1]
    new = head + ("{" + attr + ", " if m.group(2) == "{" else "{" + attr + "} :")
    return _replace(text, m, new), f"attribute {attr} at line {_line_of(text, m.start())}"


MUTATIONS: tuple[Mutation, ...] = (
    truncate, delete_token, duplicate_token, delete_line, duplicate_line,
    swap_ssa, change_number, change_dtype, remove_attribute, rename_op,
    unknown_dim, flip_bool, add_attribute, add_attribute,
)  # fmt: skip


# ---------------------------------------------------------------------------------------
# Sources and mutants
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Mutant:
    source: str
    seed: int
    what: str
    text: str

    def label(self) -> str:
        return f"{self.source} seed {self.seed}: {self.what}"


@cache
def sources() -> tuple[tuple[str, str], ...]:
    out = [(p.name, p.read_text()) for p in EXAMPLES]
    out += [(f"gen_{k}_{n}_{s}", generate(k, n, s)) for k, n, s in GENERATED]
    # IR as the passes leave it (no-task marks, offset lists, AscBackend/AscGraph bodies):
    # what a user feeds back from --dump-dir.
    for name in LOWERED:
        o = run_main(ge_opt.main, [str(ROOT / "examples" / name), "-p", "ge-phony-notask,ge-lower-autofuse"])
        assert o.code == 0, o.stderr
        out.append((f"lowered_{name}", o.stdout))
    return tuple(out)


def mutant(name: str, text: str, seed: int) -> Mutant:
    rng = random.Random(f"{name}/{seed}")
    # Mostly one mutation; every fifth mutant stacks two, to reach deeper states.
    cur, whats = text, []
    for _ in range(2 if seed % 5 == 4 else 1):
        for _attempt in range(8):
            r = rng.choice(MUTATIONS)(cur, rng)
            if r is not None and r[0] != cur:
                cur, what = r
                whats.append(what)
                break
    return Mutant(name, seed, "; ".join(whats) or "none", cur)


@cache
def mutants() -> tuple[Mutant, ...]:
    return tuple(mutant(name, text, seed) for name, text in sources() for seed in range(MUTANTS_PER_SOURCE))


# ---------------------------------------------------------------------------------------
# Running the tools in-process
# ---------------------------------------------------------------------------------------


@dataclass
class Outcome:
    code: int | str
    stdout: str
    stderr: str


class _Hang(Exception):
    pass


def _alarm(signum: int, frame: object) -> None:
    raise _Hang()


def run_main(main: Callable[[Sequence[str]], None], argv: Sequence[str], cpu_limit: float = CPU_LIMIT_S) -> Outcome:
    """Run a tool's main with argv; the exit code (0 when main returns), or the name of an
    exception that escaped main, and what it printed."""
    out, err = io.StringIO(), io.StringIO()
    old = signal.signal(signal.SIGVTALRM, _alarm)
    signal.setitimer(signal.ITIMER_VIRTUAL, cpu_limit)
    code: int | str
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            main(list(argv))
        code = 0
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    except _Hang:
        code = f"hang (> {cpu_limit} s of CPU)"
    except BaseException as e:  # noqa: BLE001 - anything escaping main is a violation
        code = f"escaped {type(e).__name__}: {e}"
    finally:
        signal.setitimer(signal.ITIMER_VIRTUAL, 0)
        signal.signal(signal.SIGVTALRM, old)
    return Outcome(code, out.getvalue(), err.getvalue())


def violation(o: Outcome) -> str | None:
    """Why the outcome breaks the policy, or None."""
    if not isinstance(o.code, int):
        return o.code
    if "Traceback" in o.stderr or "Traceback" in o.stdout:
        return "traceback: " + o.stderr.strip().splitlines()[-1] if o.stderr.strip() else "traceback"
    if o.code == 0:
        return None
    if o.code != 1:
        return f"exit code {o.code}: {o.stderr.strip()[:300]}"
    lines = [ln for ln in o.stderr.splitlines() if not NOTE_LINE.match(ln)]
    if len(lines) != 1:
        return f"{len(lines)} error lines: {' | '.join(lines)[:300]}"
    line = lines[0]
    if "internal error" in line:
        return line
    if not (ERROR_LINE.match(line) or TOOL_ERROR_LINE.match(line)):
        return f"not a located error line: {line[:300]}"
    return None


def _report(failures: list[str], total: int) -> str:
    return f"{len(failures)} of {total} runs break the error policy:\n" + "\n".join(failures)


def _write(tmp: Path, m: Mutant) -> Path:
    path = tmp / f"{m.source.removesuffix('.mlir')}_{m.seed}.mlir"
    path.write_text(m.text)
    return path


@cache
def _verifying(tmp: str) -> tuple[Mutant, ...]:
    """Per source, the first PASS_MUTANTS_PER_SOURCE mutants (seeds 0, 1, ...; at most
    SEARCH_LIMIT tried) that still parse and verify: inputs the passes must handle or
    refuse with a located error."""
    keep = []
    for name, text in sources():
        found = 0
        for seed in range(SEARCH_LIMIT):
            m = mutant(name, text, seed)
            if run_main(ge_opt.main, [str(_write(Path(tmp), m))]).code == 0:
                keep.append(m)
                found += 1
                if found == PASS_MUTANTS_PER_SOURCE:
                    break
    return tuple(keep)


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("robust")


@pytest.fixture(autouse=True)
def _no_traceback_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GE_XDSL_TRACEBACK", raising=False)


# ---------------------------------------------------------------------------------------
# The tests
# ---------------------------------------------------------------------------------------


def test_a_hang_is_reported() -> None:
    """The hang check can say no: a main that never returns is stopped by its CPU limit."""

    def spin(argv: Sequence[str]) -> None:
        while True:
            pass

    o = run_main(spin, [], cpu_limit=0.2)
    assert violation(o) == "hang (> 0.2 s of CPU)"
    assert violation(run_main(lambda argv: None, [], cpu_limit=0.2)) is None


def test_mutations_are_deterministic_and_varied() -> None:
    ms = mutants()
    assert len(ms) == len(sources()) * MUTANTS_PER_SOURCE
    kinds = {w.split(" ")[0] for m in ms for w in m.what.split("; ")}
    for k in (
        "truncate",
        "delete",
        "duplicate",
        "copy",
        "swap",
        "number",
        "dtype",
        "remove",
        "op",
        "dim",
        "attribute",
        "graph",
    ):
        assert k in kinds, k
    # The same seed gives the same text (string seeds hash deterministically in random).
    rng_a, rng_b = random.Random("x/1"), random.Random("x/1")
    text = sources()[0][1]
    assert change_number(text, rng_a) == change_number(text, rng_b)


def test_parse_and_verify(workdir: Path) -> None:
    failures, n = [], 0
    for m in mutants():
        o = run_main(ge_opt.main, [str(_write(workdir, m))])
        n += 1
        if (why := violation(o)) is not None:
            failures.append(f"  {m.label()}\n    -> {why}")
    assert not failures, _report(failures, n)


PASS_RUNS = {
    "ge-compile": "ge-compile",
    "ge-phony-notask": "ge-phony-notask",
    "ge-lower-autofuse": "ge-lower-autofuse",
    "ge-autofuse": "ge-autofuse",
    "ge-concat-notask": "ge-concat-notask",
    "ge-pack-notask": "ge-pack-notask",
    "ge-assign-memory": "ge-phony-notask,ge-concat-notask,ge-pack-notask,ge-assign-memory",
    "ge-to-npu": "ge-phony-notask,ge-concat-notask,ge-pack-notask,ge-assign-memory,ge-to-npu",
}


@pytest.mark.parametrize("run", sorted(PASS_RUNS))
def test_passes(workdir: Path, run: str) -> None:
    ms = _verifying(str(workdir))
    assert len(ms) > 3 * len(sources()), "too few mutants verify for the passes to be exercised"
    failures, n = [], 0
    for m in ms:
        o = run_main(ge_opt.main, [str(_write(workdir, m)), "-p", PASS_RUNS[run]])
        n += 1
        if (why := violation(o)) is not None:
            failures.append(f"  {m.label()}\n    -> {why}")
    assert not failures, _report(failures, n)


def test_ge_run_on_mutants(workdir: Path) -> None:
    """ge-run (reference interpreter, ge-compile, simulator) on every verifying mutant:
    exit 1 is allowed for a mismatch report (stdout), so only stderr is judged."""
    failures, n = [], 0
    for m in _verifying(str(workdir)):
        o = run_main(ge_run.main, [str(_write(workdir, m))])
        n += 1
        if o.code == 1 and not o.stderr.strip() and "do not match" in o.stdout:
            failures.append(f"  {m.label()}\n    -> compiled graph does not match the reference")
        elif (why := violation(o)) is not None:
            failures.append(f"  {m.label()}\n    -> {why}")
    assert not failures, _report(failures, n)


# ---------------------------------------------------------------------------------------
# Mutated pass pipelines and options: the `-p` string is input too. Each mutant of a
# well-formed pipeline (a character deleted, duplicated or inserted, a truncation, an
# option value of another type or range, an option or pass name misspelt or swapped, a
# repeated option, unbalanced braces, MLIR's nested syntax, empty elements), sometimes
# with one of ge-opt's own flags, runs on an example and a generated graph; the policy is
# the IR mutants': exit 0 or one `ge-opt: error:` / located line, never a traceback.
# ---------------------------------------------------------------------------------------

PIPELINE_SEEDS = (
    "ge-compile",
    "ge-phony-notask{stage=calc},ge-concat-notask,ge-pack-notask,ge-assign-memory",
    "ge-phony-notask{stage=mark},ge-lower-autofuse,ge-autofuse{max-fusion-size=3 lifting=false}",
    "ge-lower-autofuse{enable-pass=concat,reduce split-lowering=slice max-loop-ops=8 cse=false}",
    "ge-phony-notask,ge-concat-notask,ge-pack-notask,ge-assign-memory,ge-to-npu{streams=2}",
    "ge-lower-autofuse,ge-autofuse{max-proximity=4 max-output-bytes=4096 max-input-nums-after-fuse=2}",
)
PIPELINE_MUTANTS = 200 * SCALE
OPTION_VALUES = (
    "0", "-1", "1", "2", "3", "true", "false", '"s"', "1.5", "abc", "99999999999999999999", "",
    "3,4", "concat,nope", "calc", "mark", "slice", "split", '"a b"', "-0", "+2", "1e3",
)  # fmt: skip
PIPELINE_CHARS = '{}(),= "[]-_x0;.@'
# ge-opt's own flags (not --print-ir-after-all: its IR dumps on stderr are not errors)
TOOL_FLAGS = (
    (), (), (), ("--remarks",), ("--split-input-file",), ("--verify-diagnostics",),
    ("--no-implicit-module",), ("--print-op-generic",), ("--dump-dir", "/proc/ge-xdsl-not-writable"),
)  # fmt: skip
_OPTION = re.compile(r"([A-Za-z][\w-]*)=([^ {}]*)")
_PASS = re.compile(r"(?:^|,)([A-Za-z][\w.-]*)")


def _pipe_chars(spec: str, rng: random.Random) -> tuple[str, str] | None:
    if not spec:
        return None
    i = rng.randrange(len(spec))
    how = rng.choice(("delete", "duplicate", "insert", "truncate"))
    if how == "delete":
        return spec[:i] + spec[i + 1 :], f"delete char {i}"
    if how == "duplicate":
        return spec[:i] + spec[i] + spec[i:], f"duplicate char {i}"
    if how == "insert":
        ch = rng.choice(PIPELINE_CHARS)
        return spec[:i] + ch + spec[i:], f"insert {ch!r} at {i}"
    return spec[:i], f"truncate at {i}"


INT_VALUES = ("0", "1", "2", "5", "64", "-1", "-7", "4096", "1048576", "99999999999999999999")
STR_VALUES = ("calc", "mark", "all", "slice", "split", "concat", "reduce,concat,split,transpose,gather", "nope")


def _pipe_value(spec: str, rng: random.Random) -> tuple[str, str] | None:
    """Half the time a value of the option's own kind (a pipeline that runs, with an odd
    setting), else any value."""
    opts = list(_OPTION.finditer(spec))
    if not opts:
        return None
    m = rng.choice(opts)
    old = m.group(2)
    if rng.random() < 0.5:
        v = rng.choice(OPTION_VALUES)
    elif old in ("true", "false"):
        v = "false" if old == "true" else "true"
    elif old.lstrip("-").isdigit():
        v = rng.choice(INT_VALUES)
    else:
        v = rng.choice(STR_VALUES)
    return spec[: m.start(2)] + v + spec[m.end(2) :], f"{m.group(1)}={v}"


def _pipe_option_name(spec: str, rng: random.Random) -> tuple[str, str] | None:
    opts = list(_OPTION.finditer(spec))
    if not opts:
        return None
    m = rng.choice(opts)
    others = [o.group(1) for s in PIPELINE_SEEDS for o in _OPTION.finditer(s)] + ["remarks", "nosuch"]
    k = m.group(1)
    new = rng.choice((k[:-1], k.replace("-", "_"), k + "s", rng.choice(others)))
    what = "repeat" if rng.random() < 0.2 else "rename"
    if what == "repeat":
        return spec[: m.end()] + " " + m.group() + spec[m.end() :], f"repeat option {k}"
    return spec[: m.start(1)] + new + spec[m.end(1) :], f"option {k} -> {new}"


def _pipe_pass(spec: str, rng: random.Random) -> tuple[str, str] | None:
    names = list(_PASS.finditer(spec))
    if not names:
        return None
    m = rng.choice(names)
    n = m.group(1)
    known = sorted(get_all_pass_names())
    how = rng.choice(("typo", "other", "nest", "swap", "empty"))
    if how == "typo":
        new = n[:-1]
    elif how == "other":
        new = rng.choice(known)
    elif how == "nest":
        return f"builtin.module({spec})", "wrap in builtin.module(...)"
    elif how == "swap":
        parts = spec.split(",")
        rng.shuffle(parts)
        return ",".join(parts), "shuffle at commas"
    else:
        return spec[: m.end(1)] + rng.choice((",,", ",", ", ,")) + spec[m.end(1) :], "empty element"
    return spec[: m.start(1)] + new + spec[m.end(1) :], f"pass {n} -> {new}"


def _pipe_braces(spec: str, rng: random.Random) -> tuple[str, str] | None:
    braces = [i for i, ch in enumerate(spec) if ch in "{}"]
    if not braces or rng.random() < 0.3:
        i = rng.randrange(len(spec) + 1)
        ch = rng.choice("{}")
        return spec[:i] + ch + spec[i:], f"add {ch!r} at {i}"
    i = rng.choice(braces)
    return spec[:i] + spec[i + 1 :], f"drop {spec[i]!r} at {i}"


PIPELINE_MUTATIONS = (_pipe_chars, _pipe_value, _pipe_value, _pipe_value, _pipe_option_name, _pipe_pass, _pipe_braces)


@cache
def get_all_pass_names() -> tuple[str, ...]:
    from ge_tools.registry import get_all_passes

    return tuple(get_all_passes())


@dataclass(frozen=True)
class PipelineMutant:
    seed: int
    spec: str
    flags: tuple[str, ...]
    what: str


def pipeline_mutant(seed: int) -> PipelineMutant:
    rng = random.Random(f"pipeline/{seed}")
    spec = rng.choice(PIPELINE_SEEDS)
    whats = []
    for _ in range(2 if seed % 4 == 3 else 1):
        for _attempt in range(8):
            r = rng.choice(PIPELINE_MUTATIONS)(spec, rng)
            if r is not None and r[0] != spec:
                spec, what = r
                whats.append(what)
                break
    return PipelineMutant(seed, spec, rng.choice(TOOL_FLAGS), "; ".join(whats) or "none")


def test_pipeline_mutants(workdir: Path) -> None:
    ms = [pipeline_mutant(seed) for seed in range(PIPELINE_MUTANTS)]
    assert len({m.spec for m in ms}) > PIPELINE_MUTANTS // 2, "too few distinct pipeline mutants"
    inputs = [ROOT / "examples" / "split_relu_concat.mlir", workdir / "pipeline_gen.mlir"]
    inputs[1].write_text(generate("mixed", 25, 7))
    failures, n, errors = [], 0, 0
    for m in ms:
        path = inputs[m.seed % 2]
        o = run_main(ge_opt.main, [str(path), "-p", m.spec, *m.flags])
        n += 1
        errors += o.code == 1
        if (why := violation(o)) is not None:
            failures.append(f"  pipeline seed {m.seed}: {m.what}: -p {m.spec!r} {' '.join(m.flags)}\n    -> {why}")
    assert not failures, _report(failures, n)
    # the mutants reach both sides: refused pipelines and pipelines that run
    assert n // 4 < errors < n, f"{errors} of {n} pipeline mutants failed"


def test_pipeline_mutants_are_deterministic_and_varied() -> None:
    a, b = pipeline_mutant(11), pipeline_mutant(11)
    assert a == b
    kinds = {w.split(" ")[0] for s in range(PIPELINE_MUTANTS) for w in pipeline_mutant(s).what.split("; ")}
    for k in (
        "delete",
        "duplicate",
        "insert",
        "truncate",
        "option",
        "repeat",
        "pass",
        "wrap",
        "shuffle",
        "empty",
        "add",
        "drop",
    ):
        assert k in kinds, k
    assert any("=" in w for s in range(PIPELINE_MUTANTS) for w in pipeline_mutant(s).what.split("; "))


# ---------------------------------------------------------------------------------------
# ge-run's own inputs
# ---------------------------------------------------------------------------------------

GRAPH = """ge.graph @main {
  %x = ge.Data {index = 0} : tensor<4xf16>
  %y = ge.Neg(%x) : (tensor<4xf16>) -> tensor<4xf16>
  ge.NetOutput %y : tensor<4xf16>
}
"""


def _npy_bytes(a: np.ndarray) -> bytes:
    buf = io.BytesIO()
    np.save(buf, a)
    return buf.getvalue()


def _ge_run_cases(tmp: Path) -> dict[str, tuple[list[str], str]]:
    """case -> (argv, regex the single stderr line must match)."""
    g = tmp / "g.mlir"
    g.write_text(GRAPH)
    good = _npy_bytes(np.zeros(4, np.float16))
    files = {
        "wrong_dtype.npy": _npy_bytes(np.zeros(4, np.float32)),
        "wrong_shape.npy": _npy_bytes(np.zeros((2, 2), np.float16)),
        "scalar.npy": _npy_bytes(np.float16(1)),
        "text.npy": b"not an array\n",
        "empty.npy": b"",
        "magic_only.npy": good[:6],
        "truncated_header.npy": good[:20],
        "truncated_data.npy": good[:-3],
        "bad_header.npy": good[:10]
        + b"{'descr': 'zz', 'fortran_order': False, 'shape': (4,), }".ljust(len(good) - 10 - 8)
        + good[-8:],
        "object.npy": _npy_bytes(np.array([None, 1, "a", 2.0], dtype=object)),
        "structured.npy": _npy_bytes(np.zeros(4, dtype=[("a", "f2")])),
    }
    for name, data in files.items():
        (tmp / name).write_bytes(data)
    (tmp / "adir.npy").mkdir(exist_ok=True)
    data_loc = rf"^{re.escape(str(g))}:2:3: error: ge\.Data: --input "
    cases = {name: ([str(g), "--input", str(tmp / name)], data_loc) for name in files}
    cases["directory"] = ([str(g), "--input", str(tmp / "adir.npy")], data_loc)
    cases["missing_graph"] = ([str(g), "--graph", "nope"], rf"^{re.escape(str(g))}:\d+:\d+: error: .*nope")
    cases["executions_0"] = ([str(g), "--executions", "0"], r"^ge-run: error: --executions")
    cases["executions_negative"] = ([str(g), "--executions", "-3"], r"^ge-run: error: --executions")
    cases["seed_negative"] = ([str(g), "--seed", "-1"], r"^ge-run: error: --seed")
    cases["seed_not_int"] = ([str(g), "--seed", "x"], r"^ge-run: error: argument --seed")
    cases["streams_3"] = (
        [str(g), "--streams", "3"],
        r"^ge-run: error: ge-compile: option streams: expected 1 or 2, got 3$",
    )
    cases["frozen_out_of_range"] = ([str(g), "--frozen-input", "5"], r"^\S+:\d+:\d+: error: .*frozen")
    cases["missing_file"] = ([str(tmp / "none.mlir")], r"^ge-run: error: .*none\.mlir")
    cases["file_is_directory"] = ([str(tmp)], r"^ge-run: error: ")
    return cases


def test_ge_run_bad_inputs(tmp_path: Path) -> None:
    failures = []
    cases = _ge_run_cases(tmp_path)
    for name, (argv, want) in cases.items():
        o = run_main(ge_run.main, argv)
        why = violation(o)
        if why is None and o.code != 1:
            why = f"exit code {o.code}, expected 1"
        if why is None and not re.match(want, o.stderr.strip()):
            why = f"stderr {o.stderr.strip()!r} does not match {want!r}"
        if why is not None:
            failures.append(f"  {name}: {' '.join(argv[1:])}\n    -> {why}")
    assert not failures, _report(failures, len(cases))


def test_ge_run_good_input_still_runs(tmp_path: Path) -> None:
    """The bad-input cases fail for their own reason: the same graph with a good .npy
    and default options runs and matches (exit 0)."""
    g = tmp_path / "g.mlir"
    g.write_text(GRAPH)
    np.save(tmp_path / "ok.npy", np.arange(4, dtype=np.float16))
    o = run_main(ge_run.main, [str(g), "--input", str(tmp_path / "ok.npy"), "--executions", "2"])
    assert o.code == 0, o.stderr
    assert "outputs match the reference" in o.stdout


def test_violation_detector() -> None:
    """The checker itself: each kind of bad outcome is caught, a located error is not."""
    assert violation(Outcome(0, "", "")) is None
    assert violation(Outcome(1, "", "f.mlir:3:4: error: ge.Relu: bad\n")) is None
    assert violation(Outcome(1, "", "f.mlir:3:4: warning: w\nf.mlir:3:4: error: e\n")) is None
    assert violation(Outcome(1, "", "ge-opt: error: internal error: KeyError: 'x'\n")) is not None
    assert violation(Outcome(1, "", "Traceback (most recent call last):\n  ...\nKeyError: 1\n")) is not None
    assert violation(Outcome(1, "", "f.mlir:3:4: error: a\nf.mlir:5:4: error: b\n")) is not None
    assert violation(Outcome(1, "", "error without location\n")) is not None
    assert violation(Outcome(2, "", "usage: ...\n")) is not None
    assert violation(Outcome("escaped KeyError: 1", "", "")) is not None
    o = run_main(lambda argv: (_ for _ in ()).throw(KeyError("k")), [])
    assert violation(o) is not None and "KeyError" in str(o.code)


# ---------------------------------------------------------------------------------------
# Classes of bad input: each input gets exactly one error line at the line and column
# given here (worked out by hand from how each input is built), exit 1, from ge-opt and
# from ge-run alike (both read files through ge_tools/parse.py: parse_module).
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class BadInput:
    name: str
    data: bytes
    line: int
    col: int
    message: str  # a regex searched in the error line's text after "error: "
    suffix: str = ".mlir"
    tools: tuple[str, ...] = ("ge-opt", "ge-run")


def _g(*body: str) -> str:
    """A graph `@main` with one f32 Data `%x` and the given lines between it and NetOutput:
    line 1 `ge.graph @main {`, line 2 the Data, lines 3.. the body."""
    lines = [
        "ge.graph @main {",
        "  %x = ge.Data {index = 0} : tensor<4xf32>",
        *body,
        "  ge.NetOutput %x : tensor<4xf32>",
        "}",
        "",
    ]
    return "\n".join(lines)


GOOD = _g().encode()  # 4 lines and a final newline: text appended to it is on line 5
# Line 2 with an extra attribute `a = <value>`: the value starts at column 32.
DATA_ATTR = "  %x = ge.Data {index = 0, a = "


def _deep_attr(depth: int, opener: str, closer: str, leaf: str = "0") -> bytes:
    """Line 2's Data with attribute `a` = `depth` nested brackets around `leaf`. The graph
    body's `{` and the attribute dict's `{` are 2 levels, so the 63rd opener, in the token
    that starts at column 32 + 62 * width, is the 65th level."""
    text = _g().replace("  %x = ge.Data {index = 0}", DATA_ATTR + opener * depth + leaf + closer * depth + "}")
    return text.encode()


def _bad_inputs() -> list[BadInput]:
    c: list[BadInput] = []
    utf8 = "MLIR|UTF-8"
    # -- bytes that are not UTF-8 ---------------------------------------------------------
    png = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256))
    c.append(BadInput("binary", png, 1, 1, r"byte 0x89 is not valid UTF-8 \(invalid start byte\).*looks binary"))
    c.append(
        BadInput(
            "binary_onnx",
            b"\x08\x07\x12\x07pytorch\x1a\x032.1:\xa8\x01\n" + bytes(200),
            1,
            18,
            r"byte 0xA8 is not valid UTF-8",
            ".mlir",  # an .onnx file is imported (ge-import's errors): the model's bytes as IR text
        )
    )
    c.append(
        BadInput(
            "latin1_comment",
            _g("  // caf\xe9 au lait").encode("latin-1"),
            3,
            9,
            r"byte 0xE9 is not valid UTF-8 \(invalid continuation byte\)",
        )
    )
    c.append(
        BadInput(
            "latin1_string",
            _g().replace("{index = 0}", '{index = 0, tag = "na\xefve"}').encode("latin-1"),
            2,
            37,
            r"byte 0xEF is not valid UTF-8",
        )
    )
    # the column counts characters: "é" (2 bytes) before the bad byte is one column
    c.append(
        BadInput(
            "after_multibyte",
            _g("  // é \xff").encode("utf-8").replace(b"\xc3\xbf", b"\xff"),
            3,
            8,
            r"byte 0xFF is not valid UTF-8",
        )
    )
    c.append(
        BadInput(
            "truncated_sequence",
            GOOD + b"// \xe2\x82",
            5,
            4,
            r"byte 0xE2 is not valid UTF-8 \(unexpected end of data\)",
        )
    )
    c.append(
        BadInput(
            "lone_continuation",
            _g().replace("%x = ge.Data", "%x\x80 = ge.Data").encode("latin-1"),
            2,
            5,
            r"byte 0x80 is not valid UTF-8",
        )
    )
    c.append(
        BadInput(
            "utf16_le_bom",
            _g().encode("utf-16"),
            1,
            1,
            r"the file is UTF-16 little-endian text \(byte-order mark FF FE\); " + utf8,
        )
    )
    c.append(
        BadInput(
            "utf16_be_bom",
            b"\xfe\xff" + _g().encode("utf-16-be"),
            1,
            1,
            r"the file is UTF-16 big-endian text \(byte-order mark FE FF\)",
        )
    )
    c.append(
        BadInput(
            "utf32_le_bom",
            _g().encode("utf-32"),
            1,
            1,
            r"the file is UTF-32 little-endian text \(byte-order mark FF FE 00 00\)",
        )
    )
    # UTF-16 without a byte-order mark is valid UTF-8 (ASCII and NULs): a NUL after the `g`
    c.append(BadInput("utf16_no_bom", _g().encode("utf-16-le"), 1, 2, r"Unexpected character: \\x00"))
    # -- nesting deeper than the parser's limit (64) -----------------------------------------
    c.append(BadInput("deep_list", _deep_attr(65, "[", "]"), 2, 32 + 62, "nested more than 64 levels"))
    c.append(BadInput("deep_list_huge", _deep_attr(200_000, "[", "]"), 2, 32 + 62, "nested more than 64 levels"))
    c.append(BadInput("deep_dict", _deep_attr(80, "{b = ", "}"), 2, 32 + 62 * 5, "nested more than 64 levels"))
    c.append(
        BadInput(
            "deep_tuple_type", _deep_attr(70, "tuple<", ">", "i32"), 2, 32 + 62 * 6 + 5, "nested more than 64 levels"
        )
    )
    c.append(
        BadInput(
            "deep_paren_type",
            _g()
            .replace(
                ": tensor<4xf32>\n  ge.NetOutput",
                ": " + "(" * 3000 + "tensor<4xf32>" + ")" * 3000 + "\n  ge.NetOutput",
                1,
            )
            .encode(),
            2,
            30 + 63,
            "nested more than 64 levels",
        )
    )
    # builtin.module { on each line: line k opens level k
    c.append(
        BadInput(
            "deep_modules", ("builtin.module {\n" * 5000 + "}\n" * 5000).encode(), 65, 16, "nested more than 64 levels"
        )
    )
    # a graph in a graph in ...: line k opens level k
    c.append(
        BadInput(
            "deep_graphs", ("ge.graph @g {\n" * 1000 + "}\n" * 1000).encode(), 65, 13, "nested more than 64 levels"
        )
    )
    # mixed: a module, the graph, the attr dict (3 levels), then [{c = [{c = ...: the 62nd
    # opener is the `{` of the 31st `[{c = `
    mixed = (
        "builtin.module {\n"
        + _g().replace("  %x = ge.Data {index = 0}", DATA_ATTR + "[{c = " * 500 + "0" + "}]" * 500 + "}")
        + "}\n"
    )
    c.append(BadInput("deep_mixed", mixed.encode(), 3, 32 + 30 * 6 + 1, "nested more than 64 levels"))
    # -- garbage after a comment ------------------------------------------------------------
    c.append(BadInput("comment_then_dollar", b"// a comment\n$", 2, 1, r"Unexpected character: \$"))
    c.append(BadInput("comment_then_control", b"// a comment\n\x01", 2, 1, r"Unexpected character: \\x01"))
    c.append(BadInput("comment_then_dots", b"// a comment\n.", 2, 1, r"Expected three consecutive '\.'"))
    c.append(BadInput("comment_then_hash", b"// a comment\n#", 2, 1, r"expected a name after '#'"))
    c.append(BadInput("comment_then_brace", GOOD + b"// end of graph\n}\n", 6, 1, r"expected an operation, got '}'"))
    c.append(BadInput("only_comment", b"// nothing else", 1, 16, r"expected an operation, got the end of the input"))
    c.append(BadInput("comment_crlf_then_bang", b"// a comment\r\n!", 2, 1, r"expected a name after '!'"))
    # -- graph structure --------------------------------------------------------------------
    nested = "ge.graph @main {\n  ge.graph @inner {\n    %z = ge.Data {index = 0} : tensor<4xf32>\n    ge.NetOutput %z : tensor<4xf32>\n  }\n  %x = ge.Data {index = 0} : tensor<4xf32>\n  ge.NetOutput %x : tensor<4xf32>\n}\n"
    c.append(
        BadInput(
            "graph_in_graph", nested.encode(), 2, 3, r"ge\.graph: ge\.graph @inner is nested inside ge\.graph @main"
        )
    )
    c.append(
        BadInput(
            "node_outside_graph",
            b"%x = ge.Data {index = 0} : tensor<4xf32>\n",
            1,
            1,
            r"ge\.Data: Data node 'x' is directly in the module",
        )
    )
    c.append(
        BadInput(
            "node_after_graph",
            GOOD + b"%c = ge.Const {value = dense<1.0> : tensor<2xf32>} : tensor<2xf32>\n",
            5,
            1,
            r"Const node 'c' is directly in the module",
        )
    )
    call = "  %y = ge.PartitionedCall(%x) {{f = @{}}} : (tensor<4xf32>) -> tensor<4xf32>"
    selfcall = _g(call.format("main")).replace("NetOutput %x", "NetOutput %y")
    c.append(BadInput("call_self", selfcall.encode(), 3, 3, r"PartitionedCall calls @main, the graph it is in"))
    two = _g(call.format("sub")).replace("NetOutput %x", "NetOutput %y") + _g(call.format("main")).replace(
        "@main", "@sub", 1
    ).replace("NetOutput %x", "NetOutput %y")
    c.append(
        BadInput(
            "call_cycle", two.encode(), 3, 3, r"calls @sub, which calls back into @main \(@main -> @sub -> @main\)"
        )
    )
    # -- tensor sizes -----------------------------------------------------------------------
    huge = _g().replace("tensor<4xf32>", "tensor<4611686018427387904xf32>")
    c.append(
        BadInput(
            "size_overflow",
            huge.encode(),
            2,
            3,
            r"4611686018427387904 x DT_FLOAT is too large: GE sizes tensors in int64",
        )
    )
    count = _g().replace("tensor<4xf32>", "tensor<4294967296x4294967296xi8>")
    c.append(
        BadInput(
            "count_overflow", count.encode(), 2, 3, r"has 18446744073709551616 elements, more than int64 can count"
        )
    )
    # fits GE's int64 but not this host: refused by ge-run before it allocates (ge-opt compiles it)
    big = (
        _g("  %y = ge.Relu(%x) : (tensor<4xf32>) -> tensor<4xf32>")
        .replace("NetOutput %x", "NetOutput %y")
        .replace("tensor<4xf32>", "tensor<1125899906842624xf32>")
    )
    # 2^50 f32 = 2^52 bytes, Data and Relu: twice 2^53; the first of the largest is named
    c.append(
        BadInput(
            "host_memory",
            big.encode(),
            2,
            3,
            r"ge\.Data: ge-run needs about 18014398509481984 bytes of host memory",
            tools=("ge-run",),
        )
    )
    # splat Consts: xDSL would build the N values in the parser; the type starts at column 39
    # (`dense<1.0>`), 48 (`dense<"0x0000803F">`)
    splat = _g(
        "  %c = ge.Const {value = dense<1.0> : tensor<4611686018427387904xf32>} : tensor<4611686018427387904xf32>"
    )
    c.append(
        BadInput(
            "splat_past_int64",
            splat.encode(),
            3,
            39,
            r"dense literal of 4611686018427387904 elements is larger than GE's int64",
        )
    )
    splat = _g(
        '  %c = ge.Const {value = dense<"0x0000803F"> : tensor<1125899906842624xf32>} : tensor<1125899906842624xf32>'
    )
    c.append(
        BadInput(
            "splat_host_memory",
            splat.encode(),
            3,
            48,
            r"dense literal of 1125899906842624 elements needs about 13510798882111488 bytes",
        )
    )
    empty = _g().replace("tensor<4xf32>", "tensor<0x4611686018427387904x4xf32>")
    c.append(
        BadInput(
            "numpy_empty_huge",
            empty.encode(),
            2,
            3,
            r"numpy cannot hold a 0x4611686018427387904x4 array",
            tools=("ge-run",),
        )
    )
    return c


def _check_one_error(o: Outcome, path: Path, case: BadInput) -> str | None:
    if (why := violation(o)) is not None:
        return why
    if o.code != 1:
        return f"exit code {o.code}, expected 1"
    line = [ln for ln in o.stderr.splitlines() if not NOTE_LINE.match(ln)][0]
    head = f"{path}:{case.line}:{case.col}: error: "
    if not line.startswith(head):
        return f"{line[:300]!r} is not located at {case.line}:{case.col}"
    if not re.search(case.message, line[len(head) :]):
        return f"{line[:300]!r} does not say {case.message!r}"
    return None


def _bad_input_failures(cases: Sequence[BadInput], tmp: Path, run: Callable[[str, list[str]], Outcome]) -> list[str]:
    failures = []
    for case in cases:
        path = tmp / f"{case.name}{case.suffix}"
        path.write_bytes(case.data)
        for tool in case.tools:
            if (why := _check_one_error(run(tool, [str(path)]), path, case)) is not None:
                failures.append(f"  {tool} {case.name}: {why}")
    return failures


def _in_process(tool: str, argv: list[str]) -> Outcome:
    return run_main(ge_opt.main if tool == "ge-opt" else ge_run.main, argv)


def test_bad_input_classes(tmp_path: Path) -> None:
    cases = _bad_inputs()
    assert len({c.name for c in cases}) == len(cases)
    failures = _bad_input_failures(cases, tmp_path, _in_process)
    assert not failures, _report(failures, sum(len(c.tools) for c in cases))


def test_bad_input_classes_hold_good_input_apart(tmp_path: Path) -> None:
    """The limits are where the cases put them: 64 levels of each bracket kind parse,
    verify, print and run (in this process, under pytest's deeper stack); GOOD runs."""
    ok = {
        "good": GOOD,
        "list_64": _deep_attr(62, "[", "]"),
        "dict_64": _deep_attr(62, "{b = ", "}"),
        "tuple_64": _deep_attr(62, "tuple<", ">", "i32"),
        # 62 modules, the graph, the attribute dict
        "modules_64": ("builtin.module {\n" * 62 + _g() + "}\n" * 62).encode(),
        # 0 elements; the non-zero dim's (2^61 - 1) x 4 bytes fit numpy's int64
        "at_int64_limit": _g().replace("tensor<4xf32>", "tensor<0x2305843009213693951xf32>").encode(),
    }
    failures = []
    for name, data in ok.items():
        path = tmp_path / f"{name}.mlir"
        path.write_bytes(data)
        for tool, argv in (
            ("ge-opt", [str(path)]),
            ("ge-opt", [str(path), "-p", "ge-compile"]),
            ("ge-run", [str(path), "--reference"]),
        ):
            if name == "modules_64" and tool == "ge-run":
                continue  # ge-run runs a graph of the top-level module
            o = _in_process(tool, argv)
            if o.code != 0:
                failures.append(f"  {tool} {' '.join(argv[1:])} {name}: exit {o.code}: {o.stderr.strip()[:300]}")
    assert not failures, "\n".join(failures)


# -- unterminated string literals (xDSL 0.74's string regex backtracks exponentially) -------

# One subprocess runs every case through both tools and reports (exit code, stderr) as
# JSON; its timeout is only a safety net, so that a regression fails instead of hanging
# the suite (the regex engine does not return to Python, so an in-process alarm cannot
# stop it).
_DRIVER = r"""
import contextlib, io, json, sys
from ge_tools import opt, run
results = []
for tool, argv in json.load(sys.stdin):
    err = io.StringIO()
    code = 0
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
            (opt.main if tool == "ge-opt" else run.main)(argv)
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else 1
    results.append([code, err.getvalue()])
json.dump(results, sys.stdout)
"""
SUBPROCESS_SAFETY_TIMEOUT_S = 300


def _unterminated_strings() -> list[BadInput]:
    long = "x" * 200  # 45 characters never finished before the fix
    c = []
    # the repro: the string runs into the rest of the line, and more lines follow
    text = _g().replace(
        "{index = 0}", '{index = 0, group = "hccl_world_group} : tensor<4xf32> // and a long comment ' + long
    )
    c.append(
        BadInput(
            "attr_to_end_of_line",
            text.encode(),
            2,
            36,
            r"string literal is not closed: no '\"' before the end of its line",
        )
    )
    c.append(
        BadInput(
            "at_end_of_file", GOOD + b'"' + long.encode() * 50, 5, 1, r"not closed: no '\"' before the end of the file"
        )
    )
    c.append(BadInput("first_token", b'"' + long.encode(), 1, 1, r"not closed: no '\"' before the end of the file"))
    c.append(
        BadInput(
            "symbol_name",
            b'ge.graph @"main' + long.encode() + b" {\n}\n",
            1,
            11,
            r"not closed: no '\"' before the end of its line",
        )
    )
    escapes = _g().replace("{index = 0}", '{index = 0, s = "a\\"b\\\\c\\n\\t\\41' + "y" * 100 + "}")
    c.append(BadInput("with_escapes", escapes.encode(), 2, 32, r"not closed: no '\"' before the end of its line"))
    bad_escape = _g().replace("{index = 0}", '{index = 0, s = "' + "z" * 100 + "\\q" + "z" * 100 + '"}')
    c.append(BadInput("unknown_escape", bad_escape.encode(), 2, 33 + 100, r"unknown escape '\\q' in string literal"))
    dense = _g('  %c = ge.Const {value = dense<"0x' + "00" * 100 + "> : tensor<4xf32>} : tensor<4xf32>")
    c.append(BadInput("dense_hex", dense.encode(), 3, 32, r"not closed: no '\"' before the end of its line"))
    backslash_eol = _g().replace("{index = 0}", '{index = 0, s = "' + "w" * 100 + "\\\n}")
    c.append(
        BadInput(
            "backslash_at_end_of_line", backslash_eol.encode(), 2, 32, r"not closed: no '\"' before the end of its line"
        )
    )
    return c


def test_unterminated_strings_fail_fast_with_a_located_error(tmp_path: Path) -> None:
    import json
    import subprocess

    cases = _unterminated_strings()
    jobs = []
    for case in cases:
        path = tmp_path / f"{case.name}{case.suffix}"
        path.write_bytes(case.data)
        jobs += [(tool, [str(path)]) for tool in case.tools]
    env = {k: v for k, v in os.environ.items() if k != "GE_XDSL_TRACEBACK"}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")])
    try:
        proc = subprocess.run(
            [sys.executable, "-c", _DRIVER], input=json.dumps(jobs), capture_output=True, text=True,
            cwd=ROOT, env=env, timeout=SUBPROCESS_SAFETY_TIMEOUT_S,
        )  # fmt: skip
    except subprocess.TimeoutExpired:
        pytest.fail(
            f"the unterminated-string inputs did not finish in {SUBPROCESS_SAFETY_TIMEOUT_S} s: the lexer hangs"
        )
    assert proc.returncode == 0, proc.stderr
    results = iter(json.loads(proc.stdout))

    def replay(tool: str, argv: list[str]) -> Outcome:
        code, err = next(results)
        return Outcome(code, "", err)

    failures = _bad_input_failures(cases, tmp_path, replay)
    assert not failures, _report(failures, len(jobs))
