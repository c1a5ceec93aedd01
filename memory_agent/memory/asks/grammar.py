"""How each language says "my <noun>", and the helpers that build an aspect's request pattern."""

from __future__ import annotations

import re
import unicodedata

from memory_agent.memory.text import any_of

__all__ = ["DAYS", "FAMILY", "LANGUAGES", "MINE", "MY", "PETS", "asks", "mine", "when"]

MINE = r"(?:my|our|mine|me|i|i'm|i am|we|we're)"
PETS = (r"pets?|dogs?|cats?|pupp(?:y|ies)|kittens?|hamsters?|rabbits?|bunn(?:y|ies)|guinea pigs?|parrots?|"
         r"budgies?|tortoises?|turtles?|ferrets?|horses?|ponies|pony|greyhounds?|labradors?|retrievers?|"
         r"spaniels?|terriers?|collies?|poodles?|beagles?|dachshunds?")
FAMILY = (r"sons?|daughters?|kids?|children|child|wife|husband|partner|spouse|boyfriend|girlfriend|fianc[ée]e?|"
           r"mum|mom|mother|dad|father|parents?|brothers?|sisters?|siblings?|grandm\w+|grandp\w+|grandparents?|"
           r"niece|nephew|in-laws?|family")
DAYS = r"mondays?|tuesdays?|wednesdays?|thursdays?|fridays?|saturdays?|sundays?"

# ---------------------------------------------------------------------------------------------------------
# Other languages. How each says "my <noun>": "{}" stands for the nouns of an aspect, written as the language
# writes them beside its possessive (declined where it declines: Polish "moim aucie", Russian "моей машины";
# with the possessive suffix where the possessive is one: Hungarian "autóm", Turkish "arabam", Arabic
# "سيارتي"; Finnish gets the stem, its suffix "-ni" is added here after up to six letters of case ending).
# Scripts that space their words are bounded by \b; Chinese, Japanese and Thai are not (no spaces), Korean
# only before the possessive (particles follow the noun), Hindi by look-arounds (its vowel signs are not \w).
MY = {
    "es": r"\b(?:mis?|nuestr[oa]s?)\s+(?:{})\b",
    "fr": r"\b(?:mon|ma|mes|notre|nos)\s+(?:{})\b",
    "de": r"\b(?:mein|unser)(?:e[mnrs]?)?\s+(?:{})\b",
    "it": r"\b(?:mi[oa]|miei|mie|nostr[oaie])\s+(?:{})\b",
    "pt": r"\b(?:meu|minha|meus|minhas|noss[oa]s?)\s+(?:{})\b",
    "nl": r"\b(?:mijn|m'n|ons|onze)\s+(?:{})\b",
    "pl": r"\b(?:m[óo]j|moj(?:a|e|ego|ej|emu|[ąa])|moi(?:ch|m|mi)?|mym|mej|nasz(?:a|e|ego|ej|emu|ą|ych|ym|ymi)?|nasi)"
          r"\s+(?:{})\b",
    "ru": r"\b(?:мой|мо(?:я|ё|е|и|ю|его|ей|ему|им|ём|ем|их|ими)|наш(?:а|е|и|у|его|ей|ему|им|ем|их|ими)?)\s+(?:{})\b",
    "uk": r"\b(?:мій|мо(?:я|є|ї|ю|го|єї|єму|їм|їй|їх|їми)|наш(?:а|е|і|у|ого|ої|ому|ій|им|их|ими)?)\s+(?:{})\b",
    "cs": r"\b(?:m[ůu]j|moj(?:e|i|í)|mé|mou|m[ée]ho|m[ée]mu|m[ée]m|m[ýy]m|m[ýy]ch|m[ýy]mi|náš|"
          r"naš(?:e|i|í|eho|emu|ím|ich|imi))\s+(?:{})\b",
    "sv": r"\b(?:min|mitt|mina|vår|vårt|våra)\s+(?:{})\b",
    "da": r"\b(?:min|mit|mine|vores)\s+(?:{})\b",
    "no": r"\b(?:min|mitt|mine|vår|vårt|våre)\s+(?:{})\b|\b(?:{})\s+(?:min|mi|mitt|mine|vår|vårt|våre)\b",
    "fi": r"\b(?:{})\w{0,6}(?:ni|mme)\b|\bmun\s+(?:{})",
    "hu": r"\b(?:{})",
    "ro": r"\b(?:{})\s+(?:mea|meu|mei|mele|nostru|noastr[ăa]|noastre|no[șş]tri)\b",
    "tr": r"\b(?:{})",
    "el": r"\b(?:{})\s+(?:μου|μας)\b",
    "he": r"(?<![\u05d0-\u05ea])[והלבמשכ]{0,2}(?:{})\s+(?:שלי|שלנו)\b",
    "ar": r"(?<![\u0620-\u064a])[وف]?[بل]?(?:{})\b",
    "fa": r"\b(?:{})(?:\u200c?(?:هایم|هام|ام|م)|\u200c?(?:ها)?\u200c?ی?\s+(?:من|ما|خودم))\b",
    "hi": r"(?<![\u0900-\u097f])(?:मेरा|मेरी|मेरे|हमारा|हमारी|हमारे)\s+(?:{})(?![\u0900-\u097f])",
    "ja": r"(?:私|わたし|あたし|僕|ぼく|俺|(?<!の)うち|我が家|私たち)の(?:{})",
    "zh": r"(?<![自忘本])(?:我|我们|我們|咱们|咱們)(?:的|家的?)?(?:{})",
    "ko": r"(?:\b(?:내|제)\s+|\b(?:나의|저의|우리|울)\s?)(?:{})",
    "vi": r"\b(?:{})(?:\s+của)?\s+(?:tôi|mình|tớ|chúng tôi)\b",
    "id": r"\b(?:{})(?:\s+(?:saya|aku|gue|gua|kami|kita)|ku)\b",
    "th": r"(?:{})(?:ของ)?(?:ฉัน|ผม|เรา|หนู|ดิฉัน|พวกเรา)",
}
#: The languages each aspect's request pattern covers besides English (ISO 639-1; "no" is Norwegian).
LANGUAGES = tuple(MY)


