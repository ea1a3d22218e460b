"""Computer seats: the process pool that computes their moves."""
