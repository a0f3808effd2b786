"""Many workers on one store: heartbeats, leadership and locks."""
