"""`python -m bot.cli`: the `clockbot` command line (`bot.cli.main`)."""

from bot.cli.main import main

main()
