"""clockbot's settings: environment over a YAML file over defaults, and their reference."""
