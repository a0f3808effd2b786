"""The running service: the gateway, its HTTP server, intakes, pacing, metrics, Duckling's pool."""
