"""The approval interrupt in LangChain's human-in-the-loop format, and its answers.

The interrupt value is a ``HITLRequest`` (``langchain.agents.middleware.human_in_the_loop``), so
LangChain's review clients (Agent Chat UI, Agent Inbox) can show it, plus one key of ours::

    {"action_requests": [{"name", "args", "description"}],    # one per proposal, in order
     "review_configs": [{"action_name", "allowed_decisions"}], # one per action, same order
     "refused": [{"content", "reason"}]}                       # what validation refused this turn (shown only)

Actions: ``add_memory`` (a new fact), ``update_memory`` (replaces a live fact: ``args`` carry its
``old_content`` and ``target_id``), ``retract_memory`` (withdraws one). ``args`` always carry
``proposal_id``, ``kind``, ``content`` and ``topic`` (all strings, so a client can show and send
them back as text), and ``valid_until`` (ISO 8601) when the user gave an end. The description
says what would change, the evidence and its source (thread, message ids), and why the proposal
is risky. Allowed decisions: approve, edit, reject; a retraction has no content to edit.

The answer is a ``HITLResponse``: ``{"decisions": [Decision, ...]}``, one per action in action
order: ``{"type": "approve"}``, ``{"type": "edit", "edited_action": {"name", "args"}}`` (only
``args["content"]`` may differ from the request; the new content is checked like a proposal,
:func:`memory_agent.memory.validation.check_edit`) or ``{"type": "reject", "message": str}``.
:func:`decisions_from_hitl` turns it into this project's decisions
``{"proposal_id", "action", "content", "message"}``; :func:`hitl_response` does the reverse for
front ends that hold decisions by proposal.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from langchain.agents.middleware.human_in_the_loop import (
    ActionRequest,
    Decision,
    HITLRequest,
    HITLResponse,
    ReviewConfig,
)

from memory_agent.core.facts import PERSON_ONLY_RISKS
from memory_agent.core.kinds import needs_approval
from memory_agent.memory.validation import check_edit

#: The action name of each operation.
ACTION_NAMES = {"ADD": "add_memory", "UPDATE": "update_memory", "RETRACT": "retract_memory"}
#: Longest reject message kept (characters); it goes to the audit row's reason.
MAX_MESSAGE_CHARS = 500


def is_hitl_response(value: Any) -> bool:
    """Whether a resume value is a ``HITLResponse`` (decisions carrying ``type``), not an older form."""
    return (isinstance(value, Mapping) and isinstance(value.get("decisions"), list)
            and all(isinstance(d, Mapping) and "type" in d for d in value["decisions"]) and bool(value["decisions"]))


def approval_request(proposals: Sequence[Mapping[str, Any]],
                     refused: Sequence[Mapping[str, Any]] = ()) -> dict[str, Any]:
    """The interrupt value for ``proposals`` (Proposal dicts): a ``HITLRequest`` plus ``refused``."""
    request = HITLRequest(action_requests=[action_request(p) for p in proposals],
                          review_configs=[review_config(p) for p in proposals])
    return {**request, "refused": [{"content": r.get("content"), "reason": r.get("reason")} for r in refused]}


def action_request(proposal: Mapping[str, Any]) -> ActionRequest:
    """One proposal as an ``ActionRequest`` (see the module docstring)."""
    op = proposal["operation"]
    args = {"proposal_id": proposal["id"], "kind": proposal["kind"], "content": proposal["content"],
            "topic": proposal.get("topic") or ""}
    if op != "ADD":
        args["target_id"] = proposal.get("target_id") or ""
    if op == "UPDATE":
        args["old_content"] = proposal.get("target_content") or ""
    if proposal.get("valid_until"):
        args["valid_until"] = _iso(proposal["valid_until"])
    return ActionRequest(name=ACTION_NAMES[op], args=args, description=describe(proposal))


def review_config(proposal: Mapping[str, Any]) -> ReviewConfig:
    """What a person may decide on the proposal: approve, edit (not for a retraction), reject."""
    op = proposal["operation"]
    allowed = ["approve", "reject"] if op == "RETRACT" else ["approve", "edit", "reject"]
    return ReviewConfig(action_name=ACTION_NAMES[op], allowed_decisions=allowed)  # type: ignore[typeddict-item]


def describe(proposal: Mapping[str, Any]) -> str:
    """The text a reviewer reads: the change, the evidence with its source, and why it is risky."""
    op, kind = proposal["operation"], proposal["kind"]
    if op == "ADD":
        change = f"Remember ({kind}): {proposal['content']}"
    elif op == "UPDATE":
        change = f"Update ({kind}): {proposal.get('target_content')!s} -> {proposal['content']}"
    else:
        change = f"Forget ({kind}): {proposal.get('target_content') or proposal['content']}"
    source = proposal.get("source") or {}
    messages = ", ".join(source.get("message_ids") or []) or "none"
    lines = [change, f"Evidence: \"{proposal.get('evidence', '')}\" (thread {source.get('thread_id', '?')}, "
                     f"message {messages})", f"Why it is asked: {why_risky(proposal)}"]
    if proposal.get("valid_until"):
        lines.append(f"Valid until: {_iso(proposal['valid_until'])}")
    return "\n".join(lines)


def why_risky(proposal: Mapping[str, Any]) -> str:
    """Why the proposal is risky, in words ("not flagged as risky" when nothing is)."""
    reasons = []
    if proposal["operation"] == "UPDATE":
        reasons.append("it replaces a remembered fact")
    if proposal["operation"] == "RETRACT":
        reasons.append("it withdraws a remembered fact")
    if proposal.get("risk") in PERSON_ONLY_RISKS:
        reasons.append(f"a claimed {proposal['risk']}: only a person may approve it")
    if proposal.get("sensitivity") == "restricted":
        reasons.append("sensitive (restricted)")
    if needs_approval(proposal["kind"]):
        reasons.append(f"every {proposal['kind']} is asked about")
    if proposal.get("reason"):
        reasons.append(str(proposal["reason"]))
    return "; ".join(reasons) if reasons else "not flagged as risky (the approval mode asks about every memory)"


def _iso(value: Any) -> str:
    return value.isoformat() if hasattr(value, "isoformat") else str(value)


def decisions_from_hitl(value: Mapping[str, Any], proposals: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """A ``HITLResponse`` for the request of ``proposals`` → ``[{"proposal_id", "action", "content",
    "message"}]``, one per proposal (``content``: an edit's new content, ``message``: a rejection's).

    Raises:
        ValueError: not one decision per action; an unknown decision type or one the action does not
            allow (edit of a retraction, ``respond``); an edit naming another action, changing an
            argument other than ``content``, or whose content :func:`check_edit` refuses.
    """
    decisions = value.get("decisions")
    if not isinstance(decisions, list) or len(decisions) != len(proposals):
        got = len(decisions) if isinstance(decisions, list) else 0
        raise ValueError(f"{got} decision(s) for {len(proposals)} proposed memory change(s): send one decision "
                         "per action request, in the order of action_requests")
    out = []
    for proposal, d in zip(proposals, decisions, strict=True):
        request, config = action_request(proposal), review_config(proposal)
        pid, kind = proposal["id"], d.get("type") if isinstance(d, Mapping) else None
        if kind not in config["allowed_decisions"]:
            raise ValueError(f"Decision {kind!r} is not allowed for {request['name']} {pid}: use one of "
                             f"{', '.join(config['allowed_decisions'])}")
        content = message = None
        if kind == "edit":
            content = _edited_content(d.get("edited_action"), request)
        if kind == "reject" and d.get("message"):
            message = str(d["message"]).strip()[:MAX_MESSAGE_CHARS] or None
        out.append({"proposal_id": pid, "action": kind, "content": content, "message": message})
    return out


def _edited_content(edited: Any, request: ActionRequest) -> str:
    name, pid = request["name"], request["args"]["proposal_id"]
    if not isinstance(edited, Mapping) or not isinstance(edited.get("args"), Mapping):
        raise ValueError(f"The edit of {pid} needs edited_action {{'name': {name!r}, 'args': {{'content': ...}}}}")
    if edited.get("name", name) != name:
        raise ValueError(f"The edit of {pid} names {edited.get('name')!r}: an edit keeps the action ({name}) "
                         "and changes only its content")
    args = edited["args"]
    changed = sorted(k for k, v in args.items() if k != "content" and k in request["args"]
                     and str(v) != str(request["args"][k]))
    unknown = sorted(k for k in args if k not in request["args"])
    if changed or unknown:
        raise ValueError(f"The edit of {pid} changes {', '.join(changed + unknown)}: only 'content' can be edited "
                         "(reject the proposal instead if the rest is wrong)")
    content = args.get("content")
    if not isinstance(content, str):
        raise ValueError(f"The edit of {pid} needs args.content as a string, not {content!r}")
    problem = check_edit(content)
    if problem:
        raise ValueError(f"Edit of {pid} refused: {problem}")
    return content.strip()


def hitl_response(decisions: Sequence[Mapping[str, Any]], proposals: Sequence[Mapping[str, Any]]) -> HITLResponse:
    """Decisions held by proposal (``{"proposal_id", "action", "content"?, "message"?}``) → the
    ``HITLResponse`` for the request of ``proposals``, in action order; a proposal without a
    decision is rejected.

    Raises:
        ValueError: a decision names a proposal that is not pending, or an unknown action.
    """
    ids = [p["id"] for p in proposals]
    by_id = {}
    for d in decisions:
        if d.get("proposal_id") not in ids:
            raise ValueError(f"Unknown proposal id {d.get('proposal_id')!r}; pending: {ids}")
        by_id[d["proposal_id"]] = d
    out: list[Decision] = []
    for p in proposals:
        d = by_id.get(p["id"], {"action": "reject", "message": "no decision given"})
        action = d.get("action")
        if action == "approve":
            out.append({"type": "approve"})
        elif action == "edit":
            request = action_request(p)
            out.append({"type": "edit", "edited_action": {"name": request["name"],
                                                          "args": {**request["args"], "content": d.get("content")}}})
        elif action == "reject":
            out.append({"type": "reject", **({"message": d["message"]} if d.get("message") else {})})
        else:
            raise ValueError(f"Unknown action {action!r} for {p['id']}: use approve, edit or reject")
    return HITLResponse(decisions=out)
