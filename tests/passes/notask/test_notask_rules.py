"""ConcatNotaskPass / PackNotaskPass rules that lit cannot reach: the plain rule functions
with GE's hand data (UT 25, 26, 27), ops the verifier would refuse (CheckDim's range
assert), the ref-tracing depth limit on generated chains, per-output locks of a
multi-output producer, attribute order, and the remark format. The rule-by-rule graph
cases are in tests/filecheck/passes/{concat,pack}_notask_rules.mlir.
"""

from __future__ import annotations

from io import StringIO

import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.printer import Printer

from ge_dialect import attrs as A
from ge_dialect.desc import tensor_desc
from ge_dialect.diagnostics import Remark, remark_sink
from ge_dialect.ge import ConcatD, GraphOp, node_name
from ge_dialect.reason import Reason
from ge_tools.parse import LocatedParser
from ge_tools.registry import get_all_passes, make_context
from passes.notask import base as N
from passes.notask.concat import ConcatNotaskPass, check_concat_dim
from passes.notask.pack import PackNotaskPass, check_pack_dim

T = "tensor<4x16xf16>"


def _ctx() -> Context:
    return make_context()


def parse(text: str, verify: bool = True) -> ModuleOp:
    module = LocatedParser(_ctx(), text, "test.mlir").parse_module()
    if verify:
        module.verify()
    return module


def run(text: str, pass_cls=ConcatNotaskPass, remarks: bool = False) -> ModuleOp:
    module = parse(text)
    pass_cls(remarks=remarks).apply(_ctx(), module)
    module.verify()
    return module


def printed(module: ModuleOp) -> str:
    out = StringIO()
    Printer(stream=out).print_op(module)
    return out.getvalue()


def op_named(module: ModuleOp, name: str):
    for op in module.walk():
        if not isinstance(op, GraphOp) and op.results and node_name(op) == name:
            return op
    raise KeyError(name)


def marked(module: ModuleOp, name: str) -> bool:
    return A.get_bool(op_named(module, name), A.NO_TASK)


# ---------------------------------------------------------------------------------------
# Registration
# ---------------------------------------------------------------------------------------


def test_passes_are_registered_with_a_remarks_option():
    passes = get_all_passes()
    assert passes["ge-concat-notask"]() is ConcatNotaskPass
    assert passes["ge-pack-notask"]() is PackNotaskPass
    assert ConcatNotaskPass().remarks is False and PackNotaskPass(remarks=True).remarks is True
    assert ConcatNotaskPass.PATTERN.TARGET_TYPES == {"ConcatD", "ConcatV2D"}
    assert PackNotaskPass.PATTERN.TARGET_TYPES == {"Pack"}


# ---------------------------------------------------------------------------------------
# CheckRealDim and CheckDimAlignment with GE's hand data
# ---------------------------------------------------------------------------------------

# GE UT 27 CheckRealConcatDimTest: NCHW -> FRACTAL_Z mapping
S2D = [[1, 2], [0, 3], [0], [0]]
D2S = [[1, 2, 3], [0], [0], [1]]
ALIGN = [1, 16, 1, 1]


@pytest.mark.parametrize(
    "src, dim, runtime, expected",
    [
        ([1, 16, 5, 6], 2, [30, 1, 16, 16], True),  # (a) C=16 <= C0 before H in C1HW
        ([1, 16, 5, 6], 3, [30, 1, 16, 16], False),  # (b) H=5 before W in C1HW
        ([1, 16, 1, 6], 3, [30, 1, 16, 16], True),  # (c) H=1
        ([1, 16, 5, 6], 0, [6, 1, 16, 16], False),  # (d) runtime dim 0 = 6 before N1
        ([1, 16, 5, 1], 0, [1, 1, 16, 16], True),  # (e)
        ([1, 32, 5, 6], 3, [2, 1, 16, 16], False),  # (f) CheckSplitAxis: 32 > align 16
    ],
)
def test_check_real_dim_ge_ut27(src, dim, runtime, expected):
    why = N.check_real_dim(ALIGN, src, S2D, D2S, dim, runtime)
    assert (why is None) is expected
    assert expected or why.rule == "CheckRealDim"


