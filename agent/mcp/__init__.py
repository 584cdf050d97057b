"""`investigate mcp`: the investigation's tools served over MCP for other agents."""
