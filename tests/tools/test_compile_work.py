"""Work counts of ge-compile's paths outside ge-autofuse's solver (issue 12, part 3): the
parse, the verifiers, the lowerings. Each test counts calls (never seconds) and checks that
the faster path gives the same result as the plain one.
"""

from __future__ import annotations

import io
import random
import re
from pathlib import Path

import pytest
from xdsl.dialects.builtin import ArrayAttr, IntegerAttr, StringAttr
from xdsl.parser import Parser
from xdsl.parser.attribute_parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import ParseError, VerifyException
from xdsl.utils.lexer import Input
from xdsl.utils.mlir_lexer import MLIRLexer, MLIRTokenKind

from bench.gen_graphs import generate
from conftest import FIVE, ROOT, SIX, T5, T6, add_backend, count_calls, print_module, xdsl_parse
from ge_dialect import ascgraph as ag
from ge_dialect import attrs as A
from ge_dialect.diagnostics import LocatedError
from ge_dialect.verify import verify_module
from ge_tools.opt import GeOptMain
from ge_tools.parse import GeLexer, LocatedParser, UserError, parse_module
from ge_tools.pipeline import GeCompilePass
from ge_tools.printer import GePrinter
from ge_tools.registry import make_context
from lowering import loop_ir as L
from lowering.lower_autofuse import LowerAutofusePass
from random_graphs import graph_text

# -- parse: a plain tensor type is parsed once per spelling --------------------------------


@pytest.mark.parametrize("kind", ["diamond", "fanout", "mixed"])
def test_each_plain_tensor_type_spelling_is_parsed_once(monkeypatch, kind):
    text = generate(kind, 300, 1)
    spellings = re.findall(r"tensor<[^<>]*>", text)
    calls = count_calls(monkeypatch, AttrParser, "_parse_tensor_attrs")
    m = parse_module(make_context(), text, "g.mlir")
    # every spelling once; each other occurrence reuses its type (main parsed every one)
    assert calls[0] == len(set(spellings)) < len(spellings) // 4
    monkeypatch.undo()
    assert print_module(m) == print_module(xdsl_parse(text))  # xDSL's own parser, every type read


# Spellings the memo must read as xDSL does: 0-d, size-0, unknown dims, every dtype,
# hex-looking dims, an encoding, blanks, a comment after the type, a nested type.
ODD_TYPES = [
    "tensor<f32>",
    "tensor<0x4xf16>",
    "tensor<4x0xi1>",
    "tensor<?x4xf32>",
    "tensor<1x1x1x1xbf16>",
    "tensor<3xi64>",
    "tensor<2x3xui8>",
    "tensor<2xf64>",
]


def test_memoised_tensor_types_equal_xdsl_parse():
    lines = []
    for i, t in enumerate(ODD_TYPES * 2):  # each twice: the second is a memo hit
        lines.append(f"  %d{i} = ge.Data {{index = {i}}} : {t}")
    lines.append(f"  %v = ge.Data {{index = {len(lines)}}} : tensor< 4xf32>  // blank inside")
    lines.append(f"  %w = ge.Data {{index = {len(lines)}}} : tensor<4xf32> // a comment")
    lines.append(f"  %x = ge.Data {{index = {len(lines)}}} : tensor<4xf32>")
    lines.append(f"  %y = ge.Data {{index = {len(lines)}}} : tensor<0x10xf32>")
    lines.append(f"  %z = ge.Data {{index = {len(lines)}}} : tensor<0x10xf32>")
    text = "ge.graph @g {\n" + "\n".join(lines) + "\n  ge.NetOutput %x : tensor<4xf32>\n}\n"
    ours = parse_module(make_context(), text, "g.mlir")
    theirs = Parser(make_context(), text, "<test>").parse_module()
    assert print_module(ours) == print_module(theirs)
    got = [op.results[0].type for op in ours.walk() if op.name == "ge.Data"]
    want = [op.results[0].type for op in theirs.walk() if op.name == "ge.Data"]
    assert got == want and len(got) == 2 * len(ODD_TYPES) + 5


@pytest.mark.parametrize("seed", range(6))
def test_random_graphs_parse_as_xdsl_parses(seed):
    text = graph_text(seed)
    assert print_module(parse_module(make_context(), text, "g.mlir")) == print_module(xdsl_parse(text))


