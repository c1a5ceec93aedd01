"""The offline model's rule table: first-person statement patterns, each rewritten as a third-person fact.

``RULES`` is tried in order on a clause and the first hit wins, so the order of registration below
is part of the behaviour. "Forget ..." requests are read by :mod:`memory_agent.models.offline.retractions`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from memory_agent.models.offline.grammar import conj, noun_topic, rewrite, topic_for, trim_tail
from memory_agent.models.offline.vocabulary import GENERIC_STOP, NOT_NAMES, PAST_IRREGULAR, PETS, TIME, WHEN_CHANGED

__all__ = ["CLAUSE_END", "RULES", "Handler", "Hit"]


@dataclass
class Hit:
    """One rule's proposal for a clause: the fact's kind, topic slot and third-person content."""

    kind: str
    topic: str
    content: str
    confidence: float = 0.8
    end: int | None = None  # evidence end inside the clause (default: end of the match)
    whole: bool = False  # evidence is the whole clause
    operation: str = "add"
    every: bool = False  # a retraction of everything about what it names ("forget everything about X")


#: The end of a clause, not consumed: a comma, semicolon, "!" or "?", a full stop before a space, or the end.
CLAUSE_END = r"(?=\s*(?:[,;!?]|\.(?:\s|$)|$))"
_O = r"(?P<x>[^,;!?]+?)" + CLAUSE_END  # object: up to the next comma or the end of the clause
_L = r"(?P<x>[^;!?]+?)(?=\s*[.!?]*\s*$)"  # the rest of the clause
_AM = r"^I(?:'m|\s+am)\s+"
_ADV = (r"(?:(?:really|also|usually|always|generally|mostly|mainly|much|strongly|still|definitely|"
        r"totally)\s+)*")
_PERF = r"(?:(?:have|'ve)\s+)?(?:(?:just|recently|finally|now|already)\s+)*"
_LANGS = (r"English|German|French|Spanish|Italian|Portuguese|Dutch|Polish|Russian|Chinese|Japanese|Korean|"
          r"Arabic|Hindi|Turkish|Swedish|Norwegian|Danish|Finnish|Greek|Czech|Ukrainian|Hebrew")

Handler = Callable[[re.Match[str]], Hit | None]
RULES: list[tuple[re.Pattern[str], Handler]] = []  # tried in order; the first hit wins


def _rule(pattern: str) -> Callable[[Handler], Handler]:
    """Register a custom handler for ``pattern`` (searched case-insensitively in the clause)."""

    def register(handler: Handler) -> Handler:
        RULES.append((re.compile(pattern, re.I), handler))
        return handler

    return register


def _add(pattern: str, kind: str, topic: str, template: str, *, change: bool = False) -> None:
    """Register a template rule.

    ``template`` and ``topic`` are formatted with the match's groups; group ``x`` (the object) is
    trimmed of trailing comments and moved to the third person, and group ``p`` (a predicate ending
    in ``x``) follows the trimmed ``x``. ``topic`` ``"*"`` is a keyword slot or noun phrase of ``x``
    (``"*v"``: after its leading verb); ``"*{thing}"`` is a keyword slot of ``x`` or ``{thing}``.
    ``change``: the pattern states a change ("moved to ..."); a time phrase ending ``x`` dates the change,
    not the new state, and is left out (:data:`~memory_agent.models.offline.vocabulary.WHEN_CHANGED`).
    """

    def handler(m: re.Match[str]) -> Hit:
        groups = {k: v or "" for k, v in m.groupdict().items()}
        raw = groups.get("x", "")
        x = groups["x"] = WHEN_CHANGED.sub("", trim_tail(raw)) if change else trim_tail(raw)
        if groups.get("p"):
            groups["p"] = groups["p"][: len(groups["p"]) - len(raw)] + x
        said = {k: rewrite(TIME.sub("", v) if kind == "event" else v) for k, v in groups.items()}
        if topic in ("*", "*v"):
            name = topic_for(x) or noun_topic(x, drop_verb=topic == "*v")
        else:
            name = (topic.startswith("*") and topic_for(x)) or topic.lstrip("*").format(**groups).lower()
        end = m.start("x") + len(x) if m.groupdict().get("x") else None
        return Hit(kind, name, template.format(**said), 0.7 if kind == "event" else 0.8, end=end)

    RULES.append((re.compile(pattern, re.I), handler))


def _subject(word: str) -> str:
    return "The user's team" if word.lower() == "we" else "The user"


_add(r"^(?:please\s+)?(?:(?:always|from now on,?)\s+)*(?:answer|reply|respond|write|talk|speak)"
     rf"(?:\s+to\s+me)?\s+in\s+(?P<x>{_LANGS})\b",
     "procedural", "answer style", "The user wants answers in {x}.")


_KEEP = r"^(?:please\s+)?(?:always\s+)?keep\s+(?:your\s+|the\s+|my\s+)?(?:answers|replies|responses|it)\s+"
_add(_KEEP + r"(?P<x>short|brief|concise|simple|detailed|technical|formal|casual|informal)\b",
     "procedural", "answer style", "The user wants {x} answers.")
_add(_KEEP + r"(?P<x>under\s+[^,;!?]+?)" + CLAUSE_END, "procedural", "answer style", "The user wants answers {x}.")
_CODE = "procedural", "code language", "The user wants code examples in {x}."
_FROM_NOW = r"(?:\s+(?:from now on|from here on(?: out)?|going forward|please|only|too))*"
_add(r"^(?:please\s+)?(?:always\s+)?(?:(?:give|show|write|send|provide)\s+(?:me\s+)?(?:all\s+)?(?:the\s+|your\s+)?)?"
     r"(?:code\s+)?(?:examples?|snippets?|samples?|code)\s+in\s+(?P<x>[\w#+.]+?)" + _FROM_NOW + CLAUSE_END, *_CODE)
_add(r"^(?:please\s+)?use\s+(?P<x>[\w#+.]+)\s+for\s+(?:the\s+|all\s+)?(?:code\s+)?(?:examples|snippets|code)",
     *_CODE)


# Declared restrictions on contacting or serving the user, before the instruction rule below reads
# "never call me" as a rule for the agent: "please don't call me before 10", "deliveries only in the
# morning", "I can only take calls after 6".
_PARTICIPLE = {"call": "called", "phone": "phoned", "ring": "rung", "text": "texted", "message": "messaged",
               "email": "emailed", "e-mail": "emailed", "contact": "contacted", "visit": "visited",
               "disturb": "disturbed", "bother": "bothered", "wake": "woken up"}


@_rule(r"^(?:please\s+)?(?:do not|don't|never)\s+(?P<v>" + "|".join(_PARTICIPLE) + r")\s+(?:me|us)\b"
       r"(?:\s+up)?(?P<x>[^,;!?]*?)" + CLAUSE_END)
def _no_contact(m: re.Match[str]) -> Hit:
    when = trim_tail(m["x"]).strip()
    content = f"The user does not want to be {_PARTICIPLE[m['v'].lower()]}{' ' + rewrite(when) if when else ''}"
    end = m.start("x") + len(trim_tail(m["x"]))
    # the way that is allowed, said right after: "never call me, e-mail only"
    if only := _ONLY_WAY.match(m.string, end):
        content, end = f"{content}; {only['way']} only", only.end()
    return Hit("constraint", "contact", content + ".", end=end)


_ONLY_WAY = re.compile(r"\s*[,;:—–-]?\s*(?P<way>(?:by\s+|via\s+)?(?:e-?mail|text(?:\s+messages?)?|sms|whatsapp|"
                       r"signal|letters?|post|phone|chat|messages?)(?:\s+or\s+[\w-]+)?)\s+only\b", re.I)


@_rule(r"^(?:please\s+)?(?:(?:my|our|all|any)\s+)?(?P<thing>deliveries|parcels|packages|calls|phone calls|visits|"
       r"appointments|meetings)\s+(?:(?:should|must|can|need to|have to)\s+)?(?:(?:be|come|arrive|happen)\s+)?"
       r"only\s+" + _O)
def _only_when(m: re.Match[str]) -> Hit:
    x = re.sub(r",?\s+please$", "", trim_tail(m["x"]), flags=re.I)
    thing = m["thing"].lower()
    return Hit("constraint", thing, f"The user accepts {thing} only {rewrite(x)}.", end=m.start("x") + len(x))


_add(r"^I\s+(?:can|will)\s+only\s+" + _O, "constraint", "*v", "The user can only {x}.")


# the name the user goes by, even said as a standing rule ("Always call me by my nickname 'Bex'", "from
# now on I'm going by Sam"): how they want to be addressed, a fact about them, not a rule for the agent
_add(r"^(?:(?:from now on|going forward),?\s*)?(?:please\s+)?(?:always\s+)?(?:just\s+)?"
     r"(?:call\s+me|I(?:'m|\s+am)\s+going\s+by|I\s+go\s+by)\s+(?:by\s+)?(?:my\s+(?:nick)?name\s+)?"
     r"(?!(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|Tomorrow|Today|Tonight|Back|Later|"
     r"Again|Anytime|After|Before|When|At|On|In)\b)"
     r"(?P<x>['\"‘“]?(?-i:[A-Z])[\w'-]*['\"’”]?)(?=\W|$)", "fact", "name", "The user wants to be called {x}.")


@_rule(r"^(?:(?:from now on|going forward|in (?:the )?future),?\s*)?(?:please\s+)?"
       r"(?:you\s+(?:should|must)\s+)?"
       r"(?P<x>(?:always|never)\b[^;!?]*?)(?=\s*[.!?]*\s*$)"
       r"|^(?:from now on|going forward),?\s+(?:please\s+)?(?P<y>[^;!?]+?)(?=\s*[.!?]*\s*$)")
def _agent_instruction(m: re.Match[str]) -> Hit:
    # Proposed on purpose: memory_agent.memory.validation must reject it, and demos/tests must show that.
    x = re.sub(r",?\s*(?:no matter what|whatever happens|without exception|at all times)$", "",
               m["x"] or m["y"], flags=re.I)
    content = f"The user wants the assistant to {rewrite(x, user=True)}."
    return Hit("constraint", "agent instruction", content, whole=True)


_add(_AM + r"(?:(?:very|quite|\w+ly)\s+)?allergic\s+to\s+" + _O,
     "constraint", "allergy", "The user is allergic to {x}.")
_add(r"^I\s+have\s+(?P<a>an?\s+)?(?:(?:severe|mild|bad)\s+)?(?P<x>[\w -]+?)\s+allergy" + CLAUSE_END,
     "constraint", "allergy", "The user has {a}{x} allergy.")
_add(_AM + r"(?:a\s+)?(?P<x>coeliac|celiac)\b", "constraint", "gluten", "The user is {x}.")
_add(_AM + r"(?:(?:a|an|strictly|strict|fully|mostly)\s+)*(?P<x>vegetarian|vegan|pescatarian|gluten[- ]free|"
     r"lactose[- ]intolerant|dairy[- ]free|keto|kosher|halal)\b", "preference", "diet", "The user is {x}.")
_add(r"^I\s+(?P<neg>can't|cannot|can not)\s+eat\s+" + _O, "constraint", "diet", "The user {neg} eat {x}.")
_add(r"^I\s+(?:don't|do not|never)\s+eat\s+" + _O, "constraint", "diet", "The user doesn't eat {x}.")
# a phone number said as the user's ("my mobile is …") or as a new one ("new sim today — …"): one slot,
# so a new number replaces the old (judgement.ONE_VALUE_SLOTS)
_PHONE_NUMBER = r"(?P<x>\+?\d[\d ()-]{6,}\d)"
_add(r"^(?:my|our)\s+(?:new\s+)?(?:mobile|phone|cell|cellphone)(?:\s+number)?\s+(?:is\s+|:\s*)" + _PHONE_NUMBER,
     "fact", "phone", "The user's phone number is {x}.")
# a number the user asks to be used from now on ("Use +48 733 090 412 from here on") is theirs
_add(r"^(?:please\s+)?use\s+" + _PHONE_NUMBER + r"\s+(?:from\s+(?:now|here)\s+on|going\s+forward)" + CLAUSE_END,
     "fact", "phone", "The user's phone number is {x}.")
_add(r"^(?:the\s+|my\s+)?new\s+(?:one|number)\s+is\s+" + _PHONE_NUMBER, "fact", "phone",
     "The user's phone number is {x}.")
_add(r"^(?:(?:i\s+)?(?:got|have|'ve got|just got)\s+)?(?:a\s+)?new\s+(?:sim|number|phone|mobile)\b[^\d+]{0,30}?"
     + _PHONE_NUMBER, "fact", "phone", "The user's phone number is {x}.")
_add(r"^(?:my name is|my name's)\s+(?P<x>[^,;!?]{1,40}?)" + CLAUSE_END, "fact", "name", "The user's name is {x}.")
# "Hi, I'm Ines, I live …": one capitalised word after "I'm" is a name, unless it is a nationality,
# a language or a faith ("I'm Italian", "I'm Catholic") or a word of mood ("I'm Sorry")
_add(_AM + r"(?!(?:" + NOT_NAMES + r")\b)(?P<x>(?-i:[A-Z][a-z]+(?:-[A-Z][a-z]+)?))"
     r"(?=\s*(?:[,.!]|$|\s+(?:and|here|from|by the way)\b))", "fact", "name", "The user's name is {x}.")
_add(r"^(?:call me|I go by)\s+(?P<x>[^,;!?]{1,40}?)" + CLAUSE_END,
     "fact", "name", "The user wants to be called {x}.")
_HAVE = (r"^I(?:'ve\s+got|\s+(?:(?:now|still|currently|also)\s+)?(?:have(?:\s+got)?|own))\s+"
         r"(?P<x>(?:a|an|one|two|three|four|\d+)\s+")


@_rule(_HAVE + r"[\w ]*?" + PETS + r"s?),\s+(?P<name>(?-i:[A-Z])[\w'-]+)(?=\s*(?:[,;.!]|$|\s+(?:who|which|that)\b))")
def _pet_named(m: re.Match[str]) -> Hit:
    """ "I have a cat, Mochi, who …": the name in apposition is the pet's."""
    return Hit("fact", "pet", f"The user has {rewrite(m['x'])} named {m['name']}.", end=m.end())


