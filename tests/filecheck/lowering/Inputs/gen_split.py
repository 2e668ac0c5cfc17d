"""Prints a graph with one SplitD of N outputs into NetOutput (lit input generator).

usage: gen_split.py N DIM -- DIM 0 splits a Nx2 input into 1x2 pieces, DIM 1 a 4xN input
into 4x1 pieces (a last-dim split whose outputs' end dim is 1).
"""

import sys

n, dim = int(sys.argv[1]), int(sys.argv[2])
whole, piece = ("%dx2" % n, "1x2") if dim == 0 else ("4x%d" % n, "4x1")
names = ", ".join("%%y%d" % i for i in range(n))
pieces = ", ".join(["tensor<%sxf32>" % piece] * n)
print("ge.graph @g {")
print("  %%x = ge.Data {index = 0} : tensor<%sxf32>" % whole)
print("  %s = ge.SplitD(%%x) {split_dim = %d, num_split = %d} : (tensor<%sxf32>) -> (%s)" % (names, dim, n, whole, pieces))
print("  ge.NetOutput %s : %s" % (names, pieces))
print("}")
