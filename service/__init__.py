"""The application around the solver: the gRPC server, its client, the command line, and
each game's front ends (commands, messages, RPC handler; listed in service/frontends.py)."""
