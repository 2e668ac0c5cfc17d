"""ge-phony-notask and the GE-local output sizes (docs/ge/notask.md).

Every expected number is computed by hand in a comment next to it.
"""

from __future__ import annotations

import pytest
from xdsl.dialects.builtin import ModuleOp, f16, i8
from xdsl.ir import Operation

from conftest import parse, print_module
from ge_dialect import attrs as A
from ge_dialect.diagnostics import LocatedError
from ge_dialect.ge import node_name
from ge_tools.registry import get_all_passes, make_context
from passes.memory.ge_local_sizes import (
    align_output_mem_size,
    ge_local_output_size,
    is_ge_local_op,
    memory_size_with_auto_padding,
)
from passes.notask.phony import (
    PhonyNotaskPass,
    check_dim_attr_match_tensor,
    check_dim_attr_valid,
    get_concat_offset,
    get_split_offset,
)


def _node(module: ModuleOp, name: str) -> Operation:
    for op in module.walk():
        if op.name.startswith("ge.") and op.name != "ge.graph" and node_name(op) == name:
            return op
    raise KeyError(name)


T = "tensor<1x2x2x4x8xf16>"
PHONY_CONCAT = f"""
ge.graph @main {{
  %x = ge.Data {{index = 0}} : {T}
  %mul1 = ge.Mul(%x, %x) : ({T}, {T}) -> {T}
  %mul2 = ge.Mul(%x, %x) : ({T}, {T}) -> {T}
  %mul3 = ge.Mul(%x, %x) : ({T}, {T}) -> {T}
  %mul4 = ge.Mul(%x, %x) : ({T}, {T}) -> {T}
  %phony_concat = ge.PhonyConcat(%mul1, %mul2, %mul3, %mul4) {{concat_dim = [3, 1], N = [2, 2]}} : ({T}, {T}, {T}, {T}) -> tensor<1x4x2x8x8xf16>
  ge.NetOutput %phony_concat : tensor<1x4x2x8x8xf16>
}}
"""


# -- the registry ------------------------------------------------------------------------


def test_registered():
    assert get_all_passes()["ge-phony-notask"]() is PhonyNotaskPass
    assert PhonyNotaskPass.name == "ge-phony-notask"


# -- GetConcatOffset / GetSplitOffset ----------------------------------------------------


def test_concat_offset_ge_worked_example():
    # {1,2,2,4,8} f16, concat_dim [3,1], N [2,2]: axis 3 slice = 4*8*2 B = 64 B, then the piece
    # grows to {1,2,2,8,8}; axis 1 slice = 2*2*8*8*2 B = 512 B. idx 3 = [1,1] -> 64 + 512.
    shape = (1, 2, 2, 4, 8)
    got = [get_concat_offset(shape, f16, k, [3, 1], [2, 2]) for k in range(4)]
    assert got == [0, 64, 512, 576]


def test_concat_offset_ge_comment_example_n_2_3():
    # GE's GetConcatOffset comment: dims [3,1], N [2,3]: slice ids [0,0] [1,0] [0,1] [1,1] [0,2]
    # [1,2]. On {1,2,2,4,8} f16: 64 B per axis-3 slice, 512 B per axis-1 slice:
    # 0, 64, 512, 576, 1024, 1088.
    shape = (1, 2, 2, 4, 8)
    got = [get_concat_offset(shape, f16, k, [3, 1], [2, 3]) for k in range(6)]
    assert got == [0, 64, 512, 576, 1024, 1088]


def test_split_offset_mirror():
    # split_dim [1,3], num_split [2,2] (last axis fastest) gives the same layout as concat [3,1].
    shape = (1, 2, 2, 4, 8)
    got = [get_split_offset(shape, f16, k, [1, 3], [2, 2]) for k in range(4)]
    assert got == [0, 64, 512, 576]
    # Order matters: split_dim [3,1] makes axis 1 (the last entry) the fastest: idx 1 = slice
    # [0,1], idx 2 = [1,0]. Axis 1 is walked first: one slice = prod({2,2,4,8}) * 2 B = 256 B;
    # the piece grows to {1,4,2,4,8}; axis 3: one slice = prod({4,8}) * 2 B = 64 B.
    # Offsets: 0, 256, 64, 256 + 64 = 320.
    got = [get_split_offset(shape, f16, k, [3, 1], [2, 2]) for k in range(4)]
    assert got == [0, 256, 64, 320]


