"""Test support shared by the test suites (local servers that stand in for external services)."""
