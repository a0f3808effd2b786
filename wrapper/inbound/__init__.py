"""The intake: what every inbound message runs, up to its envelope (docs/ARCHITECTURE.md).

`values` computes what a message's rows mean (its policy, decision and
envelope) as functions of one `values.Intake`; the general chain
(`wrapper.inbound.chain`) and the PostgreSQL hot path (`wrapper.inbound.hot`) both call them,
so the two paths derive the same values and neither imports the other's
module back.
"""
