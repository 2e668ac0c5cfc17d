"""ge-opt's `-p` pipeline, parsed with one message per mistake: the passes of
`name{option=value ...},...` (xDSL's ArgSpec per element, each option checked by name and
type), each PipelinePass (`ge-compile`) spliced in as its constituent passes
(`build_pipeline`), a pass written back as it is typed (`pass_spec`), and the hint when
the shell split the value at a space (`shell_split_hint`).
"""

from __future__ import annotations

import dataclasses
import difflib
import re
from collections.abc import Callable, Sequence
from typing import get_args, get_type_hints

from xdsl.passes import ModulePass
from xdsl.utils.arg_spec import ArgSpec, PipelineLexer, SpecTokenKind, parse_spec
from xdsl.utils.exceptions import ArgSpecParseError
from xdsl.utils.hints import type_repr

from ge_dialect.diagnostics import one_line
from ge_dialect.pass_options import PassOptionError, option_table
from ge_tools.pipeline import expand
from ge_tools.registry import get_all_passes


class PipelineError(Exception):
    """A malformed pass pipeline: the message names the pass and the option."""


# A pipeline element: a pass name, then optionally `{...}`, nothing else.
_PASS_NAME = re.compile(r"[A-Za-z0-9_.-]+")


def _pipeline_elements(spec: str) -> list[tuple[int, str]]:
    """The comma-separated elements of `spec` with their start columns (1-based), split at
    commas outside `{...}` and outside string literals; an unclosed `{` or a stray `}` is a
    PipelineError."""
    out: list[tuple[int, str]] = []
    start, depth, i, open_at = 0, 0, 0, -1
    while i < len(spec):
        ch = spec[i]
        if ch == '"':
            j = i + 1
            while j < len(spec) and spec[j] != '"':
                j += 2 if spec[j] == "\\" else 1
            if j >= len(spec):
                raise PipelineError(f"string at column {i + 1} is not closed")
            i = j
        elif ch == "{":
            if depth == 0:
                open_at = i
            depth += 1
        elif ch == "}":
            if depth == 0:
                raise PipelineError(f"'}}' at column {i + 1} closes nothing")
            depth -= 1
        elif ch == "," and depth == 0:
            out.append((start + 1, spec[start:i]))
            start = i + 1
        i += 1
    if depth:
        name = _PASS_NAME.match(spec, start)
        who = f"pass {name.group()}: " if name and spec[name.end() : name.end() + 1] == "{" else ""
        raise PipelineError(f"{who}options opened at column {open_at + 1} are not closed (missing '}}')")
    out.append((start + 1, spec[start:]))
    return out


def _group_end(text: str) -> int:
    """Index of the `}` that closes the `{` at text[0] (strings skipped; balanced, as
    _pipeline_elements checked)."""
    depth, i = 0, 0
    while i < len(text):
        ch = text[i]
        if ch == '"':
            i += 1
            while text[i] != '"':
                i += 2 if text[i] == "\\" else 1
        elif ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return len(text)


def spec_value(values: tuple[object, ...]) -> str:
    return ",".join(str(v).lower() if isinstance(v, bool) else str(v) for v in values) or "(none)"


def _make_pass(cls: type[ModulePass], spec: ArgSpec) -> ModulePass:
    """`cls` configured by `spec`: each option checked by name and type, one message each."""
    fields = {f.name: f for f in dataclasses.fields(cls) if f.init and f.name != "name"}
    hints = get_type_hints(cls)
    args = spec.normalize_parameter_names().parameters
    # `name=none` unsets an `X | None` option, as `name` alone does in xDSL's syntax.
    args = {k: () if v == ("none",) and type(None) in get_args(hints.get(k)) else v for k, v in args.items()}
    spec = ArgSpec(spec.name, args)
    for key, values in args.items():
        shown = key.replace("_", "-")
        if key not in fields:
            known = ", ".join(f.replace("_", "-") for f in fields) or "none"
            close = difflib.get_close_matches(key, list(fields), 1)
            maybe = f"; did you mean '{close[0].replace('_', '-')}'?" if close else ""
            raise PipelineError(f"pass {cls.name}: unknown option '{shown}' (options: {known}){maybe}")
        try:
            cls.from_pass_spec(ArgSpec(cls.name, {key: values}))
        except PassOptionError:
            raise  # a value of the right type the pass refuses: the caller reports it
        except (ValueError, TypeError):
            want = type_repr(hints.get(key, object))
            if key in (table := option_table(cls)):
                want = table[key].allowed.describe(want)
            got = "no value" if not values else f"'{spec_value(values)}'"
            raise PipelineError(f"pass {cls.name}: option {shown} takes {want}, got {got}") from None
    try:
        return cls.from_pass_spec(spec)
    except PassOptionError:
        raise
    except (ValueError, TypeError) as e:  # a backstop: each option was built alone above
        raise PipelineError(f"pass {cls.name}: {one_line(str(e))}") from None


