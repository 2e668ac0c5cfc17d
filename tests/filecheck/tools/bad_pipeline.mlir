// Every malformed pipeline or option is one line `ge-opt: error: bad pass pipeline '<spec>': ...`
// naming the pass and the option, exit 1 (never xDSL's BaseException traceback).
// RUN: not ge-opt %s -p nope 2>&1 | filecheck %s --check-prefix=UNKNOWN
// RUN: not ge-opt %s -p 'ge-phony-notask{nosuch=1}' 2>&1 | filecheck %s --check-prefix=OPTION
// RUN: not ge-opt %s -p 'ge-phony-notask{remarks=maybe}' 2>&1 | filecheck %s --check-prefix=VALUE
// RUN: not ge-opt %s -p 'ge-phony-notask,nope' 2>&1 | filecheck %s --check-prefix=SECOND
// RUN: not ge-opt %s -p 'ge-autofuse{max-fusion-size=3' 2>&1 | filecheck %s --check-prefix=UNCLOSED
// RUN: not ge-opt %s -p 'builtin.module(ge-autofuse)' 2>&1 | filecheck %s --check-prefix=NESTED
// RUN: not ge-opt %s -p 'ge-phony-notask, builtin.module(ge-autofuse)' 2>&1 | filecheck %s --check-prefix=NESTED2
// RUN: not ge-opt %s -p 'ge-autofuse}' 2>&1 | filecheck %s --check-prefix=STRAY
// RUN: not ge-opt %s -p 'ge-autofuse{max-fusion-size=3}x' 2>&1 | filecheck %s --check-prefix=AFTER
// RUN: not ge-opt %s -p 'ge-autofuse{max-fusion-size=3=4}' 2>&1 | filecheck %s --check-prefix=SYNTAX
// RUN: not ge-opt %s -p 'ge-autofuse{max-fusion-size=abc}' 2>&1 | filecheck %s --check-prefix=TYPE
// RUN: not ge-opt %s -p 'ge-autofuse{max-fusion-size}' 2>&1 | filecheck %s --check-prefix=NOVALUE
// RUN: not ge-opt %s -p 'ge-autofuse{max-fusion-size=3 max_fusion_size=4}' 2>&1 | filecheck %s --check-prefix=TWICE
// RUN: not ge-opt %s -p 'ge-autofuse{max-fusion-siz=3}' 2>&1 | filecheck %s --check-prefix=TYPO
// RUN: not ge-opt %s -p 'ge-autofuse{max-fusion-size="3}' 2>&1 | filecheck %s --check-prefix=QUOTE
// RUN: not ge-opt %s -p 'ge-compile{stream=2}' 2>&1 | filecheck %s --check-prefix=PIPEOPT
// RUN: not ge-opt %s -p 'ge-compil' 2>&1 | filecheck %s --check-prefix=SUGGEST
// RUN: not ge-opt %s -p '{stage=calc}' 2>&1 | filecheck %s --check-prefix=NONAME
// A value of the right type that the pass refuses: the option and what it takes.
// RUN: not ge-opt %s -p 'ge-autofuse{max-fusion-size=-1}' 2>&1 | filecheck %s --check-prefix=RANGE
// RUN: not ge-opt %s -p 'ge-phony-notask{stage=both}' 2>&1 | filecheck %s --check-prefix=CHOICE
// An unknown xDSL pass is suggested as well.
// RUN: not ge-opt %s -p 'canonicalise' 2>&1 | filecheck %s --check-prefix=XDSL
// `name=none` unsets an optional option (as `name` alone does); on an int option it is a bad value.
// RUN: ge-opt %s -p 'ge-autofuse{max-proximity=none}' | filecheck %s --check-prefix=GOOD
// RUN: not ge-opt %s -p 'ge-autofuse{max-fusion-size=none}' 2>&1 | filecheck %s --check-prefix=NONE
// The shell split the -p value (unquoted spaces): the pipeline error or argparse's, with a
// hint to quote it; never located in the input.
// RUN: not ge-opt -p 'ge-autofuse{max-fusion-size=1' 'lifting=false}' %s 2>&1 | filecheck %s --check-prefix=SPLIT1
// RUN: not ge-opt -p 'ge-autofuse{max-fusion-size=1' 'lifting=false}' < %s 2>&1 | filecheck %s --check-prefix=SPLIT2
// RUN: not ge-opt %s -p 'ge-autofuse{max-fusion-size=1' 'lifting=false}' 2>&1 | filecheck %s --check-prefix=SPLIT3
// RUN: not ge-opt -p 'ge-identity-pass,' 'ge-compile' < %s 2>&1 | filecheck %s --check-prefix=SPLIT4
// An extra argument that is not a pipeline piece gets no hint.
// RUN: not ge-opt %s -p ge-compile extra.mlir 2>&1 | filecheck %s --check-prefix=EXTRA
// The same options well formed run (exit 0).
// RUN: ge-opt %s -p 'ge-phony-notask{stage=calc},ge-autofuse{max-fusion-size=3 lifting=false}' | filecheck %s --check-prefix=GOOD

