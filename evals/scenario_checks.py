"""Scoring of scenario probes: case-insensitive substring checks on injected memories, the answer
and the user's live memories (the ``expect`` and ``store`` checks of SCENARIOS.md)."""

from __future__ import annotations

from collections.abc import Sequence

from memory_agent.evals.scenario_format import Expect, StoreExpect

__all__ = ["check_expect", "check_store"]


def _fold(text: str) -> str:
    return text.casefold()


def _containing(texts: Sequence[str], needles: Sequence[str]) -> list[str]:
    """The needles that occur (case-insensitively) in at least one of ``texts``."""
    folded = [_fold(t) for t in texts]
    return [n for n in needles if any(_fold(n) in t for t in folded)]


def check_expect(expect: Expect, injected: Sequence[str], answer: str) -> list[str]:
    """Evaluate a probe's checks; returns the failed checks ([] means the probe passed).

    Args:
        expect: the probe's checks.
        injected: contents of the memories injected for the probe ([] with memory off: then
            ``injected_any`` fails and ``injected_none`` holds by definition).
        answer: the agent's answer.

    Returns:
        One human-readable line per failed check, e.g. ``"injected_any ['postgres']: none injected"``.
    """
    failed: list[str] = []
    if expect.injected_any is not None and not _containing(injected, expect.injected_any):
        seen = "nothing was injected" if not injected else f"injected: {list(injected)}"
        failed.append(f"injected_any {expect.injected_any}: no injected memory contains any ({seen})")
    if expect.injected_none is not None:
        hits = _containing(injected, expect.injected_none)
        if hits:
            failed.append(f"injected_none {expect.injected_none}: injected memories contain {hits}")
    if expect.answer_any is not None and not _containing([answer], expect.answer_any):
        failed.append(f"answer_any {expect.answer_any}: the answer contains none of them")
    if expect.answer_none is not None:
        hits = _containing([answer], expect.answer_none)
        if hits:
            failed.append(f"answer_none {expect.answer_none}: the answer contains {hits}")
    return failed


def check_store(store: StoreExpect, live: Sequence[str]) -> list[str]:
    """Evaluate ``store`` checks on the contents of the user's live memories; returns failed checks."""
    failed: list[str] = []
    if store.max_live is not None and len(live) > store.max_live:
        failed.append(f"max_live {store.max_live}: {len(live)} live memories")
    if store.live_any is not None and not _containing(live, store.live_any):
        failed.append(f"live_any {store.live_any}: no live memory contains any")
    if store.live_none is not None:
        hits = _containing(live, store.live_none)
        if hits:
            failed.append(f"live_none {store.live_none}: live memories contain {hits}")
    return failed
