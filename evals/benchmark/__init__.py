"""The benchmark: run tools on a suite's cases, score each report against its ground
truth, print the table."""
