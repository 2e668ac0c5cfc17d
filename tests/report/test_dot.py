"""report/dot.py: the DOT picture of a ge module at each stage, read back with pydot.

Expected nodes, clusters and edge labels are worked out by hand from the examples' IR
(shapes, dtypes and byte sizes in the comments), not copied from the output.
"""

from __future__ import annotations

import pytest
from report_helpers import EX, Dot, staged

from conftest import parse, print_module
from ge_dialect.ge import GraphOp
from ge_dialect.names import ge_type, node_name
from ge_dialect.node_types import CONST_TYPES
from report.dot import EDGE_STYLE, dot_string, module_to_dot, node_types

LOWER_AND_FUSE = "ge-identity-pass,ge-phony-notask{stage=mark},ge-lower-autofuse,ge-autofuse"

# GE's solver UT Fuse_concat_no_limit (tests/filecheck/passes/autofuse/ge_ut/
# fuse_concat_no_limit.mlir): data -> {D, E, F} -> Concat -> G, fused with GE's config into
# one FusedAscBackend {D, E, F, cat} of four AscBackends, then G.
FUSED_TEXT = """
ge.graph @main {
  %data = ge.Data {index = 0} : tensor<4x32xf32>
  %D = ge.Exp(%data) : (tensor<4x32xf32>) -> tensor<4x32xf32>
  %E = ge.Exp(%data) : (tensor<4x32xf32>) -> tensor<4x32xf32>
  %F = ge.Exp(%data) : (tensor<4x32xf32>) -> tensor<4x32xf32>
  %cat = ge.ConcatD(%D, %E, %F) {concat_dim = 1} : (tensor<4x32xf32>, tensor<4x32xf32>, tensor<4x32xf32>) -> tensor<4x96xf32>
  %G = ge.Exp(%cat) : (tensor<4x96xf32>) -> tensor<4x96xf32>
  ge.NetOutput %G : tensor<4x96xf32>
}
"""
FUSED_PASSES = (
    "ge-lower-autofuse{enable-pass=concat},"
    "ge-autofuse{lifting=false max-fuse-rounds=1 max-fusion-size=2 max-input-nums-after-fuse=2}"
)


def _edges(d: Dot, src: str, dst: str) -> list[dict[str, str]]:
    return [a for s, t, a in d.edges if s == src and t == dst]


def test_input_stage_split_relu_concat():
    d = Dot(module_to_dot(staged(EX / "split_relu_concat.mlir"), "input"))
    assert d.cluster_of_kind("graph") and d.clusters[d.cluster_of_kind("graph")[0]]["label"] == "graph @main"
    x, r, s = d.node_by_label("Data\nx"), d.node_by_label("Relu\nr"), d.node_by_label("SplitD\ns0")
    bs = [d.node_by_label(f"Relu\nb{i}") for i in range(3)]
    c, out = d.node_by_label("ConcatD\nc"), d.node_by_label("NetOutput\nNetOutput")
    # kernels are boxes, the graph's input and output ellipses; nothing is no-task yet
    for k in (r, s, c, *bs):
        assert d.nodes[k]["shape"] == "box" and "dashed" not in d.nodes[k].get("style", "")
    assert d.nodes[x]["shape"] == d.nodes[out]["shape"] == "ellipse"
    # 48x32 f16 = 3072 B; each split piece 16x32 f16 = 1024 B
    assert [a["label"] for a in _edges(d, x, r)] == ["48x32 f16\n3072 B"]
    assert [a["label"] for a in _edges(d, r, s)] == ["48x32 f16\n3072 B"]
    for b in bs:
        assert [a["label"] for a in _edges(d, s, b)] == ["16x32 f16\n1024 B"]
        assert [a["label"] for a in _edges(d, b, c)] == ["16x32 f16\n1024 B"]
    assert [a["label"] for a in _edges(d, c, out)] == ["48x32 f16\n3072 B"]
    assert len(d.edges) == 9 and all(a["class"] == "gm" for _, _, a in d.edges)


def test_concat_notask_is_dashed_and_names_the_producers():
    # ge-concat-notask makes the ConcatD zero-copy (its inputs are 1024 B each, 32-aligned,
    # written by Relu kernels): its memory is that of b0, b1, b2
    d = Dot(module_to_dot(staged(EX / "split_relu_concat.mlir", "ge-concat-notask"), "notask"))
    c = d.node_by_label("ConcatD\nc")
    assert d.nodes[c]["style"] == "dashed" and d.nodes[c]["class"] == "no_task"
    assert d.label_of(c).endswith("no task, reuses memory of\nb0, b1, b2")
    dashed = [n for n, a in d.nodes.items() if "dashed" in a.get("style", "")]
    assert dashed == [c]


