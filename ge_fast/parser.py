"""The parser's fast paths: replaces, in xdsl/parser/core.py, Parser._parse_op_result_list
for one result `%x = `, Parser._parse_optional_builtin_parametrized_type for a plain
ranked tensor type already seen and AttrParser.parse_optional_type for a plain dialect
type already seen (memos keyed by the text), and, for a GE node's common
form (`(%a, %b) {attrs} : (T, T) -> T`), the token-by-token parse of GeNode.parse
(ge_dialect/ge.py) by three regexes. With the switch off (ge_fast) each is xDSL's parse.
tests/tools/test_parse_print_work.py and tests/tools/test_fast_paths_odd_graphs.py prove
both give the same module and the same errors on every lit input, generated, random and
broken graphs.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, ClassVar, TypeVar, cast

from xdsl.ir import Attribute, Operation
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.utils.lexer import Span
from xdsl.utils.mlir_lexer import MLIRTokenKind

from ge_fast import SWITCH

OpT = TypeVar("OpT", bound=Operation)


class FastParser(Parser):
    """xDSL's Parser with the fast paths of the module docstring (a mixin: the subclass
    sets `plain_tensor_types = {}` and `dialect_types = {}` when it starts)."""

    plain_tensor_types: dict[str, Attribute]
    dialect_types: dict[str, Attribute]

    # One result, `%name = ` (the common case): its span, and the parser resumed after the
    # `= `, as xDSL's _parse_op_result_list would leave it (one token and its list parse
    # less per op); anything else (`%a, %b =`, `%a:2 =`, other blanks) is xDSL's parse.
    # Relies on xDSL 0.74's Parser._parse_op_result_list (tests/tools/test_parse_print_work.py
    # compares both on every lit input, generated, random and broken graphs).
    fast_results: ClassVar[bool] = True

    def _parse_op_result_list(self) -> list[tuple[Span, int]]:
        tok = self._current_token
        if tok.kind == MLIRTokenKind.PERCENT_IDENT and self.fast_results and SWITCH.on:
            end = tok.span.end
            if self.lexer.input.content.startswith(" = ", end):
                self._resume_from(end + 3)
                return [(tok.span, 1)]
        return super()._parse_op_result_list()

    # A plain ranked tensor type, `tensor<8x128xf16>` (dims, then a builtin element type
    # spelled as one identifier): the bulk of an op's text (every input and output is
    # written with its type). Each distinct spelling is parsed once by xDSL's parser and
    # its (immutable) TensorType reused for every later occurrence of the same text; any
    # other spelling (an encoding, blanks, `!dialect` types, a bad dim) takes xDSL's path.
    # The key is the text itself, so nothing can go stale; the memo lives as long as the
    # parser (one input).
    _PLAIN_TENSOR = re.compile(r"tensor<(?:(?:[0-9]+|\?)x)*[a-z][a-z0-9]*>")

    def _parse_optional_builtin_parametrized_type(self):  # type: ignore[no-untyped-def]
        tok = self._current_token
        parse = super()._parse_optional_builtin_parametrized_type
        if tok.kind != MLIRTokenKind.BARE_IDENT or tok.text != "tensor" or not SWITCH.on:
            return parse()
        return self._memoised(self._PLAIN_TENSOR, self.plain_tensor_types, parse)

    # A plain dialect type, `!dialect.name<...>` whose body holds no string, no nested
    # bracket but `[...]` and no SSA name (`!ascgraph.tensor<f16, axis = [0, 1], repeats =
    # [4, 8], strides = [8, 1]>`, every AscGraph value's type): parsed once by xDSL's parser
    # (the dialect's own parse_parameters, its verify included) and the immutable attribute
    # reused for every later occurrence of the same text in this input. A body that reads
    # anything but its own text (an alias, a string, a nested type) takes xDSL's path.
    _PLAIN_DIALECT_TYPE = re.compile(r"![A-Za-z_][A-Za-z0-9_$]*+\.[A-Za-z0-9_$.]++<[A-Za-z0-9_ ,=\[\]-]*+>")

    def parse_optional_type(self):  # type: ignore[no-untyped-def]
        tok = self._current_token
        parse = super().parse_optional_type
        if tok.kind != MLIRTokenKind.EXCLAMATION_IDENT or not SWITCH.on:
            return parse()
        return self._memoised(self._PLAIN_DIALECT_TYPE, self.dialect_types, parse)

    def _memoised(self, pattern: re.Pattern[str], memo: dict[str, Attribute], parse: Callable[[], Any]) -> Any:
        """The type whose text `pattern` matches at the current token: from `memo` when that
        text was parsed before (the parser resumed after it), else `parse()` (xDSL's),
        kept when it read exactly the matched text; no match: `parse()`."""
        m = pattern.match(self.lexer.input.content, self._current_token.span.start)
        if m is None:
            return parse()
        key = m.group()
        t = memo.get(key)
        if t is not None:
            self._resume_from(m.end())
            return t
        t = parse()
        # the token after `>` starts past the match when xDSL read exactly the matched text
        if t is not None and self._current_token.span.start >= m.end() and self._last_end() == m.end():
            memo[key] = t
        return t

    def _last_end(self) -> int:
        """Where the text xDSL's parser has consumed ends: the current token's start, less
        the blanks before it (after a comment it is past the type: not memoised)."""
        content = self.lexer.input.content
        end = self._current_token.span.start
        while end > 0 and content[end - 1] in " \t\r\n":
            end -= 1
        return end


# parse_common_form: an operand list `(%a, %b)` (names as FastLexer lexes a `%` name,
# each followed by `, ` or `)`), a type list `: (T, T) -> T`, `-> (T, T)` or `-> ()`
# after operands, `: T, T` (up to the line's end) without. T is a plain tensor type
# (FastParser._PLAIN_TENSOR).
_SSA = r"%(?:[0-9]++|[A-Za-z$._-][A-Za-z0-9$._-]*+)"
_T = r"tensor<(?:(?:[0-9]++|\?)x)*+[a-z][a-z0-9]*+>"
_COMMON_ARGS = re.compile(rf"\(({_SSA}(?:, {_SSA})*+)\)")
_COMMON_IN_OUT = re.compile(rf": \(({_T}(?:, {_T})*+)\) -> (?:({_T})|\(((?:{_T}(?:, {_T})*+)?)\))")
_COMMON_OUT = re.compile(rf": ({_T}(?:, {_T})*+)(?=[ \t]*+(?:\n|\Z))")


def parse_common_form(cls: type[OpT], parser: Parser) -> OpT | None:
    """The common form of a GE node (ge_dialect/ge.py: GeNode.parse), `(%a, %b) {attrs} :
    (T, T) -> T` or `{attrs} : T` with each T a tensor type spelling FastParser already
    parsed (its `plain_tensor_types`), read from the text by three regexes instead of
    token by token; the attribute dict is xDSL's parse. None, nothing consumed, for anything
    else (other blanks, a comment, `#` indices, a new type spelling, a region):
    then GeNode.parse's token path reads it, with its errors and locations. The operands
    are resolved by xDSL's resolve_operands with the spans the token path gives
    them. Relies on xDSL 0.74's Parser internals (`lexer.input`, `_resume_from`);
    tests/tools/test_parse_print_work.py compares both paths' modules and errors."""
    types = getattr(parser, "plain_tensor_types", None)
    if types is None or not SWITCH.on:
        return None
    source = parser.lexer.input
    text = source.content
    start = pos = parser.pos
    args: list[UnresolvedOperand] = []
    if text.startswith("(", pos):
        m = _COMMON_ARGS.match(text, pos)
        if m is None:
            return None
        at = pos + 1
        for name in m.group(1).split(", "):
            args.append(UnresolvedOperand(Span(at, at + len(name), source), 0))
            at += len(name) + 2
        pos = m.end()
    attributes: dict[str, Attribute] = {}
    if text.startswith("{", pos) or (args and text.startswith(" {", pos)):
        parser._resume_from(pos if text[pos] == "{" else pos + 1)  # pyright: ignore[reportPrivateUsage]
        attributes = parser.parse_optional_attr_dict()
        pos = parser.pos
    elif args and text.startswith(" :", pos):
        pos += 1
    in_types: list[Attribute | None] = []
    out_types: list[Attribute | None] = []
    if args:
        m = _COMMON_IN_OUT.match(text, pos)
        if m is not None:
            ins, one, outs = m.groups()
            in_types = [types.get(t) for t in ins.split(", ")]
            out_types = [types.get(one)] if one is not None else [types.get(t) for t in outs.split(", ") if outs]
    else:
        m = _COMMON_OUT.match(text, pos)
        if m is not None:
            in_types, out_types = [], [types.get(t) for t in m.group(1).split(", ")]
    if m is None or None in in_types or None in out_types or len(in_types) != len(args):
        parser._resume_from(start)  # pyright: ignore[reportPrivateUsage]
        return None
    operands = parser.resolve_operands(args, cast(list[Attribute], in_types), start)
    parser._resume_from(m.end())  # pyright: ignore[reportPrivateUsage]
    return cls.create(operands=operands, result_types=cast(list[Attribute], out_types), attributes=attributes)
