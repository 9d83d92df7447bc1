"""The task machine a ruleset's state can be built on.

A state holds a *stack of tasks*. The task on top says what is pending: whose
decision it is (``task["seat"]``) and of what kind (``task["t"]``: a turn phase, a
step of a combat, a card's window...). Tasks are plain JSON objects so a saved
state is plain JSON; a ruleset may document each kind's fields with a
``TypedDict``.

Three handlers per kind, found by name on the state's class and dispatched by the
kind (resolved once per class, not per call):

* ``_legal_<kind>(task) -> list[str]``: the legal actions of that decision;
* ``_act_<kind>(task, action)``: apply one of them (on a copy of the state);
* ``_auto_<kind>(task) -> bool`` (optional): run the steps that need no decision;
  ``True`` when the task resolved itself and the machine should go on with the
  new top of the stack, ``False`` when a player must now decide. An ``_auto_``
  step may store the legal actions it computed in ``self._legal`` so they are not
  generated twice.

:meth:`TaskMachine.advance` runs ``_auto_`` steps until a decision is pending
or the game is over (``finished()``); ``before_step()`` is a hook run before
each one (a ruleset's "at any moment" rule, such as a tent left empty).

:meth:`TaskMachine.apply` is the one ``apply`` of a state built on the machine:
the action normalised (words apart by any whitespace), checked against the legal
actions (illegal: ``IllegalActionError`` with ``why_illegal(action)``, and nothing
changes), then on a copy of the state (``fork()``): the action run
(``run_action``), the automatic steps (``advance``), and the events the step
produced collected (``collect_events``) into ``events``. A ruleset gives ``fork``
and ``why_illegal`` and may override the steps; C&C Samurai's compiled state keeps
a native copy of these steps over the same hooks (``CCState.apply``).

>>> class Count(TaskMachine):
...     def __init__(self):
...         self.stack, self._legal, self.n = [{"t": "count", "seat": 0}], None, 0
...     def _legal_count(self, task):
...         return ["add", "stop"]
...     def _act_count(self, task, action):
...         if action == "add":
...             self.n += 1
...         else:
...             self.stack.pop()
...     def _auto_count(self, task):
...         return self.n >= 2 and bool(self.stack.pop())
>>> m = Count()
>>> m.pending_actions()
['add', 'stop']
>>> m.run_action("add"); m.run_action("add"); m.advance(); m.stack
[]
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar, Self

from kassen.engine.errors import IllegalActionError
from kassen.engine.events import Event

#: a task: a JSON object with at least ``t`` (its kind) and ``seat`` (who decides)
Task = dict[str, Any]

_Handlers = tuple[Callable[..., Any] | None, Callable[..., Any] | None, Callable[..., Any] | None]


class TaskMachine:
    """Mixin: a stack of tasks, and dispatch of each kind to its handlers."""

    stack: list[Task]
    _legal: list[str] | None
    #: the events of the last ``apply`` (public), and those the step being run has produced so far
    events: tuple[Event, ...]
    _ev: list[Event]
    #: kind -> (legal, act, auto) functions of this class, filled on first use
    _task_handlers: ClassVar[dict[str, _Handlers]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._task_handlers = {}

    @classmethod
    def _handlers(cls, kind: str) -> _Handlers:
        got = cls._task_handlers.get(kind)
        if got is None:
            got = cls._task_handlers[kind] = (getattr(cls, f"_legal_{kind}", None), getattr(cls, f"_act_{kind}", None),
                                              getattr(cls, f"_auto_{kind}", None))
        return got

    def to_move(self) -> int | None:
        """The seat whose decision is on top (``task["seat"]``); None once the game is over
        (``finished()``) or the stack is empty."""
        if not self.stack or self.finished():
            return None
        seat: int = self.stack[-1]["seat"]
        return seat

    def legal_actions(self) -> list[str]:
        """The legal actions of the seat to move (a copy; none once the game is over)."""
        return list(self.pending_actions()) if self.stack and not self.finished() else []

    def fork(self) -> Self:
        """The copy ``apply`` runs the action on: nothing this state holds may change. Override."""
        raise NotImplementedError(f"{type(self).__name__} has no fork()")

    def why_illegal(self, action: str) -> str:
        """Why ``action`` (not legal now) is refused, one line for the person who asked. Override."""
        return "not a legal action now" if self.legal_actions() else "the game is over"

    def collect_events(self) -> None:
        """Hand the events the step produced to ``events`` (a new list is started)."""
        self.events = tuple(self._ev)
        self._ev = []

    def apply(self, action: str) -> Self:
        """The state after ``action``: normalised, checked, run on a fork, automatic steps run,
        events collected. Illegal: ``IllegalActionError``, and this state is unchanged."""
        legal = self.legal_actions()
        if action not in legal:
            action = " ".join(action.split())
            if action not in legal:
                raise IllegalActionError(action, self.why_illegal(action), legal)
        s = self.fork()
        s.run_action(action)
        s.advance()
        s.collect_events()
        return s

    def finished(self) -> bool:
        """True when the game is over (no more steps run). Override."""
        return False

    def before_step(self) -> None:
        """Run before each automatic step; may end the game. Override if needed."""

    def pending_actions(self) -> list[str]:
        """The legal actions of the task on top (computed once per state, then cached)."""
        if self._legal is None:
            task = self.stack[-1]
            legal = self._handlers(task["t"])[0]
            if legal is None:
                raise NotImplementedError(f"no _legal_{task['t']} handler")
            self._legal = legal(self, task)
        return self._legal

    def run_action(self, action: str) -> None:
        """Apply ``action`` (already checked legal) to the task on top, in place."""
        task = self.stack[-1]
        act = self._handlers(task["t"])[1]
        if act is None:
            raise NotImplementedError(f"no _act_{task['t']} handler")
        act(self, task, action)

    def advance(self) -> None:
        """Run automatic steps until a decision is pending or the game is over."""
        while not self.finished() and self.stack:
            self.before_step()
            if self.finished():
                return
            task = self.stack[-1]
            auto = self._handlers(task["t"])[2]
            if auto is None or not auto(self, task):
                return


__all__ = ["Task", "TaskMachine"]
