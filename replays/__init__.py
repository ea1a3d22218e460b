"""Game records in and out: Pentobi's .blksgf (`replays.sgf`). Pure: strings in, strings out."""
