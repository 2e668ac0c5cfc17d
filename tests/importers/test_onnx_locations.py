"""Every error and remark about an ONNX model names its ONNX node, through the whole
pipeline: `model.onnx: node 'ga0' (Gather): error: ...`, never `model.onnx:9:1` (a node's
number read as a line and a column of a binary file) nor `:0:1` / `<unknown>:0:0`.

Checked on the zoo's models and on generated ones: the remarks of every pass of
ge-compile (ge-opt --remarks and --remarks-json), an error of a pass (constant folding
finds a gather index out of range), of the reference interpreter and of the simulator (a
write into a live input buffer), each through the tools' entry points; `.mlir` inputs keep
`FILE:LINE:COL`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper

from conftest import ROOT, run_cli
from ge_dialect.diagnostics import Remark
from ge_tools import opt as ge_opt
from ge_tools import run as ge_run
from report.remarks import parse_location, remark_from_json, remark_to_json

ZOO = sorted((ROOT / "examples" / "zoo").glob("*.onnx"))
TOOLS: dict[str, Callable[[list[str]], None]] = {"ge-opt": ge_opt.main, "ge-run": ge_run.main}
# what an ONNX location names: a node, an input, an initializer, the graph (or its outputs)
ELEMENT = r"(node '[^']+' \([A-Za-z]+\)|input '[^']+'|initializer '[^']+'|graph '[^']*'( outputs)?)"


def run_tool(tool: str, *args: str) -> tuple[int, str, str]:
    return run_cli(TOOLS[tool], args)


def model(nodes, inputs, outputs, inits=None, opset: int = 17, name: str = "g") -> onnx.ModelProto:
    g = h.make_graph(
        nodes,
        name,
        [h.make_tensor_value_info(n, e, s) for n, e, s in inputs],
        [h.make_tensor_value_info(n, T.UNDEFINED, None) for n in outputs],
        initializer=[numpy_helper.from_array(a, n) for n, a in (inits or {}).items()],
    )
    for o in g.output:
        o.ClearField("type")
    m = h.make_model(g, opset_imports=[h.make_opsetid("", opset)])
    m.ir_version = 8
    return m


def generated_models() -> dict[str, onnx.ModelProto]:
    """Small models of several shapes: a multi-output Split, a Constant node, a MatMul
    chain with a Softmax, a Conv with a Concat skip."""
    rng = np.random.default_rng(5)
    return {
        "split": model(
            [
                h.make_node("Constant", [], ["k"], name="kc", value=numpy_helper.from_array(np.float32(2.0))),
                h.make_node("Split", ["x"], ["a", "b"], name="sp", axis=1, num_outputs=2),
                h.make_node("Mul", ["a", "k"], ["m"], name="mul"),
                h.make_node("Concat", ["m", "b"], ["y"], name="cat", axis=1),
            ],
            [("x", T.FLOAT, [4, 8])],
            ["y", "b"],
            opset=18,
        ),
        "mlp": model(
            [
                h.make_node("MatMul", ["x", "w"], ["h"], name="fc1"),
                h.make_node("Relu", ["h"], ["r"], name="act"),
                h.make_node("MatMul", ["r", "w2"], ["z"], name="fc2"),
                h.make_node("Softmax", ["z"], ["y"], name="sm", axis=-1),
            ],
            [("x", T.FLOAT, [3, 16])],
            ["y"],
            {
                "w": rng.standard_normal((16, 32)).astype(np.float32),
                "w2": rng.standard_normal((32, 5)).astype(np.float32),
            },
        ),
        "conv": model(
            [
                h.make_node("Conv", ["x", "w"], ["c"], name="conv0", pads=[1, 1, 1, 1]),
                h.make_node("Sigmoid", ["c"], ["s"], name="sig"),
                h.make_node("Concat", ["s", "x"], ["y"], name="skip", axis=1),
            ],
            [("x", T.FLOAT16, [1, 2, 6, 6])],
            ["y"],
            {"w": rng.standard_normal((3, 2, 3, 3)).astype(np.float16)},
            name="",  # an unnamed graph
        ),
    }


def sources(tmp_path: Path) -> list[Path]:
    paths = list(ZOO)
    for k, m in generated_models().items():
        p = tmp_path / f"{k}.onnx"
        onnx.save(m, str(p))
        paths.append(p)
    return paths


# ---------------------------------------------------------------------------------------
# Remarks
# ---------------------------------------------------------------------------------------


def test_every_remark_of_ge_compile_names_an_onnx_element(tmp_path: Path) -> None:
    for src in sources(tmp_path):
        extra = ["--dynamic-dims"] if "dynamic" in src.name else []
        code, _, err = run_tool("ge-opt", str(src), "-p", "ge-compile", "--remarks", *extra)
        assert code == 0, err
        lines = err.splitlines()
        assert len(lines) > 3, (src, err)
        bad = [ln for ln in lines if not re.match(re.escape(str(src)) + ": " + ELEMENT + ": remark: ", ln)]
        assert not bad, (src, bad[:5])
        assert not re.search(r"\.onnx:\d+:\d+|<unknown>", err), src
        # the node remarks name the nodes the model has
        nodes = {n.name for n in onnx.load(str(src)).graph.node}
        named = set(re.findall(r": node '([^']+)' \(", err))
        assert named and named <= nodes, (src, named - nodes)


def test_remarks_json_keeps_the_element(tmp_path: Path) -> None:
    src = sources(tmp_path)[-2]  # the generated MLP
    out = tmp_path / "r.json"
    code, _, err = run_tool("ge-opt", str(src), "-p", "ge-compile", "--remarks-json", str(out))
    assert code == 0, err
    remarks = json.loads(out.read_text())["remarks"]
    assert remarks
    for r in remarks:
        loc = r["location"]
        assert loc["file"] == str(src) and loc["line"] == 0 and re.fullmatch(ELEMENT, loc["element"]), loc
        back = remark_from_json(r)
        assert back.location == f"{src}: {loc['element']}"
        assert remark_to_json(back) == r
    assert {"node 'fc1' (MatMul)", "input 'x'"} <= {r["location"]["element"] for r in remarks}


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("m.onnx: node 'a:b' (Add)", {"file": "m.onnx", "line": 0, "col": 0, "element": "node 'a:b' (Add)"}),
        ("d/m x.onnx: input 'x'", {"file": "d/m x.onnx", "line": 0, "col": 0, "element": "input 'x'"}),
        ("f.mlir:3:5", {"file": "f.mlir", "line": 3, "col": 5}),
        ("<unknown>:0:0", {"file": "<unknown>", "line": 0, "col": 0}),
    ],
)
def test_parse_location_forms(text: str, want: dict) -> None:
    assert parse_location(text) == want
    assert remark_from_json(remark_to_json(Remark(text, "m"))).location == text


# ---------------------------------------------------------------------------------------
# Errors after import: a pass, the reference interpreter, the simulator
# ---------------------------------------------------------------------------------------


def _computed_gather(k: int) -> onnx.ModelProto:
    """x[Shape(x)[0] + k - 4 ... ]: the index is found only by folding Shape -> Gather."""
    return model(
        [
            h.make_node("Relu", ["x"], ["r"], name="re0"),
            h.make_node("Shape", ["x"], ["s"], name="sh0"),
            h.make_node("Gather", ["s", "zero"], ["i"], name="ga_s", axis=0),
            h.make_node("Gather", ["r", "i"], ["y"], name="ga0", axis=0),
        ],
        [("x", T.FLOAT, [4, 3])],
        ["y"],
        {"zero": np.array([0], np.int64)},
    )


def test_an_error_found_by_a_pass_names_the_node(tmp_path: Path) -> None:
    p = tmp_path / "g.onnx"
    onnx.save(_computed_gather(0), str(p))
    code, out, err = run_tool("ge-opt", str(p), "-p", "ge-compile")
    assert code == 1 and out == ""
    assert err.splitlines() == [
        f"{p}: node 'ga0' (Gather): error: ge.GatherV2: index 4 at [0] of its constant indices is out of range for "
        "dim 0 of size 4 (valid: [-4, 3]): the graph would fail when run"
    ]
    # ge-run: the reference interpreter meets it first, at the same node
    code, out, err = run_tool("ge-run", str(p))
    assert code == 1 and re.fullmatch(
        re.escape(str(p)) + r": node 'ga0' \(Gather\): error: ge\.GatherV2: index 4 is out of range.*\n", err
    ), err


def test_a_simulator_fault_names_the_node(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A Relu made to write into its graph input's buffer (the user's `reuse_input`, added
    after import): the simulator's fault is located at the Relu's ONNX node."""
    from xdsl.dialects.builtin import ArrayAttr, IntegerAttr, IntegerType

    from importers import onnx as onnx_importer

    m = model([h.make_node("Relu", ["x"], ["y"], name="act/relu")], [("x", T.FLOAT16, [4, 16])], ["y"])
    p = tmp_path / "fault.onnx"
    onnx.save(m, str(p))
    real = onnx_importer.load_model

    def load_with_reuse(*args, **kwargs):
        module = real(*args, **kwargs)
        for op in module.walk():
            if op.name == "ge.Relu":
                op.attributes["reuse_input"] = ArrayAttr([IntegerAttr(1, IntegerType(1))])
        return module

    monkeypatch.setattr(onnx_importer, "load_model", load_with_reuse)
    code, out, err = run_tool("ge-run", str(p))
    assert code == 1
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"{p}: node 'act/relu' (Relu): error: simulator: "), err
    assert "write into a live buffer" in lines[0]


