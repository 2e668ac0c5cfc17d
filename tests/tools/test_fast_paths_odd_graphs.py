"""The compile-time fast paths (issue 12, part 3) on graph forms the generated benchmark
graphs never hold: a node reading two outputs of one producer, 0-d and size-0 tensors, a
padded NC1HWC0 format, values without a name. Each fast path against the plain path it
replaces, on each graph:

* parse: a node's common form read by regex (ge_fast/parser.py: parse_common_form) against the token path;
* print: GePrinter's kept texts against xDSL's Printer, of the compiled module;
* verify: the result's verify with the passed-node memo against one checking every node;
* ge-autofuse: Fuse reusing the pair CanFuse just accepted against building its own, and
  the lifting walk over the graph's own nodes against xDSL's walker.

Where the pipeline refuses a graph, both paths must give the same located error.
"""

from __future__ import annotations

import pytest
from xdsl.printer import Printer

from conftest import NeverPassedNodes, count_calls, print_module, walker_once, without_fuse_handoff
from ge_dialect import ascgraph as ag
from ge_dialect.verify import verify_module
from ge_fast import Switch
from ge_tools.parse import LocatedParser, UserError, parse_module
from ge_tools.pipeline import GeCompilePass
from ge_tools.printer import GePrinter
from ge_tools.registry import make_context
from passes.autofuse import concat_lifting as CL
from passes.autofuse import decider as D
from passes.autofuse import lifting as L

T = "tensor<16x32xf16>"
NC = "tensor<1x20x4x4xf16, #ge.desc<NC1HWC0, origin = NCHW>>"  # C = 20: C1 = 2, padded to 32
NC2 = "tensor<1x40x4x4xf16, #ge.desc<NC1HWC0, origin = NCHW>>"

GRAPHS = {
    # one node reads two outputs of one producer; a second reads one of them again
    "two_outputs_of_one_producer": f"""ge.graph @main {{
  %x = ge.Data {{index = 0}} : tensor<32x32xf16>
  %r = ge.Relu(%x) : (tensor<32x32xf16>) -> tensor<32x32xf16>
  %s0, %s1 = ge.SplitD(%r) {{split_dim = 0, num_split = 2}} : (tensor<32x32xf16>) -> ({T}, {T})
  %a = ge.Add(%s0, %s1) : ({T}, {T}) -> {T}
  %b = ge.Mul(%a, %s1) : ({T}, {T}) -> {T}
  %e = ge.Exp(%s0) : ({T}) -> {T}
  %c = ge.Sub(%b, %e) : ({T}, {T}) -> {T}
  ge.NetOutput %c : {T}
}}
""",
    # 0-d tensors through elementwise nodes, broadcast into a 2-d one
    "zero_d": """ge.graph @main {
  %x = ge.Data {index = 0} : tensor<f32>
  %y = ge.Data {index = 1} : tensor<16x32xf32>
  %a = ge.Relu(%x) : (tensor<f32>) -> tensor<f32>
  %b = ge.Exp(%a) : (tensor<f32>) -> tensor<f32>
  %c = ge.Mul(%y, %b) : (tensor<16x32xf32>, tensor<f32>) -> tensor<16x32xf32>
  %d = ge.Relu(%c) : (tensor<16x32xf32>) -> tensor<16x32xf32>
  ge.NetOutput %d, %b : tensor<16x32xf32>, tensor<f32>
}
""",
    # a size-0 tensor beside a non-empty one
    "size_zero": f"""ge.graph @main {{
  %x = ge.Data {{index = 0}} : tensor<0x32xf16>
  %y = ge.Data {{index = 1}} : {T}
  %a = ge.Relu(%x) : (tensor<0x32xf16>) -> tensor<0x32xf16>
  %b = ge.Exp(%y) : ({T}) -> {T}
  %c = ge.ConcatD(%a, %b) {{concat_dim = 0, N = 2}} : (tensor<0x32xf16>, {T}) -> {T}
  %d = ge.Relu(%c) : ({T}) -> {T}
  ge.NetOutput %d : {T}
}}
""",
    # NC1HWC0 with C not a multiple of C0: padded storage, a concat on C the no-task pass refuses
    "padded_nc1hwc0": f"""ge.graph @main {{
  %x = ge.Data {{index = 0}} : {NC}
  %y = ge.Data {{index = 1}} : {NC}
  %a = ge.Relu(%x) : ({NC}) -> {NC}
  %b = ge.Add(%y, %a) : ({NC}, {NC}) -> {NC}
  %c = ge.ConcatD(%a, %b) {{concat_dim = 1, N = 2}} : ({NC}, {NC}) -> {NC2}
  %z = ge.Exp(%c) : ({NC2}) -> {NC2}
  ge.NetOutput %z : {NC2}
}}
""",
    # values named by number only (what a printer writes for values with no name hint)
    "nameless_values": f"""ge.graph @main {{
  %0 = ge.Data {{index = 0}} : {T}
  %1 = ge.Data {{index = 1}} : {T}
  %2 = ge.Add(%0, %1) : ({T}, {T}) -> {T}
  %3 = ge.Relu(%2) : ({T}) -> {T}
  %4 = ge.Mul(%3, %0) : ({T}, {T}) -> {T}
  %5 = ge.Exp(%4) : ({T}) -> {T}
  ge.NetOutput %5, %3 : {T}, {T}
}}
""",
}
NAMES = sorted(GRAPHS)


