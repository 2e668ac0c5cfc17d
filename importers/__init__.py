"""Importers: models of other frameworks into the ge dialect.

`importers.onnx` turns an ONNX ModelProto into a ge module, op by op as GE's own ONNX
plugins do (`ops/built-in/framework/onnx_plugin/*_plugin.cc`); `importers.fx` turns an
ATen FX graph (torch.compile's, torch.export's) into one, op by op as TorchAir's converters
do (torch imported only inside its functions). The importers depend on
`ge_dialect` only; the tools (`ge_tools/import_onnx.py`) depend on them.
"""

# The converters of importers/onnx_rnn.py (LSTM, GRU, RNN), importers/onnx_control.py (If,
# Loop) and importers/onnx_more_ops.py
# register themselves in importers/onnx.py's table (`converts`, MAPPINGS) when imported:
# here, so that importing importers.onnx (which loads this package first) registers them,
# and neither module imports the other's importer back (tests/test_layout.py).
from importers import onnx_control, onnx_more_ops, onnx_rnn  # noqa: E402, F401