_NAME = r"(?-i:[A-Z])[\w'-]+"


@_rule(r"^(?:I|we)\s+(?:(?:just|finally|recently|have|'ve)\s+)*(?:(?:adopted|rescued|took in)\s+"
       r"(?P<x>(?:a|an|one|two|three|four|\d+)\s+[\w -]*?[a-z])|got\s+"
       r"(?P<y>(?:a|an|one|two|three|four|\d+)\s+[\w ]*?" + PETS + r"s?))"
       rf"(?:,?\s+(?:named\s+|called\s+)?(?P<names>{_NAME}(?:(?:,\s*|\s+and\s+){_NAME})*))?(?=\s*(?:[,;.!]|$))")
def _pet_adopted(m: re.Match[str]) -> Hit:
    """ "we adopted two rabbits, Kiwi and Salt", "I rescued a retired greyhound": the user has them now
    (any adopted one; "got" only an animal kept as a pet)."""
    named = f" named {m['names']}" if m["names"] else ""
    return Hit("fact", "pet", f"The user has {rewrite(m['x'] or m['y'])}{named}.", end=m.end())


_add(_HAVE + r"[\w ]*?" + PETS + r"s?\s+"
     r"(?:named|called)\s+[^,;!?]+?)" + CLAUSE_END, "fact", "pet", "The user has {x}.")
