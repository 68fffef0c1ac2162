"""Evolution path."""
