"""The installed face of Corner Claim: `python -m cornerclaim` (the `cornerclaim` command) and,
in a built wheel, the phone UI the host serves (cornerclaim/client_web/: the pages, styles and
scripts of the checkout's client_web/ and the Socket.IO client npm installed there, copied in
at build time by setup.py; a checkout holds no such copy and serves client_web/ itself)."""
