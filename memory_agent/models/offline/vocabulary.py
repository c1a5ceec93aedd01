"""Vocabulary of the offline model's rules: keyword groups for topic slots, clause filters and word sets.

Every pattern is compiled case-insensitively; ``TOPIC_KEYWORDS`` is ordered (the first match wins).
"""

from __future__ import annotations

import re

__all__ = ["CHATTER", "EMOJI", "FILLER", "GENERIC_STOP", "HEADLINE", "HEDGE", "LEAD_TIME", "MARKERS", "NOT_NAMES",
           "NO_CONJUGATION", "PAST_IRREGULAR", "PETS", "QUESTION", "RESTRICTED", "TIME", "TOPIC_KEYWORDS",
           "WHEN_CHANGED"]


def _words(alternatives: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w+#])(?:{alternatives})(?![\w+#])", re.I)


def _wordset(words: str) -> frozenset[str]:
    return frozenset(words.split())


TOPIC_KEYWORDS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("database", _words(r"postgres(?:ql)?|mysql|mariadb|sqlite|mongo(?:db)?|redis|dynamodb|cassandra|"
                        r"sql server|supabase|cockroachdb|clickhouse|bigquery|snowflake|my database")),
    ("code language", _words(r"typescript|javascript|python|rust|golang|java|kotlin|swift|c\+\+|c#|ruby|php|"
                             r"scala|haskell|elixir|clojure|dart|lua|perl|julia|programming language")),
    ("cloud", _words(r"aws|amazon web services|gcp|google cloud|azure|heroku|vercel|netlify|digitalocean")),
    ("editor", _words(r"n?vim|neovim|emacs|vs ?code|visual studio code|intellij|pycharm|sublime text|"
                      r"my (?:code )?editor|my ide")),
    ("home city", _words(r"where i live|where i'm based|my (?:home )?city|my hometown")),
    ("address", _words(r"my (?:home )?address")),
    ("employer", _words(r"where i work|my employer|my company|my job")),
    ("allergy", _words(r"allerg(?:y|ies|ic)")),
    ("diet", _words(r"vegetarian|vegan|pescatarian|my diet|gluten[- ]free|lactose[- ]intolerant")),
    ("name", _words(r"my name")),
    ("answer style", _words(r"answers?|replies|responses|explanations")),
)
RESTRICTED = re.compile(
    r"\b(?:diabet\w*|cancer|depress\w*|anxiety|adhd|autis\w*|hiv|pregnan\w*|illness|disease|diagnos\w*|"
    r"medication|therap\w*|surgery|disorder|asthma|epilep\w*|bipolar|ptsd|chemo\w*|"
    r"religio\w*|christian|muslim|jewish|hindu|buddhist|atheist|catholic|church|mosque|synagogue|pray\w*|"
    r"democrat\w*|republican\w*|vote[ds]?|voting|liberals?(?= party)|conservatives?(?= party)|politic\w*|socialist|"
    r"gay|lesbian|bisexual|transgender|trans(?! fats?\b)|lgbtq\w*|queer|sexual\w*|"
    r"salary|income|debts?|mortgage|net worth|(?:making|earning|earn|make|paid|on)\s+(?:like\s+|about\s+|around\s+)?"
    r"[$€£]?\d+(?:[.,]\d+)?k\b|"
    r"my (?:home )?address|postcode|zip code)\b"
    # an account's details, not the word ("vintage credit card imprinters"): as memory.sensitive judges it
    r"|\b(?:bank account|credit card|iban|account number|card number)\b(?:\s+(?:number|no\.?|details))?"
    r"\s*(?:is|was|:|=|#|ends in|ending in)?\s*(?:[a-z]{2}\d{2}|\d[\d -]{5,})"
    r"|\b\d+\s+\w+\s+(?:street|st|road|rd|avenue|ave|lane|ln|boulevard|blvd|stra(?:ss|ß)e)\b|\d{8,}",
    re.I,
)
MARKERS = re.compile(
    r"^(?:(?:quick update|update|fyi|btw|by the way|also|oh|so|well|actually|anyway|anyways|ok|okay|alright|"
    r"hi|hello|hey|yes|yeah|no|nope|great|cool|nice|and|but|plus|just so you know|for the record|"
    r"one more thing|heads up|normally|usually|generally|typically|otherwise|honestly|basically)\b\s*[:,!.\-–—]*\s*)+",
    re.I,
)
# A time phrase before the subject ("for the next two months I'm not drinking", "this week we're in
# Oslo", "after the reorg I …"): skipped like a marker; the clause keeps it, so it still bounds the fact (valid_until).
LEAD_TIME = re.compile(
    r"(?:(?:for|over)\s+the\s+(?:next|coming)\s+[^,]{1,30}?|for\s+(?:a|an|\d+|one|two|three|four|five|six|a few|"
    r"a couple of)\s+(?:days?|weeks?|months?|years?)|(?:until|till)\s+[^,]{1,30}?|"
    r"(?:this|next)\s+(?:week|weekend|month|quarter|year)|these\s+days|nowadays|lately|at\s+the\s+moment|right\s+now|"
    r"(?:on|at|over)\s+(?:the\s+)?weekends?|in\s+the\s+(?:evenings?|mornings?)|"
    r"(?:most|every)\s+(?:day|days|morning|mornings|evening|evenings|week|weekend|weekends)|"
    r"(?:after|since)\s+(?:the|my|our)\s+[^,]{1,40}?)"
    r"\s*,?\s+(?=(?:I|we|my|our)\b)",
    re.I,
)
# A short lead-in of at most five words ending in a colon ("Big news:", "The client pushed back:"), or
# in a dash before a first-person statement ("quick one — I live in …"; "I live in Oslo — love it" keeps
# its statement).
HEADLINE = re.compile(r"(?:[A-Za-z][\w'-]*\s+){0,4}[A-Za-z][\w'-]*(?::\s+|\s+[—–-]\s+(?=(?:I|we|my|our)\b))", re.I)
CHATTER = re.compile(
    r"^(?:thanks|thank you|thx|ty|cheers|much appreciated|appreciate it|i appreciate|got it|sounds good|"
    r"see you|bye|goodbye|good (?:morning|night|evening|afternoon)|lol|haha|you're welcome|no problem|"
    r"nice to meet you|how are you)\b",
    re.I,
)
HEDGE = re.compile(
    r"\b(?:might|maybe|perhaps|someday|some day|who knows|not sure|unsure|thinking about|thinking of|"
    r"probably|possibly|considering|i guess|i suppose|i wonder|wondering|i hope|hopefully|i wish|if only)\b"
    r"|^if\b",
    re.I,
)
QUESTION = re.compile(
    r"^(?:(?:what|why|how|when|where|who|which|whose|whom)(?:'s|'re|\s+(?:is|are|was|were|do|does|did|"
    r"can|could|should|would|will|has|have|about|much|many|long|often))\b"
    r"|(?:can|could|would|will|do|does|did|is|are|should|shall|may|have|has)\s+"
    r"(?:you|i|we|it|there|this|that|they)\b)",
    re.I,
)
TIME = re.compile(
    r"\s*\b(?:yesterday|today|tonight|tomorrow|this (?:morning|evening|week|weekend|month|year)|"
    r"(?:last|next) (?:week|weekend|month|year|night|time|\w+day)|"
    r"(?:a few|a couple of|\d+|one|two|three) (?:days|weeks|months|years) ago)\b",
    re.I,
)
_MONTHS = "january|february|march|april|may|june|july|august|september|october|november|december"
_SEASONS = "winter|summer|spring|autumn|fall|holidays|weekend|break|new year"
# When a change happened, at the end of what changed ("moved to Lisbon in January", "to Google Cloud over
# the winter", "to AWS last month"): it dates the change, not the state that follows, so a fact stating
# that state ("The user lives in Lisbon.") leaves it out.
WHEN_CHANGED = re.compile(
    r"(?:,?\s+(?:" + TIME.pattern.strip().removeprefix(r"\s*") + "|"
    rf"(?:(?:back\s+)?in|during|over|around|by|since|at\s+the\s+(?:start|end)\s+of)\s+(?:the\s+)?"
    rf"(?:(?:early|late|mid)[\s-]+)?(?:{_MONTHS}|{_SEASONS}|(?:19|20)\d\d)(?:\s+(?:(?:19|20)\d\d|last year))?\b|"
    rf"(?:last|this|past)\s+(?:{_MONTHS}|{_SEASONS})\b|"
    r"(?:recently|lately|at last|finally)\b))+\s*$",
    re.I,
)
FILLER = _wordset(
    "a an the my our their his her your some this that these those new old to into at in on for of with "
    "about from really so very more lot lots bit little all every any big great good first own it one two "
    "three four five six several few many and or but because since which when while until till through during"
)
PAST_IRREGULAR = _wordset(
    "went was were had did made got saw took came bought ran met found began gave left felt thought told "
    "said built wrote read knew became won lost kept spent sent brought taught caught flew drove ate drank "
    "swam sang grew sold paid put set let cut hit heard held led rode spoke stood understood woke wore broke "
    "chose fell forgot hid quit shut split threw meant dealt slept lent bent burnt learnt dreamt"
)
NO_CONJUGATION = PAST_IRREGULAR | _wordset("can could will would shall should must may might")
GENERIC_STOP = _wordset(
    "am was were can could will would shall should must may might do did have had think guess hope "
    "wonder want need know mean feel see wish believe suppose assume agree understand appreciate just "
    "really also still only never always usually said told asked forgot remember"
)
# Capitalised words after "I'm" that are not a name: nationalities, languages, faiths, moods
NOT_NAMES = (
    "American|British|English|Scottish|Welsh|Irish|Canadian|Australian|German|French|Spanish|Italian|Portuguese|"
    "Dutch|Belgian|Swiss|Austrian|Polish|Czech|Slovak|Hungarian|Romanian|Bulgarian|Greek|Turkish|Russian|"
    "Ukrainian|Swedish|Norwegian|Danish|Finnish|Icelandic|Estonian|Latvian|Lithuanian|Chinese|Japanese|Korean|"
    "Vietnamese|Thai|Indian|Pakistani|Bangladeshi|Nepali|Filipino|Filipina|Indonesian|Malaysian|Mexican|"
    "Brazilian|Argentinian|Argentine|Chilean|Colombian|Peruvian|Cuban|African|Nigerian|Kenyan|Egyptian|"
    "Moroccan|Israeli|Iranian|Iraqi|Syrian|Lebanese|Saudi|Emirati|European|Asian|Latino|Latina|Hispanic|"
    "Scandinavian|Catalan|Basque|Flemish|Croatian|Serbian|Slovenian|Bosnian|Albanian|Maltese|Cypriot|"
    "Catholic|Christian|Muslim|Jewish|Hindu|Buddhist|Sikh|Atheist|Agnostic|Protestant|Mormon|Orthodox|"
    "Sorry|Fine|Good|Okay|Ok|Back|Done|Here|Home|Ready|New|Not|So|Just|Still|Also|Really|Very|Sure|Glad|Happy|"
    "Tired|Busy|Free|Open|Out|Off|In|On|Up|Down|Over|Late|Early|Alright|Well|Hungry|Excited|Confused"
)
# The pictographs chat uses (Unicode's emoji blocks and the older symbol and dingbat blocks), as a
# character class: an emoji ends a sentence, and none is part of a fact's content
EMOJI = r"[\U0001F300-\U0001FAFF\u2600-\u27BF]"
# Animals kept as pets, singular: "a dog named Pepper", "two rabbits"
PETS = (r"(?:dog|puppy|cat|kitten|hamster|rabbit|bunny|parrot|budgie|bird|fish|turtle|tortoise|horse|pony|"
        r"guinea pig|ferret|gerbil|lizard|snake|"
        # breeds a pet is often named by instead ("our beagle Biscuit")
        r"beagle|labrador|lab|retriever|spaniel|terrier|poodle|collie|greyhound|whippet|dachshund|pug|corgi|husky|"
        r"shepherd|bulldog|boxer|chihuahua|schnauzer|sheepdog|tabby|siamese|persian|maine coon|ragdoll)")
