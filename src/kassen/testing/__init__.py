"""Test machinery every ruleset reuses."""
