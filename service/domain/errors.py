"""The one error `decide` raises: a rule violation with a stable code and a sentence."""

from __future__ import annotations


class RuleViolation(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __repr__(self) -> str:
        return f"RuleViolation({self.code!r}, {self.message!r})"