def test_phony_nodes_are_dashed_with_their_sources():
    d = Dot(module_to_dot(staged(EX / "phony_concat_split.mlir", "ge-phony-notask{stage=mark}"), "mark"))
    pc, ps = d.node_by_label("PhonyConcat\nblock"), d.node_by_label("PhonySplit\np0")
    assert d.nodes[pc]["style"] == d.nodes[ps]["style"] == "dashed"
    assert d.label_of(pc).endswith("reuses memory of\nm0, m1, m2, m3")
    assert d.label_of(ps).endswith("reuses memory of\nsum")
    # PhonyConcat's output: 1x2x1x8x8 f16 = 256 B; each piece 1x1x1x4x8 f16 = 64 B
    assert [a["label"] for a in _edges(d, pc, d.node_by_label("Add\nsum"))] == ["1x2x1x8x8 f16\n256 B"] * 2
    assert [a["label"] for a in _edges(d, d.node_by_label("Mul\nm0"), pc)] == ["1x1x1x4x8 f16\n64 B"]


def test_softmax_after_fusion_clusters_and_on_chip_edges():
    m0 = staged(EX / "softmax_like.mlir")
    m = staged(EX / "softmax_like.mlir", LOWER_AND_FUSE)
    d = Dot(module_to_dot(m, "fused", node_types(m0)))
    # by hand: Sub (d) and Exp (e) fuse into one pointwise AscBackend; ReduceMaxD,
    # ReduceSumD and RealDiv (lifted back: one compute op) stay library kernels
    [k] = d.cluster_of_kind("AscBackend")
    label = d.clusters[k]["label"]
    assert label.startswith("AscBackend\nautofuse_pointwise_0_Sub_Exp\nfuse_type pointwise")
    assert label.endswith("holds 2 ops:\nd (Sub), e (Exp)")
    inside = sorted(d.label_of(n).split("\n")[0] for n, c in d.node_cluster.items() if c == k)
    assert inside == ["Exp", "Load", "Load", "Store", "Sub"]
    on_chip = [(s, t) for s, t, a in d.edges if a["class"] == "on_chip"]
    # Load(x) -> Sub, Load(m) -> Sub, Sub -> Exp, Exp -> Store
    assert len(on_chip) == 4
    assert all(d.node_cluster[s] == d.node_cluster[t] == k for s, t in on_chip)
    for s, t, a in d.edges:
        assert a["style"] == EDGE_STYLE[a["class"]]["style"]
        if a["class"] == "gm":
            assert d.kernel_cluster(s) != d.kernel_cluster(t) or d.kernel_cluster(s) is None
    # GM edges reach the kernel at its Loads and leave from its Store: x (8x64 f32 =
    # 2048 B) and m (8x1 f32 = 32 B) in, e out to ReduceSumD and RealDiv
    gm_in = sorted(a["label"] for s, t, a in d.edges if a["class"] == "gm" and d.node_cluster[t] == k)
    assert gm_in == ["8x1 f32\n32 B", "8x64 f32\n2048 B"]
    assert all(d.label_of(t).startswith("Load") for s, t, a in d.edges if a["class"] == "gm" and d.node_cluster[t] == k)
    gm_out = [t for s, t, a in d.edges if a["class"] == "gm" and d.node_cluster[s] == k]
    assert sorted(d.label_of(t).split("\n")[1] for t in gm_out) == ["s", "y"]
    assert EDGE_STYLE["gm"]["style"] != EDGE_STYLE["on_chip"]["style"]


def test_fused_asc_backend_cluster_holds_its_backends():
    m0 = staged(FUSED_TEXT)
    d = Dot(module_to_dot(staged(FUSED_TEXT, FUSED_PASSES), "fused", node_types(m0)))
    [f] = d.cluster_of_kind("FusedAscBackend")
    assert d.clusters[f]["label"].endswith("holds 4 ops:\nD (Exp), E (Exp), F (Exp), cat (ConcatD)")
    inner = [c for c in d.cluster_of_kind("AscBackend") if d.cluster_parent[c] == f]
    assert len(inner) == 4
    [g] = [c for c in d.cluster_of_kind("AscBackend") if d.cluster_parent[c] != f]
    assert d.clusters[g]["label"].endswith("holds 1 op:\nG (Exp)")
    # D, E, F -> cat inside the FusedAscBackend: three GM workspace edges of 4x32 f32 = 512 B
    ws = [(s, t, a) for s, t, a in d.edges if a["class"] == "workspace"]
    assert len(ws) == 3
    assert all(a["label"] == "4x32 f32\n512 B\nworkspace" for _, _, a in ws)
    assert all(d.kernel_cluster(s) == d.kernel_cluster(t) == f for s, t, _ in ws)
    # data is read by the three Exp kernels' Loads, the fused output (4x96 f32 = 1536 B)
    # by G's Load
    data = d.node_by_label("Data\ndata")
    assert sorted(d.label_of(t).split("\n")[0] for s, t, a in d.edges if s == data) == ["Load"] * 3
    into_g = [a["label"] for s, t, a in d.edges if d.node_cluster[t] == g and a["class"] == "gm"]
    assert into_g == ["4x96 f32\n1536 B"]