def test_offset_sub_byte_dtype_rounds_up():
    # int8 is 1 B: {2,3} concat_dim [0] -> idx 1 at 2*3 = 6 B.
    assert get_concat_offset((2, 3), i8, 1, [0], [2]) == 6


# -- CheckDimAttrValid / CheckDimAttrMatchTensor ------------------------------------------


def test_check_dim_attr_match_tensor_normalises_in_place():
    module = parse(PHONY_CONCAT)
    pc = _node(module, "phony_concat")
    dims = [-2, 1]
    check_dim_attr_match_tensor(pc, dims, (1, 2, 2, 4, 8), "concat_dim", "input 0")
    assert dims == [3, 1]  # -2 + 5 = 3; later pieces see the normalised list
    with pytest.raises(LocatedError, match=r"CheckDimAttrMatchTensor: 'concat_dim' entry 0 \(-6\)"):
        check_dim_attr_match_tensor(pc, [-6], (1, 2, 2, 4, 8), "concat_dim", "input 0")


@pytest.mark.parametrize(
    "dims, nums, message",
    [
        ([], [], r"must be non-empty lists of equal length"),
        ([3, 1], [4], r"must be non-empty lists of equal length"),
        ([3, 1], [4, 0], r"'N' entry 1 is 0, must be > 0"),
        ([3, 1], [2, 1], r"product of 'N' \[2, 1\] is 2, but PhonyConcat has 4 inputs"),
    ],
)
def test_check_dim_attr_valid(dims, nums, message):
    module = parse(PHONY_CONCAT)
    pc = _node(module, "phony_concat")
    with pytest.raises(LocatedError, match="CheckDimAttrValid: .*" + message):
        check_dim_attr_valid(pc, dims, nums, ("concat_dim", "N"), 4, "inputs")


def test_pass_runs_check_dim_attr_valid_itself():
    # The verifier rejects N [2, 1] at parse time; with the attribute changed after parsing,
    # the pass's own CheckDimAttrValid fails (GE: CalcPhonyConcatNodeOffset returns FAILED).
    module = parse(PHONY_CONCAT)
    A.set_int_list(_node(module, "phony_concat"), "N", [2, 1])
    with pytest.raises(LocatedError, match=r"product of 'N' \[2, 1\] is 2, but PhonyConcat has 4 inputs"):
        PhonyNotaskPass().apply(make_context(), module)


# -- the pass from Python -----------------------------------------------------------------


def test_pass_offsets_and_marks():
    module = parse(PHONY_CONCAT)
    PhonyNotaskPass().apply(make_context(), module)
    offsets = [A.get_int_list(_node(module, f"mul{k}"), A.OUTPUT_OFFSET_LIST_FOR_CONTINUOUS) for k in range(1, 5)]
    assert offsets == [[0], [64], [512], [576]]  # see test_concat_offset_ge_worked_example
    pc = _node(module, "phony_concat")
    assert list(pc.attributes)[-4:] == [
        A.NO_TASK,
        A.NOPADDING_CONTINUOUS_INPUT,
        A.OUTPUT_REUSE_INPUT,
        A.REUSE_INPUT_ON_DIM_INDEX,
    ]
    assert A.get_int(pc, A.REUSE_INPUT_ON_DIM_INDEX) == 0


def test_pass_is_idempotent():
    module = parse(PHONY_CONCAT)
    PhonyNotaskPass().apply(make_context(), module)
    once = print_module(module)
    PhonyNotaskPass().apply(make_context(), module)
    assert print_module(module) == once


def test_remarks_only_when_asked(capsys):
    module = parse(PHONY_CONCAT)
    PhonyNotaskPass().apply(make_context(), module)
    # GE's test shapes get the layout warning (always printed), but no remark
    assert "remark:" not in capsys.readouterr().err
    PhonyNotaskPass(remarks=True).apply(make_context(), module)
    err = capsys.readouterr().err
    assert (
        "remark: PhonyConcat 'phony_concat' marked no-task; offsets: mul1:0=0, mul2:0=64, mul3:0=512, mul4:0=576" in err
    )


