"""Person and verb rewriting for the offline model's rules: "I live in my flat" -> "the user lives in their flat".

Also the topic helpers that name a fact's slot from its words. Pure string functions, no state.
"""

from __future__ import annotations

import re

from memory_agent.models.offline.vocabulary import EMOJI, FILLER, NO_CONJUGATION, TIME, TOPIC_KEYWORDS

__all__ = ["as_sentence", "conj", "noun_topic", "rewrite", "topic_for", "trim_tail"]

_CONJ = {"am": "is", "are": "is", "have": "has", "do": "does", "don't": "doesn't", "go": "goes",
         "were": "was"}


def conj(verb: str) -> str:
    """Third-person singular after "the user": "live" -> "lives", "went" -> "went", "give up" -> "gives up"."""
    head, space, rest = verb.partition(" ")
    if space:
        return f"{conj(head)} {rest}"
    low = verb.lower()
    if low in _CONJ:
        return _CONJ[low]
    if low in NO_CONJUGATION or low.endswith(("ed", "n't")):
        return verb
    if re.search(r"(?:s|sh|ch|x|z|o)$", low):
        return verb + "es"
    return verb[:-1] + "ies" if re.search(r"[^aeiou]y$", low) else verb + "s"


_PRONOUN = re.compile(
    r"\b(?:(?P<i>I'm|I've|I'd|I'll|I)(?:\s+(?P<v>[a-z]+(?:n't)?))?"
    r"|(?P<p>[Mm]yself|[Mm]ine|[Mm]y|[Mm]e|[Oo]urselves|[Oo]urs|[Oo]ur|us|[Ww]e))\b"
)
_AS_USER = {"my": "the user's", "mine": "the user's", "myself": "themselves", "me": "the user",
            "our": "the user's", "ours": "the user's", "ourselves": "themselves", "us": "the user",
            "we": "the user",
            "I'm": "the user is", "I've": "the user has", "I'd": "the user would", "I'll": "the user will"}
_AS_THEY = {"my": "their", "mine": "theirs", "myself": "themselves", "me": "them", "our": "their",
            "ours": "theirs", "ourselves": "themselves", "us": "them", "we": "they",
            "I'm": "they're", "I've": "they've", "I'd": "they'd", "I'll": "they'll", "I": "they"}


def rewrite(text: str, *, user: bool = False) -> str:
    """First person to third: "my" -> "their", "I live" -> "they live".

    With ``user``: "my" -> "the user's", "I live" -> "the user lives".
    """
    table = _AS_USER if user else _AS_THEY

    def swap(m: re.Match[str]) -> str:
        if m["p"]:
            return table[m["p"].lower()]
        verb = m["v"] or ""
        if m["i"] == "I" and user:
            return f"the user {conj(verb)}".rstrip()
        return f"{table[m['i']]} {verb}".rstrip()

    return _PRONOUN.sub(swap, text)


def as_sentence(text: str) -> str:
    """One tidy sentence: single spaces, capital first letter, exactly one final full stop."""
    text = " ".join(text.split()).strip(" ,;:-.!")
    return text[:1].upper() + text[1:] + "." if text else ""


def topic_for(text: str) -> str:
    """The slot name of the first keyword group that occurs in ``text`` ("" if none)."""
    return next((name for name, pattern in TOPIC_KEYWORDS if pattern.search(text)), "")


def noun_topic(text: str, *, drop_verb: bool = False) -> str:
    """A short noun phrase for a topic: "to a LGBTQ support group yesterday" -> "LGBTQ support group"."""
    words = [w.strip("'\".!?()") for w in TIME.sub(" ", text).split()]
    words = [w for w in words if w]
    if drop_verb or (len(words) > 1 and words[0].lower() == "to" and words[1].islower()):
        words = words[2 if words and words[0].lower() == "to" else 1:]  # "to go hiking" -> "hiking"
    while words and (words[0].lower() in FILLER or words[0].isdigit()):  # "4 direct reports" -> "direct reports"
        words.pop(0)
    topic: list[str] = []
    for word in words[:3]:
        if word.lower() in FILLER:
            break
        topic.append(word.lower() if word[:1].isupper() and word[1:].islower() else word)
    return " ".join(topic)


def trim_tail(text: str) -> str:
    """Cut a trailing comment off a statement: "a support group and it was great" -> "a support group",
    and trailing asides ("please", "btw", "fyi", "lol") and emoji."""
    head = re.split(r"\s+(?:and|but|so|because|which|where|when)\s+(?:it|that|this|they|there|he|she|i)\b"
                    r"|\s+[-–—]+\s+", text, maxsplit=1, flags=re.I)[0]
    head = re.sub(r"(?:,?\s+(?:please|btw|fyi|lol|haha|thanks|thx))+$", "", head, flags=re.I)
    return re.sub(rf"\s*(?:{EMOJI}|[\uFE0F\u200D])+$", "", head)  # a closing emoji