def test_check_split_axis_outer_part_elsewhere():
    # origin axis 1 is split and its outer part is storage axis 1, not the merged axis 0:
    # CheckSplitAxis then needs align[1] == 1.
    s2d = [[0], [1, 0], [0]]
    d2s = [[1, 2], [1]]
    assert N.check_real_dim([1, 16, 1], [1, 32, 1], s2d, d2s, 2, [1, 2]) is not None
    assert N.check_real_dim([1, 1, 1], [1, 32, 1], s2d, d2s, 2, [1, 2]) is None


def test_check_real_dim_asserts():
    # no storage axis for the origin axis; storage axis outside the runtime shape
    assert N.check_real_dim([1], [4], [[]], [[0]], 0, [4]) is not None
    assert N.check_real_dim([1, 1], [1, 4], [[0], [5]], [[0], [1]], 1, [1, 4]) is not None
    # merged axis that does not list the concat axis
    assert N.check_real_dim([1, 1], [1, 1], [[0], [0]], [[0, 0]], 1, [1]) is not None


def test_check_dim_alignment_ge_ut25():
    assert N.check_dim_alignment([0, 1], 0, [1, 2]) is not None  # align 0
    assert N.check_dim_alignment([3, 1], 0, [1, 2]) is not None  # 1 % 3
    assert N.check_dim_alignment([1, 16], 1, [1, 32]) is None
    assert N.check_dim_alignment([1, 16], 1, [1, 31]) is not None
    assert N.check_dim_alignment([1, 16], 2, [1, 32]) is not None  # dim beyond the rank


# ---------------------------------------------------------------------------------------
# IsScalarInput, CheckTensorAlign (GE UT 26 / 28)
# ---------------------------------------------------------------------------------------


def _concat_op(text: str, name: str = "c") -> ConcatD:
    op = op_named(parse(text, verify=False), name)
    assert isinstance(op, ConcatD)
    return op


def test_check_tensor_align_single_input_and_scalar():
    one = _concat_op("""ge.graph @g {
  %x = ge.Data {index = 0} : tensor<2xf16>
  %a = ge.Relu(%x) : (tensor<2xf16>) -> tensor<2xf16>
  %c = ge.ConcatD(%a) {concat_dim = 0} : (tensor<2xf16>) -> tensor<2xf16>
  ge.NetOutput %c : tensor<2xf16>
}""")
    assert N.check_tensor_align(one, 0) is None  # a single input is exempt (4 bytes)
    two = _concat_op("""ge.graph @g {
  %x = ge.Data {index = 0} : tensor<f16>
  %y = ge.Data {index = 1} : tensor<16xf16>
  %c = ge.ConcatD(%x, %y) {concat_dim = 0} : (tensor<f16>, tensor<16xf16>) -> tensor<17xf16>
  ge.NetOutput %c : tensor<17xf16>
}""")
    # GE's GetShapeSize is 0 for a scalar: 0 bytes fail; 16 f16 = 32 bytes pass
    assert N.check_tensor_align(two, 0) is not None
    assert N.check_tensor_align(two, 1) is None
    assert N.is_scalar_input(tensor_desc(two.operands[0].type))
    assert not N.is_scalar_input(tensor_desc(two.operands[1].type))


def test_input_check_rejects_scalar_first():
    # GE UT 28 scalar_input_check: input 1 is a scalar; InputCheck fails on IsScalarInput
    op = _concat_op("""ge.graph @g {
  %x = ge.Data {index = 0} : tensor<16xf16>
  %y = ge.Data {index = 1} : tensor<f16>
  %a = ge.Relu(%x) : (tensor<16xf16>) -> tensor<16xf16>
  %b = ge.Relu(%y) : (tensor<f16>) -> tensor<f16>
  %c = ge.ConcatD(%a, %b) {concat_dim = 0} : (tensor<16xf16>, tensor<f16>) -> tensor<17xf16>
  ge.NetOutput %c : tensor<17xf16>
}""")
    rej = N.input_check(op, A.CAN_REUSED_FOR_CONCAT_OPTIMIZE, N.RefLinks(op.parent_op().parent_op()))
    assert rej == Reason("IsScalarInput", "input 1: is a scalar (origin rank 0)")


