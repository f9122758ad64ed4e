"""Protobuf messages to solver values and back, one module per game."""
