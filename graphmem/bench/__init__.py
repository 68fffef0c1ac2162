"""Benchmarks: scripts that print a table and write JSON (`graphmem bench ingest | quality | perf`)."""
