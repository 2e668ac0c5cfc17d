"""Node names (ge_dialect/names.py): unique in each graph however the file names its values.

Numeric SSA names (`%0`, what generic printers and upstream mlir-opt write) leave nodes
nameless; GE's ONNX parser names such a node `<type>_<index>` (onnx_parser.cc:
UpdateNodeNameAndOpType) and a taken name gets `_0`, `_1`, ... (graph_to_function_def.cc:
NameMapHelper::GetUniqueName). Every expected name below is derived by hand from those
two rules; the numbers are checked against the reference interpreter by ge-run.
"""

from __future__ import annotations

from io import StringIO

import pytest
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block
from xdsl.printer import Printer

from bench.gen_graphs import generate
from conftest import EXAMPLES, ROOT, parse
from ge_dialect import ge, npu
from ge_dialect.names import name_all_nodes, name_nodes, node_name
from ge_tools import run as ge_run
from ge_tools.pipeline import GeCompilePass
from ge_tools.registry import make_context

CASE6 = """
ge.graph @main {
  %0 = ge.Data {index = 0} : tensor<2x3xf32>
  %1 = ge.Data {index = 1} : tensor<2x3xf32>
  %2 = ge.Add(%0, %1) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  ge.NetOutput %2 : tensor<2x3xf32>
}
"""

# Names that collide once GE's suffixes are added: `%Add_1` is taken when the second
# nameless node (index 1) would be `Add_1`; `%Add_2`, given further down, is taken when the
# third would be `Add_2`; `%NetOutput` clashes with the NetOutput node, which keeps its type.
COLLIDING = """
ge.graph @main {
  %x = ge.Data {index = 0} : tensor<2x3xf32>
  %0 = ge.Data {index = 1} : tensor<2x3xf32>
  %Add_1 = ge.Add(%x, %0) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = ge.Add(%x, %Add_1) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = ge.Add(%1, %0) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %Add_2 = ge.Mul(%2, %x) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %NetOutput = ge.Relu(%Add_2) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %3 = ge.Sub(%NetOutput, %1) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  ge.NetOutput %3, %Add_1 : tensor<2x3xf32>, tensor<2x3xf32>
}
"""
COLLIDING_NAMES = ["x", "Data_0", "Add_1", "Add_1_0", "Add_2_0", "Add_2", "NetOutput_0", "Sub_3", "NetOutput"]


def print_module(m: ModuleOp, generic: bool = False) -> str:
    out = StringIO()
    Printer(stream=out, print_generic_format=generic).print_op(m)
    return out.getvalue()


def graph_names(m: ModuleOp, sym: str = "main") -> list[str]:
    g = next(op for op in m.ops if isinstance(op, ge.GraphOp) and op.sym_name.data == sym)
    return [node_name(op) for op in g.body.block.ops]


def strip_names(text: str, keep_every: int = 0) -> str:
    """The same module with its SSA names dropped (printed `%0`, `%1`, ...); with
    keep_every=k every k-th named value keeps its name (mixed numeric/named)."""
    m = parse(text)
    k = 0
    for op in m.walk():
        for r in op.results:
            if r.name_hint is not None:
                k += 1
                if not keep_every or k % keep_every:
                    r.name_hint = None
    return print_module(m)


def node_blocks(m: ModuleOp) -> list[Block]:
    """Every block that holds ge nodes: graph bodies and FusedAscBackend bodies."""
    return [
        b
        for op in m.walk()
        for r in op.regions
        for b in r.blocks
        if any(o.name.startswith("ge.") and o.name != "ge.graph" for o in b.ops)
    ]


def assert_unique_names(m: ModuleOp, where: str) -> None:
    for b in node_blocks(m):
        names = [node_name(op) for op in b.ops if op.name.startswith("ge.")]
        dups = sorted({n for n in names if names.count(n) > 1})
        assert not dups, f"{where}: node names {dups} are not unique"


# -- the naming rules ----------------------------------------------------------------------


def test_nameless_nodes_are_named_as_ge_parser_names_them():
    # onnx_parser.cc: one index over the nameless nodes, in order
    assert graph_names(parse(CASE6)) == ["Data_0", "Data_1", "Add_2", "NetOutput"]


def test_names_taken_elsewhere_in_the_graph_get_a_suffix():
    assert graph_names(parse(COLLIDING)) == COLLIDING_NAMES


