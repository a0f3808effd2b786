"""`clockbot eval`: the agent measured on scenarios, judged from what clockbot stored and sent.

A scenario (`scenario.Scenario`, one YAML file in ``bot/evaluation/scenarios``) is a
conversation on an injected clock with expectations about the store: a
reminder at an instant, a deferral with a reason, a reply that states the
right local time. `runner.run_scenario` plays it through a real gateway on a
fresh SQLite store; `judge.judge` checks it without another model;
`report` writes the Markdown and JSON report. docs/eval.md says how to run it
and what a full run on a local model measured.
"""