# where people often type a noun without its accents ("mi numero de telefono", "mojej corki", "το αυτοκινητο μου")
LOOSE = frozenset({"es", "fr", "it", "pt", "ro", "pl", "cs", "el"})


def loose(pattern: str) -> str:
    """``pattern`` with each accented Latin or Greek letter also matching its bare letter ("número" →
    "n[úu]mero"; in a ``[...]`` class the bare letter is added to the class)."""
    out: list[str] = []
    in_class = escaped = False
    for char in pattern:
        base = unicodedata.normalize("NFD", char)[0]
        bare = base if base != char and (base.isascii() or "\u0370" <= base <= "\u03ff") else ""
        if escaped or char == "\\":
            escaped = not escaped and char == "\\"
            out.append(char)
        elif in_class:
            in_class = char != "]"
            out.append(char + bare)
        else:
            in_class = char == "["
            out.append(f"[{char}{bare}]" if bare else char)
    return "".join(out)


def mine(**nouns: str) -> str:
    """ "my <noun>" in each language given (keyword: the language, value: its nouns as one alternation)."""
    return "|".join(MY[language].replace("{}", "(?:" + (loose(alts) if language in LOOSE else alts) + ")")
                    for language, alts in nouns.items())


# Where a request's reference can begin: a word's start, or any letter of a script whose words are not
# spaced (Chinese, Japanese, Thai), take clitics (Hebrew, Arabic, Persian), particles (Korean) or vowel signs
# that are not \w (Hindi). A cheap first test at each position before the many alternatives.
START = (r"(?=\b\w|[\u0590-\u06ff\u0900-\u097f\u0e00-\u0e7f\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af"
          r"\uf900-\ufaff\uff66-\uff9f])")


def asks(*patterns: str) -> re.Pattern[str]:
    """The request pattern of an aspect: any of ``patterns``, tried only where a reference can begin."""
    return any_of(rf"{START}(?:{'|'.join(patterns)})")


def when(me: str, days: str, gap: int = 40) -> str:
    """A first-person word (``me``) and a day (``days``) in either order, at most ``gap`` characters apart
    in one sentence: "what can **I** do on **Sunday**", "**am Sonntag** … **ich**"."""
    between = rf"[^.?!。？！\n]{{0,{gap}}}?"
    return rf"(?:{me}){between}(?:{days})|(?:{days}){between}(?:{me})"

