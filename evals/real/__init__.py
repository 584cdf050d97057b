"""The real-repo suite: see README.md and manifest.yaml."""
