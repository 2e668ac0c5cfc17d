"""Work counts of ge-lower-autofuse and ge-to-npu (issue 12, part 3): what each builds or
copies. Each test counts (ops built, regions copied), never seconds, and checks that the
faster path gives the same printed IR as the plain one."""

from __future__ import annotations

import pytest
from xdsl.ir import Region
from xdsl.passes import PassPipeline

from conftest import parse, print_module
from ge_tools.pipeline import GeCompilePass
from ge_tools.registry import make_context
from lowering import ge_to_npu

# @block is inlined twice into @main's model; @main has a three-node AscBackend of its own.
TWO_CALLS = """
ge.graph @main attributes {_single_op_scene = false} {
  %x = ge.Data {index = 0} : tensor<4x50xf32>
  %b = ge.Data {index = 1} : tensor<4x50xf32>
  %y = ge.PartitionedCall(%x, %b) {f = @block} : (tensor<4x50xf32>, tensor<4x50xf32>) -> tensor<4x50xf32>
  %z0 = ge.Relu(%y) : (tensor<4x50xf32>) -> tensor<4x50xf32>
  %z1 = ge.Neg(%z0) : (tensor<4x50xf32>) -> tensor<4x50xf32>
  %z = ge.Sigmoid(%z1) : (tensor<4x50xf32>) -> tensor<4x50xf32>
  %y2 = ge.PartitionedCall(%z, %b) {f = @once} : (tensor<4x50xf32>, tensor<4x50xf32>) -> tensor<4x50xf32>
  %y3 = ge.PartitionedCall(%y2, %b) {f = @block} : (tensor<4x50xf32>, tensor<4x50xf32>) -> tensor<4x50xf32>
  ge.NetOutput %y3 : tensor<4x50xf32>
}

ge.graph @block {
  %in = ge.Data {index = 0} : tensor<4x50xf32>
  %bias = ge.Data {index = 1} : tensor<4x50xf32>
  %t = ge.Add(%in, %bias) : (tensor<4x50xf32>, tensor<4x50xf32>) -> tensor<4x50xf32>
  %r = ge.Tanh(%t) : (tensor<4x50xf32>) -> tensor<4x50xf32>
  ge.NetOutput %r : tensor<4x50xf32>
}

ge.graph @once {
  %in = ge.Data {index = 0} : tensor<4x50xf32>
  %bias = ge.Data {index = 1} : tensor<4x50xf32>
  %t = ge.Mul(%in, %bias) : (tensor<4x50xf32>, tensor<4x50xf32>) -> tensor<4x50xf32>
  %r = ge.Abs(%t) : (tensor<4x50xf32>) -> tensor<4x50xf32>
  ge.NetOutput %r : tensor<4x50xf32>
}
"""


def _to_npu(text: str, monkeypatch: pytest.MonkeyPatch, copy_all: bool) -> tuple[str, int]:
    """ge-compile of `text`, with the Region.clone calls ge-to-npu makes; `copy_all` has
    every AscGraph copied, as if each graph were lowered twice (the plain path)."""
    m = parse(text)
    passes = GeCompilePass().passes()
    PassPipeline(passes[:-1]).apply(make_context(), m)
    if copy_all:
        counts = ge_to_npu._lowering_counts  # pyright: ignore[reportPrivateUsage]
        monkeypatch.setattr(ge_to_npu, "_lowering_counts", lambda mod, g: dict.fromkeys(counts(mod, g), 2))
    clones = [0]
    plain = Region.clone

    def counted(self: Region, *args: object, **kwargs: object) -> Region:
        clones[0] += 1
        return plain(self, *args, **kwargs)  # pyright: ignore[reportArgumentType]

    with monkeypatch.context() as mp:
        mp.setattr(Region, "clone", counted)
        passes[-1].apply(make_context(), m)
    m.verify()
    return print_module(m), clones[0]


def test_ge_to_npu_moves_the_asc_graphs_of_graphs_lowered_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """ge-to-npu gives each AscBackend's AscGraph to its kernel_def instead of copying it,
    except in a subgraph it inlines twice (@block): there the second lowering needs it."""
    assert ge_to_npu._lowering_counts(parse(TWO_CALLS), parse(TWO_CALLS).ops.first) == {  # pyright: ignore[reportPrivateUsage, reportArgumentType]
        "main": 1,
        "block": 2,
        "once": 1,
    }
    moved, moved_clones = _to_npu(TWO_CALLS, monkeypatch, copy_all=False)
    copied, copied_clones = _to_npu(TWO_CALLS, monkeypatch, copy_all=True)
    assert moved == copied
    assert moved.count("= ascgraph :") == 4  # @main's, @once's and @block's twice
    assert (moved_clones, copied_clones) == (2, 4)
