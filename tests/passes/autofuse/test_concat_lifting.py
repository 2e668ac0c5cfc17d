"""GE's concat poor-performance lifting (lower_concat_helper.cpp, LowerConcatHelper::NeedLifting):
one test per rule, each failing when the rule is removed.

Pipeline cases run the real ge-lower-autofuse{enable-pass=concat} and ge-autofuse; the
rules that the A2/A3 pipeline cannot reach (backward fusion into an inner AscBackend, a
tiled concat, one AscBackend output read by two concat inputs, a single-input concat)
run on hand-written FusedAscBackends. Every expected ratio is worked out by hand in the
test's docstring from GE's formula: ratio = (concat-dim extent from unique AscBackend
outputs) / (output concat-dim extent), compared with the case's threshold.
"""

from __future__ import annotations

import io

import pytest
from xdsl.dialects.builtin import ModuleOp
from xdsl.printer import Printer

from ge_dialect.ge import FusedAscBackend
from ge_dialect.reason import Reason
from ge_tools.parse import parse_module
from ge_tools.registry import make_context
from lowering.lower_autofuse import LowerAutofusePass
from passes.autofuse.autofuse import AutofusePass
from passes.autofuse.concat_lifting import (
    CONCAT_ALG_SCATTER,
    CONCAT_ALG_TRANSPOSE,
    find_concat_asc_backend,
    lifting_poor_perf_fused_asc_backends,
    need_lifting,
)


def _parse(text: str) -> ModuleOp:
    m = parse_module(make_context(), text, "t.mlir")
    m.verify()
    return m


def _print(m: ModuleOp) -> str:
    out = io.StringIO()
    Printer(stream=out).print_op(m)
    return out.getvalue()


def _fused(m: ModuleOp) -> list[FusedAscBackend]:
    return [o for o in m.walk() if isinstance(o, FusedAscBackend)]


def _pipeline(text: str, lifting: bool = True) -> ModuleOp:
    """ge-lower-autofuse{enable-pass=concat}, ge-autofuse with GE's solver-UT config."""
    m = _parse(text)
    ctx = make_context()
    LowerAutofusePass(enable_pass=("concat",)).apply(ctx, m)
    AutofusePass(
        max_fuse_rounds=1, max_fusion_size=2, max_input_nums_after_fuse=2, lifting=lifting, remarks=True
    ).apply(ctx, m)
    m.verify()
    return m


def _first_dim_graph(rows: int, fused: int, others: int, other_src: str = "MatMul", cols: int = 1024) -> str:
    """`fused` Exp(Data) producers and `others` inputs from `other_src` (MatMul: a kernel
    that stays a GE op; Data: a graph input) -> ConcatD on dim 0 -> Exp."""
    t = f"tensor<{rows}x{cols}xf32>"
    lines = ["ge.graph @main {", f"  %w = ge.Data {{index = 0}} : tensor<16x{cols}xf32>"]
    ins = []
    for i in range(fused):
        lines.append(f"  %a{i} = ge.Data {{index = {i + 1}}} : {t}")
        lines.append(f"  %e{i} = ge.Exp(%a{i}) : ({t}) -> {t}")
        ins.append(f"%e{i}")
    for j in range(others):
        k = fused + 1 + j
        if other_src == "MatMul":
            lines.append(f"  %x{j} = ge.Data {{index = {k}}} : tensor<{rows}x16xf32>")
            lines.append(f"  %m{j} = ge.MatMul(%x{j}, %w) : (tensor<{rows}x16xf32>, tensor<16x{cols}xf32>) -> {t}")
        else:
            lines.append(f"  %m{j} = ge.Data {{index = {k}}} : {t}")
        ins.append(f"%m{j}")
    n = len(ins)
    out = f"tensor<{rows * n}x{cols}xf32>"
    lines.append(f"  %cat = ge.ConcatD({', '.join(ins)}) {{concat_dim = 0}} : ({', '.join([t] * n)}) -> {out}")
    lines.append(f"  %g = ge.Exp(%cat) : ({out}) -> {out}")
    lines.append(f"  ge.NetOutput %g : {out}")
    lines.append("}")
    return "\n".join(lines)


