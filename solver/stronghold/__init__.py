"""Stronghold: the abstract siege model of docs/stronghold.md (Part C), its simulator, and
the planners that answer its questions (Part D): plan, clear and race."""