# contact data given as labelled values: "phone 090-4417-2286, email haruto.s@kumomail.jp"
_add(r"^(?:(?:my|our)\s+)?(?:(?:work|personal|private|home|new)\s+)?(?:phone|mobile|cell|tel)(?:\s+(?:number|no\.?))?"
     r"\s*(?:is\s+|:\s*|\s)" + _PHONE_NUMBER, "fact", "phone", "The user's phone number is {x}.")
_add(r"^(?:(?:my|our)\s+)?(?P<w>(?:work|personal|private|home|new)\s+)?e-?mail(?:\s+address)?\s*(?:is\s+|:\s*|\s)"
     r"(?P<x>[\w.+-]+@[\w-]+(?:\.[\w-]+)+)", "fact", "{w}email", "The user's {w}email address is {x}.")
_add(_HAVE + r"(?![^,;!?]*\b(?:question|idea|problem|issue|doubt|minute|second|moment|feeling|meeting|call|"
     r"request)s?\b)[^,;!?]+?)" + CLAUSE_END, "fact", "*", "The user has {x}.")
_add(r"^I\s+(?:have to|must|need to|am required to|'m required to)\s+use\s+" + _O,
     "constraint", "*", "The user has to use {x}.")
# Said in passing, anywhere in a clause (before the "my X is …" rules below, which would read the clause
# as a statement about the flat or the week): people mention a change of home, job or
# diet while asking about something else ("the cardboard from unpacking in our new flat in Bristol is
# taking over", "first week at Monzo and I'm drowning", "three months fully vegan and I feel great").
_PLACE = r"(?P<x>(?-i:[A-Z])[\w'-]*(?:\s+(?-i:[A-Z])[\w'-]*)*)"  # capitalised words: a place name
_NEW_HOME = r"\b(?:our|my)\s+new\s+(?:flat|house|home|place|apartment|condo|digs)\s+(?:in|at)\s+"
# said of what might be, or reported from someone else: "our new flat in Bristol will have a garden",
# "my friend said our new flat would be cheaper"
_NOT_SO = re.compile(r"\b(?:if|would|could|might|will|'ll|going to|said|says|thinks?|hope|hopefully|maybe|wish)\b",
                     re.I)