# -- IsPeerNodeValidForNoTask / ParseConcatCaseForNoTask --------------------------------


def test_first_dim_concat_of_kernel_outputs_may_be_no_task(capsys):
    """First-dim concat, 1 fused Exp + 3 MatMul outputs (kernels, not graph inputs), rows of
    16 f32 = 64 B (aligned), no reuse: case may_be_no_task (avg 8x64 B <= 512 KiB),
    threshold 0.3333; ratio 8/32 = 0.25 -> unfolded. Without the no-task case it would be
    first_dim, threshold 0 -> kept."""
    m = _pipeline(_first_dim_graph(8, 1, 3, cols=16))
    assert _fused(m) == []
    err = capsys.readouterr().err
    assert (
        "unfolded: concat in 'autofuse_concat_1_ConcatD': case may_be_no_task: fused AscBackends produce 8/32 = 0.2500"
        in err
    )


def test_first_dim_concat_of_graph_inputs_is_not_no_task(capsys):
    """The same with the 3 other inputs from graph Data: IsPeerNodeValidForNoTask refuses
    Data -> case first_dim, threshold 0 -> kept (GE's Fuse_concat_and_no_lifting_first_dim_concat)."""
    m = _pipeline(_first_dim_graph(8, 1, 3, other_src="Data", cols=16))
    assert len(_fused(m)) == 1
    assert (
        "kept: concat in 'autofuse_concat_1_ConcatD': case first_dim: fused AscBackends produce 8/32"
        in capsys.readouterr().err
    )


@pytest.mark.parametrize(
    ("rows", "fused", "case", "unfold"),
    [
        # avg input = rows x 1024 x 4 B = rows x 4 KiB; ratio = fused / 5
        (128, 2, "may_be_no_task", False),  # 512 KiB is not > 512 KiB: tiny, 0.4 >= 0.3333
        (129, 2, "may_be_no_task_small", True),  # > 512 KiB: small, 0.4 < 0.5
        (129, 3, "may_be_no_task_small", False),  # 0.6 >= 0.5
        (257, 3, "may_be_no_task_mid", True),  # > 1 MiB: mid, 0.6 < 0.8
        (257, 4, "may_be_no_task_mid", False),  # 0.8 >= 0.8
        (2049, 4, "may_be_no_task_large", True),  # > 8 MiB: large, 0.8 < 1.0
    ],
)
def test_no_task_size_classes(capsys, rows, fused, case, unfold):
    """ParseConcatCaseForNoTask: the average input size picks the threshold (large 1.0, mid
    0.8, small 0.5, tiny 0.3333; cut-offs 8 MiB, 1 MiB, 512 KiB, strictly greater)."""
    m = AutofusePass(remarks=True)  # default rounds: every Exp joins the concat
    mod = _parse(_first_dim_graph(rows, fused, 5 - fused))
    ctx = make_context()
    LowerAutofusePass(enable_pass=("concat",)).apply(ctx, mod)
    m.apply(ctx, mod)
    err = capsys.readouterr().err
    assert f"case {case}: fused AscBackends produce {rows * fused}/{rows * 5}" in err
    assert (_fused(mod) == []) == unfold


# -- ParseConcatCase: aligned / other, and the platform's concat_alg ----------------------


def _dim1_graph(cols: int) -> str:
    t, out = f"tensor<4x{cols}xf32>", f"tensor<4x{4 * cols}xf32>"
    return f"""ge.graph @main {{
  %a = ge.Data {{index = 0}} : {t}
  %b = ge.Data {{index = 1}} : {t}
  %c = ge.Data {{index = 2}} : {t}
  %d = ge.Data {{index = 3}} : {t}
  %e = ge.Exp(%a) : ({t}) -> {t}
  %cat = ge.ConcatD(%e, %b, %c, %d) {{concat_dim = 1}} : ({t}, {t}, {t}, {t}) -> {out}
  %g = ge.Exp(%cat) : ({out}) -> {out}
  ge.NetOutput %g : {out}
}}"""


