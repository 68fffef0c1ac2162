"""Write path."""
