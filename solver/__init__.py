"""Pure game logic and search for the fortress-solver games; never imports grpc.

Each game is a package with one descriptor (`solver.<game>.game.GAME`, see
solver/games.py); the searches in solver/search/ know no game."""

__version__ = "0.1.0"  # the package's version (pyproject.toml reads it from here)
