"""Stronghold: the abstract siege model of the spec's Part C and its planners."""