def test_every_example_at_every_stage_parses():
    # every node of every graph is drawn: a node labelled with its type and name, or (a
    # kernel) a cluster labelled so
    for path in sorted(EX.glob("*.mlir")):
        for passes in ("", "ge-identity-pass,ge-phony-notask{stage=mark},ge-lower-autofuse", LOWER_AND_FUSE):
            m = staged(path, passes)
            d = Dot(module_to_dot(m, path.name))
            drawn = {tuple(a["label"].split("\n")[:2]) for a in (*d.nodes.values(), *d.clusters.values())}
            lines = {ln for a in d.nodes.values() for ln in a["label"].split("\n")}
            for g in m.ops:
                assert isinstance(g, GraphOp)
                for op in g.body.block.ops:
                    if ge_type(op) in CONST_TYPES and op.results[0].uses:
                        # a weight: a line `name: shape dtype, N B` on the nodes that read it
                        assert any(ln.startswith(f"{node_name(op)}: ") for ln in lines), (path.name, node_name(op))
                    else:
                        assert (ge_type(op), node_name(op)) in drawn, (path.name, passes, node_name(op))


def test_weights_are_lines_on_their_readers_not_nodes():
    # a Const of 4x8 f32 = 128 B read by two nodes: no Const node and no edge from it; each
    # reader's label ends with the weight's line
    d = Dot(
        module_to_dot(
            parse("""
ge.graph @main {
  %x = ge.Data {index = 0} : tensor<4x8xf32>
  %w = ge.Const {value = dense<1.0> : tensor<4x8xf32>} : tensor<4x8xf32>
  %a = ge.Add(%x, %w) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %b = ge.Mul(%a, %w) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  ge.NetOutput %b : tensor<4x8xf32>
}
"""),
            "w",
        )
    )
    assert not any(a["label"].startswith("Const") for a in d.nodes.values())
    assert len(d.nodes) == 4 and len(d.edges) == 3
    for n in ("Add\na", "Mul\nb"):
        assert d.label_of(d.node_by_label(n)).split("\n")[-1] == "w: 4x8 f32, 128 B"


def test_deterministic():
    a = module_to_dot(staged(EX / "phony_concat_split.mlir", LOWER_AND_FUSE), "s")
    b = module_to_dot(staged(EX / "phony_concat_split.mlir", LOWER_AND_FUSE), "s")
    assert a == b


@pytest.mark.parametrize(
    "name",
    ['a"b', "back\\slash", "brace{}[]<>|", "new\\nline", "unicode \u00e9\u4e2d", "-> ;=,", "\\"],
    ids=["quote", "backslash", "braces", "escaped-n", "unicode", "dot-syntax", "lone-backslash"],
)
def test_any_node_name_is_escaped(name):
    attr = name.replace("\\", "\\\\").replace('"', '\\"')
    text = f"""
ge.graph @main {{
  %x = ge.Data {{index = 0}} : tensor<4xf32>
  %y = ge.Relu(%x) {{name = "{attr}"}} : (tensor<4xf32>) -> tensor<4xf32>
  ge.NetOutput %y : tensor<4xf32>
}}
"""
    d = Dot(module_to_dot(staged(text), f"stage {name}"))
    [relu] = [n for n, a in d.nodes.items() if a["label"].startswith("Relu\n")]
    # a real "\n" in a name would be a line break; the name has none, so it comes back whole
    assert d.label_of(relu) == f"Relu\n{name}"
    assert d.graph_attrs["label"] == f"stage {name}"


def test_control_characters_are_dropped():
    assert dot_string("a\tb\x00c") == '"a b c"'
    assert dot_string("two\nlines") == '"two\\nlines"'


NAMELESS = """
ge.graph @main {
  %0 = ge.Data {index = 0} : tensor<4xf32>
  %1 = ge.Relu(%0) : (tensor<4xf32>) -> tensor<4xf32>
  ge.NetOutput %1 : tensor<4xf32>
}
"""


def test_the_picture_leaves_the_ir_alone():
    m = parse(NAMELESS)
    before = print_module(m)
    d = Dot(module_to_dot(m, "input"))
    assert print_module(m) == before
    # drawn with the names GE's parser gives nameless nodes (<type>_<index>)
    assert d.node_by_label("Data\nData_0") and d.node_by_label("Relu\nRelu_1")
