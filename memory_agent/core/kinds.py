"""The one table of fact kinds: every property of a kind that any module needs.

Adding a kind is one :class:`KindSpec` row in :data:`KINDS` plus its description in
``prompts/propose_facts.md`` (the extraction prompt the model reads). Every other module reads
the properties from here, through the functions below, which read :data:`KINDS` when called:
what needs a person's approval (``stores.proposal_planning``), the profile (``memory.sessions``,
``stores.session_memory``, ``memory.retrieval``), episodes (``nodes.commit``), validity, review and
decay (``memory.lifecycle``), and the default importance the offline model gives a fact. Only
:data:`FACT_KINDS`, the structured-output schema's list, is fixed when the module loads.

The numbers are this template's defaults, not measurements: change them per deployment.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class KindSpec:
    """One fact kind.

    - ``needs_approval``: a person approves every proposal of this kind, even with approval
      ``risky-only`` (a wrong one costs more than a missing one: allergies, hard limits).
    - ``profile_rank``: ``None`` if the kind is not part of the user's profile; otherwise its
      place in the profile block (0 first). Profile kinds also take the profile similarity floor
      in ranking (``RetrievalConfig.min_similarity_profile``).
    - ``profile_when_relevant``: a profile kind whose facts open a session only when retrieval finds
      them relevant to the opening message (a favourite band is not part of a JavaScript question);
      the other profile kinds open every session.
    - ``episode``: a committed fact of this kind is also written as an episode (something that
      happened or was decided, searchable by time).
    - ``expire_days`` / ``review_days``: days from commit to ``valid_until`` / ``review_at``
      (``None``: never expires / never reviewed).
    - ``decays``: whether an unused fact's importance halves every half-life (see
      ``memory.lifecycle``).
    - ``importance``: default importance (0–1) of a new fact of this kind.
    """

    name: str
    needs_approval: bool = False
    profile_rank: int | None = None
    profile_when_relevant: bool = False
    episode: bool = False
    expire_days: float | None = None
    review_days: float | None = None
    decays: bool = True
    importance: float = 0.5


#: Every kind the model may propose, in the order the structured-output schema lists them.
KINDS: tuple[KindSpec, ...] = (
    KindSpec("preference", profile_rank=2, profile_when_relevant=True, review_days=180.0, importance=0.6),
    KindSpec("project", review_days=90.0, importance=0.7),
    KindSpec("decision", episode=True, importance=0.7),
    KindSpec("constraint", needs_approval=True, profile_rank=1, review_days=365.0, decays=False, importance=0.9),
    KindSpec("fact", importance=0.5),
    KindSpec("event", episode=True, expire_days=30.0, importance=0.5),
    KindSpec("commitment", episode=True, expire_days=30.0, importance=0.6),
    KindSpec("procedural", profile_rank=0, review_days=365.0, decays=False, importance=0.6),
)

#: Kind names in schema order. Read once, when ``memory_agent.core.facts`` builds the structured-output
#: schema from it: a kind added later is not in that schema.
FACT_KINDS: tuple[str, ...] = tuple(k.name for k in KINDS)


# Every decision below reads KINDS when it is called, so a kind added to it (a deployment's own,
# or a test's monkeypatch) takes part in approval, the profile, episodes, validity and decay.
def kind_spec(kind: str) -> KindSpec | None:
    """The row of ``kind`` in :data:`KINDS`, or ``None`` for a name that is not a fact kind (``"episode"``)."""
    return next((k for k in KINDS if k.name == kind), None)


def needs_approval(kind: str) -> bool:
    """True when a person approves every proposal of ``kind``, whatever the approval mode."""
    spec = kind_spec(kind)
    return spec is not None and spec.needs_approval


def profile_kinds() -> tuple[str, ...]:
    """The profile kinds, in the order the profile block lists them (by ``profile_rank``)."""
    ranked = sorted((k for k in KINDS if k.profile_rank is not None), key=lambda k: k.profile_rank)
    return tuple(k.name for k in ranked)


def is_profile(kind: str) -> bool:
    """True when ``kind`` is part of the user's profile."""
    spec = kind_spec(kind)
    return spec is not None and spec.profile_rank is not None


def profile_when_relevant(kind: str) -> bool:
    """True when facts of the profile kind ``kind`` open a session only when relevant to its message."""
    spec = kind_spec(kind)
    return spec is not None and spec.profile_when_relevant


def is_episode(kind: str) -> bool:
    """True when a committed fact of ``kind`` is also written as an episode."""
    spec = kind_spec(kind)
    return spec is not None and spec.episode


def expire_days() -> dict[str, float]:
    """kind → days from commit to ``valid_until``, for the kinds that expire."""
    return {k.name: k.expire_days for k in KINDS if k.expire_days is not None}


def review_days() -> dict[str, float]:
    """kind → days from commit to ``review_at``, for the kinds that are reviewed."""
    return {k.name: k.review_days for k in KINDS if k.review_days is not None}


def never_decay_kinds() -> frozenset[str]:
    """The kinds whose importance never decays."""
    return frozenset(k.name for k in KINDS if not k.decays)


def default_importance(kind: str) -> float:
    """The default importance (0–1) of a new fact of ``kind``.

    Raises:
        KeyError: ``kind`` is not in :data:`KINDS`.
    """
    spec = kind_spec(kind)
    if spec is None:
        raise KeyError(kind)
    return spec.importance
