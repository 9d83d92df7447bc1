"""Errors every ruleset and adapter shares."""

from __future__ import annotations


class KassenError(Exception):
    """Base class of every error Kassen raises on bad input."""


class IllegalActionError(KassenError):
    """An action that is not legal in the state it was applied to.

    The state it was applied to is unchanged.
    """

    def __init__(self, action: str, reason: str, legal: list[str] | None = None) -> None:
        self.action = action
        self.reason = reason
        self.legal = legal or []
        hint = ""
        if legal:
            shown = ", ".join(legal[:12]) + (" ..." if len(legal) > 12 else "")
            hint = f" (legal: {shown})"
        super().__init__(f"illegal action {action!r}: {reason}{hint}")


class FormatError(KassenError):
    """Malformed input: a scenario, position, saved game or notation that cannot be read."""
