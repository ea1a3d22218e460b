"""Replays of any game: the replay cursor and the board picture. Pure: logs in, values out."""
