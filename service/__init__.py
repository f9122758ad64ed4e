"""The application around the solver: command line now, gRPC server and clients later."""