@_rule(_NEW_HOME + _PLACE + r"(?=\W|$)")
def _new_home(m: re.Match[str]) -> Hit | None:
    if _NOT_SO.search(m.string):
        return None
    return Hit("fact", "home city", f"The user lives in {m['x']}.")


# a new job's first days: "first week at Monzo", "first day done at Northwind", "my first month of
# onboarding at Stripe"; the employer is a capitalised name. Not someone else's ("my husband's first day at
# Google"), a visit to come ("first day at Disneyland with the kids tomorrow"), or a chapter ("at Chapter 3")
@_rule(r"(?<!'s )(?<!’s )\b(?:first|1st)\s+(?:few\s+)?(?:day|week|month|shift)s?\s+"
       r"(?:(?:done|in|over|of\s+\w+)\s+)?"
       r"at\s+(?P<x>(?-i:[A-Z])[\w&'-]*(?:\s+(?-i:[A-Z])[\w&'-]*)*)(?!\s*\d)(?=\W|$)"
       r"|^(?:just\s+|finally\s+|officially\s+)?(?:start(?:ed|ing)|began|beginning)\s+(?:(?:on\s+|this\s+|next\s+)?"
       r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|today|tomorrow|week|month)\s+)?at\s+"
       r"(?P<y>(?-i:[A-Z])[\w&'-]*(?:\s+(?-i:[A-Z])[\w&'-]*)*)(?!\s*\d)(?=\W|$)"
       # who a newcomer meets there: "my onboarding buddy at Revolut", "my new team at Octopus Energy"
       r"|\bmy\s+(?:onboarding\s+(?:buddy|mentor)|new\s+team)\s+at\s+"
       r"(?P<z>(?-i:[A-Z])[\w&'-]*(?:\s+(?-i:[A-Z])[\w&'-]*)*)(?!\s*\d)(?=\W|$)")
