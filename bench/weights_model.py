"""The model and the peak-memory probe that bench/bench_weights.py and
tests/tools/test_weights.py share.

- `make_model(path, k, n)`: a valid ONNX model, MatMul x [1, k] times one float32
  initializer W [k, n] (random, of `seed`): its weight is the model's bytes, its feature
  map a few kilobytes.
- `measure(cmd)`: one process running `cmd`, started by a small wrapper so that its peak
  resident memory is its own (a child's ru_maxrss starts at its parent's resident size:
  the fork copies the parent's mappings before the exec), with its wall and CPU seconds
  and exit code.
- `phase_peaks(args)`: ge-run ARGS in a process of its own, the peak resident memory of
  each of its phases (read, compile, reference, simulate, error bounds, compare,
  onnxruntime) above the resident memory at the phase's start: where a copy is made.
"""

from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np


def make_model(path: Path, k: int, n: int, seed: int = 0) -> np.ndarray:
    """Write the model to `path`; return W."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    w = np.random.default_rng(seed).standard_normal((k, n), dtype=np.float32)
    g = helper.make_graph(
        [helper.make_node("MatMul", ["x", "W"], ["y"], name="mm")],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, k])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, n])],
        [numpy_helper.from_array(w, "W")],
    )
    onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)]), str(path))
    return w


_WRAPPER = """
import os, subprocess, sys, time
t0 = time.perf_counter()
p = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
err = p.stderr.read()
_, status, usage = os.wait4(p.pid, 0)
sys.stderr.write(err.decode()[-2000:])
print(usage.ru_maxrss * 1024, time.perf_counter() - t0, usage.ru_utime + usage.ru_stime,
      os.waitstatus_to_exitcode(status))
"""


@dataclass(frozen=True)
class Usage:
    rss: int  # peak resident bytes (ru_maxrss of exactly that child)
    wall: float
    cpu: float  # user + system seconds
    code: int  # exit code
    stderr: str  # its last 2,000 characters


def measure(cmd: list[str]) -> Usage:
    """Peak RSS, wall and CPU seconds and exit code of one process running `cmd`."""
    r = subprocess.run([sys.executable, "-c", _WRAPPER, *cmd], capture_output=True, text=True, check=True)
    rss, wall, cpu, code = r.stdout.split()
    return Usage(int(rss), float(wall), float(cpu), int(code), r.stderr)


# ge-run's phases (ge_tools/run.py's functions, looked up by name when called)
PHASES = (
    "read_input",
    "compile_module",
    "_evaluate",
    "simulate_model",
    "output_error_bounds",
    "compare_runs",
    "compare_with_onnx_model",
)

_PHASE_DRIVER = """
import functools, sys
from ge_tools import run

def status(key):
    for line in open("/proc/self/status"):
        if line.startswith(key):
            return int(line.split()[1]) * 1024

def wrap(name):
    real = getattr(run, name)

    @functools.wraps(real)
    def probed(*a, **k):
        start = status("VmRSS:")
        with open("/proc/self/clear_refs", "w") as f:  # VmHWM from here (proc(5): 5)
            f.write("5")
        try:
            return real(*a, **k)
        finally:
            print("phase", name, start, status("VmHWM:"), file=sys.__stderr__, flush=True)

    setattr(run, name, probed)

for name in sys.argv[1].split(","):
    wrap(name)
run.main(sys.argv[2:])
"""


def phase_peaks(args: list[str]) -> list[tuple[str, int, int]]:
    """(phase, resident bytes at its start, peak resident bytes during it) per phase of
    `ge-run ARGS` in the order they ran (Linux: /proc/self/clear_refs resets the peak)."""
    r = subprocess.run(
        [sys.executable, "-c", _PHASE_DRIVER, ",".join(PHASES), *args], capture_output=True, text=True, check=False
    )
    if r.returncode != 0:
        raise SystemExit(f"ge-run {' '.join(args)} failed:\n{r.stderr[-2000:]}")
    rows = [line.split() for line in r.stderr.splitlines() if line.startswith("phase ")]
    return [(name, int(start), int(peak)) for _, name, start, peak in rows]
