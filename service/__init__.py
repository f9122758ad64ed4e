"""The application around the solver: the gRPC server, its client, the command line, and
one converter and one set of commands per game (listed in service/games.py)."""
