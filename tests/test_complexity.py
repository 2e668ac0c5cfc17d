"""Cyclomatic complexity of the passes, by radon (the figure `radon cc -s passes/` prints).

No block (function, method or class) in passes/ above 30, and none in the fusion decider
(passes/autofuse/decider.py: CanFuse, the priority and Fuse in GE's order) above 20. A
function past its limit is split by GE's steps into named helpers, as MLIR's
LoopFusionUtils.cpp keeps `fuseLoops` a clone and named fix-up steps and `canFuseLoops`
apart (docs/ge/autofuse.md).
"""

from __future__ import annotations

from radon.complexity import cc_visit

from conftest import ROOT

# (files, the highest complexity any of their blocks may have)
LIMITS: tuple[tuple[str, int], ...] = (
    ("passes", 30),
    ("passes/autofuse/decider.py", 20),
)


def over_limit(text: str, where: str, limit: int) -> list[str]:
    """`where:line name (complexity)` of each block of the source `text` above `limit`."""
    return [f"{where}:{b.lineno} {b.fullname} ({b.complexity})" for b in cc_visit(text) if b.complexity > limit]


def test_no_block_above_its_limit():
    found: list[str] = []
    for where, limit in LIMITS:
        target = ROOT / where
        paths = sorted(target.rglob("*.py")) if target.is_dir() else [target]
        assert paths, where
        for path in paths:
            found += over_limit(path.read_text(), str(path.relative_to(ROOT)), limit)
    assert not found, "above the complexity limit (split by GE's steps into named helpers):\n" + "\n".join(found)


def test_the_check_sees_a_complex_block():
    # the check itself can fail: 21 decisions in one function (or method) give 22
    ifs = "".join(f"    if x == {i}:\n        return {i}\n" for i in range(21))
    text = f"def branchy(x):\n{ifs}    return -1\n"
    assert over_limit(text, "probe.py", 20) == ["probe.py:1 branchy (22)"]
    assert over_limit(text, "probe.py", 22) == []
    method = "class C:\n" + "".join("    " + line + "\n" for line in text.splitlines())
    # radon's class block: its methods' mean, plus one
    assert over_limit(method, "probe.py", 20) == ["probe.py:1 C (23)", "probe.py:2 C.branchy (22)"]
