"""The offline model's "forget" requests by rule: ``retraction`` reads a clause that withdraws a memory.

"Forget where I live", "delete my gym stuff from your memory", "forget everything about Sam — the
trip, Hugh, all of it", and what ends a memory without the word: "I left Spotify", "Biscuit passed
away", "that favourite number is also my PIN" (something said before declared a secret).
"""

from __future__ import annotations

import re

from memory_agent.models.offline.grammar import noun_topic, rewrite, topic_for, trim_tail
from memory_agent.models.offline.rules import CLAUSE_END, Hit
from memory_agent.models.offline.vocabulary import NOT_NAMES

__all__ = ["retraction"]

_RETRACT = re.compile(
    r"\b(?:forget|stop remembering)\s+(?P<x>[^,;!?]+?)" + CLAUSE_END
    + r"|\b(?:delete|remove|erase|wipe|clear)\s+(?P<y>[^,;!?]+?)\s+from\s+(?:your\s+)?memory\b",
    re.I,
)
_KEEP_NOT = re.compile(r"^(?:please\s+)?(?:(?:don't|do not)\s+(?:keep|store|save|remember)|"
                       r"stop\s+(?:storing|keeping|saving))\s+(?P<x>[^,;!?]+?)" + CLAUSE_END, re.I)
_EVERY = re.compile(r"^(?:(?:absolutely\s+)?(?:everything|anything|all)(?:\s+(?:of\s+it|you\s+know|you\s+have|"
                    r"you've got|I\s+(?:said|told you|mentioned)))?\s+(?:about|on|regarding|related to)|"
                    r"all\s+(?:the\s+)?(?:stuff|things|details|memories|facts)\s+(?:about|on|regarding))\s+", re.I)
_RETRACT_KINDS = {"allergy": "constraint", "diet": "preference", "code language": "procedural",
                  "answer style": "procedural", "editor": "preference", "agent instruction": "constraint"}


# "that favourite number is also my PIN": something said before is declared a secret, so it must go.
# "I left Spotify", "quit Deloitte": what held that name is over
_LEFT = re.compile(r"^(?:I\s+)?(?:just\s+|finally\s+|have\s+|'ve\s+)*(?:left|quit)\s+(?P<x>(?-i:[A-Z])[\w&'-]*)"
                   r"(?=\s*(?:[,;.!?]|$|\s+(?:and|after|last|this|in|for)\b))", re.I)
# "Biscuit passed away", "Pepper went to live with my parents": a named one has left the user's life, so
# what names it is over; going to live elsewhere ends only a pet's memory (topic "pet"): a sister who
# moves in with her dad is still the user's sister
_GONE = re.compile(r"^(?P<x>(?-i:[A-Z])[\w'-]+)\s+(?:has\s+|had\s+|sadly\s+)*(?:(?P<moved>went|gone|moved)\s+"
                   r"(?:to\s+live|back)\s+with|passed away|died|ran away|(?:was|got)\s+rehomed|was\s+put\s+down)\b",
                   re.I)
# "We said goodbye to Biscuit on Tuesday", "we had to put Pepper down", "I lost Mochi last week": said of a
# pet, its memory is over; said of a person ("said goodbye to Anna at the airport") it ends nothing, so only
# a memory that names a pet by that name is taken (topic "pet")
_PET_GONE = re.compile(r"^(?:(?:I|we)\s+)?(?:(?:have|had|'ve|'d|finally|sadly|just)\s+)*(?:(?:had|have)\s+to\s+)?"
                       r"(?P<verb>said\s+goodbye\s+to|say\s+goodbye\s+to|lost|put)\s+(?:our\s+|my\s+)?"
                       r"(?:(?:old\s+|sweet\s+|dear\s+)?[a-z]+\s+)?(?P<x>(?-i:[A-Z])[\w'-]+)"
                       r"(?P<down>\s+(?:down|to\s+sleep))?"
                       r"(?=\s*(?:[,;.!?]|$|\s+(?:on\s+(?:mon|tues|wednes|thurs|fri|satur|sun)day|last\s+\w+|yesterday|"
                       r"today|after\s+\d+)\b))(?![^.!?]*\b(?:but|found|back|came home|returned|again)\b)", re.I)
