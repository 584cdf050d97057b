"""Diver hand-signal recognition from sensor-glove joint angles."""

SIGNALS = ["ok", "up", "down", "stop", "low_air", "share_air", "look", "wrong"]
N_ANGLES = 22