def _first_days(m: re.Match[str]) -> Hit | None:
    if re.search(r"\bwith\s+(?:the|my|our)\s+(?:kids|children|family|friends|partner|wife|husband|son|daughter)\b",
                 m.string, re.I) or (m["x"] and re.search(r"\b(?:tomorrow|next|will|'ll|going to)\b", m.string, re.I)):
        return None
    return Hit("fact", "employer", f"The user works at {m['x'] or m['y'] or m['z']}.")


# a diet held for a while or fully, without "I'm": "three months fully vegan", "been plant-based since
# Easter", "call me pescatarian these days"; not after a negation ("not fully vegan", "never been vegan"),
# nor of another ("my sister went vegan", "the restaurant is fully vegan"): only a while or "I"/"we" may
# come before it in the clause
_A_WHILE = (r"(?:\W*(?:I|I've|I have|I'm|I am|we|we've|we have|we're|we are|honestly|so|and|now|since\s+\w+|"
            r"(?:a|one|two|three|four|five|six|seven|eight|nine|ten|a few|several|\d+)\s+"
            r"(?:days?|weeks?|months?|years?))\W*)*")


@_rule(r"(?<!\bnot )(?<!\bno longer )(?<!\bbe )(?<!\bwas )(?<!\bnever )\b(?P<call>call\s+me\s+)?"
       r"(?:(?:been|gone|went|now|fully|strictly|completely|100%)\s+)*"
       r"(?P<x>vegan|vegetarian|plant[- ]based|pescatarian|keto|gluten[- ]free|dairy[- ]free)\b")
def _diet_in_passing(m: re.Match[str]) -> Hit | None:
    if m.group(0).strip().lower() == m["x"].lower():  # the bare word: "vegan" alone says nothing of the user
        return None
    if not m["call"] and not re.fullmatch(_A_WHILE, m.string[:m.start()], re.I):
        return None
    return Hit("preference", "diet", f"The user is {m['x']}.")


_LIVE = r"^(?:I|we)\s+(?:currently\s+|now\s+|still\s+)?(?:live|reside)\s+"
_add(_LIVE + r"(?:at\s+|in\s+(?=\d))" + _O, "fact", "address", "The user lives at {x}.")
# "got the keys to our new house in Swansea": a move, in the words people use for one
_add(r"^(?:(?:we|I)\s+)?(?:(?:finally|just|have|'ve)\s+)*(?:got|picked up|collected|have)\s+the\s+keys"
     r"(?:\s*[^\w\s]+)?\s+(?:to|for)\s+(?:our|my|the)\s+(?:new\s+)?(?:house|flat|place|home|apartment|condo)\s+in\s+"
     + _O,
     "fact", "home city", "The user lives in {x}.", change=True)
_add(_LIVE + r"(?P<prep>in|near)\s+(?P<x>[^,;!?]+?)(?=\s+and\s+[a-z]|\s*(?:[,;!?]|\.(?:\s|$)|$))", "fact",
     "home city", "The user lives {prep} {x}.")
_add(_AM + r"(?:currently\s+|now\s+|usually\s+|normally\s+)?(?:based|located)\s+in\s+" + _O, "fact", "home city",
     "The user is based in {x}.")
_add(_AM + r"(?:originally\s+)?from\s+" + _O, "fact", "hometown", "The user is from {x}.")
_add(_AM + r"(?:currently\s+|temporarily\s+|now\s+)?(?P<v>staying|working)\s+(?P<prep>from|in|at)\s+" + _O,
     "fact", "current location", "The user is {v} {prep} {x}.")
_add(r"^I\s+(?:currently\s+|now\s+)?work\s+(?P<prep>at|for)\s+" + _O, "fact", "employer",
     "The user works {prep} {x}.")
_add(r"^I\s+(?:currently\s+|now\s+)?work\s+(?P<x>(?:in|on)\s+[^,;!?]+?\s+(?:at|for)\s+[^,;!?]+?)" + CLAUSE_END, "fact",
     "employer", "The user works {x}.")  # "I work in the QA lab at Halvorsen Pharma"
_add(_AM + r"(?:currently\s+|now\s+)?(?:working|employed)\s+(?:at|for|by)\s+" + _O,
     "fact", "employer", "The user works at {x}.")
_add(r"^I\s+work\s+as\s+" + _O, "fact", "role", "The user works as {x}.")
_add(r"^I\s+(?:just\s+|recently\s+|have\s+|'ve\s+)*transferred\s+to\s+" + _O, "fact", "employer",
     "The user works at {x}.", change=True)
_WORKING = (r"(?:currently\s+|now\s+|still\s+)?"
            r"(?P<p>(?:working on|building|developing|writing|creating|making)\s+" + _O + ")")
_add(_AM + _WORKING, "project", "*", "The user is {p}.")
_add(r"^we(?:'re|\s+are)\s+" + _WORKING, "project", "*", "The user's team is {p}.")
_add(r"^(?:my|our)\s+(?:current\s+|main\s+|side\s+|new\s+)?project\s+is\s+" + _O,
     "project", "project", "The user's project is {x}.")