@pytest.mark.parametrize(
    "bad",
    ["tensor<4xfoo>", "tensor<4xf32", "tensor<-1xf32>", "tensor<4xf32>>", "tensor<4x?>", "tensor<0x1fxf32>"],
)
def test_a_bad_tensor_type_after_a_memoised_one_is_the_same_error(monkeypatch, bad):
    text = f"ge.graph @g {{\n  %a = ge.Data {{index = 0}} : tensor<4xf32>\n  %b = ge.Data {{index = 1}} : {bad}\n}}\n"
    with pytest.raises(UserError) as ours:
        parse_module(make_context(), text, "g.mlir")
    monkeypatch.setattr(LocatedParser, "_PLAIN_TENSOR", re.compile("(?!)"))  # no memo: xDSL's path
    with pytest.raises(UserError) as plain:
        parse_module(make_context(), text, "g.mlir")
    assert str(ours.value) == str(plain.value)
    assert re.match(r"g.mlir:[34]:[0-9]+: error: ", str(ours.value))


# -- parse: a plain dialect type (an AscGraph value's) is parsed once per spelling ---------


def _lowered_text(kind: str) -> str:
    m = parse_module(make_context(), generate(kind, 200, 1), "g.mlir")
    LowerAutofusePass().apply(make_context(), m)
    return print_module(m)


@pytest.mark.parametrize("kind", ["fanout", "mixed"])
def test_each_plain_dialect_type_spelling_is_parsed_once(monkeypatch, kind):
    text = _lowered_text(kind)
    spellings = re.findall(r"!ascgraph\.tensor<[^<>]*>", text)
    calls = []
    real = ag.AscTensorType.parse_parameters.__func__
    monkeypatch.setattr(ag.AscTensorType, "parse_parameters", classmethod(lambda c, p: calls.append(1) or real(c, p)))
    m = parse_module(make_context(), text, "g.mlir")
    # every spelling once; each other occurrence reuses its type (xDSL parses every one)
    assert len(calls) == len(set(spellings)) < len(spellings) // 2
    monkeypatch.undo()
    assert print_module(m) == print_module(xdsl_parse(text))


@pytest.mark.parametrize(
    "bad",
    [
        "!ascgraph.tensor<f32, axis = [0], repeats = [0], strides = [1]>",  # a size-0 axis
        "!ascgraph.tensor<f32, axis = [0], repeats = [4], strides = [1]",
        "!ascgraph.tensor<f32, axis = [0, 1], repeats = [4], strides = [1]>",
        "!ascgraph.tensor<f32, axis = [0], repeats = [4], strides = [1]>>",
        "!ascgraph.tensr<f32, axis = [0], repeats = [4], strides = [1]>",
    ],
)
def test_a_bad_dialect_type_after_a_memoised_one_is_the_same_error(monkeypatch, bad):
    good = "!ascgraph.tensor<f32, axis = [0], repeats = [4], strides = [1]>"
    text = f"""ge.graph @g {{
  %x = ge.Data {{index = 0}} : tensor<4xf32>
  %y = ge.AscBackend(%x) {{fuse_type = "pointwise", fuse_type_mask = 2, origin_nodes = ["a"], fusion_nodes_size = 4}} : (tensor<4xf32>) -> tensor<4xf32> {{
    ascgraph.graph @g_graph axis = [0: z0 = 4] {{
      %data = ascgraph.Data {{index = 0}} : {good}
      %load = ascgraph.Load(%data) {{offset = 0, sched.axis = [0]}} : {good}
      %abs = ascgraph.Abs(%load) {{sched.axis = [0]}} : {bad}
      %store = ascgraph.Store(%abs) {{offset = 0, sched.axis = [0]}} : {good}
      %out = ascgraph.Output(%store) {{index = 0}} : {good}
    }}
  }}
  ge.NetOutput %y : tensor<4xf32>
}}
"""

    def outcome() -> str:
        try:
            m = parse_module(make_context(), text, "g.mlir")
        except UserError as e:
            return f"error: {e}"
        try:
            verify_module(m)
        except LocatedError as e:
            return f"verify: {e}"
        return print_module(m)

    ours = outcome()
    monkeypatch.setattr(LocatedParser, "_PLAIN_DIALECT_TYPE", re.compile("(?!)"))  # no memo: xDSL's path
    assert ours == outcome()
    assert re.match(r"(error|verify): g.mlir:[78]:", ours), ours


# -- print: GePrinter writes the text xDSL's Printer writes, a literal at a time ------------

ODD_STRINGS = ["", "plain", 'a "quoted" word', "back\\slash", "new\nline", "tab\tand\x01", "é ü 中", "\x7f~ "]


def _odd_string_module():
    text = "ge.graph @main {\n  %x = ge.Data {index = 0} : tensor<4xf32>\n  ge.NetOutput %x : tensor<4xf32>\n}\n"
    m = parse_module(make_context(), text, "g.mlir")
    data = next(op for op in m.walk() if op.name == "ge.Data")
    for i, s in enumerate(ODD_STRINGS):
        data.attributes[f"s{i}"] = StringAttr(s)
    return m