ge.graph @main {
  %x = ge.Data {index = 0} : tensor<4xf16>
  ge.NetOutput %x : tensor<4xf16>
}

// UNKNOWN: {{\A}}ge-opt: error: bad pass pipeline 'nope': unknown pass 'nope' (the project's passes: ge-compile, ge-for-pass, ge-dimension-compute-pass, ge-constant-folding-pass, ge-infer-shape-for-preprocess, ge-cond-pass, ge-dropout-pass, ge-stop-gradient-pass, ge-prevent-gradient-pass, ge-snapshot-pass, ge-identity-pass, ge-const-to-attr, ge-partition-dynamic, ge-phony-notask, ge-lower-autofuse, ge-autofuse, ge-split-notask, ge-concat-notask, ge-pack-notask, ge-subgraph-pass, ge-label-allocator, ge-assign-memory, ge-to-npu, ge-symbolic-autofuse; ge-opt --help lists xDSL's too){{$}}
// UNKNOWN-NOT: {{.}}

// OPTION: {{\A}}ge-opt: error: bad pass pipeline 'ge-phony-notask{nosuch=1}': pass ge-phony-notask: unknown option 'nosuch' (options: stage, remarks){{$}}
// OPTION-NOT: {{.}}

// VALUE: {{\A}}ge-opt: error: bad pass pipeline 'ge-phony-notask{remarks=maybe}': pass ge-phony-notask: option remarks takes true | false, got 'maybe'{{$}}
// VALUE-NOT: {{.}}

// SECOND: {{\A}}ge-opt: error: bad pass pipeline 'ge-phony-notask,nope': unknown pass 'nope' (the project's passes: ge-compile, ge-for-pass, ge-dimension-compute-pass, ge-constant-folding-pass, ge-infer-shape-for-preprocess, ge-cond-pass, ge-dropout-pass, ge-stop-gradient-pass, ge-prevent-gradient-pass, ge-snapshot-pass, ge-identity-pass, ge-const-to-attr, ge-partition-dynamic, ge-phony-notask, ge-lower-autofuse, ge-autofuse, ge-split-notask, ge-concat-notask, ge-pack-notask, ge-subgraph-pass, ge-label-allocator, ge-assign-memory, ge-to-npu, ge-symbolic-autofuse; ge-opt --help lists xDSL's too){{$}}
// SECOND-NOT: {{.}}

// UNCLOSED: {{\A}}ge-opt: error: bad pass pipeline 'ge-autofuse{max-fusion-size=3': pass ge-autofuse: options opened at column 12 are not closed (missing '}'){{$}}
// UNCLOSED-NOT: {{.}}

// NESTED: {{\A}}ge-opt: error: bad pass pipeline 'builtin.module(ge-autofuse)': 'builtin.module(...)' at column 1: MLIR's nested pass-manager syntax is not supported; list the passes: -p 'pass1,pass2{option=value}'{{$}}
// NESTED-NOT: {{.}}

// NESTED2: {{\A}}ge-opt: error: bad pass pipeline 'ge-phony-notask, builtin.module(ge-autofuse)': 'builtin.module(...)' at column 18: MLIR's nested pass-manager syntax {{.*}}{{$}}
// NESTED2-NOT: {{.}}

// STRAY: {{\A}}ge-opt: error: bad pass pipeline 'ge-autofuse}': '}' at column 12 closes nothing{{$}}
// STRAY-NOT: {{.}}

// AFTER: {{\A}}ge-opt: error: bad pass pipeline 'ge-autofuse{max-fusion-size=3}x': pass ge-autofuse: unexpected 'x' at column 31 (options go in one {option=value ...} after the name){{$}}
// AFTER-NOT: {{.}}

// SYNTAX: {{\A}}ge-opt: error: bad pass pipeline 'ge-autofuse{max-fusion-size=3=4}': pass ge-autofuse: bad options: malformed pass arguments, expected either a space or '}' here (column 30){{$}}
// SYNTAX-NOT: {{.}}

// TYPE: {{\A}}ge-opt: error: bad pass pipeline 'ge-autofuse{max-fusion-size=abc}': pass ge-autofuse: option max-fusion-size takes an integer >= 0, got 'abc'{{$}}
// TYPE-NOT: {{.}}

// NOVALUE: {{\A}}ge-opt: error: bad pass pipeline 'ge-autofuse{max-fusion-size}': pass ge-autofuse: option max-fusion-size takes an integer >= 0, got no value{{$}}
// NOVALUE-NOT: {{.}}

