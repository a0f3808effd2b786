"""A message's life in the gateway: receive, the no-model commands, answer, commit."""
