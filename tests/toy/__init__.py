"""A toy game registered by one spec file (:mod:`tests.toy.duel_spec`) plus its rules (the Duel of
docs/engine.md, run as written there)."""
