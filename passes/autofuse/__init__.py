"""Autofuse: GE's loop-axis fusion of AscBackends (compiler/graph/optimize/autofuse/): the
FusionStrategySolver, its strategies, the AscBackend decider with its axis mapping and axis
groups, lifting (LiftingManager) and concat lifting (LowerConcatHelper)."""
