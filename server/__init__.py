"""The LAN host over the engine: the web and socket layers, the tables' service, the event
stores, the computer seats, the ladder, LAN discovery, and the `cornerclaim` command line.

Nothing here holds rules; importing this package imports no web framework.
"""


def version() -> str:
    """The installed package's version ("0+unknown" from a checkout never installed)."""
    from importlib import metadata

    try:
        return metadata.version("cornerclaim")
    except metadata.PackageNotFoundError:
        return "0+unknown"