_SWITCH = (r"^(?P<subj>I|we)\s+" + _PERF
           + r"(?:switched|moved|migrated|changed|went)\s+(?:over\s+|everything\s+)?")


@_rule(_SWITCH + r"from\s+(?P<old>[^,;]+?)\s+to\s+" + _O
       + "|" + _SWITCH.replace("subj", "subj2") + r"(?:off(?:\s+of)?|away\s+from)\s+(?P<old2>[^,;]+?)\s*,?\s*"
       r"(?:and\s+)?(?:now\s+)?(?:everything|all|it|we|things|our stack)(?:'s|'re|\s+(?:is|are|runs?))\s+"
       r"(?:now\s+)?(?:on|in|using|with)\s+(?P<y>[^,;!?]+?)" + CLAUSE_END
       + "|" + _SWITCH.replace("subj", "subj3") + r"to\s+(?P<z>[^,;!?]+?)" + CLAUSE_END)
def _switch(m: re.Match[str]) -> Hit | None:
    new = re.sub(r"\s+now$", "", WHEN_CHANGED.sub("", TIME.sub("", m["x"] or m["y"] or m["z"])), flags=re.I)
    topic = topic_for(new) or topic_for(m["old"] or m["old2"] or "")
    if topic in {"", "home city", "employer", "address"}:
        return None  # "I moved to Berlin" is a home-city fact, handled by a later rule
    if topic in {"database", "cloud"}:  # only the new value: the old one is what reconcile supersedes
        return Hit("decision", topic, f"The user's systems run on {new}.")
    return Hit("decision", topic, f"{_subject(m['subj'] or m['subj2'] or m['subj3'])} now uses {new}.")


_add(r"^(?:I|we)\s+" + _PERF + r"(?:moved|relocated)\s+to\s+" + _O, "fact", "home city", "The user lives in {x}.",
     change=True)
# "we're in Grenoble now": where the user lives ("now": a change of home); "I'm in Paris": where they are
_WE_ARE = r"^(?:I(?:'m|\s+am)|we(?:'re|\s+are))\s+"
_add(_WE_ARE + r"(?:settled\s+|living\s+)?in\s+" + _PLACE + r"\s+now" + CLAUSE_END, "fact", "home city",
     "The user lives in {x}.")
_add(_WE_ARE + r"(?:now\s+)?(?:settled|living)\s+in\s+" + _PLACE + CLAUSE_END, "fact", "home city",
     "The user lives in {x}.")
_add(_WE_ARE + r"(?:usually|normally|generally)\s+in\s+" + _PLACE + r"\b", "fact", "home city",
     "The user is usually in {x}.")
_add(_WE_ARE + r"(?:currently\s+)?in\s+" + _PLACE + r"\b", "fact", "current location", "The user is in {x}.")
# "we're getting married in June", "we're buying a flat": a change under way, the user's too
_add(_WE_ARE + r"(?P<p>(?P<x>(?:getting\s+(?:married|divorced|engaged)|having\s+a\s+baby|expecting|buying|selling|"
     r"renovating|building|moving)\b[^,;!?]*?))" + CLAUSE_END, "event", "*", "The user is {p}.")
# "we're a team of 6 doing two-week sprints": the user is one of the group
_add(r"^we(?:'re|\s+are)\s+(?P<x>(?:a|an)\s+(?!(?:bit|little|lot|kind|sort|few|couple of)\b)[^,;!?]+?)" + CLAUSE_END,
     "fact", "*", "The user is part of {x}.")
# without a subject, as chat often is: "currently reading Piranesi", "started Piranesi last night"
_add(r"^(?P<p>(?:currently|still|now)\s+\w+ing\s+(?P<x>[^,;!?]+?))" + CLAUSE_END, "fact", "*", "The user is {p}.")
_add(r"^(?:just\s+|finally\s+)?(?P<v>started|began|finished|joined|adopted|bought|booked|enrolled in|signed up for)\s+"
     + _O, "event", "*", "The user {v} {x}.")
# "I'm on parental leave until May", "I'm on a low-salt diet": a state the user is in
_add(_AM + r"(?:currently\s+)?(?P<p>on\s+(?!(?:it|that|this|board|my way|the way|track|time|top|fire)\b)"
     r"(?P<x>[^,;!?]+?))" + CLAUSE_END, "fact", "*", "The user is {p}.")
# "I'm not drinking at all": a negated activity
_add(_AM + r"(?P<p>not\s+(?P<x>\w+ing\b(?!\s+(?:it|that|this|them)\b)[^,;!?]*?))" + CLAUSE_END, "fact", "*",
     "The user is {p}.")  # not "I'm not doing it anymore": what "it" was is in another sentence


_DECIDED = _PERF + r"(?P<v>decided|agreed|chose|picked|selected|settled|went with|opted)\b\s*" + _L
_add(r"^I\s+" + _DECIDED, "decision", "*v", "The user {v} {x}.")
_add(r"^we\s+" + _DECIDED, "decision", "*v", "The user's team {v} {x}.")