# ---------------------------------------------------------------------------------------
# CheckDim on ops the verifier refuses
# ---------------------------------------------------------------------------------------


def _nchw_5hd(shape: str) -> str:
    return f"tensor<{shape}xf16, #ge.desc<NC1HWC0, origin = NCHW>>"


@pytest.mark.parametrize("dim, ok", [(1, True), (-3, True), (-10, False), (4, False), (-5, False)])
def test_concat_dim_range_ge_ut20_21(dim, ok):
    # GE UT 20 / 21: -3 on rank 4 is 1 (marked); -10 gives -6, out of range (rejected)
    t = _nchw_5hd("1x32x16x16")
    op = _concat_op(f"""ge.graph @g {{
  %x = ge.Data {{index = 0}} : {t}
  %a = ge.Relu(%x) : ({t}) -> {t}
  %b = ge.Abs(%x) : ({t}) -> {t}
  %c = ge.ConcatD(%a, %b) {{concat_dim = {dim}}} : ({t}, {t}) -> {_nchw_5hd("1x64x16x16")}
  ge.NetOutput %c : {_nchw_5hd("1x64x16x16")}
}}""")
    rej = check_concat_dim(op)
    assert (rej is None) is ok
    if not ok:
        assert rej.rule == "CheckDim" and "out of range for origin rank 4" in rej.message


def test_concat_dim_normalised_once_by_the_first_input():
    # -1 is normalised with input 0's rank 2 (-> 1) and reused for input 1 (rank 3): the
    # front-dims rule then looks at input 1's runtime dim 0 only (1), not dims 0..1.
    op = _concat_op("""ge.graph @g {
  %x = ge.Data {index = 0} : tensor<1x16xf16>
  %y = ge.Data {index = 1} : tensor<1x4x16xf16>
  %c = ge.ConcatD(%x, %y) {concat_dim = -1} : (tensor<1x16xf16>, tensor<1x4x16xf16>) -> tensor<1x20x16xf16>
  ge.NetOutput %c : tensor<1x20x16xf16>
}""")
    assert check_concat_dim(op) is None
    op.attributes["concat_dim"] = A.make_int(2)  # what per-input normalisation would give
    rej = check_concat_dim(op)
    assert rej is not None and rej.rule == "CheckDim"  # 2 is out of range for input 0


@pytest.mark.parametrize("axis, rule", [(3, "CheckDim"), (-4, "CheckDim"), (0, None), (-3, None)])
def test_pack_axis_range(axis, rule):
    # Pack: negative axis += rank + 1, then 0 <= axis <= rank
    text = f"""ge.graph @g {{
  %x = ge.Data {{index = 0}} : {T}
  %a = ge.Relu(%x) : ({T}) -> {T}
  %b = ge.Abs(%x) : ({T}) -> {T}
  %c = ge.Pack(%a, %b) {{axis = {axis}}} : ({T}, {T}) -> tensor<2x4x16xf16>
  ge.NetOutput %c : tensor<2x4x16xf16>
}}"""
    op = op_named(parse(text, verify=False), "c")
    rej = check_pack_dim(op)
    assert (rej.rule if rej else None) == rule


# ---------------------------------------------------------------------------------------
# Ref tracing depth (GetFirstOutAnchorNotInRefNode: null once current_deep >= 100)
# ---------------------------------------------------------------------------------------


def _reshape_chain(n: int) -> str:
    lines = [f"  %r0 = ge.Relu(%x) : ({T}) -> {T}"]
    lines += [f"  %r{i} = ge.Reshape(%r{i - 1}) : ({T}) -> {T}" for i in range(1, n + 1)]
    return f"""ge.graph @g {{
  %x = ge.Data {{index = 0}} : {T}
{chr(10).join(lines)}
  %b = ge.Abs(%x) : ({T}) -> {T}
  %c = ge.ConcatD(%r{n}, %b) {{concat_dim = 0}} : ({T}, {T}) -> tensor<8x16xf16>
  ge.NetOutput %c : tensor<8x16xf16>
}}"""