def test_duplicate_given_names_keep_the_first_and_suffix_the_later():
    m = parse("""
    ge.graph @main {
      %a = ge.Data {index = 0} : tensor<4xf32>
      %b = ge.Relu(%a) {name = "r"} : (tensor<4xf32>) -> tensor<4xf32>
      %c = ge.Relu(%b) {name = "r"} : (tensor<4xf32>) -> tensor<4xf32>
      %r_0 = ge.Exp(%c) : (tensor<4xf32>) -> tensor<4xf32>
      %d = ge.Abs(%r_0) {name = "a"} : (tensor<4xf32>) -> tensor<4xf32>
      ge.NetOutput %d : tensor<4xf32>
    }
    """)
    g = next(op for op in m.ops if isinstance(op, ge.GraphOp))
    assert name_nodes(g.body.block)
    # the second "r" skips "r_0" (taken by %r_0); "a" is the Data's SSA name, first in order
    assert graph_names(m) == ["a", "r", "r_1", "r_0", "a_0", "NetOutput"]
    assert not name_nodes(g.body.block), "naming twice changes nothing"


def test_names_are_stored_as_ssa_names_and_survive_printing():
    m = parse(COLLIDING)
    name_all_nodes(m)
    text = print_module(m)
    assert "%Add_1_0 = ge.Add" in text and "%Sub_3 = ge.Sub" in text
    again = parse(text)
    assert graph_names(again) == COLLIDING_NAMES
    assert print_module(again) == text, "byte-identical on a second round"


def test_names_per_graph_scope():
    m = parse(strip_names((ROOT / "examples" / "subgraph_call.mlir").read_text()))
    # each graph names its own nameless nodes from index 0
    assert graph_names(m, "main") == ["Data_0", "Data_1", "PartitionedCall_2", "Relu_3", "NetOutput"]
    assert graph_names(m, "block")[:3] == ["Data_0", "Data_1", "Add_2"]


# -- through the tools ---------------------------------------------------------------------


def sources() -> list[tuple[str, str]]:
    out = [(p.name, p.read_text()) for p in EXAMPLES]
    out += [
        (f"{k}-{n}-{s}", generate(k, n, s)) for k, n, s in (("mixed", 40, 1), ("concat_tree", 30, 2), ("fanout", 30, 4))
    ]
    return out


SOURCES = sources()
VARIANTS = {"numeric": 0, "mixed": 2}


def compile_pass_by_pass(text: str) -> ModuleOp:
    m = parse(text)
    assert_unique_names(m, "input")
    for p in GeCompilePass().passes():
        p.apply(make_context(), m)
        m.verify()
        assert_unique_names(m, f"after {p.name}")
    return m


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("name,text", SOURCES, ids=[s[0] for s in SOURCES])
def test_every_pass_keeps_node_names_unique(name: str, text: str, variant: str):
    m = compile_pass_by_pass(strip_names(text, VARIANTS[variant]))
    models = [op for op in m.ops if isinstance(op, npu.ModelOp)]
    assert models, f"{name}: ge-compile made no npu.model"
    tensors = [
        t.tensor.data
        for mo in models
        for t in mo.body.block.ops
        if isinstance(t, npu.TensorOp | npu.AliasOp | npu.ConstOp)
    ]
    assert len(tensors) == len(set(tensors))


@pytest.mark.parametrize("streams", ["1", "2"])
@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("name,text", SOURCES, ids=[s[0] for s in SOURCES])
def test_ge_run_matches_the_reference_with_numeric_names(
    name: str, text: str, variant: str, streams: str, tmp_path, capsys
):
    f = tmp_path / f"{name}.mlir"
    f.write_text(strip_names(text, VARIANTS[variant]))
    rc = ge_run.run([str(f), "--streams", streams, "--executions", "2"])
    out = capsys.readouterr()
    assert rc == 0, out.err
    assert "outputs match the reference" in out.out


def test_ge_run_reports_the_generated_names(tmp_path, capsys):
    f = tmp_path / "case6.mlir"
    f.write_text(CASE6)
    assert ge_run.run([str(f)]) == 0
    out = capsys.readouterr().out
    assert "output 0 Add_2:0: shape 2x3 float32" in out


@pytest.mark.parametrize("streams", ["1", "2"])
def test_ge_run_on_generic_syntax(streams: str, tmp_path, capsys):
    # the form `ge-opt --print-op-generic` and upstream mlir-opt write: numeric names only
    f = tmp_path / "colliding_generic.mlir"
    text = print_module(parse(strip_names(COLLIDING)), generic=True)
    assert 'ge.graph"() <{sym_name' in text and '%0 = "ge.Data"()' in text
    f.write_text(text)
    assert ge_run.run([str(f), "--streams", streams]) == 0, capsys.readouterr().err
    assert "outputs match the reference" in capsys.readouterr().out