@_rule(r"^(?P<subj>I|we)\s+(?:run|host|deploy)\s+(?:all\s+(?:of\s+)?|most\s+(?:of\s+)?)?(?:our|my)\s+"
       r"(?P<thing>[\w -]+?)\s+(?:on|in|with|using)\s+" + _O)
def _run_on(m: re.Match[str]) -> Hit:
    thing = m["thing"]
    verb = "run" if thing.endswith("s") and not thing.endswith("ss") else "runs"
    return Hit("fact", topic_for(m["x"]) or noun_topic(thing), f"The user's {thing} {verb} on {m['x']}.")


_add(r"^(?:my|our)\s+(?P<thing>[\w -]{1,30}?)\s+(?P<v>uses|use|runs on|run on|is built (?:on|with)|"
     r"is written in|are written in|is hosted on|are hosted on|relies on|rely on|depends on)\s+" + _O,
     "fact", "*{thing}", "The user's {thing} {v} {x}.")


@_rule(r"^(?P<subj>I|we)(?:\s+|(?='))" + _ADV + r"(?P<v>use|are using|'re using|am using|'m using|rely on|"
       r"work with|code in|program in|build with|develop in)\s+" + _O)
def _we_use(m: re.Match[str]) -> Hit:
    first, _, rest = re.sub(r"^(?:'m|'re|am|are)\s*", "is ", m["v"].lower()).partition(" ")
    phrase = f"{first if first == 'is' else conj(first)} {rest}".strip()
    return Hit("fact", topic_for(m["x"]) or noun_topic(m["x"]),
                f"{_subject(m['subj'])} {phrase} {rewrite(m['x'])}.")


_add(r"^(?:my|our)\s+(?:all[- ]time\s+|absolute\s+)?(?P<fav>favou?rite)\s+(?P<thing>[\w -]+?)\s+(?:is|are)\s+"
     + _O, "preference", "{thing}", "The user's {fav} {thing} is {x}.")
_PREF_VERBS = {"don't like": "doesn't like", "do not like": "does not like", "don't enjoy": "doesn't enjoy"}


@_rule(r"^I\s+" + _ADV + r"(?P<v>prefer|like|love|enjoy|adore|hate|dislike|detest|can't stand|cannot stand|"
       r"don't like|do not like|don't enjoy)\s+" + _L)
def _preference(m: re.Match[str]) -> Hit:
    x = trim_tail(re.split(r",(?!\s*(?:not|rather|over|instead|but not)\b)", m["x"], maxsplit=1)[0])
    topic = topic_for(x) or noun_topic(x)
    shown = x
    if topic == "code language":  # "answers with code in TypeScript" -> "code in TypeScript"
        shown = re.sub(r"^(?:answers|responses|replies|examples)\s+with\s+", "", x, flags=re.I)
    verb = _PREF_VERBS.get(m["v"].lower()) or (m["v"] if " " in m["v"] else conj(m["v"].lower()))
    return Hit("preference", topic, f"The user {verb} {rewrite(shown)}.", end=m.start("x") + len(x))


_add(_AM + r"(?P<p>(?:really\s+|very\s+|so\s+|totally\s+)?(?:into|keen\s+on|a\s+(?:big\s+|huge\s+)?fan\s+of|"
     r"passionate\s+about|obsessed\s+with|interested\s+in)\s+(?P<x>[^,;!?]+?))" + CLAUSE_END,
     "preference", "*", "The user is {p}.")
_add(_AM + r"(?P<p>(?:currently\s+|still\s+|now\s+)?(?:learning|studying|practicing|practising|training for|"
     r"taking|teaching|volunteering|coaching|playing|reading|saving for|raising)\s+(?P<x>[^,;!?]+?))" + CLAUSE_END,
     "fact", "*", "The user is {p}.")
_add(_AM + r"(?P<p>(?:going|planning|about|getting ready|excited|flying|travell?ing|heading|driving|off)\s+to\s+"
     + _O + ")", "event", "*v",
     "The user is {p}.")
_add(r"^I(?:'ll|\s+will)\s+" + _O, "event", "*v", "The user will {x}.")
_add(r"^I\s+(?P<v>plan|intend)\s+to\s+" + _O, "event", "*v", "The user {v}s to {x}.")
# "I'm a backend dev at Spotify", "I'm now a junior data analyst at Flexport": where the user works
_add(_AM + r"(?:now\s+|currently\s+|still\s+)?(?P<x>(?:a|an)\s+[^,;!?]+?\s+(?:at|for|with)\s+(?-i:[A-Z])[^,;!?]*?)"
     + CLAUSE_END, "fact", "employer", "The user is {x}.")
_add(_AM + r"(?P<x>(?:a|an|the)\s+(?!(?:bit|little|lot|kind|sort|one|only|same|best|worst)\b)[^,;!?]+?)"
     + CLAUSE_END, "fact", "role",
     "The user is {x}.")
