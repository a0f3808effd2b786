"""The `clockbot` command line and its subcommands."""
