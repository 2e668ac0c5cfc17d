// ge-opt --help lists the project's flags and passes (with their first doc paragraph).
// RUN: ge-opt --help | filecheck %s

// CHECK: --print-ir-after-all
// CHECK: --dump-dir DIR
// CHECK: --remarks
// CHECK: project passes (-p 'name{option=value ...}'):
// CHECK: ge-phony-notask
// CHECK-NEXT: Mark PhonyConcat/PhonySplit no-task
// CHECK: option remarks: bool = False
// CHECK: Input files are UTF-8 IR text, whatever their extension; brackets nest at most 64
// CHECK-NEXT: levels. Every error is one line, exit 1.
