"""The time reader's new home (docs/time-rules.md): its word tables, one file per language.

Only the leftover scanner lives here so far (`clockcore.reading.leftover`); the
reader's other stages still sit flat in clockcore.
"""