// TWICE: {{\A}}ge-opt: error: bad pass pipeline 'ge-autofuse{max-fusion-size=3 max_fusion_size=4}': pass ge-autofuse: option max-fusion-size is given twice{{$}}
// TWICE-NOT: {{.}}

// TYPO: {{\A}}ge-opt: error: bad pass pipeline 'ge-autofuse{max-fusion-siz=3}': pass ge-autofuse: unknown option 'max-fusion-siz' (options: {{.*}}); did you mean 'max-fusion-size'?{{$}}
// TYPO-NOT: {{.}}

// QUOTE: {{\A}}ge-opt: error: bad pass pipeline 'ge-autofuse{max-fusion-size="3}': string at column 29 is not closed{{$}}
// QUOTE-NOT: {{.}}

// PIPEOPT: {{\A}}ge-opt: error: bad pass pipeline 'ge-compile{stream=2}': pass ge-compile: unknown option 'stream' (options: streams, enable-pass, fusion-solver); did you mean 'streams'?{{$}}
// PIPEOPT-NOT: {{.}}

// SUGGEST: {{\A}}ge-opt: error: bad pass pipeline 'ge-compil': unknown pass 'ge-compil'; did you mean 'ge-compile'? (the project's passes: ge-compile, ge-for-pass, ge-dimension-compute-pass, ge-constant-folding-pass, ge-infer-shape-for-preprocess, ge-cond-pass, ge-dropout-pass, ge-stop-gradient-pass, ge-prevent-gradient-pass, ge-snapshot-pass, ge-identity-pass, ge-const-to-attr, ge-partition-dynamic, ge-phony-notask, ge-lower-autofuse, ge-autofuse, ge-split-notask, ge-concat-notask, ge-pack-notask, ge-subgraph-pass, ge-label-allocator, ge-assign-memory, ge-to-npu, ge-symbolic-autofuse; ge-opt --help lists xDSL's too){{$}}
// SUGGEST-NOT: {{.}}

// NONAME: {{\A}}ge-opt: error: bad pass pipeline '{stage=calc}': expected a pass name at column 1, got '{'{{$}}
// NONAME-NOT: {{.}}

// GOOD: ge.NetOutput %x : tensor<4xf16>

// RUN: not ge-opt %s -p 'ge-autofuse{max-fusion-size=1}{lifting=false}' 2>&1 | filecheck %s --check-prefix=TWOGROUPS
// TWOGROUPS: {{\A}}ge-opt: error: bad pass pipeline 'ge-autofuse{max-fusion-size=1}{lifting=false}': pass ge-autofuse: unexpected '{lifting=false}' at column 31 (options go in one {option=value ...} after the name){{$}}
// TWOGROUPS-NOT: {{.}}

// RANGE: {{\A}}ge-opt: error: ge-autofuse: option max-fusion-size: expected an integer >= 0, got -1{{$}}
// RANGE-NOT: {{.}}

// CHOICE: {{\A}}ge-opt: error: ge-phony-notask: option stage: expected mark, calc or all, got 'both'{{$}}
// CHOICE-NOT: {{.}}

// XDSL: {{\A}}ge-opt: error: bad pass pipeline 'canonicalise': unknown pass 'canonicalise'; did you mean 'canonicalize'? (the project's passes: ge-compile, {{.*}}){{$}}

// NONE: {{\A}}ge-opt: error: bad pass pipeline 'ge-autofuse{max-fusion-size=none}': pass ge-autofuse: option max-fusion-size takes an integer >= 0, got 'none'{{$}}

// SPLIT1: {{\A}}ge-opt: error: unrecognized arguments: {{.*}}bad_pipeline.mlir; the shell split the -p value at a space: quote the whole pipeline, -p 'ge-autofuse{max-fusion-size=1 lifting=false}'{{$}}
// SPLIT1-NOT: {{.}}

// SPLIT2: {{\A}}ge-opt: error: bad pass pipeline 'ge-autofuse{max-fusion-size=1': pass ge-autofuse: options opened at column 12 are not closed (missing '}'); the shell split the -p value at a space: quote the whole pipeline, -p 'ge-autofuse{max-fusion-size=1 lifting=false}'{{$}}
// SPLIT2-NOT: {{.}}

// SPLIT3: {{\A}}ge-opt: error: unrecognized arguments: lifting=false}; the shell split the -p value at a space: quote the whole pipeline, -p 'ge-autofuse{max-fusion-size=1 lifting=false}'{{$}}
// SPLIT3-NOT: {{.}}

// SPLIT4: {{\A}}ge-opt: error: ge-compile: No such file or directory; the shell split the -p value at a space: quote the whole pipeline, -p 'ge-identity-pass, ge-compile'{{$}}
// SPLIT4-NOT: {{.}}

// EXTRA: {{\A}}ge-opt: error: unrecognized arguments: extra.mlir{{$}}
// EXTRA-NOT: {{.}}