def test_reuse_input_attrs_read_back():
    module = parse(
        """
ge.graph @main {
  %x = ge.Data {index = 0} : tensor<2x1x16xf16>
  %sq = ge.Squeeze(%x) {axis = [1]} : (tensor<2x1x16xf16>) -> tensor<2x16xf16>
  ge.NetOutput %sq : tensor<2x16xf16>
}
"""
    )
    sq = _node(module, "sq")
    assert A.get_output_flag(sq, A.REUSE_INPUT, 0, default=False) is False
    PhonyNotaskPass().apply(make_context(), module)
    assert A.get_output_flag(sq, A.REUSE_INPUT, 0, default=False) is True
    assert A.get_output_int(sq, A.REUSE_INPUT_INDEX, 0, default=-1) == 0
    module.verify()  # one entry per result: the per-output attribute check accepts it


# -- GE-local output sizes (CalcOpRunningParam) -------------------------------------------


def test_phony_concat_output_size_1056():
    # GE PhonyConcat_CheckSize_32Padding: ND fp16 {4,2,2,4,8} = 512 elems * 2 B = 1024 B raw;
    # AlignOutputMemSize: ceil(1024/32)*32 + 32 = 1056.
    module = parse(
        f"""
ge.graph @main {{
  %x = ge.Data {{index = 0}} : {T}
  %a = ge.Mul(%x, %x) : ({T}, {T}) -> {T}
  %b = ge.Mul(%x, %x) : ({T}, {T}) -> {T}
  %c = ge.Mul(%x, %x) : ({T}, {T}) -> {T}
  %d = ge.Mul(%x, %x) : ({T}, {T}) -> {T}
  %pc = ge.PhonyConcat(%a, %b, %c, %d) {{concat_dim = [0], N = [4]}} : ({T}, {T}, {T}, {T}) -> tensor<4x2x2x4x8xf16>
  ge.NetOutput %pc : tensor<4x2x2x4x8xf16>
}}
"""
    )
    assert ge_local_output_size(_node(module, "pc"), 0) == 1056
    # Data {1,2,2,4,8} f16 = 128 * 2 = 256 B: (256 + 32 + 32 - 1) // 32 * 32 = 319 // 32 * 32 = 288.
    assert ge_local_output_size(_node(module, "x"), 0) == 288


def test_partitioned_call_output_size_320032():
    # GE PartitionedCall_CheckSize_32Padding: NCHW fp32 {4,50,50,8} = 80000 elems * 4 B =
    # 320000 B raw (a multiple of 32); + 32 padding = 320032.
    t = "tensor<4x50x50x8xf32, #ge.desc<NCHW, origin = NCHW>>"
    module = parse(
        f"""
ge.graph @main {{
  %data_1 = ge.Data {{index = 0}} : {t}
  %data_2 = ge.Data {{index = 1}} : {t}
  %data_3 = ge.Data {{index = 2}} : {t}
  %add = ge.Add(%data_1, %data_2) : ({t}, {t}) -> {t}
  %partitioned_call = ge.PartitionedCall(%data_3, %add) {{f = @sub}} : ({t}, {t}) -> {t}
  ge.NetOutput %partitioned_call : {t}
}}
ge.graph @sub {{
  %a = ge.Data {{index = 0}} : {t}
  %b = ge.Data {{index = 1}} : {t}
  %s = ge.Add(%a, %b) : ({t}, {t}) -> {t}
  ge.NetOutput %s : {t}
}}
"""
    )
    assert ge_local_output_size(_node(module, "partitioned_call"), 0) == 320032


def test_other_sizes():
    module = parse(
        """
ge.graph @main {
  %x = ge.Data {index = 0} : tensor<2x3xi8>
  %e = ge.Data {index = 1} : tensor<0x16xf16>
  %rs = ge.Reshape(%x) : (tensor<2x3xi8>) -> tensor<6xi8>
  %sq = ge.Squeeze(%x) : (tensor<2x3xi8>) -> tensor<2x3xi8>
  %ea = ge.Relu(%e) : (tensor<0x16xf16>) -> tensor<0x16xf16>
  %eb = ge.Relu(%e) : (tensor<0x16xf16>) -> tensor<0x16xf16>
  %epc = ge.PhonyConcat(%ea, %eb) {concat_dim = [1], N = [2]} : (tensor<0x16xf16>, tensor<0x16xf16>) -> tensor<0x32xf16>
  %r = ge.Relu(%x) : (tensor<2x3xi8>) -> tensor<2x3xi8>
  ge.NetOutput %rs, %sq, %epc, %r : tensor<6xi8>, tensor<2x3xi8>, tensor<0x32xf16>, tensor<2x3xi8>
}
"""
    )
    # Data int8 {2,3} = 6 B: (6 + 63) // 32 * 32 = 64.
    assert ge_local_output_size(_node(module, "x"), 0) == 64
    # Data of 0 B: (0 + 63) // 32 * 32 = 32, the minimum.
    assert ge_local_output_size(_node(module, "e"), 0) == 32
    # Other GE-local types: the raw size, 6 * 1 B = 6.
    assert ge_local_output_size(_node(module, "rs"), 0) == 6
    assert ge_local_output_size(_node(module, "sq"), 0) == 6
    # PhonyConcat of 0 B: ceil(0/32)*32 + 32 = 32.
    assert ge_local_output_size(_node(module, "epc"), 0) == 32
    # Relu is not GE-local: its kernel builder decides.
    assert not is_ge_local_op(_node(module, "r"))
    with pytest.raises(ValueError, match="not a GE-local op"):
        ge_local_output_size(_node(module, "r"), 0)
    with pytest.raises(ValueError, match="no output 1"):
        ge_local_output_size(_node(module, "rs"), 1)


