"""wrapper: the CLOCK interaction wrapper and its store."""

__all__: list[str] = []