def _compiled(name: str) -> str:
    """The compiled module printed by GePrinter (as ge-opt prints it), or the located error."""
    try:
        m = parse_module(make_context(), GRAPHS[name], f"{name}.mlir")
        GeCompilePass().apply(make_context(), m)
        verify_module(m)
    except UserError as e:
        return f"error: {e}"
    return print_module(m, GePrinter)


def test_the_odd_graphs_compile(monkeypatch):
    """Most of these graphs compile and two of them fuse (a refusal would leave the fast
    paths untried)."""
    fuses = count_calls(monkeypatch, D.AscBackendFusionDecider, "fuse")
    compiled, fused = [], []
    for n in NAMES:
        before = fuses[0]
        if not _compiled(n).startswith("error:"):
            compiled.append(n)
        if fuses[0] > before:
            fused.append(n)
    assert len(compiled) >= 3, compiled
    assert {"two_outputs_of_one_producer", "nameless_values"} <= set(fused), fused


@pytest.mark.parametrize("name", NAMES)
def test_common_form_parses_as_the_token_path(monkeypatch, name):
    texts = []
    for fast in (True, False):
        monkeypatch.setattr(Switch, "on", fast)
        monkeypatch.setattr(LocatedParser, "fast_results", fast)
        m = parse_module(make_context(), GRAPHS[name], f"{name}.mlir")
        texts.append(print_module(m, print_generic_format=True, print_debuginfo=True))
    assert texts[0] == texts[1]


@pytest.mark.parametrize("name", NAMES)
def test_compiled_prints_what_xdsl_prints(name):
    try:
        m = parse_module(make_context(), GRAPHS[name], f"{name}.mlir")
        GeCompilePass().apply(make_context(), m)
    except UserError:
        pytest.skip("the pipeline refuses this graph: nothing compiled to print")
    for flags in ({}, {"print_generic_format": True}):
        assert print_module(m, GePrinter, **flags) == print_module(m, Printer, **flags)


@pytest.mark.parametrize("name", NAMES)
def test_verify_with_the_memo_as_without(monkeypatch, name):
    with_memo = _compiled(name)
    monkeypatch.setattr(ag, "_PASSED_NODES", NeverPassedNodes())
    assert _compiled(name) == with_memo


@pytest.mark.parametrize("name", NAMES)
def test_fuse_without_the_handoff_gives_the_same(monkeypatch, name):
    fast = _compiled(name)
    without_fuse_handoff(monkeypatch)
    assert _compiled(name) == fast


@pytest.mark.parametrize("name", NAMES)
def test_lifting_over_the_graph_nodes_gives_the_walkers(monkeypatch, name):
    fast = _compiled(name)
    monkeypatch.setattr(L, "rewrite_block_once", walker_once)
    monkeypatch.setattr(CL, "rewrite_block_once", walker_once)
    assert _compiled(name) == fast
