"""A turn's life in the store: working state, waiting list, effects, history, limits, commit."""
