"""channels: one adapter per chat surface; adapters only translate."""

__all__: list[str] = []