def _printed(printer_type: type, module, generic: bool = False) -> tuple[str, int, int]:
    out = io.StringIO()
    p = printer_type(stream=out, print_generic_format=generic)
    p.print_op(module)
    return out.getvalue(), p._current_line, p._current_column


@pytest.mark.parametrize("generic", [False, True])
@pytest.mark.parametrize("source", ["odd", "softmax_like", "residual_conv", "subgraph_call", "random3", "random4"])
def test_ge_printer_prints_what_xdsl_prints(source, generic):
    if source == "odd":
        m = _odd_string_module()
    else:
        text = (
            graph_text(int(source[-1]))
            if source.startswith("random")
            else (ROOT / "examples" / f"{source}.mlir").read_text()
        )
        m = parse_module(make_context(), text, "g.mlir")
        GeCompilePass().apply(make_context(), m)  # a compiled module: AscGraphs, npu ops
    want = _printed(Printer, m, generic)
    assert _printed(GePrinter, m, generic) == want  # the text, and the line and column kept
    if source == "odd":
        assert '"a \\22quoted\\22 word"' in want[0] and '"new\\0Aline"' in want[0]


class _CountingStream(io.StringIO):
    def __init__(self) -> None:
        super().__init__()
        self.writes = 0

    def write(self, s: str) -> int:
        self.writes += bool(s)
        return super().write(s)


def test_ge_opt_writes_a_string_literal_at_once():
    name = "n" * 400
    text = f'ge.graph @main {{\n  %x = ge.Data {{index = 0, name = "{name}"}} : tensor<4xf32>\n  ge.NetOutput %x : tensor<4xf32>\n}}\n'
    main = GeOptMain(["-p", "ge-identity-pass", "-o", "/dev/null"])
    target = main.available_targets["mlir"]()()  # pyright: ignore[reportCallIssue]
    out = _CountingStream()
    target.emit(main.ctx, parse_module(make_context(), text, "g.mlir"), out)
    assert f'"{name}"' in out.getvalue()
    assert out.writes < 100  # xDSL's Printer: one write per character of the name (400+)


# -- verify: each AscGraph's axis table is read once, not once per node --------------------


def _compiled(text: str):
    m = parse_module(make_context(), text, "g.mlir")
    GeCompilePass().apply(make_context(), m)
    return m


def test_each_axis_table_is_read_once_per_verify(monkeypatch):
    m = _compiled(generate("diamond", 300, 2))
    graphs = [op for op in m.walk() if isinstance(op, ag.AscGraphOp)]
    nodes = [op for op in m.walk() if isinstance(op, ag.AscNode)]
    calls = count_calls(monkeypatch, ag.AscGraphOp, "axis_table_error")
    verify_module(m)
    # one read per graph (its nodes, then the graph itself); main read it for every node too
    assert len(nodes) > 3 * len(graphs) > 0
    assert calls[0] == len(graphs)


def _two_backends() -> str:
    five = add_backend("a", FIVE, "%x, %y")
    six = add_backend("b", SIX, "%u, %v")
    return (
        f"ge.graph @main {{\n  %x = ge.Data {{index = 0}} : {T5}\n  %y = ge.Data {{index = 1}} : {T5}\n"
        f"  %u = ge.Data {{index = 2}} : {T6}\n  %v = ge.Data {{index = 3}} : {T6}\n"
        f"{five}\n{six}\n  ge.NetOutput %a, %b : {T5}, {T6}\n}}\n"
    )


@pytest.mark.parametrize(
    "which, change, message",
    [
        (0, lambda axes: axes[:-1] + [ag.AxisAttr(9, "A", 6)], "axis name A is used twice"),
        (1, lambda axes: axes[:-1] + [ag.AxisAttr(5, "F", 0)], "sizes must be >= 1"),
        (1, lambda axes: [ag.AxisAttr(0, "A", 1), *axes[1:]], "repeats lie in 1..1"),
        (0, lambda axes: axes[:-1], "which is not a graph axis"),
    ],
)
def test_a_changed_axis_table_is_read_again(which, change, message):
    m = parse_module(make_context(), _two_backends(), "g.mlir")
    verify_module(m)  # both tables read (and the last one kept)
    verify_module(m)
    g = [op for op in m.walk() if isinstance(op, ag.AscGraphOp)][which]
    g.axis = ArrayAttr(change(list(g.axis.data)))  # a new table on the same graph
    with pytest.raises(LocatedError) as e:
        verify_module(m)
    assert message in e.value.message
    g2 = [op for op in m.walk() if isinstance(op, ag.AscGraphOp)][1 - which]
    assert ag.axis_table(g2).error is None and ag.axis_table(g).error == ag.AscGraphOp.axis_table_error(g)


