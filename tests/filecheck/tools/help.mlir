// ge-opt --help lists the project's flags and passes (with their first doc paragraph).
// RUN: ge-opt --help | filecheck %s

// CHECK: --print-ir-after-all
// CHECK: --dump-dir DIR
// CHECK: --remarks
// CHECK: project passes (-p 'name{option=value ...}'):
// CHECK: ge-phony-notask
// CHECK-NEXT: Mark PhonyConcat/PhonySplit no-task
// CHECK: option remarks: bool = False