@pytest.mark.parametrize(("cols", "case"), [(8, "aligned"), (3, "other")])
def test_aligned_and_other_thresholds_per_concat_alg(cols, case):
    """Concat on dim 1: stride 4 B; 8 f32 per input = 32 B -> aligned, 3 -> 12 B -> other.
    ratio 1/4 = 0.25: below 0.3333 with concat_alg transpose (A2/A3), above 0.1666 with
    scatter."""
    m = _pipeline(_dim1_graph(cols), lifting=False)
    (fused,) = _fused(m)
    found = find_concat_asc_backend(fused)
    assert found is not None
    unfold, why = need_lifting(fused, *found, alg=CONCAT_ALG_TRANSPOSE)
    assert unfold and f"case {case}: fused AscBackends produce {cols}/{4 * cols} = 0.2500" in why.message
    assert why.rule == "LowerConcatHelper::NeedLifting"
    assert not need_lifting(fused, *found, alg=CONCAT_ALG_SCATTER)[0]


def test_more_than_63_concat_inputs_are_not_lifted(capsys):
    """64 inputs > concat_max_input_num 63: kept although the ratio is 1/64."""
    t = "tensor<4x8xf32>"
    lines = ["ge.graph @main {"] + [f"  %i{k} = ge.Data {{index = {k}}} : {t}" for k in range(64)]
    lines.append(f"  %e = ge.Exp(%i0) : ({t}) -> {t}")
    out = "tensor<4x512xf32>"
    lines.append(
        f"  %cat = ge.ConcatD(%e, {', '.join(f'%i{k}' for k in range(1, 64))}) {{concat_dim = 1}} : ({', '.join([t] * 64)}) -> {out}"
    )
    lines += [f"  %g = ge.Exp(%cat) : ({out}) -> {out}", f"  ge.NetOutput %g : {out}", "}"]
    m = _pipeline("\n".join(lines))
    assert len(_fused(m)) == 1
    assert "kept: concat in 'autofuse_concat_1_ConcatD': 64 concat inputs > 63" in capsys.readouterr().err


# -- hand-written FusedAscBackends ----------------------------------------------------------

T3 = "!ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 3], strides = [3, 1]>"


def _exp_backend(res: str, arg: str, name: str, cols: int = 3) -> str:
    t = f"!ascgraph.tensor<f32, axis = [0, 1], repeats = [4, {cols}], strides = [{cols}, 1]>"
    return f"""    {res} = ge.AscBackend({arg}) {{name = "{name}", fuse_type = "pointwise", fuse_type_mask = 2, fusion_nodes_size = 5}} : (tensor<4x{cols}xf32>) -> tensor<4x{cols}xf32> {{
      ascgraph.graph @{name}_g axis = [0: z0 = 4, 1: z1 = {cols}] {{
        %x = ascgraph.Data {{index = 0}} : {t}
        %l = ascgraph.Load(%x) {{offset = 0, sched.axis = [0, 1]}} : {t}
        %y = ascgraph.Exp(%l) {{sched.axis = [0, 1]}} : {t}
        %s = ascgraph.Store(%y) {{offset = 0, sched.axis = [0, 1]}} : {t}
        %o = ascgraph.Output(%s) {{index = 0}} : {t}
      }}
    }}"""