def _parse_element(name: str, element: str, column: int) -> ArgSpec:
    """xDSL's ArgSpec of one element, with its syntax errors (ArgSpecParseError derives
    from BaseException) and repeated options as PipelineErrors."""
    try:
        spec = parse_spec(element)
    except ArgSpecParseError as e:
        # xDSL's message: a header, `pass-pipeline:LINE:COL`, the text, carets, the message.
        lines = [ln for ln in str(e).splitlines() if ln.strip()]
        where = re.search(r"pass-pipeline:\d+:(\d+)", str(e))
        col = column + int(where.group(1)) - 1 if where else column
        msg = lines[-1].strip().replace("`", "'")
        raise PipelineError(f"pass {name}: bad options: {msg[:1].lower()}{msg[1:]} (column {col})") from None
    # Option keys are the IDENT tokens right after `{` or a space; xDSL keeps the last of
    # a repeated key silently.
    seen: set[str] = set()
    lexer, prev = PipelineLexer(element), None
    while (tok := lexer.lex()).kind is not SpecTokenKind.EOF:
        if tok.kind is SpecTokenKind.IDENT and prev in (SpecTokenKind.L_BRACE, SpecTokenKind.SPACE):
            key = tok.span.text.replace("_", "-")
            if key in seen:
                raise PipelineError(f"pass {name}: option {key} is given twice")
            seen.add(key)
        prev = tok.kind
    return spec


def build_pipeline(spec: str, available: dict[str, Callable[[], type[ModulePass]]]) -> tuple[ModulePass, ...]:
    """The passes of a `-p` pipeline `name{option=value ...},...`, each PipelinePass
    (`ge-compile`) spliced in as its constituent passes. Every malformed pipeline is a
    PipelineError naming the pass and the option: an unknown pass or option, a value of
    the wrong type, unbalanced braces, MLIR's nested `builtin.module(...)` syntax, text
    after the options; a value of the right type that the pass refuses is its
    PassOptionError (passes/options.py)."""
    passes: list[ModulePass] = []
    for column, raw in _pipeline_elements(spec):
        element = raw.strip()
        if not element:
            continue  # `a,` and an empty -p: nothing to run (as before)
        column += len(raw) - len(raw.lstrip())
        m = _PASS_NAME.match(element)
        if m is None:
            raise PipelineError(f"expected a pass name at column {column}, got '{element[0]}'")
        name, rest = m.group(), element[m.end() :]
        if rest.startswith("("):
            raise PipelineError(
                f"'{name}(...)' at column {column}: MLIR's nested pass-manager syntax is not "
                f"supported; list the passes: -p 'pass1,pass2{{option=value}}'"
            )
        if rest and not (rest.startswith("{") and _group_end(rest) == len(rest) - 1):
            after = rest[_group_end(rest) + 1 :] if rest.startswith("{") else rest
            raise PipelineError(
                f"pass {name}: unexpected '{after.strip()}' at column {column + len(element) - len(after)} "
                "(options go in one {option=value ...} after the name)"
            )
        if name not in available:
            close = difflib.get_close_matches(name, list(available), 1)
            maybe = f"; did you mean '{close[0]}'?" if close else ""
            ours = [n for n in project_pass_order() if n in available]
            raise PipelineError(
                f"unknown pass '{name}'{maybe} (the project's passes: {', '.join(ours)}; "
                "ge-opt --help lists xDSL's too)"
            )
        passes.append(_make_pass(available[name](), _parse_element(name, element, column)))
    return expand(passes)


def _open_braces(text: str) -> int:
    return text.count("{") - text.count("}")


def shell_split_hint(argv: Sequence[str]) -> str | None:
    """When the shell split the -p value at unquoted spaces (`-p ge-autofuse{a=1 b=2}`,
    `-p 'a, b'` without quotes): a hint with the pipeline as it was probably meant. The
    value is followed by the next arguments while a `{` is open, the value ends with a
    comma or the next argument starts with a comma or a `}`; none that starts with '-'."""
    for i, a in enumerate(argv):
        if a in ("-p", "--passes") and i + 1 < len(argv):
            value, rest = argv[i + 1], argv[i + 2 :]
        elif a.startswith("--passes="):
            value, rest = a[len("--passes=") :], argv[i + 1 :]
        elif a.startswith("-p") and not a.startswith("--") and len(a) > 2:
            value, rest = a[2:], argv[i + 1 :]
        else:
            continue
        pieces = [value]
        for tok in rest:
            joined = " ".join(pieces)
            if tok.startswith("-") or not (
                _open_braces(joined) > 0 or joined.rstrip().endswith(",") or tok.startswith((",", "}"))
            ):
                break
            pieces.append(tok)
        if len(pieces) == 1:
            return None
        return f"the shell split the -p value at a space: quote the whole pipeline, -p '{' '.join(pieces)}'"
    return None


def with_remarks(passes: Sequence[ModulePass]) -> tuple[ModulePass, ...]:
    """`passes` with `remarks=true` on each pass that has the option (--remarks)."""
    return tuple(
        dataclasses.replace(p, remarks=True)  # type: ignore[call-arg]
        if any(f.name == "remarks" for f in dataclasses.fields(p))
        else p
        for p in passes
    )


def pass_spec(p: ModulePass) -> str:
    """`p` as it is typed in -p: its name, then the options that are not their default
    (`ge-phony-notask{stage=mark}`)."""
    opts = [
        f"{f.name.replace('_', '-')}={spec_value(v if isinstance(v, tuple) else (v,))}"
        for f in dataclasses.fields(p)
        if f.init and (v := getattr(p, f.name)) != f.default
    ]
    return f"{p.name}{{{' '.join(opts)}}}" if opts else p.name


def project_pass_order() -> list[str]:
    """The project's pass names for --help: ge-compile first, then the passes in the order
    it runs them, then any other."""
    passes = get_all_passes()
    order = ["ge-compile"] if "ge-compile" in passes else []
    for p in expand([passes["ge-compile"]()()]) if order else ():
        if p.name not in order:
            order.append(p.name)
    return order + [n for n in passes if n not in order]
