"""No-task marking: GE's NotaskPassBase chain and its ConcatNotaskPass / PackNotaskPass
(compiler/graph/passes/memory_optimize/), and the GE-local engine's PhonyConcat /
PhonySplit marking (compiler/engines/local_engine/)."""
