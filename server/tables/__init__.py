"""The live tables: the service every command goes through, a table's seats and credentials, and
the public views of a state."""
