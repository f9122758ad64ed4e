"""The front ends of a game that has none of its own."""