def _concat_backend(res: str, args: list[str], loads_of: list[int]) -> str:
    """A concat AscBackend with one Data per operand; concat input k loads Data loads_of[k]."""
    n = len(loads_of)
    tn = f"!ascgraph.tensor<f32, axis = [0, 1], repeats = [4, {3 * n}], strides = [{3 * n}, 1]>"
    body = []
    for i in range(len(args)):
        body.append(f"        %x{i} = ascgraph.Data {{index = {i}}} : {T3}")
        body.append(f"        %l{i} = ascgraph.Load(%x{i}) {{offset = 0, sched.axis = [0, 1]}} : {T3}")
    loads = ", ".join(f"%l{k}" for k in loads_of)
    size = 2 * len(args) + 3
    ins = ", ".join(["tensor<4x3xf32>"] * len(args))
    return f"""    {res} = ge.AscBackend({", ".join(args)}) {{name = "concat", fuse_type = "concat", fuse_type_mask = 8, fusion_nodes_size = {size}}} : ({ins}) -> tensor<4x{3 * n}xf32> {{
      ascgraph.graph @concat_g axis = [0: z0 = 4, 1: z1 = {3 * n}] {{
{chr(10).join(body)}
        %c = ascgraph.Concat({loads}) {{sched.axis = [0, 1]}} : {tn}
        %s = ascgraph.Store(%c) {{offset = 0, sched.axis = [0, 1]}} : {tn}
        %o = ascgraph.Output(%s) {{index = 0}} : {tn}
      }}
    }}"""


def _module(n_inputs: int, inner: str, results: str, result_types: str) -> str:
    ins = ", ".join(f"%in{i}" for i in range(n_inputs))
    tys = ", ".join(["tensor<4x3xf32>"] * n_inputs)
    datas = "\n".join(f"  %in{i} = ge.Data {{index = {i}}} : tensor<4x3xf32>" for i in range(n_inputs))
    inner_datas = "\n".join(f"    %d{i} = ge.Data {{index = {i}}} : tensor<4x3xf32>" for i in range(n_inputs))
    outs = ", ".join(["%f", "%f2", "%f3"][: results.count("%")])
    sig = f"({result_types})" if "," in result_types else result_types
    return f"""ge.graph @main {{
{datas}
  {outs} = ge.FusedAscBackend({ins}) {{name = "fused", fuse_type = "pointwise", fuse_type_mask = 10}} : ({tys}) -> {sig} {{
{inner_datas}
{inner}
    ge.NetOutput {results} : {result_types}
  }}
  ge.NetOutput {outs} : {result_types}
}}"""


def _lift(text: str) -> tuple[ModuleOp, list[str]]:
    m = _parse(text)
    block = next(o for o in m.walk() if o.name == "ge.graph").regions[0].block
    done = lifting_poor_perf_fused_asc_backends(block)
    m.verify()
    return m, done


def test_hand_written_below_threshold_unfolds_into_the_parent():
    """Exp + concat(E, d1, d2, d3) on dim 1 (12 B rows: other): 3/12 = 0.25 < 0.3333. The
    inner AscBackends move into @main in order, the Data nodes become the parent's inputs
    and the concat AscBackend's result takes the FusedAscBackend's name."""
    inner = _exp_backend("%E", "%d0", "exp") + "\n" + _concat_backend("%C", ["%E", "%d1", "%d2", "%d3"], [0, 1, 2, 3])
    m, done = _lift(_module(4, inner, "%C", "tensor<4x12xf32>"))
    assert done == ["fused"]
    text = _print(m)
    assert "ge.FusedAscBackend" not in text
    assert '%E = ge.AscBackend(%in0) {name = "exp"' in text
    assert '%f = ge.AscBackend(%E, %in1, %in2, %in3) {name = "concat"' in text
    assert "ge.NetOutput %f : tensor<4x12xf32>" in text


def test_backward_fusion_keeps_the_fused_node():
    """HasBackwardFusion: the concat AscBackend feeds an Exp AscBackend inside -> kept, though
    its ratio 3/12 would unfold it."""
    inner = _exp_backend("%E", "%d0", "exp") + "\n" + _concat_backend("%C", ["%E", "%d1", "%d2", "%d3"], [0, 1, 2, 3])
    after = _exp_backend("%G", "%C", "exp2", cols=12)
    m, done = _lift(_module(4, inner + "\n" + after, "%G", "tensor<4x12xf32>"))
    assert done == []
    (fused,) = _fused(m)
    unfold, why = need_lifting(fused, *find_concat_asc_backend(fused))  # type: ignore[misc]
    assert not unfold and why.rule == "LowerConcatHelper::HasBackwardFusion" and "backward fusion" in why.message


