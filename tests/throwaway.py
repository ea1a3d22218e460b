"""What the tests' throwaway servers share: a free port on the loopback address, and a child
process that dies with the process that started it (scripts/throwaway.py, which the load
test uses too)."""

from scripts.throwaway import die_with_parent, free_port

__all__ = ["die_with_parent", "free_port"]
