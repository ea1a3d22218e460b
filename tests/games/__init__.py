"""Test-only games: each registers itself with `engine.registry` when imported."""
