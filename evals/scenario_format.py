"""The scenario file format of ``shared/evals/SCENARIOS.md``: models, parsing and validation.

JSON Lines, one scenario a line: sessions of user turns, each session a new thread at its own clock,
then probe questions with case-insensitive substring checks (``expect``) and, optionally, checks on
the user's live memories after all sessions (``store``). All clocks are UTC.

>>> scenarios = load_scenarios("evals/scenarios/examples.jsonl")   # doctest: +SKIP
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

__all__ = [
    "Expect",
    "Probe",
    "Scenario",
    "ScenarioFormatError",
    "Session",
    "StoreExpect",
    "load_scenarios",
    "parse_scenarios",
]


class ScenarioFormatError(ValueError):
    """A scenario file that does not follow SCENARIOS.md; the message names the file and line."""

    def __init__(self, message: str, *, path: str = "<scenarios>", line: int | None = None):
        self.path = path
        self.line = line
        where = f"{path}, line {line}" if line is not None else path
        super().__init__(f"{where}: {message}")


def _utc(value: datetime) -> datetime:
    """An aware UTC datetime (a naive one is taken as UTC, as SCENARIOS.md says all clocks are UTC)."""
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


class _Model(BaseModel):
    # Unknown fields are ignored at the scenario/session/probe level (room for notes), but not inside
    # ``expect`` and ``store``, where a misspelt check would silently vanish.
    model_config = ConfigDict(extra="ignore", str_strip_whitespace=False)


class Session(_Model):
    """One conversation thread of the scenario's user.

    Attributes:
        at: the clock of the session (UTC); turn ``i`` (0-based) runs at ``at + i`` seconds.
        turns: the user's messages, sent one after the other (none blank: the agent refuses blank messages).
        approve: ``"all"`` approves every proposed memory, ``"none"`` rejects every one.
    """

    at: datetime
    turns: list[str]
    approve: Literal["all", "none"] = "all"

    @field_validator("at")
    @classmethod
    def _at_utc(cls, v: datetime) -> datetime:
        return _utc(v)

    @field_validator("turns")
    @classmethod
    def _turns_not_blank(cls, v: list[str]) -> list[str]:
        if any(not t.strip() for t in v):
            raise ValueError("a turn is blank")
        return v


class Expect(BaseModel):
    """Checks of one probe; every check present must hold (case-insensitive substrings).

    Read literally, as SCENARIOS.md states them: an empty ``*_any`` list can never hold, an empty
    ``*_none`` list always holds. Unknown keys are an error (a misspelt check would vanish silently).
    """

    model_config = ConfigDict(extra="forbid")

    injected_any: list[str] | None = None
    injected_none: list[str] | None = None
    answer_any: list[str] | None = None
    answer_none: list[str] | None = None

    @property
    def needs_memory(self) -> bool:
        """True when the probe cannot pass without memory (it has an ``injected_any`` check)."""
        return bool(self.injected_any)


class StoreExpect(BaseModel):
    """Checks on the user's live memories after all sessions (before the probes)."""

    model_config = ConfigDict(extra="forbid")

    max_live: int | None = Field(default=None, ge=0)
    live_any: list[str] | None = None
    live_none: list[str] | None = None


class Probe(_Model):
    """A question asked after all sessions, in a fresh thread, at clock ``at``.

    ``user_id`` asks as another user (isolation probes); ``None`` means the scenario's user.
    """

    at: datetime
    question: str = Field(min_length=1)
    expect: Expect
    user_id: str | None = None

    @field_validator("at")
    @classmethod
    def _at_utc(cls, v: datetime) -> datetime:
        return _utc(v)

    @field_validator("question", "user_id")
    @classmethod
    def _not_blank(cls, v: str | None) -> str | None:
        if v is not None and not v.strip():
            raise ValueError("must not be blank")
        return v


class Scenario(_Model):
    """One scenario: a user's sessions, then probes (see SCENARIOS.md)."""

    id: str = Field(min_length=1)
    tags: list[str] = Field(default_factory=list)
    user_id: str = Field(min_length=1)
    sessions: list[Session]
    probes: list[Probe] = Field(default_factory=list)
    store: StoreExpect | None = None

    @field_validator("id", "user_id")
    @classmethod
    def _not_blank(cls, v: str) -> str:
        if not v.strip():
            raise ValueError("must not be blank")
        return v


def _describe(exc: ValidationError) -> str:
    parts = []
    for err in exc.errors():
        loc = ".".join(str(p) for p in err["loc"]) or "(scenario)"
        msg = err["msg"].removeprefix("Value error, ")
        parts.append(f"{loc}: {msg}")
    return "; ".join(parts)


def parse_scenarios(lines: Iterable[str], *, source: str = "<scenarios>") -> list[Scenario]:
    """Parse JSON Lines text into scenarios (blank lines are skipped).

    Args:
        lines: the file's lines (e.g. ``text.splitlines()``); line numbers in errors are 1-based.
        source: the name used in error messages (the file path).

    Raises:
        ScenarioFormatError: invalid JSON, a line that is not an object, a missing or malformed
            field (the message names the line and the field, e.g. ``sessions.0.at: Field required``),
            or an ``id`` used twice.
    """
    scenarios: list[Scenario] = []
    seen: dict[str, int] = {}
    for number, raw in enumerate(lines, start=1):
        text = raw.strip()
        if not text:
            continue
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ScenarioFormatError(f"not valid JSON: {exc.msg} (column {exc.colno})", path=source,
                                      line=number) from None
        if not isinstance(data, dict):
            raise ScenarioFormatError(f"expected a JSON object (one scenario), got {type(data).__name__}",
                                      path=source, line=number)
        try:
            scenario = Scenario.model_validate(data)
        except ValidationError as exc:
            name = f" (scenario {data['id']!r})" if isinstance(data.get("id"), str) else ""
            raise ScenarioFormatError(f"malformed scenario{name}: {_describe(exc)}", path=source,
                                      line=number) from None
        if scenario.id in seen:
            raise ScenarioFormatError(f"duplicate id {scenario.id!r} (first used on line {seen[scenario.id]})",
                                      path=source, line=number)
        seen[scenario.id] = number
        scenarios.append(scenario)
    return scenarios


def load_scenarios(path: str | Path) -> list[Scenario]:
    """Load a scenario file (JSON Lines, UTF-8) in the SCENARIOS.md format.

    Raises:
        FileNotFoundError: no such file.
        ScenarioFormatError: see :func:`parse_scenarios`; also an empty file.
    """
    path = Path(path)
    text = path.read_text(encoding="utf-8-sig")
    scenarios = parse_scenarios(text.splitlines(), source=str(path))
    if not scenarios:
        raise ScenarioFormatError("no scenarios in the file", path=str(path))
    return scenarios
