"""ge-autofuse's remarks and local rewrites: every remark is a `Remark` object sent through
ge_dialect/diagnostics.py (nothing printed beside it), each refusal names a GE rule whose
name the pass's source holds, and lifting / concat unfolding are xDSL RewritePatterns a
PatternRewriteWalker drives on their own."""

from __future__ import annotations

from pathlib import Path

from xdsl.pattern_rewriter import PatternRewriteWalker, RewritePattern

from conftest import parse
from ge_dialect.diagnostics import Remark, remark_sink
from ge_dialect.ge import AscBackend, FusedAscBackend, GraphOp, node_name
from ge_tools.registry import make_context
from lowering.lower_autofuse import LowerAutofusePass
from passes.autofuse.autofuse import AutofusePass
from passes.autofuse.concat_lifting import LiftingPoorPerfFusedAscBackendOp
from passes.autofuse.lifting import LiftingAscBackendOp, lift_graph

SOURCES = "".join(p.read_text() for p in sorted((Path(__file__).parents[3] / "passes" / "autofuse").glob("*.py")))

# a split read by an Exp through two slice kernels (tests/filecheck/passes/autofuse/autofuse_split.mlir)
SPLIT = """ge.graph @main {
  %x = ge.Data {index = 0} : tensor<2x8xf32>
  %e = ge.Exp(%x) : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %a, %b = ge.SplitD(%e) {split_dim = 1, num_split = 2} : (tensor<2x8xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>)
  ge.NetOutput %a, %b : tensor<2x4xf32>, tensor<2x4xf32>
}"""

# Exp(Data) and two graph inputs concatenated on dim 1 (not first-dim): case other, the
# fused Exp writes 3 of 12 columns, 0.25 < 0.3333 -> unfolded
# (tests/filecheck/passes/autofuse/ge_ut/fuse_concat_and_lifting_below_threshold.mlir)
CONCAT = """ge.graph @main {
  %x = ge.Data {index = 0} : tensor<4x3xf32>
  %y = ge.Data {index = 1} : tensor<4x9xf32>
  %e = ge.Exp(%x) : (tensor<4x3xf32>) -> tensor<4x3xf32>
  %c = ge.ConcatD(%e, %y) {concat_dim = 1} : (tensor<4x3xf32>, tensor<4x9xf32>) -> tensor<4x12xf32>
  ge.NetOutput %c : tensor<4x12xf32>
}"""


def _autofuse(text: str, enable: tuple[str, ...], lifting: bool, remarks: bool = True):
    m = parse(text)
    ctx = make_context()
    LowerAutofusePass(enable_pass=enable).apply(ctx, m)
    AutofusePass(lifting=lifting, remarks=remarks).apply(ctx, m)
    return m


def test_remarks_are_objects_naming_a_rule_of_the_source(capsys):
    seen: list[Remark] = []
    with remark_sink(seen.append):
        _autofuse(SPLIT, ("split",), lifting=True)
    assert capsys.readouterr().err == ""  # nothing printed beside the channel
    refused = [r for r in seen if r.verdict == "not fused"]
    assert {r.rule for r in refused} == {"NodeInputHasSplit", "SliceHasOnlyHorizontalLink"}
    assert all(r.pass_name == "ge-autofuse" and len(r.nodes) == 2 for r in refused)
    assert (
        refused[0]
        .line()
        .endswith(
            "not fused: node2 slices node1's output, which node1 computes without a slice [NF1026] [NodeInputHasSplit]"
        )
    )
    assert [r.verdict for r in seen if r.stage == "lifting"] == ["lifted", "lifted"]
    # grep of the rule lands on the code that decides
    for r in seen:
        if r.reason is not None:
            assert f'"{r.reason.rule}"' in SOURCES, r.reason


def test_lifting_is_a_rewrite_pattern():
    m = _autofuse(SPLIT, ("split",), lifting=False, remarks=False)
    graph = next(o for o in m.walk() if isinstance(o, GraphOp))
    block = graph.body.block
    before = [node_name(o) for o in block.ops if isinstance(o, AscBackend)]
    assert len(before) == 3
    pattern = LiftingAscBackendOp(block)
    assert isinstance(pattern, RewritePattern)
    PatternRewriteWalker(pattern, apply_recursively=False).rewrite_region(graph.body)
    # the Exp kernel alone, then the two slice kernels of the SplitD together
    assert pattern.lifted == before
    assert not any(isinstance(o, AscBackend) for o in block.ops)
    assert [o.name for o in block.ops] == ["ge.Data", "ge.Exp", "ge.SplitD", "ge.NetOutput"]


def test_lift_graph_drives_the_pattern_once():
    m = _autofuse(SPLIT, ("split",), lifting=False, remarks=False)
    block = next(o for o in m.walk() if isinstance(o, GraphOp)).body.block
    assert len(lift_graph(block)) == 3
    m.verify()


def test_concat_unfolding_is_a_rewrite_pattern(capsys):
    m = _autofuse(CONCAT, ("concat",), lifting=False, remarks=False)
    graph = next(o for o in m.walk() if isinstance(o, GraphOp))
    (fused,) = [o for o in graph.body.block.ops if isinstance(o, FusedAscBackend)]
    inner = [node_name(o) for o in fused.body.block.ops if isinstance(o, AscBackend)]
    pattern = LiftingPoorPerfFusedAscBackendOp(graph.body.block, remarks=True)
    assert isinstance(pattern, RewritePattern)
    PatternRewriteWalker(pattern, apply_recursively=False).rewrite_region(graph.body)
    assert pattern.unfolded == [node_name(fused)]
    # the inner AscBackends take its place, in their order, and the graph still verifies
    assert [node_name(o) for o in graph.body.block.ops if isinstance(o, AscBackend)] == inner
    assert not any(isinstance(o, FusedAscBackend) for o in m.walk())
    m.verify()
    assert "case other: fused AscBackends produce 3/12 = 0.2500 of concat dim 1 < threshold 0.3333" in (
        capsys.readouterr().err
    )
