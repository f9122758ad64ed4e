"""Pure game logic and search for the fortress-solver games; never imports grpc."""
