"""Read path."""
