"""Durable storage: the event store (SQLite)."""