@pytest.mark.parametrize("n, traced", [(0, True), (99, True), (100, False), (150, False)])
def test_ref_tracing_depth_limit(n, traced):
    module = parse(_reshape_chain(n))
    concat = op_named(module, "c")
    src = N.first_out_anchor_not_in_ref_node(concat.operands[0], N.RefLinks(module))
    if traced:
        assert src is not None and node_name(src[0]) == "r0" and src[1] == 0
    else:
        assert src is None


def test_depth_limit_decides_the_pass(capsys):
    assert marked(run(_reshape_chain(99)), "c")
    module = run(_reshape_chain(100), remarks=True)
    assert not marked(module, "c")
    err = capsys.readouterr().err
    assert "input 0: its source could not be traced" in err and "(IsPreNodeTypeValid)" in err


# ---------------------------------------------------------------------------------------
# SetNotaskAttr: attribute order, per-output locks
# ---------------------------------------------------------------------------------------


def test_marks_keep_existing_attribute_positions():
    module = run(f"""ge.graph @g {{
  %x = ge.Data {{index = 0}} : {T}
  %a = ge.Relu(%x) : ({T}) -> {T}
  %b = ge.Abs(%x) : ({T}) -> {T}
  %c = ge.ConcatD(%a, %b) {{_no_task = false, concat_dim = 0}} : ({T}, {T}) -> tensor<8x16xf16>
  ge.NetOutput %c : tensor<8x16xf16>
}}""")
    assert list(op_named(module, "c").attributes) == [
        "_no_task",
        "concat_dim",
        "_no_padding_continuous_input",
        "_output_reuse_input",
        "_reuse_input_on_dim_index",
    ]
    assert A.get_int(op_named(module, "c"), A.REUSE_INPUT_ON_DIM_INDEX) == 0


def test_lock_is_per_output_of_a_multi_output_producer():
    text = """ge.graph @g {
  %x = ge.Data {index = 0} : tensor<8x16xf16>
  %t = ge.Relu(%x) : (tensor<8x16xf16>) -> tensor<8x16xf16>
  %s:2 = ge.SplitD(%t) {split_dim = 0, num_split = 2} : (tensor<8x16xf16>) -> (tensor<4x16xf16>, tensor<4x16xf16>)
  %y = ge.Data {index = 1} : tensor<4x16xf16>
  %b = ge.Abs(%y) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %c = ge.ConcatD(%b, %s#1) {concat_dim = 0} : (tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<8x16xf16>
  ge.NetOutput %c, %s#0 : tensor<8x16xf16>, tensor<4x16xf16>
}"""
    module = run(text)
    assert marked(module, "c")
    split = op_named(module, "s")
    assert A.get_bool_list(split, A.CAN_REUSED_FOR_CONCAT_OPTIMIZE) == [True, False]
    assert "can_reused_for_concat_optimize = [true, false]" in printed(module)


def test_two_outputs_of_one_producer_are_different_sources():
    module = run("""ge.graph @g {
  %x = ge.Data {index = 0} : tensor<8x16xf16>
  %t = ge.Relu(%x) : (tensor<8x16xf16>) -> tensor<8x16xf16>
  %s:2 = ge.SplitD(%t) {split_dim = 0, num_split = 2} : (tensor<8x16xf16>) -> (tensor<4x16xf16>, tensor<4x16xf16>)
  %c = ge.ConcatD(%s#0, %s#1) {concat_dim = 0} : (tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<8x16xf16>
  ge.NetOutput %c : tensor<8x16xf16>
}""")
    assert marked(module, "c")
    assert A.get_bool_list(op_named(module, "s"), A.CAN_REUSED_FOR_CONCAT_OPTIMIZE) == [False, False]


def test_concat_and_pack_may_share_a_producer():
    # different lock attributes (docs/ge/notask.md, open question 5): both are marked
    text = f"""ge.graph @g {{
  %x = ge.Data {{index = 0}} : {T}
  %a = ge.Relu(%x) : ({T}) -> {T}
  %b = ge.Abs(%x) : ({T}) -> {T}
  %d = ge.Neg(%x) : ({T}) -> {T}
  %c = ge.ConcatD(%a, %b) {{concat_dim = 0}} : ({T}, {T}) -> tensor<8x16xf16>
  %p = ge.Pack(%a, %d) {{axis = 0}} : ({T}, {T}) -> tensor<2x4x16xf16>
  ge.NetOutput %c, %p : tensor<8x16xf16>, tensor<2x4x16xf16>
}}"""
    module = parse(text)
    ConcatNotaskPass().apply(_ctx(), module)
    PackNotaskPass().apply(_ctx(), module)
    assert marked(module, "c") and marked(module, "p")
    a = op_named(module, "a")
    assert A.get_bool_list(a, A.CAN_REUSED_FOR_CONCAT_OPTIMIZE) == [False]
    assert A.get_bool_list(a, A.CAN_REUSED_FOR_PACK_OPTIMIZE) == [False]


