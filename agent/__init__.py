"""The investigator: the investigation itself (core/), its stage checks (checks/), its
front doors (cli/, chat/, mcp/, bisect/, llm/) and the report's formats (render/)."""
