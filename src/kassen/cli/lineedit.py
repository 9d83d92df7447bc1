"""Line editing at the terminal prompt: history, editing keys and Tab completion of the
legal actions (GNU readline, where Python has it).

Hot-seat: the history is wiped when the keyboard passes to another player, so the arrow
keys never show what the previous player typed (a face-down card, a card kept).
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

#: words the prompt understands besides actions
COMMANDS = ("help", "board", "save", "undo", "quit")


class LineEditor:
    """Completion over ``choices()`` (the legal actions now, then the commands), whole-line."""

    def __init__(self, choices: Callable[[], list[str]], readline: ModuleType | Any | None = None) -> None:
        self.choices = choices
        self.readline = readline
        self.matches: list[str] = []

    def complete(self, text: str, state: int) -> str | None:
        """readline's completer: the ``state``-th choice that the line typed so far begins.

        >>> ed = LineEditor(lambda: ["move F3 G4", "move F3 G5", "attack F3 G4"])
        >>> [ed.complete("move f3 g", i) for i in range(3)]
        ['move F3 G4', 'move F3 G5', None]
        """
        if state == 0:
            low = text.lower()
            self.matches = [c for c in [*self.choices(), *COMMANDS] if c.lower().startswith(low)]
        return self.matches[state] if state < len(self.matches) else None

    def install(self) -> None:
        rl = self.readline
        if rl is None:
            return
        rl.set_completer_delims("")  # actions have spaces: complete the whole line
        rl.set_completer(self.complete)
        rl.parse_and_bind("tab: complete")

    def forget(self) -> None:
        """Wipe the history (the keyboard passes to another player)."""
        if self.readline is not None:
            self.readline.clear_history()


def load_readline() -> ModuleType | None:
    """GNU readline (or libedit) when this Python has it; importing it gives ``input()``
    history and editing keys."""
    try:
        import readline
    except ImportError:  # Windows without pyreadline: plain input()
        return None
    return readline
