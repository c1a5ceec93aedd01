"""LoCoMo (Maharana et al., ACL 2024): loading, evidence normalisation, session clocks and token F1.

The data is research data under CC BY-NC 4.0 (public repository snap-research/LoCoMo, file
``data/locomo10.json``). The project reads it from a folder outside the repository at run time
(by default ``../shared/datasets/locomo/locomo_dev.json``) and never copies it into the repository.

File format (a JSON list): each item has ``sample_id``, ``conversation`` (``speaker_a``,
``speaker_b``, ``session_<n>_date_time`` like ``"1:56 pm on 8 May, 2023"``, ``session_<n>`` = list
of turns ``{"speaker", "dia_id": "D3:12", "text", ...}``) and ``qa`` (``question``, ``answer`` or
``adversarial_answer`` for category 5, ``evidence`` = list of dia ids, ``category``: 1 multi-hop,
2 temporal, 3 open-domain, 4 single-hop, 5 adversarial, as coded in the file).

A few evidence entries are malformed (``"D8:6; D9:17"``, ``"D:11:26"``): :func:`normalise_evidence`
splits them and normalises each to ``D<session>:<turn>``; questions left without valid evidence
are kept with ``evidence == []`` (callers skip them).
"""

from __future__ import annotations

import json
import re
import string
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

__all__ = [
    "CATEGORY_NAMES",
    "LOCOMO_SOURCE",
    "LocomoConversation",
    "LocomoQA",
    "LocomoSession",
    "LocomoTurn",
    "load_locomo",
    "normalise_dia_id",
    "normalise_evidence",
    "normalize_answer",
    "parse_locomo_datetime",
    "questions_within_sessions",
    "token_f1",
]

LOCOMO_SOURCE = ("the public GitHub repository snap-research/LoCoMo, file data/locomo10.json "
                 "(license CC BY-NC 4.0: research, non-commercial)")
CATEGORY_NAMES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "adversarial"}

_DIA = re.compile(r"^D:?(\d+):(\d+)$")
_MONTHS = {m: i for i, m in enumerate(
    ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
     "november", "december"], start=1)}
_DATE = re.compile(
    r"^\s*(?P<h>\d{1,2}):(?P<m>\d{2})\s*(?P<ampm>am|pm)\s+on\s+(?P<d>\d{1,2})\s+(?P<mon>[A-Za-z]+),?\s+(?P<y>\d{4})\s*$",
    re.I,
)


# ----------------------------------------------------------------------------------------------
# Normalisation
# ----------------------------------------------------------------------------------------------


def normalise_dia_id(raw: str) -> str | None:
    """``"D3:12"`` → ``"D3:12"``, ``"D:11:26"`` → ``"D11:26"``, ``" d2:4 "`` → ``"D2:4"``; ``None`` if invalid."""
    m = _DIA.match(raw.strip().upper())
    return f"D{int(m[1])}:{int(m[2])}" if m else None


def normalise_evidence(items: Iterable[str] | str | None) -> list[str]:
    """Normalised dia ids of an ``evidence`` field, in order, without duplicates.

    Entries holding several ids (``"D8:6; D9:17"``) are split on ``;`` (and on commas or
    whitespace between ids); invalid pieces are dropped.
    """
    if items is None:
        return []
    if isinstance(items, str):
        items = [items]
    out: list[str] = []
    for item in items:
        for piece in re.split(r"[;,\s]+", str(item)):
            if piece and (dia := normalise_dia_id(piece)) and dia not in out:
                out.append(dia)
    return out


def dia_session(dia_id: str) -> int:
    """The session number of a normalised dia id (``"D3:12"`` → 3)."""
    return int(dia_id[1:].split(":", 1)[0])


def parse_locomo_datetime(text: str) -> datetime:
    """Parse a LoCoMo session time such as ``"1:56 pm on 8 May, 2023"`` as an aware UTC datetime.

    The file gives no time zone; the clock is taken as UTC. Locale-independent.

    Raises:
        ValueError: text in another format.
    """
    m = _DATE.match(text or "")
    if not m or m["mon"].lower() not in _MONTHS:
        raise ValueError(f"Not a LoCoMo session time (like '1:56 pm on 8 May, 2023'): {text!r}")
    hour = int(m["h"]) % 12 + (12 if m["ampm"].lower() == "pm" else 0)
    return datetime(int(m["y"]), _MONTHS[m["mon"].lower()], int(m["d"]), hour, int(m["m"]), tzinfo=UTC)


# ----------------------------------------------------------------------------------------------
# Token F1 (SQuAD; used by LoCoMo)
# ----------------------------------------------------------------------------------------------

_ARTICLES = re.compile(r"\b(a|an|the)\b")
_PUNCT = set(string.punctuation)


def normalize_answer(text: object) -> str:
    """SQuAD answer normalisation: lowercase, strip punctuation, drop articles (a, an, the), squeeze spaces."""
    s = str(text).lower()
    s = "".join(ch for ch in s if ch not in _PUNCT)
    s = _ARTICLES.sub(" ", s)
    return " ".join(s.split())


