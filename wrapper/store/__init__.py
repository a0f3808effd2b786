"""The store: its database, tables, typed rows, queries and migrations."""
