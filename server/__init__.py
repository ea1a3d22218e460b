"""Adapters over the engine: the command line, GTP, and (later) the LAN host.

Nothing here holds rules; importing this package imports no web framework.
"""