_NOW_SECRET = re.compile(
    r"\b(?:that|this|the|my)\s+(?P<x>[\w' -]{2,40}?)\s+(?:is|was)\s+"
    r"(?:also\s+|actually\s+|really\s+|in fact\s+)?"
    r"(?:my|the|our)\s+(?:[\w-]+\s+){0,2}(?:pin|password|passcode|passphrase|code word|combination|secret|"
    r"key|token)\b",
    re.I,
)


def retraction(s: str, antecedent: str = "") -> tuple[Hit, re.Match[str]] | None:
    """A retract proposal for "forget where I live" (content: "where the user lives"), and for
    something said before that the user now declares a secret ("that favourite number is also my
    PIN": content "the user's favourite number"), which may not stay in memory. "Forget it" names
    ``antecedent`` (what "it" stands for), or nothing without one."""
    if left := _LEFT.match(s):
        return Hit("fact", "employer", left["x"], operation="retract"), left
    if (gone := _GONE.match(s)) and gone["x"] not in NOT_NAMES.split("|"):
        return Hit("fact", "pet" if gone["moved"] else "", gone["x"], operation="retract"), gone
    if (gone := _PET_GONE.match(s)) and gone["x"] not in NOT_NAMES.split("|") \
            and (gone["down"] or gone["verb"].lower() != "put"):
        return Hit("fact", "pet", gone["x"], operation="retract"), gone
    if secret := _NOW_SECRET.search(s):
        thing = secret["x"]
        topic = topic_for(thing) or noun_topic(thing)
        return Hit("fact", topic, f"the user's {thing}", operation="retract"), secret
    m = _RETRACT.search(s) or _KEEP_NOT.search(s)
    if not m or re.search(r"\b(?:don't|do not|never|not)\s+forget\b", s, re.I):
        return None
    named = re.sub(r"\s+(?:thing|stuff|bit|part|info|details)$", "",
                   re.sub(r"(?:\s+(?:any ?more|please|in (?:your )?memory|on file))+$", "",
                          trim_tail(m.groupdict().get("x") or m.groupdict().get("y") or ""), flags=re.I), flags=re.I)
    every = _EVERY.match(named)
    x = named[every.end():] if every else re.sub(
        r"^(?:(?:what|everything|anything)\s+I\s+(?:said|told you|mentioned)\s+about|"
        r"the fact that|about|that)\s+", "", named, flags=re.I)
    if x.lower() in {"it", "that", "this", "about it", "them", "him", "her"}:
        if not antecedent:
            return None
        x = antecedent
    mine = re.match(r"(?:my|our)\s+(.+)", x, re.I)
    topic = topic_for(x) or noun_topic(mine[1] if mine else x)
    content = rewrite(x, user=True)
    if every and (listed := _LISTED.search(s, m.start())):  # "everything about X — the job, Hugh, all of it"
        items = [trim_tail(i).strip(" .") for i in re.split(r",\s*|\s+and\s+", listed["rest"])]
        items = [i for i in items if i and i not in content and not _ALL_OF_IT.fullmatch(i)]
        content = ", ".join([content, *dict.fromkeys(items)])
    return Hit(_RETRACT_KINDS.get(topic, "fact"), topic, content, operation="retract", every=bool(every)), m


_ALL_OF_IT = re.compile(r"(?:and\s+)?(?:all|everything|anything|the lot|etc\.?)(?:\s+(?:of it|else|of that))?|"
                        r"(?:the\s+)?whole\s+thing|new chapter|please|thanks", re.I)
# what follows "forget everything about X" after a dash or colon: the things it covers, to the sentence's end
_LISTED = re.compile(r"\s[—–:-]+\s*(?P<rest>[^.!?]*)")

