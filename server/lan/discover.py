"""`cornerclaim discover`: list the Corner Claim hosts on the LAN (name, URL, open games).

A host of several processes (a club's) is listed once: its first address on its line, each
other process's address on a line of its own below, indented by a tab."""

from __future__ import annotations

import argparse


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seconds", type=float, default=3.0, help="how long to listen (3)")


def run(args: argparse.Namespace) -> int:
    from server.lan.discovery import discover

    hosts = discover(args.seconds)
    if not hosts:
        print("No Corner Claim host found on this network.")
        return 1
    for h in hosts:
        print(f"{h.name}\t{h.url}\t{h.open_games} open game{'s' * (h.open_games != 1)}")
        for url in h.urls[1:]:  # the other processes of a club's host
            print(f"\t{url}")
    return 0
