"""One package per rule system."""
