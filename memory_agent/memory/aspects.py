"""Aspects of a person's life that a request depends on without naming the fact: the third half of
relevance, beside the embedding and BM25 (:mod:`memory_agent.memory.retrieval`).

"Recommend something to do near home" needs "the user lives in Lisbon", "draft a bio for my
badge" needs "the user works at Globex", "what toys for my pet?" needs "the user has a greyhound":
the request and the fact share no word and, under all-MiniLM-L6-v2, a cosine near 0.0–0.15 (under
the similarity floor). Each :class:`Aspect` names one side of a person's life (where they live,
their work, what they eat and drink, their training, their week, their studies, what they read or
watch, their pets, their family, what they drive, how to reach them) with two patterns: how a
**request** asks for it (a personal reference: "near home", "my job", "my pet", "for dinner") and
how a **fact** states it ("lives in", "works at", "vegan", "greyhound"). A fact of an aspect the
request asks for gets the relevance :data:`ASPECT_RELEVANCE` (:func:`aspect_relevance`), combined
with the other two by noisy-OR, so it passes the floor and is ranked by score like any other.

A wrong memory is worse than none, so a request matches an aspect only through a reference to the
user's own life ("near **home**", "**my** team", "for **dinner**"), never through a topic alone
("How do I convert a string in JavaScript?" asks for no aspect), and facts are matched on their
content (the fact's ``topic`` label too); a past statement ("used to live in Glasgow") is not
where the user lives or works now. Facts are matched in English (memories are written in English);
requests in English and in 28 other languages (:data:`LANGUAGES`: es fr de it pt nl pl ru uk cs sv da no fi
hu ro tr el he ar fa hi ja zh ko vi id th), each with a small set of frequent first-person forms per aspect:
"my <noun>" as the language says it (declined, or a possessive suffix: "moim aucie", "autóm", "سيارتي"),
"near me", "for me", "the book I'm reading", a weekday beside a first-person word. Space-separated scripts
are matched on word boundaries; Chinese, Japanese and Thai (no spaces) are not.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import timedelta
from functools import lru_cache

from memory_agent.core.facts import Fact, index_text
from memory_agent.memory.asks.daily import FITNESS_ASKS, FOOD_ASKS, LEISURE_ASKS, SCHEDULE_ASKS
from memory_agent.memory.asks.grammar import DAYS, FAMILY, LANGUAGES, PETS
from memory_agent.memory.asks.life import MONEY_ASKS, READING_ASKS, STUDY_ASKS, TRAVEL_ASKS
from memory_agent.memory.asks.people import CONTACT_ASKS, FAMILY_ASKS, PET_ASKS, VEHICLE_ASKS
from memory_agent.memory.asks.places import HOME_ASKS, SELF_ASKS, TECH_ASKS, WORK_ASKS
from memory_agent.memory.text import any_of

__all__ = ["ASPECTS", "ASPECTS_VERSION", "ASPECT_RELEVANCE", "LANGUAGES", "Aspect", "aspect_relevance",
           "asked_aspects", "fact_aspects", "relevance_at", "stated_aspects", "stated_names", "states"]

#: Relevance (0–1) a fact gets from an aspect the request asks for: above both similarity floors of
#: ``RetrievalConfig`` (0.25, profile 0.12), below a close paraphrase (0.7 and up).
ASPECT_RELEVANCE = 0.45
#: Only the newest statements of an aspect get its relevance: those updated within this time of its
#: newest fact (a session's worth). The aspect is weak evidence, and an older statement of where the
#: user lives or works is the one most likely out of date ("settled in Foz" after "I live in Madrid").
ASPECT_WINDOW = timedelta(days=1)


@dataclass(frozen=True)
class Aspect:
    """One side of a person's life: ``request`` matches a message that asks for it, ``fact`` a
    fact (``"<topic>: <content>"``) that states it."""

    name: str
    request: re.Pattern[str]
    fact: re.Pattern[str]


_HOME_FACT = (r"\b(?:lives?|living|based|moved|relocated|resid\w*|settled|home (?:city|town)|hometown|"
              r"neighbou?rhood|commut\w*|vit|wohnt|vive|(?:new )?(?:flat|apartment|house|home|place) (?:is )?in|"
              r"keys to)\b|"
              r"\b(?:is|are|am) (?:currently |now |still )?(?:in|staying in|visiting|working from) (?-i:[A-Z])|"
              # where the user is for a while: "working remotely from Lisbon", "will be in Heraklion until May"
              r"\b(?:working|works) (?:remotely |temporarily )?from (?-i:[A-Z])|\bstaying (?:in|at) (?-i:[A-Z])|"
              r"\bwill be (?:in|based in|living in) (?-i:[A-Z])|"
              r"^(?:home city|city|location|where \w+ lives?|residence|home)\s*:")
_WORK_FACT = (r"\b(?:works?|working|worked|job|employ\w*|employer|hired|joined|promoted|role|position|career|"
              r"profession|occupation|manages?|managing|leads?|leading|(?:runs?|owns?) (?:a|an|the|their|his|her)|"
              r"teach(?:es|ing)?|freelanc\w*|self-employed|team|sprints?|direct reports|office|"
              r"engineer|developer|dev|analyst|designer|consultant|architect|manager|director|nurse|doctor|"
              r"teacher|lawyer|accountant|pharmacist|translator|illustrator|writer|scientist|researcher|founder|"
              r"intern|trabaja|travaille|arbeitet|(?:parental|maternity|paternity|sick|study) leave)\b|"
              r"^(?:job|role|employer|work|occupation|profession|company|"
              r"team)\s*:")
_NAME_FACT = r"\b(?:name is|named|called|goes by|surname|first name)\b|^name\s*:"
_TECH_FACT = (r"\b(?:uses?|using|written in|codes? in|writes? (?:\w+ )?(?:code|everything|all) in|switched to|"
              r"migrated|stack|framework|language|editor|ide|database|deploy\w*|hosted|ci|pipelines?|laptop|"
              r"macbook|macos|linux|ubuntu|windows|package manager|npm|pnpm|yarn|apt|homebrew|brew|terraform|"
              r"kubernetes|docker|aws|gcp|azure|github|gitlab|jenkins|python|typescript|javascript|java|kotlin|"
              r"scala|rust|go|golang|ruby|php|elixir|haskell|swift|sql|postgres\w*|mysql|snowflake|bigquery|"
              r"dbt|react|vue|angular|django|flask|rails|spring|nestjs|node|vim|neovim|emacs|vs ?code|helix|"
              r"sublime)\b|^(?:database|code language|cloud|editor|tool\w*|tech\w*|stack|os)\s*:")
_SPORTS = (r"football|soccer|padel|paddle|tennis|basketball|volleyball|netball|handball|rugby|hockey|badminton|"
           r"squash|cricket|baseball|softball|golf|table tennis|ping pong|water polo|ultimate frisbee|lacrosse")
# running as a sport, not a business or an operating system ("runs a bakery", "runs Arch Linux")
_NOT_A_RUN = r"(?! (?:a|an|the|their|his|her|its|on|out|late|linux|arch|ubuntu|debian|fedora|windows|macos|nixos)\b)"
_FITNESS_FACT = (r"\b(?:gym|gyms|training|trains? (?:for|at|with|in|on|every|daily|twice|three|four|five|six|\d)|"
                 r"workouts?|works? out|working out|exercis\w*|personal trainer|"
                 rf"plays? (?:\w+ )?(?:{_SPORTS})|{_SPORTS}|runs?{_NOT_A_RUN}|running{_NOT_A_RUN}|runner|jog\w*|"
                 r"goes? (?:for )?(?:a )?run|swim\w*|cycl(?:es|ing|ist)|"
                 r"yoga|pilates|climb\w*|boulder\w*|(?:half[- ])?marathons?|triathlon\w*|ironman|crossfit|"
                 r"(?:lifts?|lifting) weights|weightlifting|powerlifting|spinning|rowing|boxing|kickboxing|"
                 r"martial arts|judo|karate|jiu-jitsu|taekwondo|5k|10k|park ?run|strength training|cardio)\b|"
                 r"^(?:fitness|sport|sports|exercise|training|gym)\s*:")
_SCHEDULE_FACT = (rf"\b(?:{DAYS}|weekdays|weeknights|weekends)\b|"
                  r"\bevery (?:day|morning|afternoon|evening|night|week|weekday|weekend|other (?:day|week))\b|"
                  r"\b(?:once|twice|three times|four times|five times|six times|\d+ times|\d+x) (?:a|per|each|every) "
                  r"(?:week|day|month|fortnight)\b|\b(?:weekly|fortnightly|biweekly)\b|"
                  r"\b(?:in the|on|most|some) (?:mornings|afternoons|evenings|nights)\b|"
                  r"^(?:schedule|routine|availability|calendar)\s*:")
_STUDY_FACT = (r"\b(?:stud(?:y|ies|ying|ied)|students?|courses?|coursework|degree|bachelor'?s|master'?s|msc|mba|"
               r"phd|doctorate|universit(?:y|ies)|uni|college|school|exams?|classes|class|lessons?|lectures?|"
               r"semester|term papers?|thesis|dissertation|enrol\w*|tutor\w*|classmates?|major(?:s|ing)? in|"
               r"graduat\w*|revis(?:es|ing)|homework|assignments?|bootcamp|mooc)\b|"
               r"^(?:study|studies|education|school|university|course)\s*:")
_READING_FACT = (r"\b(?:reads|reading|re-?reading|books?|novels?|authors?|poetry|audiobooks?|kindle|e-?reader|"
                 r"book club|library card|watch(?:es|ing)|series|shows?|tv|anime|manga|comics?|films?|movies?|"
                 r"documentar(?:y|ies)|podcasts?|netflix|sitcoms?|dramas?|k-?dramas?)\b|"
                 r"^(?:reading|books?|tv|shows?|films?|movies?|series|media)\s*:")

_FOOD_FACT = (r"\b(?:vegan|vegetarian|pescatarian|halal|kosher|gluten\w*|lactose|dairy|allerg\w*|intoleran\w*|"
              r"diet\w*|eats?|eating|meat|fish|seafood|pork|beef|gelatin|alcohol|drink(?:s|ing)?|sober|teetotal|"
              r"coeliac|celiac|nuts?|peanuts?|sesame|shellfish|food|foods|cuisine|spicy|cook\w*|"
              # what the user drinks and snacks on
              r"coffee|espresso|latte|cappuccino|flat white|decaf|caffeine|tea|teas|matcha|hojicha|sencha|"
              r"genmaicha|oolong|chai|rooibos|herbal tea|smoothies?|juices?|kombucha|wine|beer|cider|cocktails?|"
              r"mocktails?|soda|oat milk|soy milk|almond milk|beverages?|snacks?|snacking|chocolate|sweet tooth)\b|"
              r"^(?:diet|allergy|food|drinks?|beverages?)\s*:")


ASPECTS: tuple[Aspect, ...] = (
    Aspect("home", HOME_ASKS, any_of(_HOME_FACT)),
    Aspect("work", WORK_ASKS, any_of(_WORK_FACT)),
    # who the user is, for a request about them with nothing more specific: where they live and work
    Aspect("self", SELF_ASKS, any_of(rf"{_HOME_FACT}|{_WORK_FACT}|{_NAME_FACT}")),
    Aspect("tech", TECH_ASKS, any_of(_TECH_FACT)),
    # meals, snacks and drinks: what the user eats and drinks (coffee, tea, matcha) is one side of them
    Aspect("food", FOOD_ASKS, any_of(_FOOD_FACT)),
    Aspect(
        "leisure",
        LEISURE_ASKS,
        any_of(r"\b(?:loves?|enjoys?|likes?|into|hobb(?:y|ies)|favou?rite|fan of|supports?|season ticket|plays?|"
            r"climb\w*|hik\w*|runs?|running|runner|cycl\w*|swim\w*|paint\w*|garden\w*|surf\w*|ski\w*|bouldering|"
            r"yoga|training for)\b|^(?:hobby|hobbies|leisure|sport)\s*:"),
    ),
    Aspect("fitness", FITNESS_ASKS, any_of(_FITNESS_FACT)),
    Aspect("schedule", SCHEDULE_ASKS, any_of(_SCHEDULE_FACT)),
    Aspect("study", STUDY_ASKS, any_of(_STUDY_FACT)),
    Aspect("reading", READING_ASKS, any_of(_READING_FACT)),
    Aspect(
        "travel",
        TRAVEL_ASKS,
        any_of(r"\b(?:trip|travel\w*|flight|fly\w*|visiting|holiday|vacation|passport|visa|conference in)\b"),
    ),
    Aspect(
        "money",
        MONEY_ASKS,
        any_of(r"\b(?:sav(?:e|es|ing|ings)|budget\w*|afford\w*|money|tax\w*|self-employed|freelanc\w*|income|"
            r"pension|invest\w*)\b"),
    ),
    Aspect("pet", PET_ASKS, any_of(rf"\b(?:{PETS}|adopted)\b|^pet\s*:")),
    Aspect("family", FAMILY_ASKS, any_of(rf"\b(?:{FAMILY})\b")),
    Aspect(
        "vehicle",
        VEHICLE_ASKS,
        any_of(r"\b(?:drives?|driving|car|bike|bicycle|e-?bike|motorbike|motorcycle|scooter|van|truck|vehicle|campervan|"
            r"caravan|rides? an?)\b|^(?:car|vehicle|bike)\s*:"),
    ),
    Aspect(
        "contact",
        CONTACT_ASKS,
        any_of(r"\b(?:phone|mobile|cell|e-?mail|number|contact|address|lives at|street|postcode)\b|@\w|"
            r"\+?\d[\d ()-]{7,}\d|^(?:contact|phone|email|address)\s*:"),
    ),
)


def asked_aspects(query: str, aspects: Iterable[Aspect] = ASPECTS) -> list[Aspect]:
    """The aspects whose request pattern ``query`` matches, in table order ([] for most messages). The
    query is read composed (NFC), as the patterns are written: Vietnamese or Korean typed decomposed too."""
    query = unicodedata.normalize("NFC", query or "")
    return [a for a in aspects if a.request.search(query)]


def fact_aspects(fact: Fact, aspects: Iterable[Aspect] = ASPECTS) -> list[Aspect]:
    """The aspects (of ``aspects``) whose fact pattern the fact's ``"<topic>: <content>"`` or its
    content alone matches."""
    return [a for a in aspects if states(a, fact.topic, fact.content)]


def states(aspect: Aspect, topic: str, content: str) -> bool:
    """Whether a fact with this ``topic`` and ``content`` states ``aspect``: its fact pattern matches
    ``"<topic>: <content>"``, or, for a pattern anchored at the start, the content alone."""
    if _BY_NAME.get(aspect.name) is not aspect:  # an aspect of the caller's own: not cached
        return _match(aspect, topic, content)
    return _states(aspect.name, topic, content)


# what the user no longer is: "used to live in Glasgow", "grew up in Leeds", "no longer works at Spotify"
_PAST = re.compile(r"\b(?:used to|grew up|formerly|previously|no longer|once lived|as a (?:student|child|kid))\b",
                   re.I)


def _match(aspect: Aspect, topic: str, content: str) -> bool:
    if aspect.name in ("home", "work") and _PAST.search(content):  # not where the user lives or works now
        return False
    return bool(aspect.fact.search(index_text(topic, content))
                or (aspect.name in _ANCHORED and aspect.fact.search(content)))


# A user's facts are matched again whenever a write makes a new snapshot of them; a pure function of
# the text, so the answers are kept (about 100 bytes each) for 2**17 fact-aspect pairs.
@lru_cache(maxsize=2**17)
def _states(name: str, topic: str, content: str) -> bool:
    return _match(_BY_NAME[name], topic, content)


# the aspects whose fact pattern can match only at the start of the text: the only ones for which the
# content alone can match where "<topic>: <content>" does not (any other match in it is also one in the
# longer text, of which the content is the end)
_ANCHORED = frozenset(a.name for a in ASPECTS if "^" in a.fact.pattern)
_BY_NAME = {a.name: a for a in ASPECTS}


#: Names the table's aspects and their fact patterns: a stored list of the aspects a fact states
#: (:func:`stated_aspects`) is used only while it carries this tag, so a release that changes a
#: pattern matches the older rows again instead of trusting them.
ASPECTS_VERSION = "a" + hashlib.sha256(
    "\n".join(f"{a.name}\t{a.fact.pattern}\t{a.fact.flags}" for a in ASPECTS).encode()).hexdigest()[:10]


def stated_aspects(topic: str, content: str) -> str:
    """What a writer stores beside a fact: :data:`ASPECTS_VERSION` and the names of the aspects the
    fact states, space-separated (``"a1b2c3d4e5f home work"``); read back by :func:`stated_names`."""
    # matched directly, not through the readers' cache: a written text is matched once
    return " ".join([ASPECTS_VERSION, *(a.name for a in ASPECTS if _match(a, topic, content))])


def stated_names(stored: str | None) -> str | None:
    """The names a :func:`stated_aspects` value lists, as ``" home work "`` (test a name with
    ``f" {name} " in ...``), or ``None`` when it is missing or was written under another
    :data:`ASPECTS_VERSION` (the fact must be matched again)."""
    if not stored or not stored.startswith(ASPECTS_VERSION):
        return None
    return stored[len(ASPECTS_VERSION):] + " "


def relevance_at(query: str, topics: Sequence[str], contents: Sequence[str], updated: Sequence[float],
                 stating: dict[str, list[int]] | None = None,
                 stated: Sequence[str | None] | None = None,
                 valid: Sequence[bool] | None = None) -> dict[int, float]:
    """``{position: ASPECT_RELEVANCE}`` for the facts (given as parallel ``topics``, ``contents`` and
    ``updated`` POSIX seconds) of each aspect ``query`` asks for that are among that aspect's newest
    statements: updated within :data:`ASPECT_WINDOW` of its newest fact. ``stating`` (aspect name →
    positions of the facts that state it) is filled and reused when given: a reader keeps it with
    the facts it holds, so each aspect is matched once on them. ``stated`` (parallel, optional) holds
    each fact's stored names (:func:`stated_names`); a fact with ``None`` there is matched by pattern.
    ``valid`` (parallel, optional): whether each fact is still valid at the query's clock; one past
    its ``valid_until`` is neither given the relevance nor counted as the newest statement ("working
    from Lisbon until March 10" does not hide, after March 10, where the user lives)."""
    stating = {} if stating is None else stating
    window = ASPECT_WINDOW.total_seconds()
    out: dict[int, float] = {}
    for aspect in asked_aspects(query):
        found = stating.get(aspect.name)
        if found is None:
            if stated is None:
                found = [k for k in range(len(contents)) if states(aspect, topics[k], contents[k])]
            else:
                name = f" {aspect.name} "
                found = [k for k, names in enumerate(stated)
                         if (name in names if names is not None else states(aspect, topics[k], contents[k]))]
            stating[aspect.name] = found
        live = [k for k in found if valid is None or valid[k]]
        if live:
            newest = max(updated[k] for k in live)
            out |= {k: ASPECT_RELEVANCE for k in live if newest - updated[k] <= window}
    return out


def aspect_relevance(query: str, facts: Mapping[str, Fact]) -> dict[str, float]:
    """``{fact id: ASPECT_RELEVANCE}`` for the ``facts`` (by id) of an aspect ``query`` asks for that
    are among the newest statements of that aspect (:func:`relevance_at`); other facts are absent
    (relevance 0)."""
    ids, found = list(facts), list(facts.values())
    return {ids[k]: r for k, r in relevance_at(query, [f.topic for f in found], [f.content for f in found],
                                               [f.updated_at.timestamp() for f in found]).items()}