def test_mlir_inputs_keep_file_line_col(tmp_path: Path) -> None:
    src = tmp_path / "g.mlir"
    src.write_text(
        "ge.graph @main {\n  %x = ge.Data {index = 0} : tensor<4x3xf32>\n"
        "  %i = ge.Const {value = dense<[4]> : tensor<1xi64>} : tensor<1xi64>\n"
        "  %a = ge.Const {value = dense<0> : tensor<i32>} : tensor<i32>\n"
        "  %y = ge.GatherV2(%x, %i, %a) : (tensor<4x3xf32>, tensor<1xi64>, tensor<i32>) -> tensor<1x3xf32>\n"
        "  ge.NetOutput %y : tensor<1x3xf32>\n}\n"
    )
    code, _, err = run_tool("ge-opt", str(src), "-p", "ge-constant-folding-pass")
    assert code == 1 and err.startswith(f"{src}:5:3: error: ge.GatherV2: index 4 at [0] of its constant indices"), err


def test_gather_elements_index_out_of_range_found_at_folding(tmp_path: Path) -> None:
    src = tmp_path / "ge.mlir"
    src.write_text(
        "ge.graph @main {\n  %x = ge.Data {index = 0} : tensor<2x3xf32>\n"
        "  %i = ge.Const {value = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>} : tensor<2x2xi64>\n"
        "  %y = ge.GatherElements(%x, %i) {dim = 1} : (tensor<2x3xf32>, tensor<2x2xi64>) -> tensor<2x2xf32>\n"
        "  ge.NetOutput %y : tensor<2x2xf32>\n}\n"
    )
    code, _, err = run_tool("ge-opt", str(src), "-p", "ge-compile")
    assert code == 1 and err == (
        f"{src}:4:3: error: ge.GatherElements: index 3 at [1, 1] of its constant indices is out of range for dim 1 "
        "of size 3 (valid: [0, 2]): the graph would fail when run\n"
    )
    src.write_text(src.read_text().replace("[2, 3]]", "[2, 2]]"))
    assert run_tool("ge-opt", str(src), "-p", "ge-compile")[0] == 0