def token_f1(prediction: object, gold: object) -> float:
    """Token-overlap F1 between a prediction and a gold answer, 0–1 (SQuAD v1.1 ``f1_score``).

    Both sides go through :func:`normalize_answer`; F1 = 2·P·R/(P+R) over the multiset of common
    tokens. Two empty answers score 1.0; one empty answer scores 0.0. (LoCoMo's own script also
    drops "and", removes commas first and Porter-stems tokens; this is the plain SQuAD version.)
    """
    pred = normalize_answer(prediction).split()
    ref = normalize_answer(gold).split()
    if not pred or not ref:
        return float(pred == ref)
    common = Counter(pred) & Counter(ref)
    same = sum(common.values())
    if same == 0:
        return 0.0
    precision, recall = same / len(pred), same / len(ref)
    return 2 * precision * recall / (precision + recall)


# ----------------------------------------------------------------------------------------------
# Loading
# ----------------------------------------------------------------------------------------------


@dataclass
class LocomoTurn:
    """One dialogue turn: ``speaker`` name, normalised ``dia_id`` (``"D1:3"``) and ``text``.

    ``image_caption`` is the file's ``blip_caption`` when the speaker shared a photo (the BLIP
    caption the benchmark gives in place of the image), else ``""``. The file's ``query`` field
    (the search words used to find the image when the data set was built) is not kept.
    """

    speaker: str
    dia_id: str
    text: str
    image_caption: str = ""


@dataclass
class LocomoSession:
    """Session ``number`` (1-based) with its raw ``date_time`` text, parsed clock ``at`` (UTC or ``None``) and turns."""

    number: int
    date_time: str
    at: datetime | None
    turns: list[LocomoTurn] = field(default_factory=list)


@dataclass
class LocomoQA:
    """A question with its gold ``answer`` (as text), normalised ``evidence`` dia ids and ``category`` (1–5)."""

    question: str
    answer: str
    evidence: list[str]
    category: int
    raw_evidence: list[str] = field(default_factory=list)

    @property
    def category_name(self) -> str:
        """``single-hop``, ``multi-hop``, … (see :data:`CATEGORY_NAMES`)."""
        return CATEGORY_NAMES.get(self.category, str(self.category))


@dataclass
class LocomoConversation:
    """One LoCoMo sample: two speakers, sessions in order, questions."""

    sample_id: str
    speaker_a: str
    speaker_b: str
    sessions: list[LocomoSession]
    qa: list[LocomoQA]

    def session(self, number: int) -> LocomoSession:
        """Session ``number`` (1-based). Raises ``KeyError`` if absent."""
        for s in self.sessions:
            if s.number == number:
                return s
        raise KeyError(f"{self.sample_id} has no session {number}")

    def turn(self, dia_id: str) -> LocomoTurn | None:
        """The turn with this dia id (normalised first), or ``None``."""
        dia = normalise_dia_id(dia_id)
        for s in self.sessions:
            for t in s.turns:
                if t.dia_id == dia:
                    return t
        return None


def _conversation(item: dict) -> LocomoConversation:
    conv = item["conversation"]
    numbers = sorted(int(m[1]) for k in conv if (m := re.fullmatch(r"session_(\d+)", k)))
    sessions = []
    for n in numbers:
        raw_time = str(conv.get(f"session_{n}_date_time", ""))
        try:
            at = parse_locomo_datetime(raw_time)
        except ValueError:
            at = None
        turns = [LocomoTurn(str(t.get("speaker", "")), normalise_dia_id(str(t.get("dia_id", ""))) or "",
                            str(t.get("text", "")), str(t.get("blip_caption") or ""))
                 for t in conv[f"session_{n}"] or []]
        sessions.append(LocomoSession(n, raw_time, at, turns))
    qa = []
    for q in item.get("qa", []):
        raw = q.get("evidence") or []
        answer = q.get("answer", q.get("adversarial_answer", ""))
        qa.append(LocomoQA(str(q.get("question", "")), str(answer), normalise_evidence(raw), int(q.get("category", 0)),
                           [str(r) for r in raw]))
    return LocomoConversation(str(item["sample_id"]), str(conv["speaker_a"]), str(conv["speaker_b"]), sessions, qa)


def load_locomo(path: str | Path) -> list[LocomoConversation]:
    """Load a LoCoMo file (e.g. ``locomo10.json`` or the dev split ``locomo_dev.json``).

    Raises:
        FileNotFoundError: no such file.
        ValueError: not a LoCoMo file (not a JSON list of samples with a ``conversation``).
    """
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    if not isinstance(data, list):
        raise ValueError(f"{path}: expected a JSON list of LoCoMo samples")
    try:
        return [_conversation(item) for item in data]
    except (KeyError, TypeError, AttributeError) as exc:
        raise ValueError(f"{path}: not in the LoCoMo format ({type(exc).__name__}: {exc})") from exc


def questions_within_sessions(conv: LocomoConversation, sessions: Iterable[int], *, category: int | None = None,
                              limit: int | None = None) -> list[LocomoQA]:
    """Questions (in file order) whose evidence is non-empty and lies entirely in ``sessions``.

    Args:
        conv: the conversation.
        sessions: allowed session numbers, e.g. ``range(1, 6)``.
        category: keep only this category (4 = single-hop as coded in the file); ``None`` keeps all.
        limit: at most this many.
    """
    allowed = set(sessions)
    out = [q for q in conv.qa
           if q.evidence and (category is None or q.category == category)
           and all(dia_session(d) in allowed for d in q.evidence)]
    return out[:limit] if limit is not None else out