def test_unknown_shape_size_is_a_located_error():
    module = parse(
        """
ge.graph @main {
  %x = ge.Data {index = 0} : tensor<?x16xf16>
  ge.NetOutput %x : tensor<?x16xf16>
}
"""
    )
    with pytest.raises(LocatedError, match="CalcOpRunningParam: output 0 has unknown shape"):
        ge_local_output_size(_node(module, "x"), 0)


@pytest.mark.parametrize(
    "raw, aligned, data",
    [
        # (raw + 31) // 32 * 32 + 32, and (raw + 63) // 32 * 32
        (0, 32, 32),
        (1, 64, 64),
        (32, 64, 64),
        (33, 96, 96),
        (1024, 1056, 1056),
    ],
)
def test_size_formulas(raw, aligned, data):
    assert align_output_mem_size(raw) == aligned
    assert memory_size_with_auto_padding(raw) == data


def test_size_formulas_differ_with_other_padding():
    # padding 16: AlignOutputMemSize(6) = 32 + 16 = 48; auto padding (6 + 32 + 16 - 1) // 32 * 32 = 32.
    assert align_output_mem_size(6, 16) == 48
    assert memory_size_with_auto_padding(6, 16) == 32


# -- one offset slot per pair (ours, not GE's: OffsetSlots) ---------------------------------

PAIRS = """
ge.graph @main {
  %x = ge.Data {index = 0} : tensor<3x16xf32>
  %y = ge.Data {index = 1} : tensor<2x16xf32>
  %p:3 = ge.PhonySplit(%x) {split_dim = [0], num_split = [3]} : (tensor<3x16xf32>) -> (tensor<1x16xf32>, tensor<1x16xf32>, tensor<1x16xf32>)
  %q:2 = ge.PhonySplit(%y) {split_dim = [0], num_split = [2]} : (tensor<2x16xf32>) -> (tensor<1x16xf32>, tensor<1x16xf32>)
  %n = ge.AddN(%p#2, %q#1, %p#1) {N = 3} : (tensor<1x16xf32>, tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
  ge.NetOutput %n, %p#2, %q#1 : tensor<1x16xf32>, tensor<1x16xf32>, tensor<1x16xf32>
}
"""


def test_every_pair_keeps_its_slot_across_pieces_and_phony_nodes():
    # 1x16 f32 pieces = 64 B: p#k at 64k, q#k at 64k. AddN reads p#2 (128), q#1 (64), p#1
    # (64): GE's per-piece overwrite would leave one of them ([0, 0, 64] after q, the last
    # phony node written); NetOutput lists p#2 and q#1 after n: [0, 128, 64].
    module = parse(PAIRS)
    PhonyNotaskPass().apply(make_context(), module)
    assert A.get_int_list(_node(module, "n"), A.INPUT_OFFSET_LIST_FOR_CONTINUOUS) == [128, 64, 64]
    net = next(op for op in module.walk() if op.name == "ge.NetOutput")
    assert A.get_int_list(net, A.INPUT_OFFSET_LIST_FOR_CONTINUOUS) == [0, 128, 64]
    # a second calculation gives the same lists (each starts from zeros, nothing doubles)
    PhonyNotaskPass(stage="calc").apply(make_context(), module)
    assert A.get_int_list(_node(module, "n"), A.INPUT_OFFSET_LIST_FOR_CONTINUOUS) == [128, 64, 64]
    assert A.get_int_list(net, A.INPUT_OFFSET_LIST_FOR_CONTINUOUS) == [0, 128, 64]
