"""Seagrass cover segmentation on side-scan sonar tiles."""
