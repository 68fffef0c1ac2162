"""Retrieval-quality benchmarks (`graphmem bench quality`): dataset loaders, metrics, the runner, and the
one adapter (`graphmem_system`) that wires them to graphmem's write and read paths."""
