"""The agent's tools: their definitions, what a turn's calls share, and each tool."""
