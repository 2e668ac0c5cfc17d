"""ge-compile as a pass (ge_tools/pipeline.py) and the driver's pipeline (ge_tools/opt.py):
the constituent passes, their splicing into one PassPipeline, the callback's verification."""

from __future__ import annotations

import pytest
from xdsl.passes import PassPipeline

from conftest import EXAMPLES, parse, print_module
from conftest import README_PIPELINE as ORDER
from ge_dialect.diagnostics import LocatedError
from ge_dialect.verify import verify_module
from ge_tools.opt import GeOptMain
from ge_tools.pass_callback import PipelineCallback
from ge_tools.pipeline import GeCompilePass, PipelinePass, expand
from ge_tools.pipeline_spec import build_pipeline, pass_spec
from ge_tools.registry import make_context


def test_ge_compile_stands_for_the_readme_pipeline():
    assert [pass_spec(p) for p in GeCompilePass().passes()] == ORDER
    two = GeCompilePass(streams=2).passes()
    assert [pass_spec(p) for p in two] == ORDER[:-1] + ["ge-to-npu{streams=2}"]


def test_enable_pass_goes_to_ge_lower_autofuse():
    passes = GeCompilePass(enable_pass=("reduce", "concat")).passes()
    assert [pass_spec(p) for p in passes] == [
        "ge-lower-autofuse{enable-pass=reduce,concat}" if p == "ge-lower-autofuse" else p for p in ORDER
    ]


def test_the_registry_builds_ge_compile_from_its_options():
    spliced = build_pipeline("ge-compile{streams=2},dce", GeOptMain([]).available_passes)
    assert [pass_spec(p) for p in spliced] == ORDER[:-1] + ["ge-to-npu{streams=2}", "dce"]


def test_expand_splices_nested_pipeline_passes_in_order():
    from dataclasses import dataclass

    from passes.notask.concat import ConcatNotaskPass

    @dataclass(frozen=True)
    class Twice(PipelinePass):
        name = "test-twice"

        def passes(self):
            return (GeCompilePass(), ConcatNotaskPass())

    got = [pass_spec(p) for p in expand((ConcatNotaskPass(), Twice(), GeCompilePass(streams=2)))]
    assert got == ["ge-concat-notask", *ORDER, "ge-concat-notask", *ORDER[:-1], "ge-to-npu{streams=2}"]


@pytest.mark.parametrize("example", EXAMPLES[:3], ids=lambda p: p.name)
def test_ge_compile_alone_gives_what_the_spliced_pipeline_gives(example):
    # GeCompilePass.apply (what stock xDSL runs) and the tools' spliced pipeline agree
    text = example.read_text()
    alone, spliced = parse(text), parse(text)
    GeCompilePass(streams=2).apply(make_context(), alone)
    PassPipeline(expand((GeCompilePass(streams=2),)), PipelineCallback()).apply(make_context(), spliced)
    assert print_module(alone) == print_module(spliced)
    assert "npu.model" in print_module(alone)


def test_ge_opt_pipeline_holds_the_constituent_passes():
    opt = GeOptMain(["-p", "ge-compile"])
    assert [pass_spec(p) for p in opt.pipeline.passes] == ORDER


BAD_NODE = """ge.graph @main {
  %x = ge.Data {index = 0} : tensor<4xf16>
  %r = ge.Relu(%x) : (tensor<4xf16>) -> tensor<8xf16>
  ge.NetOutput %r : tensor<8xf16>
}
"""


def test_verification_locates_the_op_without_patching_xdsl(tmp_path, capsys):
    from xdsl.ir import Operation
    from xdsl.parser import Parser

    from ge_tools.opt import main
    from ge_tools.parse import LocatedParser

    before = Operation.emit_error
    f = tmp_path / "bad.mlir"
    f.write_text(BAD_NODE)
    with pytest.raises(SystemExit):
        main([str(f)])  # the tool's run used to replace Operation.emit_error for the process
    assert capsys.readouterr().err.startswith(f"{f}:3:3: error: ge.Relu: ")
    assert Operation.emit_error is before
    m = LocatedParser(make_context(), BAD_NODE, "bad.mlir").parse_module()
    with pytest.raises(LocatedError) as e:
        verify_module(m)
    assert str(e.value).startswith("bad.mlir:3:3: error: ge.Relu: ")
    assert "\n" not in str(e.value)
    # and xDSL's own verify keeps xDSL's behaviour (nothing patched globally)
    m2 = Parser(make_context(), BAD_NODE, "bad.mlir").parse_module()
    with pytest.raises(Exception) as e2:
        m2.verify()
    assert not isinstance(e2.value, LocatedError)
    assert Operation.emit_error is before
