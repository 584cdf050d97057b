PATTERNS = ("none", "center", "edge_ring", "scratch", "donut", "local")
