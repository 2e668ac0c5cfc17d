"""Option values are checked when a pass is built (ge_dialect/pass_options.py): from Python
as from the command line, before any module is seen."""

from __future__ import annotations

import pytest

from ge_dialect.pass_options import PassOptionError
from ge_tools.registry import get_all_passes

BAD = [
    ("ge-autofuse", {"max_fusion_size": -1}, "option max-fusion-size: expected an integer >= 0, got -1"),
    ("ge-autofuse", {"buffer_group_window": 0}, "option buffer-group-window: expected an integer >= 1, got 0"),
    ("ge-autofuse", {"max_proximity": -1}, "option max-proximity: expected an integer >= 0, got -1"),
    ("ge-phony-notask", {"stage": "foo"}, "option stage: expected mark, calc or all, got 'foo'"),
    ("ge-lower-autofuse", {"enable_pass": ("gather", "conv")}, "option enable-pass: expected a list of "
     "reduce, concat, split, transpose, gather, got 'conv' (GE's flag exists, but this op set has no such lowering)"),
    ("ge-lower-autofuse", {"max_loop_loads": 0}, "option max-loop-loads: expected an integer >= 1, got 0"),
    ("ge-lower-autofuse", {"recomputation_threshold": -1}, "option recomputation-threshold: expected an integer in 0..255, got -1"),
    ("ge-lower-autofuse", {"split_lowering": "strided"}, "option split-lowering: expected slice or split, got 'strided'"),
    ("ge-assign-memory", {"solver": "best"}, "option solver: expected heuristic or exact, got 'best'"),
    ("ge-assign-memory", {"solver_work_limit": float("nan")}, "option solver-work-limit: expected a number >= 0.0, got nan"),
    ("ge-to-npu", {"streams": 3}, "option streams: expected 1 or 2, got 3"),
    ("ge-compile", {"streams": -1}, "option streams: expected 1 or 2, got -1"),
    ("ge-compile", {"enable_pass": ("split", "nope")}, "option enable-pass: expected a list of reduce, concat, split, transpose, gather, got 'nope'"),
]  # fmt: skip


@pytest.mark.parametrize("name,options,message", BAD, ids=[f"{b[0]}-{next(iter(b[1]))}" for b in BAD])
def test_a_bad_value_is_refused_when_the_pass_is_built(name, options, message):
    cls = get_all_passes()[name]()
    with pytest.raises(PassOptionError) as e:
        cls(**options)
    assert str(e.value) == f"{name}: {message}"
    assert e.value.pass_name == name and e.value.option == next(iter(options)).replace("_", "-")


@pytest.mark.parametrize("name", sorted(get_all_passes()))
def test_every_pass_builds_with_its_defaults(name):
    get_all_passes()[name]()()


def test_the_edges_of_each_range_are_accepted():
    passes = get_all_passes()
    passes["ge-autofuse"]()(max_fusion_size=0, max_input_nums_after_fuse=1, max_proximity=0)  # type: ignore[call-arg]
    passes["ge-lower-autofuse"]()(recomputation_threshold=255, enable_pass=("reduce", "gather"))  # type: ignore[call-arg]
    passes["ge-assign-memory"]()(solver="heuristic", solver_work_limit=0.0)  # type: ignore[call-arg]
    passes["ge-phony-notask"]()(stage="mark")  # type: ignore[call-arg]
