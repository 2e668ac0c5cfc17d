"""Importers: models of other frameworks into the ge dialect.

`importers.onnx` turns an ONNX ModelProto into a ge module, op by op as GE's own ONNX
plugins do (`ops/built-in/framework/onnx_plugin/*_plugin.cc`); `importers.fx` turns an
ATen FX graph (torch.compile's, torch.export's) into one, op by op as TorchAir's converters
do (torch imported only inside its functions). The importers depend on
`ge_dialect` only; the tools (`ge_tools/import_onnx.py`) depend on them.
"""
