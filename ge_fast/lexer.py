"""The MLIR lexer's common tokens by one regex: replaces xdsl/utils/mlir_lexer.py:
MLIRLexer.lex for blanks, comments, bare and `%` identifiers, `->` and one-character
punctuation (the tokens that make up most of ge IR); anything else is xDSL's lex from the
same position. With the switch off (ge_fast), every token is xDSL's.
tests/tools/test_compile_work.py proves the tokens are the same on every lit input and on
random text.
"""

from __future__ import annotations

import re
from typing import ClassVar

from xdsl.utils.lexer import Span, Token
from xdsl.utils.mlir_lexer import MLIRLexer, MLIRToken, MLIRTokenKind

from ge_fast import SWITCH


class FastLexer(MLIRLexer):
    """MLIRLexer with `lex`'s common tokens by one regex (a mixin: put it before the
    lexer whose other rules it keeps)."""

    # The tokens that make up most of ge IR, lexed by one regex: blanks and comments
    # (MLIRLexer._whitespace_regex, possessive: never re-tried), then a bare identifier
    # (_lex_bare_identifier: an ASCII letter or `_` first), a `%` identifier
    # (_lex_prefixed_ident's suffix-id: digits, or a letter or $._- first), `->` or a
    # single-character punctuation of MLIRLexer.lex's table (`/` and `{` are not: `//`
    # is a comment, `{-#` a token of its own). Anything else (numbers, strings, `@`, `#`,
    # `!`, `^`, `-`, `.`, non-ASCII, the end) is lexed by xDSL's MLIRLexer.lex from the
    # same position: the same tokens either way (tests/tools/test_compile_work.py).
    _fast_token = re.compile(
        r"(?:(?://[^\n]*+\n?)|\s++)*+"
        r"(?:(?P<bare>[A-Za-z_][A-Za-z0-9_$.]*+)|(?P<pct>%(?:[0-9]++|[A-Za-z$._-][A-Za-z0-9$._-]*+))"
        r"|(?P<arrow>->)|(?P<punct>[:,()}\[\]<>=+*?|]))",
        re.ASCII,
    )
    _punctuation: ClassVar[dict[str, MLIRTokenKind]] = {
        ":": MLIRTokenKind.COLON,
        ",": MLIRTokenKind.COMMA,
        "(": MLIRTokenKind.L_PAREN,
        ")": MLIRTokenKind.R_PAREN,
        "}": MLIRTokenKind.R_BRACE,
        "[": MLIRTokenKind.L_SQUARE,
        "]": MLIRTokenKind.R_SQUARE,
        "<": MLIRTokenKind.LESS,
        ">": MLIRTokenKind.GREATER,
        "=": MLIRTokenKind.EQUAL,
        "+": MLIRTokenKind.PLUS,
        "*": MLIRTokenKind.STAR,
        "?": MLIRTokenKind.QUESTION,
        "|": MLIRTokenKind.VERTICAL_BAR,
    }

    def lex(self) -> MLIRToken:
        if not SWITCH.on:
            return super().lex()
        m = self._fast_token.match(self.input.content, self.pos)
        if m is None:
            return super().lex()
        group = m.lastgroup or "punct"  # one of the four groups matched
        if group == "bare":
            kind = MLIRTokenKind.BARE_IDENT
        elif group == "pct":
            kind = MLIRTokenKind.PERCENT_IDENT
        elif group == "arrow":
            kind = MLIRTokenKind.ARROW
        else:
            kind = self._punctuation[m.group("punct")]
        self.pos = m.end()
        return Token(kind, Span(m.start(group), self.pos, self.input))