_add(r"^I(?:'ve|\s+have)\s+been\s+(?P<x>(?:\w+ing|married|divorced|engaged|sober|an?\s+\w+)\b[^,;!?]*?)"
     + CLAUSE_END, "fact", "*", "The user has been {x}.")
_add(r"^(?:my|our|the)\s+(?P<thing>budget|deadline|due date|time limit|launch date)\s+(?P<v>is|are|was)\s+"
     + _O, "constraint", "{thing}", "The user's {thing} {v} {x}.")
_add(r"^(?:my|our)\s+(?!(?:day|week|weekend|morning|evening|night|question|point|guess|pleasure|bad|mistake|"
     r"problem|issue)\s)(?P<thing>[\w '-]{1,40}?)\s+(?P<v>is|are|was|were)\s+" + _O, "fact", "*{thing}",
     "The user's {thing} {v} {x}.")
_add(r"^(?!(?:today|tomorrow|yesterday|tonight|it|that|this|there|here|everyone|nobody|somebody|someone|"
     r"what|who|where|let|that)'s\b)(?P<name>(?-i:[A-Z][a-z]+))'s\s+(?P<thing>[\w -]{1,30}?)\s+"
     r"(?P<v>is|are|was)\s+" + _O, "fact", "{name}", "{name}'s {thing} {v} {x}.")
_add(r"^(?:my|our)\s+(?P<thing>\w+(?:\s+\w+)??)\s+(?P<v>(?:really\s+)?(?:love|like|enjoy|hate|have|play|go|"
     r"want|live|work|\w+s))\s+" + _O, "fact", "*", "The user's {thing} {v} {x}.")


# what the user's team does, in the present ("we manage all our infra with Terraform"); not "we have"
# or "we love": a household's things and tastes are not a team's
_WE_DO = ("manage|deploy|run|host|use|build|ship|release|store|keep|track|handle|write|test|sell|make|serve|"
          "support|offer|develop|maintain|publish|monitor")


@_rule(r"^we\s+(?:(?:all|usually|mostly|mainly|always|now|currently|still|also|just)\s+)*(?P<v>" + _WE_DO + r")\s+"
       + _O)
def _we_do(m: re.Match[str]) -> Hit:
    x = trim_tail(m["x"])
    return Hit("fact", topic_for(x) or noun_topic(x), f"The user's team {conj(m['v'].lower())} {rewrite(x)}.",
               end=m.start("x") + len(x))


# "Haskell is my favourite language by a mile"
_add(r"^(?P<x>(?-i:[A-Z])[\w#+.'-]*(?:\s+[\w#+.'-]+){0,4}?)\s+(?:is|are)\s+(?:still\s+)?my\s+"
     r"(?:all[- ]time\s+|absolute\s+)?(?P<fav>favou?rite)\s+(?P<thing>[\w -]+?)"
     r"(?:\s+(?:by (?:a mile|far)|ever|of all time|these days|right now))?" + CLAUSE_END,
     "preference", "*{thing}", "The user's {fav} {thing} is {x}.")


@_rule(r"^I\s+do\s+(?P<x>[^,;!?]+?)" + CLAUSE_END)
def _i_do(m: re.Match[str]) -> Hit | None:
    """ "I do marketing for a skincare brand"; not "I do think …" nor "I do not …"."""
    first = m["x"].split()[0].lower()
    if first in GENERIC_STOP or first in {"not", "that", "this", "it", "so", "too", "what", "the", "a", "believe"}:
        return None
    x = trim_tail(m["x"])
    return Hit("fact", topic_for(x) or noun_topic(x), f"The user does {rewrite(x)}.", end=m.start("x") + len(x))


_LY_VERBS = "apply|reply|rely|supply|multiply|comply|imply|fly|ally|bully|rally|tally"


_YEARS = re.compile(r"\b(?:\d+|a|one|two|three|four|five|six|seven|eight|nine|ten|several|many|a few)\s+years?\b", re.I)


@_rule(r"^I\s+(?:(?:just|recently|finally|actually|also|even|once|already|really|"
       r"(?!(?:" + _LY_VERBS + r")\b)[a-z]{2,}ly)\s+)*"
       r"(?P<v>[a-z]+(?:\s+up)?)\s+" + _O)
def _generic(m: re.Match[str]) -> Hit | None:
    verb = m["v"].lower()
    if verb.split()[0] in GENERIC_STOP or len(verb) < 2:
        return None
    if verb.endswith("ly") and not re.fullmatch(_LY_VERBS, verb):  # "I totally agree!": an adverb, no verb
        return None
    x = trim_tail(m["x"])
    past = verb.split()[0] in PAST_IRREGULAR or verb.split()[0].endswith("ed")
    content = f"The user {m['v'] if past else conj(m['v'])} {rewrite(TIME.sub('', x))}."
    # the past over years is a life's history, not a passing event: "I spent 3 years as an auditor"
    event = past and not _YEARS.search(x)
    return Hit("event" if event else "fact", topic_for(x) or noun_topic(x) or verb, content,
                confidence=0.7 if past else 0.6, end=m.start("x") + len(x))