def test_same_output_read_twice_counts_once():
    """unique_srcs: E feeds concat inputs 0 and 1 (two operands, two Data nodes): counted once,
    3/12 = 0.25 -> unfolded; counted twice it would be 6/12 = 0.5 -> kept."""
    inner = _exp_backend("%E", "%d0", "exp") + "\n" + _concat_backend("%C", ["%E", "%E", "%d1", "%d2"], [0, 1, 2, 3])
    _, done = _lift(_module(3, inner, "%C", "tensor<4x12xf32>"))
    assert done == ["fused"]


def test_tiled_concat_skips_the_input_count_checks():
    """IsTile: 64 concat inputs all loading the AscBackend's one input: the > 63 input check
    does not apply; 3/192 < 0.3333 -> unfolded (without IsTile: kept for 64 inputs)."""
    inner = _exp_backend("%E", "%d0", "exp") + "\n" + _concat_backend("%C", ["%E"], [0] * 64)
    _, done = _lift(_module(1, inner, "%C", "tensor<4x192xf32>"))
    assert done == ["fused"]


def test_single_input_concat_is_kept():
    """A concat with one input is a copy: never lifted (ratio 0/3 would unfold it)."""
    inner = _exp_backend("%E", "%d0", "exp") + "\n" + _concat_backend("%C", ["%d1"], [0])
    m, done = _lift(_module(2, inner, "%E, %C", "tensor<4x3xf32>, tensor<4x3xf32>"))
    assert done == []
    (fused,) = _fused(m)
    assert need_lifting(fused, *find_concat_asc_backend(fused)) == (  # type: ignore[misc]
        False,
        Reason("LowerConcatHelper::NeedLifting", "single concat input"),
    )


def test_fused_node_without_concat_is_untouched():
    """FindConcatAscBackendNode: no AscBackend of fuse type concat -> nothing to decide."""
    inner = _exp_backend("%E", "%d0", "exp") + "\n" + _exp_backend("%F", "%d1", "exp1")
    m, done = _lift(_module(2, inner, "%E, %F", "tensor<4x3xf32>, tensor<4x3xf32>"))
    assert done == [] and len(_fused(m)) == 1


def test_unfolded_kernels_compute_the_original_numbers():
    """D = Exp(Abs(a)) has 2 compute ops, so after the unfolding (1/4 of dim 1 fused: 0.25 <
    0.3333) its AscBackend stays a kernel next to the lifted ConcatD; the reference
    interpreter gives the original graph's numbers."""
    import numpy as np

    from runtime.interpreter import run_module

    text = _dim1_graph(3).replace(
        "%e = ge.Exp(%a)", "%ab = ge.Abs(%a) : (tensor<4x3xf32>) -> tensor<4x3xf32>\n  %e = ge.Exp(%ab)"
    )
    rng = np.random.default_rng(0)
    ins = [rng.standard_normal((4, 3)).astype(np.float32) for _ in range(4)]
    want = run_module(_parse(text), ins)
    m = _parse(text)
    ctx = make_context()
    LowerAutofusePass(enable_pass=("concat",)).apply(ctx, m)
    AutofusePass(max_fuse_rounds=1, max_fusion_size=2, max_input_nums_after_fuse=2).apply(ctx, m)
    m.verify()
    printed = _print(m)
    assert "ge.FusedAscBackend" not in printed and "ge.AscBackend" in printed and "ge.ConcatD" in printed
    got = run_module(_parse(printed), ins)
    for w, g in zip(want, got, strict=True):
        np.testing.assert_array_equal(g, w)
