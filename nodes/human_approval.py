"""``human_approval``: pause the graph with ``interrupt()`` so a person approves, edits or rejects.

The interrupt value speaks LangChain's human-in-the-loop format
(:mod:`memory_agent.memory.review`): a ``HITLRequest`` with one action per proposal
(``add_memory``, ``update_memory`` with the old and new content, ``retract_memory``), its
evidence, source and why it is risky in the description, plus ``refused``: what validation refused
this turn and why, for the person's information (nothing refused can be approved). A proposal the
model judged an entitlement or a role claim (``risk``) is asked about in modes ``always`` and
``risky-only`` and rejected by policy in ``never``: only a person may approve one.

Resume with ``Command(resume=...)``, the documented form being a ``HITLResponse``
``{"decisions": [{"type": "approve"} | {"type": "edit", "edited_action": {"name", "args"}} |
{"type": "reject", "message": str}]}``, one per action in action order. The earlier forms still work:

- ``"approve"`` or ``"reject"``: the same decision for every proposal;
- a list ``[{"proposal_id": str, "action": "approve"|"edit"|"reject", "content": str}]``
  (``content`` only for edit), or ``{"decisions": that list}``; a proposal with no decision is rejected;
- a dict ``{proposal_id: "approve" | "reject" | {"action": "edit", "content": str}}``.

Decisions are recorded as made by ``"user"`` (the payload cannot name someone else); the approval
mode is the one the turn started with. This node has no side effect before the interrupt, so
re-running it on resume writes nothing twice.
"""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime
from langgraph.types import interrupt

from memory_agent.core.facts import PERSON_ONLY_RISKS
from memory_agent.graph.context import AgentContext
from memory_agent.graph.state import AgentState
from memory_agent.graph.turn import check_owner, turn_policy
from memory_agent.memory.review import approval_request, decisions_from_hitl, is_hitl_response
from memory_agent.memory.validation import check_edit

ACTIONS = ("approve", "edit", "reject")


def parse_decisions(value: Any, proposals: list[dict]) -> list[dict]:
    """Turn a resume value into one decision per proposal: ``{"proposal_id", "action", "content",
    "message", "decided_by"}`` (``message``: the reason a person gave for a rejection, or ``None``).

    Raises:
        ValueError: a malformed value, an unknown action or proposal id, or an edit whose content is
            empty, too long, or reads as an instruction to the agent (edits are validated like proposals).
    """
    if is_hitl_response(value):
        return [{**d, "decided_by": "user"} for d in decisions_from_hitl(value, proposals)]
    ids = [p["id"] for p in proposals]
    by_id: dict[str, dict] = {}
    if isinstance(value, str):
        if value not in ("approve", "reject"):
            raise ValueError(f"Resume with 'approve', 'reject' or a list of decisions, not {value!r}")
        by_id = {pid: {"action": value} for pid in ids}
    else:
        if isinstance(value, dict) and "decisions" in value:
            value = value["decisions"]
        if isinstance(value, dict):
            value = [{"proposal_id": k, **(v if isinstance(v, dict) else {"action": v})} for k, v in value.items()]
        if not isinstance(value, list):
            raise ValueError("Resume value must be 'approve', 'reject', a list or a dict of decisions")
        if not value:
            raise ValueError("No decisions given: resume with 'approve', 'reject' or one decision per proposal")
        for d in value:
            if not isinstance(d, dict):
                raise ValueError(
                    f"Each decision must be a dict like {{'proposal_id': ..., 'action': 'approve'}}, not {d!r}"
                )
            pid = d.get("proposal_id")
            if pid not in ids:
                raise ValueError(f"Unknown proposal id {pid!r}; pending: {ids}")
            if pid in by_id:
                raise ValueError(f"Two decisions for {pid}: give one per proposal")
            by_id[pid] = d
    decisions = []
    for pid in ids:
        d = by_id.get(pid, {"action": "reject", "reason": "no decision given"})
        action = d.get("action")
        if action not in ACTIONS:
            raise ValueError(f"Unknown action {action!r} for {pid}: use approve, edit or reject")
        if action == "edit" and next(p for p in proposals if p["id"] == pid)["operation"] == "RETRACT":
            raise ValueError(f"{pid} is a retraction: approve or reject it; there is no content to edit")
        if action == "edit":
            if not isinstance(d.get("content"), str):
                raise ValueError(f"Edit of {pid} needs 'content' as a string, not {d.get('content')!r}")
            problem = check_edit(d["content"])
            if problem:
                raise ValueError(f"Edit of {pid} refused: {problem}")
        message = d.get("message") if action == "reject" and isinstance(d.get("message"), str) else None
        content = d.get("content") if action == "edit" else None
        decisions.append({"proposal_id": pid, "action": action, "content": content, "message": message,
                          "decided_by": "user"})
    return decisions


def needs_person(proposal: dict, mode: str) -> bool:
    """Whether ``proposal`` must be asked about under approval ``mode``: every proposal in ``always``,
    the risky ones in ``risky-only`` (an entitlement or role claim always is), none in ``never``."""
    if mode == "never":
        return False
    if mode == "risky-only":
        return bool(proposal.get("risky")) or proposal.get("risk") in PERSON_ONLY_RISKS
    return True


def auto_decision(proposal: dict, mode: str) -> dict:
    """The decision for a proposal nobody is asked about: approved, except an entitlement or role
    claim, which only a person may approve (rejected by policy; the commit enforces it again)."""
    if proposal.get("risk") in PERSON_ONLY_RISKS:
        return {"proposal_id": proposal["id"], "action": "reject", "content": None, "decided_by": f"policy ({mode})"}
    return {"proposal_id": proposal["id"], "action": "approve", "content": None, "decided_by": f"auto ({mode})"}


def make_human_approval():
    """Build the node. State in: ``proposals``. State out: ``decisions``."""

    def human_approval(state: AgentState, runtime: Runtime[AgentContext]) -> dict:
        check_owner(state, runtime.context)
        proposals = state.get("proposals") or []
        mode = turn_policy(state, runtime.context)["approval"]  # the turn's mode, not the resuming call's
        auto = [p for p in proposals if not needs_person(p, mode)]
        ask = [p for p in proposals if needs_person(p, mode)]
        decisions = [auto_decision(p, mode) for p in auto]
        if ask:
            # the person also sees what validation refused this turn, and why
            refused = [{"content": d["proposal"].get("content"), "reason": d["reason"]}
                       for d in state.get("dropped") or [] if d.get("decision") == "invalid"]
            answer = interrupt(approval_request(ask, refused))
            decisions += parse_decisions(answer, ask)
        return {"decisions": decisions}

    return human_approval
