"""`python -m cornerclaim ...` runs the `cornerclaim` command (server.cli)."""

import sys

from server.cli import main

if __name__ == "__main__":
    sys.exit(main())
