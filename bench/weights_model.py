"""The model and the peak-memory probe that bench/bench_weights.py and
tests/tools/test_weights.py share.

- `make_model(path, k, n)`: a valid ONNX model, MatMul x [1, k] times one float32
  initializer W [k, n] (random, of `seed`): its weight is the model's bytes, its feature
  map a few kilobytes.
- `measure(cmd)`: one process running `cmd`, started by a small wrapper so that its peak
  resident memory is its own (a child's ru_maxrss starts at its parent's resident size:
  the fork copies the parent's mappings before the exec), with its wall and CPU seconds
  and exit code.
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
