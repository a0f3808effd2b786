"""bot: composition — configuration, the agent, the scheduler and the CLI."""

__all__: list[str] = []
