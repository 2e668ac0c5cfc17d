"""docs/passes.md and docs/onnx_ops.md are generated (`make docs`) and current."""

from __future__ import annotations

from ge_tools import gen_docs
from ge_tools.pass_help import pass_help
from ge_tools.pipeline_spec import project_pass_order


def test_generated_pages_are_current(capsys):
    assert gen_docs.main(["--check"]) == 0, capsys.readouterr().err


def test_passes_page_says_what_ge_opt_help_says():
    page = gen_docs.pass_docs_markdown()
    help_text = pass_help()
    for name in project_pass_order():
        assert f"## `{name}`" in page and f"\n  {name}\n" in help_text
    # an option with its values and default, both places
    assert "| `streams` | 1 \\| 2 | `1` |" in page and "streams: 1 | 2 (default 1)" in help_text


def test_onnx_page_lists_every_imported_op():
    page = gen_docs.onnx_ops_markdown()
    from importers.onnx import supported_ops

    rows = [line.split(" | ")[0][2:] for line in page.splitlines() if line.startswith("| ") and "---" not in line]
    assert rows[1:] == supported_ops()  # rows[0] is the header


def test_check_names_a_stale_page(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(gen_docs, "DOCS", tmp_path)
    (tmp_path / "passes.md").write_text("old\n")
    assert gen_docs.main(["--check"]) == 1
    err = capsys.readouterr().err
    assert "docs/passes.md is not current" in err and "docs/onnx_ops.md is not current" in err
