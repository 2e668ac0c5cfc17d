"""Inputs the tools used to read or allocate without bound, and inputs they used to refuse.

* an input file larger than the cap (--max-input-size; 256M of IR text, 2G of ONNX by
  default) is refused with one line before it is read whole: an endless device
  (/dev/zero), a pipe, a regular file (by its size: nothing is read), from ge-opt,
  ge-run and ge-import; an ONNX external-data entry is read for its tensor's bytes only;
* an .npy input's header is compared with the graph's input before its data is read: a
  header claiming 10^12 elements is refused without allocating them;
* a Fortran-ordered .npy input, or any array that is not C-contiguous, runs: the simulator
  copies an input it cannot use in place into the model's own buffer (GE's
  CopyInputForNoZeroCopy).
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper

from conftest import ROOT, parse, run_cli
from ge_tools import import_onnx
from ge_tools import opt as ge_opt
from ge_tools import run as ge_run
from ge_tools.cli_args import MAX_ONNX_BYTES, MAX_TEXT_BYTES, parse_size

TOOLS: dict[str, Callable[[list[str]], None]] = {
    "ge-opt": ge_opt.main,
    "ge-run": ge_run.main,
    "ge-import": import_onnx.main,
}


def run_tool(tool: str, *args: str) -> tuple[int, str, str]:
    return run_cli(TOOLS[tool], args)


def one_error(tool: str, *args: str) -> str:
    code, out, err = run_tool(tool, *args)
    lines = err.splitlines()
    assert code == 1 and len(lines) == 1, (tool, out, err)
    assert "Traceback" not in err and "internal error" not in err, err
    return lines[0]


def relu_model(shape=(2, 3), elem: int = T.FLOAT) -> onnx.ModelProto:
    g = h.make_graph(
        [h.make_node("Relu", ["x"], ["y"], name="relu")],
        "g",
        [h.make_tensor_value_info("x", elem, list(shape))],
        [h.make_tensor_value_info("y", elem, None)],
    )
    m = h.make_model(g, opset_imports=[h.make_opsetid("", 17)])
    m.ir_version = 8
    return m


# ---------------------------------------------------------------------------------------
# The cap on an input's size
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("tool", ["ge-opt", "ge-run", "ge-import"])
def test_endless_device_is_refused_at_the_cap(tool: str) -> None:
    line = one_error(tool, "/dev/zero", "--max-input-size", "64K")
    assert line == (
        "/dev/zero: error: the input goes past 65536 bytes, the cap on an input's size "
        "(raise it with --max-input-size SIZE)"
    )


@pytest.mark.parametrize(
    ("tool", "suffix"), [("ge-opt", ".mlir"), ("ge-run", ".mlir"), ("ge-import", ".onnx"), ("ge-opt", ".onnx")]
)
def test_enormous_regular_file_is_refused_by_its_size_at_the_default_cap(
    tmp_path: Path, tool: str, suffix: str
) -> None:
    """A sparse file past the default cap: refused by its size, before a byte is read (the
    test's memory stays far below the file's size)."""
    cap = MAX_ONNX_BYTES if suffix == ".onnx" else MAX_TEXT_BYTES
    p = tmp_path / f"big{suffix}"
    with open(p, "wb") as f:
        f.truncate(cap + 1)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    line = one_error(tool, str(p))
    assert line == (
        f"{p}: error: the input has {cap + 1} bytes, more than the cap on an input's size, {cap} "
        "(raise it with --max-input-size SIZE)"
    )
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 64 << 10  # KiB: nothing read


def test_files_within_the_cap_and_a_raised_cap(tmp_path: Path) -> None:
    src = ROOT / "examples" / "softmax_like.mlir"
    size = src.stat().st_size
    assert run_tool("ge-opt", str(src), "--max-input-size", str(size))[0] == 0  # exactly the cap: read
    assert "has" in one_error("ge-opt", str(src), "--max-input-size", str(size - 1))
    assert "has" in one_error("ge-run", str(src), "--max-input-size", str(size - 1))
    p = tmp_path / "m.onnx"
    onnx.save(relu_model(), str(p))
    n = p.stat().st_size
    assert "has" in one_error("ge-import", str(p), "--max-input-size", str(n - 1))
    assert "has" in one_error("ge-run", str(p), "--max-input-size", str(n - 1))
    code, out, err = run_tool("ge-import", str(p), "--max-input-size", str(n))
    assert code == 0 and "ge.Relu" in out, err


def test_pipe_on_stdin_is_refused_at_the_cap() -> None:
    exe = Path(sys.executable).parent / "ge-opt"
    text = (ROOT / "examples" / "softmax_like.mlir").read_bytes()
    p = subprocess.run([str(exe), "-", "--max-input-size", "100"], input=text, capture_output=True)
    assert p.returncode == 1 and p.stdout == b""
    assert p.stderr.decode().splitlines() == [
        "<stdin>: error: the input goes past 100 bytes, the cap on an input's size (raise it with --max-input-size SIZE)"
    ]
    assert subprocess.run([str(exe), "-"], input=text, capture_output=True).returncode == 0


@pytest.mark.parametrize(
    ("text", "n"), [("123", 123), ("64K", 64 << 10), ("512M", 512 << 20), ("4g", 4 << 30), ("1GiB", 1 << 30)]
)
def test_sizes(text: str, n: int) -> None:
    assert parse_size(text) == n


def test_bad_size_is_an_argument_error() -> None:
    line = one_error("ge-opt", str(ROOT / "examples" / "softmax_like.mlir"), "--max-input-size", "5X")
    assert line.startswith("ge-opt: error: argument --max-input-size: '5X' is not a size")


def test_help_documents_the_cap() -> None:
    for tool in TOOLS:
        code, out, _ = run_tool(tool, "--help")
        assert code == 0 and "--max-input-size SIZE" in out and "external data is not counted" in " ".join(out.split())


def test_external_data_is_read_for_its_tensor_only(tmp_path: Path) -> None:
    """An external-data location naming an endless device, or a length past the tensor's
    bytes: one error line, without reading the device."""
    w = np.arange(6, dtype=np.float32).reshape(2, 3)
    g = h.make_graph(
        [h.make_node("Add", ["x", "w"], ["y"], name="add")],
        "g",
        [h.make_tensor_value_info("x", T.FLOAT, [2, 3])],
        [h.make_tensor_value_info("y", T.FLOAT, None)],
        initializer=[numpy_helper.from_array(w, "w")],
    )
    m = h.make_model(g, opset_imports=[h.make_opsetid("", 17)])
    m.ir_version = 8
    p = tmp_path / "ext.onnx"
    onnx.save(m, str(p), save_as_external_data=True, location="w.bin", size_threshold=0)
    os.remove(tmp_path / "w.bin")
    os.symlink("/dev/zero", tmp_path / "w.bin")  # zeros without end
    code, out, err = run_tool("ge-import", str(p))  # the entry's length, 24: the tensor's bytes only
    assert code == 0 and "dense<0.000000e+00> : tensor<2x3xf32>" in out, err
    m = onnx.load(str(p), load_external_data=False)
    entries = m.graph.initializer[0].external_data
    kept = [(e.key, e.value) for e in entries if e.key != "length"]
    del entries[:]
    for k, v in kept:
        entries.add(key=k, value=v)
    onnx.save(m, str(p))  # no length: the tensor's 24 bytes, and one more to tell a longer file
    assert "gives 25 bytes, a float tensor of shape [2, 3] has 24" in one_error("ge-import", str(p))
    entries.add(key="length", value=str(1 << 40))
    onnx.save(m, str(p))
    assert "external data entry says 1099511627776 bytes, a float tensor of shape [2, 3] has 24" in one_error(
        "ge-import", str(p)
    )


# ---------------------------------------------------------------------------------------
# .npy inputs: the header first; any memory order
# ---------------------------------------------------------------------------------------


def _npy(path: Path, shape, descr: str = "<f4", fortran: bool = False, data: bytes = b"", version=(1, 0)) -> Path:
    with open(path, "wb") as f:
        header = {"descr": descr, "fortran_order": fortran, "shape": tuple(shape)}
        if version == (1, 0):
            np.lib.format.write_array_header_1_0(f, header)
        else:
            np.lib.format.write_array_header_2_0(f, header)
        f.write(data)
    return path


@pytest.mark.parametrize(
    ("shape", "descr", "version", "pattern"),
    [
        (
            (10**6, 10**6),
            "<f4",
            (1, 0),
            r"is an array of shape 1000000x1000000 and dtype float32, but the graph expects",
        ),
        ((10**12,), "<f4", (2, 0), r"is an array of shape 1000000000000 and dtype float32"),
        ((2, 3), "<i8", (1, 0), r"is an array of shape 2x3 and dtype int64, but the graph expects tensor<2x3xf32>"),
        ((2, 3), "<f4", (1, 0), r"not a readable \.npy array: it holds 4 bytes of data, its header says 24"),
    ],
    ids=["10^12-2d", "10^12-v2", "dtype", "short-data"],
)
def test_npy_header_is_compared_before_the_data_is_read(tmp_path: Path, shape, descr, version, pattern: str) -> None:
    src = tmp_path / "relu.mlir"
    src.write_text(
        "ge.graph @main {\n  %x = ge.Data {index = 0} : tensor<2x3xf32>\n  %y = ge.Relu(%x) : (tensor<2x3xf32>) -> "
        "tensor<2x3xf32>\n  ge.NetOutput %y : tensor<2x3xf32>\n}\n"
    )
    npy = _npy(tmp_path / "in.npy", shape, descr, data=b"\0" * 4, version=version)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    line = one_error("ge-run", str(src), "--input", str(npy))
    assert line.startswith(f"{src}:2:") and "error: ge.Data: --input" in line
    import re

    assert re.search(pattern, line), line
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 64 << 10  # KiB


@pytest.mark.parametrize(("dtype", "mlir", "elem"), [(np.float32, "f32", T.FLOAT), (np.float16, "f16", T.FLOAT16)])
@pytest.mark.parametrize("suffix", [".mlir", ".onnx"])
def test_fortran_ordered_npy_runs(tmp_path: Path, dtype, mlir: str, elem: int, suffix: str) -> None:
    a = np.asfortranarray(((np.arange(24).reshape(4, 6) - 11) / 7).astype(dtype))
    npy = tmp_path / "in.npy"
    np.save(npy, a)
    assert np.load(npy).flags.f_contiguous and not np.load(npy).flags.c_contiguous  # numpy keeps the order
    if suffix == ".onnx":
        src = tmp_path / "m.onnx"
        onnx.save(relu_model((4, 6), elem), str(src))
    else:
        src = tmp_path / "m.mlir"
        t = f"tensor<4x6x{mlir}>"
        src.write_text(
            f"ge.graph @main {{\n  %x = ge.Data {{index = 0}} : {t}\n  %y = ge.Relu(%x) : ({t}) -> {t}\n"
            f"  ge.NetOutput %y : {t}\n}}\n"
        )
    out_dir = tmp_path / "out"
    code, out, err = run_tool("ge-run", str(src), "--input", str(npy), "--executions", "2", "--save-dir", str(out_dir))
    assert code == 0 and "outputs match the reference" in out, out + err
    saved = [s for s in sorted(out_dir.glob("*.npy")) if "input" not in s.name]
    assert saved and all(np.array_equal(np.load(s), np.maximum(a, 0)) for s in saved), saved


def test_simulator_copies_an_input_it_cannot_use_in_place() -> None:
    """The loaded model takes Fortran-ordered and strided arrays: the same outputs as
    their C-ordered copies; the copy lives in the model's own buffer, whose address stays
    put across executions."""
    from ge_tools.pipeline import GeCompilePass
    from ge_tools.registry import make_context
    from ge_tools.run import find_model
    from runtime.simulator import load

    m = parse((ROOT / "examples" / "softmax_like.mlir").read_text())
    GeCompilePass().apply(make_context(), m)
    model = find_model(m, "main")
    assert model is not None
    loaded = load(model)
    rng = np.random.default_rng(3)
    n_in = sum(1 for r in loaded.region_sizes if r.startswith("input:"))
    shapes = [tuple(loaded.io_types[f"input:{k}"].get_shape()) for k in range(n_in)]
    ins = [rng.uniform(-1, 1, s).astype(np.float32) for s in shapes]
    want = [o.copy() for o in loaded.execute([x.copy() for x in ins])]
    fortran = [np.asfortranarray(x) for x in ins]
    got = loaded.execute(fortran)
    assert all(np.array_equal(g, w) for g, w in zip(got, want))
    first = {r: b.__array_interface__["data"][0] for r, b in loaded.copied_inputs.items()}
    assert first  # copied
    strided = [np.repeat(x, 2, axis=-1)[..., ::2] for x in ins]  # every other element of a wider array
    assert not any(x.flags.c_contiguous for x in strided)
    got = loaded.execute(strided)
    assert all(np.array_equal(g, w) for g, w in zip(got, want))
    assert {r: b.__array_interface__["data"][0] for r, b in loaded.copied_inputs.items()} == first