def test_graphs_verified_in_turn_each_use_their_own_table():
    m = parse_module(make_context(), _two_backends(), "g.mlir")
    a, b = [op for op in m.walk() if isinstance(op, ag.AscGraphOp)]
    for g in (a, b, a, b):
        assert ag.axis_table(g).sizes == g.axis_sizes() and ag.axis_table(g).names == g.axis_names()
    for op in [*a.body.block.ops, a, *b.body.block.ops, b, *a.body.block.ops]:
        op.verify(verify_nested_ops=False)
    # a node of `a` with `b`'s axis 5 (size 7): checked against a's table, which has no axis 5
    node = next(op for op in a.body.block.ops if op.name == "ascgraph.Add")
    node.attributes["sched.axis"] = ArrayAttr([IntegerAttr(x, 64) for x in range(6)])
    b.verify(verify_nested_ops=False)  # the memo now holds b's table
    with pytest.raises(VerifyException, match="names axis id 5, which is not a graph axis"):
        node.verify(verify_nested_ops=False)


# -- lex: GeLexer's one-regex path gives xDSL's tokens -------------------------------------


class _SlowLexer(GeLexer):
    lex = MLIRLexer.lex  # xDSL's lexer (with GeLexer's string and prefix rules)


def _tokens(lexer_type: type, text: str) -> list[tuple[object, ...]]:
    lexer = lexer_type(Input(text, "t"))
    out: list[tuple[object, ...]] = []
    while True:
        try:
            t = lexer.lex()
        except ParseError as e:
            return [*out, ("error", e.msg, e.span.start, e.span.end)]
        out.append((t.kind, t.span.start, t.span.end))
        if t.kind == MLIRTokenKind.EOF or len(out) > 20000:
            return out


def _lit_inputs() -> list[Path]:
    # (not lit's Output/ directories: what a lit run left there is not a test's input)
    lit = [p for p in (ROOT / "tests" / "filecheck").rglob("*.mlir") if "Output" not in p.parts]
    return sorted(lit) + sorted((ROOT / "examples").glob("*.mlir"))


def test_fast_lexer_gives_xdsl_tokens_on_every_lit_input_and_example():
    files = _lit_inputs()
    assert len(files) > 100
    for f in files:
        text = f.read_text(errors="replace")
        assert _tokens(GeLexer, text) == _tokens(_SlowLexer, text), f


FUZZ_ALPHABET = ["a", "Z", "_", "x", "1", "0", "%", "-", ">", "<", "/", "//", "\n", " ", "\t", "{", "}", "(", ")", ",",
                 ":", "=", "?", "*", "+", "|", "[", "]", ".", "$", "#", "!", "^", "@", '"', "é", "-#", "#-", "..."]  # fmt: skip


@pytest.mark.parametrize("seed", range(4))
def test_fast_lexer_gives_xdsl_tokens_on_random_text(seed):
    rng = random.Random(seed)
    for _ in range(300):
        text = "".join(rng.choice(FUZZ_ALPHABET) for _ in range(rng.randint(0, 40)))
        assert _tokens(GeLexer, text) == _tokens(_SlowLexer, text), repr(text)


def test_fast_lexer_lexes_most_tokens_of_a_graph_itself(monkeypatch):
    text = generate("diamond", 200, 0)
    slow = count_calls(monkeypatch, MLIRLexer, "lex")
    tokens = _tokens(GeLexer, text)
    # xDSL's lexer only for the numbers (index = 0, dims), `{` and the end
    assert slow[0] < len(tokens) // 3


# -- ge-lower-autofuse: equal integer attributes are built once -----------------------------


def test_lowering_builds_each_integer_attribute_once(monkeypatch):
    m = parse_module(make_context(), generate("diamond", 300, 3), "g.mlir")
    want = print_module(m)
    built: list[int] = []
    plain = A.make_int

    def counted(v: int):  # type: ignore[no-untyped-def]
        built.append(v)
        return plain(v)

    monkeypatch.setattr(A, "make_int", counted)
    L.int_attr.cache_clear()
    LowerAutofusePass().apply(make_context(), m)
    backends = [op for op in m.walk() if op.name == "ge.AscBackend"]
    # masks, node counts, indices and offsets: a few distinct values, each built once
    # (main built the mask and the node count of every AscBackend again)
    assert len(backends) > 20 and len(built) == len(set(built)) < len(backends)
    assert want != print_module(m)
