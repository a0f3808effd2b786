"""The readers: the grammar, Duckling and dateparser, and what a message's time words mean."""
