"""HTTP: the REST API, its schemas, rate limits, and the ladder and replay pages' API."""
