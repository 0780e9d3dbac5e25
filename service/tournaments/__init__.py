"""Tournaments as an aggregate of their own: a pure decider (events, commands, `decide`,
`evolve`, pairing for round robin / Swiss / duplicate, standings) over its own append-only log.
Its games are ordinary games; `runner/` creates them through the game pipeline and feeds their
results back as commands.

The modules at this level import only the domain, the standard library and msgspec.
"""