# ---------------------------------------------------------------------------------------
# Remarks
# ---------------------------------------------------------------------------------------


def test_remarks_name_location_node_and_rule(capsys):
    run(
        f"""ge.graph @g {{
  %x = ge.Data {{index = 0}} : {T}
  %a = ge.Relu(%x) : ({T}) -> {T}
  %b = ge.Abs(%x) : ({T}) -> {T}
  %c = ge.ConcatD(%a, %b) {{concat_dim = 0, name = "concat_1"}} : ({T}, {T}) -> tensor<8x16xf16>
  %d = ge.ConcatD(%a, %x) {{concat_dim = 0}} : ({T}, {T}) -> tensor<8x16xf16>
  ge.NetOutput %c, %d : tensor<8x16xf16>, tensor<8x16xf16>
}}""",
        remarks=True,
    )
    assert capsys.readouterr().err.splitlines() == [
        "test.mlir:5:3: remark: ConcatD 'concat_1' marked no-task; locked producers: a:0, b:0",
        "test.mlir:6:3: remark: ConcatD 'd' not marked: input 0: output 'a':0 is already locked "
        "by another no-task node (can_reused_for_concat_optimize = false) (IsPreOutAnchorCanReuse)",
    ]


def test_remarks_are_objects_with_the_rule(capsys):
    # the same remarks, collected by a sink: each carries the pass, the verdict and, for a
    # node not marked, the Reason whose rule names the GE function (grep lands on it)
    seen: list[Remark] = []
    with remark_sink(seen.append):
        run(
            f"""ge.graph @g {{
  %x = ge.Data {{index = 0}} : {T}
  %a = ge.Relu(%x) : ({T}) -> {T}
  %c = ge.ConcatD(%a, %a) {{concat_dim = 0}} : ({T}, {T}) -> tensor<8x16xf16>
  %d = ge.ConcatD(%x, %a) {{concat_dim = 0}} : ({T}, {T}) -> tensor<8x16xf16>
  ge.NetOutput %c, %d : tensor<8x16xf16>, tensor<8x16xf16>
}}""",
            remarks=True,
        )
    assert capsys.readouterr().err == ""
    assert [(r.pass_name, r.verdict, r.rule) for r in seen] == [
        ("ge-concat-notask", "not marked", "HasSameSourceAnchor"),
        ("ge-concat-notask", "not marked", "IsPreNodeTypeValid"),
    ]
    assert seen[1].line() == (
        "test.mlir:5:3: remark: ConcatD 'd' not marked: input 0: producer 'x' is a Data node (IsPreNodeTypeValid)"
    )
    assert seen[1].reason == Reason("IsPreNodeTypeValid", "input 0: producer 'x' is a Data node")


def test_input_check_is_a_rule_tuple_in_ge_order():
    # notask_pass_base.cc InputCheck: the nine checks per input, in GE's order, each a
    # function named after GE's
    names = [r.__name__ for r in N.INPUT_CHECKS]
    assert names == [
        "input_is_scalar",
        "input_tensor_align",
        "has_same_source_anchor",
        "is_pre_node_type_valid",
        "is_pre_node_with_subgraph",
        "is_pre_out_anchor_can_reuse",
        "is_pre_out_anchor_valid_multi_ref",
        "input_pre_node_attr_valid",
        "is_same_input_mem_type",
    ]


def test_no_remarks_unless_asked(capsys):
    run(_reshape_chain(1))
    assert capsys.readouterr().err == ""


def test_pass_is_deterministic():
    text = _reshape_chain(3)
    assert printed(run(text)) == printed(run(text))
