"""docs/python_api.md's worked example is a test: its code block runs as written, and so
does the README's short one."""

from __future__ import annotations

import re

from conftest import ROOT


def python_block() -> str:
    text = (ROOT / "docs" / "python_api.md").read_text()
    (block,) = re.findall(r"```python\n(.*?)```", text, re.S)
    return block


def test_the_readme_python_section_runs(monkeypatch, capsys):
    monkeypatch.chdir(ROOT)  # the block names files relative to the repository
    code = python_block()
    assert "api.compile(" in code and "api.simulate(" in code and "api.reference(" in code
    exec(compile(code, "docs/python_api.md", "exec"), {"__name__": "readme"})
    # its last line prints split_relu_concat's no-task nodes: the split and the concat
    assert capsys.readouterr().out == "['s0 (SplitD)', 'c (ConcatD)']\n"


def test_the_readme_python_block_runs(monkeypatch):
    monkeypatch.chdir(ROOT)
    text = (ROOT / "README.md").read_text()
    section = text[text.index("\n## Python\n") :]
    (block,) = re.findall(r"```python\n(.*?)```", section[: section.find("\n## ", 1)], re.S)
    scope: dict[str, object] = {"__name__": "readme"}
    exec(compile(block, "README.md (Python)", "exec"), scope)
    # split_relu_concat compiled and run twice, the API's figures and outputs there
    assert scope["result"].stats["no_task_nodes"] == ["s0 (SplitD)", "c (ConcatD)"]  # type: ignore[attr-defined]
    assert len(scope["run"].runs) == 2  # type: ignore[attr-defined]
