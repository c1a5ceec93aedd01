"""The one table of fact kinds: every property of a kind that any module needs.

Adding a kind is one :class:`KindSpec` row in :data:`KINDS` plus its description in
``prompts/propose_facts.md`` (the extraction prompt the model reads). Every other module reads
the properties from here: what needs a person's approval (``stores.long_term``), the profile
(``memory.sessions``, ``memory.retrieval``), episodes (``nodes.commit``), validity, review and
decay (``memory.lifecycle``), and the default importance the offline model gives a fact.

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
    episode: bool = False
    expire_days: float | None = None
    review_days: float | None = None
    decays: bool = True
    importance: float = 0.5


#: Every kind the model may propose, in the order the structured-output schema lists them.
KINDS: tuple[KindSpec, ...] = (
    KindSpec("preference", profile_rank=2, review_days=180.0, importance=0.6),
    KindSpec("project", review_days=90.0, importance=0.7),
    KindSpec("decision", episode=True, importance=0.7),
    KindSpec("constraint", needs_approval=True, profile_rank=1, review_days=365.0, decays=False, importance=0.9),
    KindSpec("fact", importance=0.5),
    KindSpec("event", episode=True, expire_days=30.0, importance=0.5),
    KindSpec("commitment", episode=True, expire_days=30.0, importance=0.6),
    KindSpec("procedural", profile_rank=0, review_days=365.0, decays=False, importance=0.6),
)

KIND_BY_NAME: dict[str, KindSpec] = {k.name: k for k in KINDS}
FACT_KINDS: tuple[str, ...] = tuple(k.name for k in KINDS)

#: Kinds a person must approve whatever the approval mode.
APPROVAL_KINDS: frozenset[str] = frozenset(k.name for k in KINDS if k.needs_approval)
#: Profile kinds, in the order the profile block lists them.
PROFILE_KINDS: tuple[str, ...] = tuple(k.name for k in sorted((k for k in KINDS if k.profile_rank is not None),
                                                                key=lambda k: k.profile_rank))
#: Kinds whose committed facts are also episodes.
EPISODE_KINDS: frozenset[str] = frozenset(k.name for k in KINDS if k.episode)
#: kind → days until ``valid_until``, for the kinds that expire.
EXPIRE_DAYS: dict[str, float] = {k.name: k.expire_days for k in KINDS if k.expire_days is not None}
#: kind → days until ``review_at``, for the kinds that are reviewed.
REVIEW_DAYS: dict[str, float] = {k.name: k.review_days for k in KINDS if k.review_days is not None}
#: Kinds whose importance never decays.
NEVER_DECAY_KINDS: frozenset[str] = frozenset(k.name for k in KINDS if not k.decays)
#: kind → default importance of a new fact.
IMPORTANCE: dict[str, float] = {k.name: k.importance for k in KINDS}
