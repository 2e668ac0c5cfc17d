"""ge-opt renders the result's text in a forked child beside the result's verify
(ge_fast/beside.py): the same output, the same errors, and no output when the verify
fails. Each case runs ge-opt in a fresh process (a pytest worker has threads, where
ge-opt does not fork), counting the texts the child handed over."""

from __future__ import annotations

import functools
import subprocess
import sys
from pathlib import Path

import pytest

from bench.gen_graphs import generate
from ge_fast.beside import MIN_INPUT_BYTES

ROOT = Path(__file__).resolve().parents[2]

# ge-opt's main with two test passes, PrintBeside counted (started / texts handed over),
# and, with CHILD_FAILS, a render that raises in the child only.
DRIVER = r"""
import dataclasses, os, sys
from xdsl.passes import ModulePass
from ge_fast import beside
from ge_tools import opt

@dataclasses.dataclass(frozen=True)
class BreakIR(ModulePass):
    name = "test-break-ir"  # removes ReduceMaxD's required axes: IR that does not verify
    def apply(self, ctx, op):
        for o in op.walk():
            if o.name == "ge.ReduceMaxD":
                del o.attributes["axes"]

@dataclasses.dataclass(frozen=True)
class Noop(ModulePass):
    name = "test-noop"
    def apply(self, ctx, op):
        pass

class Main(opt.GeOptMain):
    def register_all_passes(self):
        super().register_all_passes()
        for cls in (BreakIR, Noop):
            self.register_pass(cls.name, lambda cls=cls: cls)

counts = {"started": 0, "texts": 0}
start, text = beside.PrintBeside.start, beside.PrintBeside.text

def counted_start(render):
    job = start(render)
    counts["started"] += job is not None
    return job

def counted_text(self):
    t = text(self)
    counts["texts"] += t is not None
    return t

beside.PrintBeside.start, beside.PrintBeside.text = staticmethod(counted_start), counted_text
parent = os.getpid()
if os.environ.get("CHILD_FAILS"):
    render = opt.GeOptMain.output_resulting_program
    def failing(self, prog):
        if os.getpid() != parent:
            raise RuntimeError("the child's render fails")
        return render(self, prog)
    opt.GeOptMain.output_resulting_program = failing
code = 0
try:
    opt.run_tool(lambda: Main(sys.argv[1:]).run(), "ge-opt")
except SystemExit as e:
    code = e.code
sys.stdout.flush()
print(f"beside: {counts['started']} {counts['texts']}", file=sys.stderr)
sys.exit(code)
"""


def _ge_opt(*args: str, env: dict[str, str] | None = None) -> tuple[int, str, str, tuple[int, int]]:
    import os

    r = subprocess.run(
        [sys.executable, "-c", DRIVER, *args],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=ROOT,
        env={**os.environ, **(env or {})},
    )
    *err, last = r.stderr.splitlines()
    assert last.startswith("beside: "), r.stderr
    started, texts = (int(x) for x in last.split()[1:])
    return r.returncode, r.stdout, "\n".join(err), (started, texts)


@functools.cache
def _in_process_print(path: str, flags: tuple[str, ...]) -> tuple[int, str, str, tuple[int, int]]:
    """ge-compile's result on `path` printed in-process (--disable-threading), run once per
    flags: the reference two tests compare the child's text with."""
    return _ge_opt(path, "-p", "ge-compile", "--disable-threading", *flags)


@pytest.fixture(scope="module")
def large(tmp_path_factory) -> Path:
    """A generated graph of more than MIN_INPUT_BYTES, with a ReduceMaxD (mixed)."""
    f = tmp_path_factory.mktemp("beside") / "mixed.mlir"
    f.write_text(generate("mixed", 800, 3))
    assert f.stat().st_size >= MIN_INPUT_BYTES and "ge.ReduceMaxD" in f.read_text()
    return f


@pytest.mark.parametrize("flags", [[], ["--print-op-generic"], ["--verify-each"]])
def test_the_child_s_text_is_the_in_process_print(large, flags):
    """ge-compile's result: the child renders it (one text handed over), byte for byte
    what --disable-threading prints after its verify."""
    code, out, err, counts = _ge_opt(str(large), "-p", "ge-compile", *flags)
    assert (code, err, counts) == (0, "", (1, 1))
    code2, out2, err2, counts2 = _in_process_print(str(large), tuple(flags))
    assert (code2, err2, counts2) == (0, "", (0, 0))
    assert out == out2 and "npu.model" in out


def test_a_small_input_is_printed_in_process(tmp_path):
    """Under MIN_INPUT_BYTES the fork would cost what it saves: no child."""
    f = tmp_path / "small.mlir"
    f.write_text(generate("chain", 40, 0))
    assert f.stat().st_size < MIN_INPUT_BYTES
    code, out, err, counts = _ge_opt(str(f), "-p", "ge-compile")
    assert (code, err, counts) == (0, "", (0, 0)) and "npu." in out


def test_an_invalid_result_prints_nothing_and_names_the_pass(large, tmp_path):
    """The result does not verify: the child's text is dropped (started, never handed
    over), nothing is written, and the error is the one --disable-threading reports."""
    o = tmp_path / "out.mlir"
    code, out, err, counts = _ge_opt(str(large), "-p", "test-noop,test-break-ir,test-noop", "-o", str(o))
    assert code == 1 and counts == (1, 0) and out == ""
    assert not o.exists() or o.read_text() == ""
    assert len(err.splitlines()) == 1 and "requires attribute 'axes'" in err and "(after pass test-break-ir)" in err
    code2, _, err2, counts2 = _ge_opt(
        str(large), "-p", "test-noop,test-break-ir,test-noop", "--disable-threading", "-o", str(o)
    )
    assert (code2, err2, counts2) == (1, err, (0, 0))


def test_a_failing_child_leaves_the_print_to_this_process(large):
    """The child's render raises: no text comes back, ge-opt prints in-process, the same
    output as without a child."""
    code, out, err, counts = _ge_opt(str(large), "-p", "ge-compile", env={"CHILD_FAILS": "1"})
    assert (code, err, counts) == (0, "", (1, 0))
    _, out2, _, _ = _in_process_print(str(large), ())
    assert out == out2
