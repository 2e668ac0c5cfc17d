"""README.md's "Python" section is a test: its code block runs as written."""

from __future__ import annotations

import re

from conftest import ROOT


def python_block() -> str:
    text = (ROOT / "README.md").read_text()
    section = text[text.index("\n## Python\n") :]
    section = section[: section.find("\n## ", 1)]
    (block,) = re.findall(r"```python\n(.*?)```", section, re.S)
    return block


def test_the_readme_python_section_runs(monkeypatch, capsys):
    monkeypatch.chdir(ROOT)  # the block names files relative to the repository
    code = python_block()
    assert "api.compile(" in code and "api.simulate(" in code and "api.reference(" in code
    exec(compile(code, "README.md (Python)", "exec"), {"__name__": "readme"})
    # its last line prints split_relu_concat's no-task nodes: the split and the concat
    assert capsys.readouterr().out == "['s0 (SplitD)', 'c (ConcatD)']\n"
