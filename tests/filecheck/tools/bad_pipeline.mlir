// An unknown pass, an unknown option and an option of the wrong type: one line each, exit 1.
// RUN: not ge-opt %s -p nope 2>&1 | filecheck %s --check-prefix=UNKNOWN
// RUN: not ge-opt %s -p 'ge-phony-notask{nosuch=1}' 2>&1 | filecheck %s --check-prefix=OPTION
// RUN: not ge-opt %s -p 'ge-phony-notask{remarks=maybe}' 2>&1 | filecheck %s --check-prefix=VALUE
// RUN: not ge-opt %s -p 'ge-phony-notask,nope' 2>&1 | filecheck %s --check-prefix=SECOND

ge.graph @main {
  %x = ge.Data {index = 0} : tensor<4xf16>
  ge.NetOutput %x : tensor<4xf16>
}

// UNKNOWN: {{\A}}ge-opt: error: bad pass pipeline 'nope': {{.*}}nope{{.*$}}
// UNKNOWN-NOT: {{.}}

// OPTION: {{\A}}ge-opt: error: bad pass pipeline 'ge-phony-notask{nosuch=1}': {{.*}}nosuch{{.*$}}
// OPTION-NOT: {{.}}

// VALUE: {{\A}}ge-opt: error: bad pass pipeline 'ge-phony-notask{remarks=maybe}': {{.*}}maybe{{.*$}}
// VALUE-NOT: {{.}}

// SECOND: {{\A}}ge-opt: error: bad pass pipeline 'ge-phony-notask,nope': {{.*}}nope{{.*$}}
// SECOND-NOT: {{.}}
