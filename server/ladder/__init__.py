"""The ladder: standings, ratings and statistics folded from finished games."""
