"""bot: composition — configuration, the agent, turns, the dispatcher and the CLI."""

__all__: list[str] = []
