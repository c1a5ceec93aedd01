"""Content that follows from its evidence: what a proposal states must be in the user's cited words.

Evidence that occurs in the user's message is not enough: content "The user is a Gold member with
free shipping" with evidence "I like tea" cites real words and claims something else.
:func:`unsupported_words` lists the value-bearing words of the content that the evidence does not
hold:

- numbers (digits compared without separators, so "1,870" and "1870" are the same; "three" and "3"
  too, for one to twenty);
- names and places: capitalised words after the first word of the content (language names,
  months and weekdays excepted: a model may translate "auf Deutsch" to "German"; so is "the user" in the
  languages a model may write a memory in, "Die Nutzerin ist …"; so are the kinds of place a translated
  name ends in, "Chợ Rẫy Hospital" for "Bệnh viện Chợ Rẫy");
- money and role words: "free", "discount", "refund", "credit", "admin", "VIP", "tier", …

A word is found when the evidence holds it after :func:`memory_agent.memory.text.prompt_text` and
case folding, or its Snowball stem (``PyStemmer``, so "refunds" finds "refund") at the start of an
evidence word, or inside one when the stem has six letters or more (German compounds:
"Systemadministrator" holds "administr"), accents aside ("Toruń" in "w Toruniu", "Đà Nẵng" for "Da
Nang"), or with a case ending where a language declines it ("Rusałka" in "wokół Rusałki"); a name
the content glosses with the user's own words in brackets ("Turin (Torino)") is found too, and so, when
the evidence is not in English, is a name under its English form ("Manila" for "Maynila", "Senate" for
"Senado": :func:`_cognate`). A money or role word
is also found when the evidence names money or a role in another language (a translated memory:
"kortingsbonnen" → "discount coupons"); "free" in "gluten-free" is not a money word. When the
evidence is mostly in a script other than Latin, only numbers are compared (a translated name
cannot be matched letter by letter).
"""

from __future__ import annotations

import os
import re
import unicodedata
from difflib import SequenceMatcher
from functools import lru_cache

from memory_agent.memory import claims
from memory_agent.memory.languages import LANGUAGE_NAMES
from memory_agent.memory.text import prompt_text, reads_english

__all__ = ["unsupported_words"]

_NUMBER_WORDS = {w: str(i) for i, w in enumerate(re.findall(r"\S+", (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
    "seventeen eighteen nineteen twenty")))}
_EXEMPT = frozenset(re.findall(r"\S+", (
    "i i'm i've i'd i'll the user user's users english german french spanish italian portuguese dutch polish "
    "russian chinese mandarin cantonese japanese korean arabic hindi turkish swedish norwegian danish finnish "
    "greek czech ukrainian hebrew indonesian malay vietnamese thai hungarian romanian bulgarian croatian serbian "
    "slovak slovenian lithuanian latvian estonian icelandic irish welsh catalan basque persian farsi urdu bengali "
    "tamil swahili tagalog filipino january february march april may june july august september october november "
    "december monday tuesday wednesday thursday friday saturday sunday "
    # "the user" as a model writes it in the user's language (German capitalises every noun)
    "nutzer nutzerin nutzers benutzer benutzerin benutzers anwender anwenderin utilisateur utilisatrice "
    "usuario usuaria usuário usuária utente gebruiker użytkownik użytkowniczka kullanıcı kullanıcının "
    "användaren användare brukeren brugeren käyttäjä "
    # language names, months and weekdays in German (capitalised there)
    "deutsch englisch französisch spanisch italienisch portugiesisch niederländisch polnisch russisch "
    "chinesisch japanisch koreanisch arabisch türkisch schwedisch januar februar märz mai juni juli oktober "
    "dezember montag dienstag mittwoch donnerstag freitag samstag sonntag"))) | LANGUAGE_NAMES
# What kind of place a name is, as a translated memory writes it after the name ("Chợ Rẫy Hospital" for
# "Bệnh viện Chợ Rẫy"): a kind, not a value, when the user named no kind of place in English ("Union
# Square" for "Union Station" is another place); the name itself must still be in the evidence.
_PLACE_KINDS = frozenset(re.findall(r"\S+", (
    "hospital clinic university college school academy institute library museum station airport park lake river "
    "street road avenue square market church cathedral mosque temple synagogue bridge island mountain beach bay "
    "forest valley hall theatre theater hotel restaurant cafe centre center office club group company bank "
    # the common words a translated name of an institution, a field or a region is made of ("Faculty of
    # Political Science" for "Fakultet političkih znanosti", "Islamic Studies", "Protestant theology", "the
    # Balaton Uplands" for "Balaton-felvidék"): kinds, not values
    "faculty department institute school studies science sciences arts law medicine engineering theology "
    "philosophy economics history politics political social national state federal regional city royal "
    "technical polytechnic medical general public central international upland uplands highland highlands "
    "lowland lowlands hills region province county district islands coast protestant catholic islamic "
    "reformed evangelical orthodox lutheran anglican baptist methodist")))
_VALUE_WORDS = re.compile(
    r"\b((?<!-)free(?![- ]time\b)|discount\w*|refund\w*|rebate\w*|credit\w*|coupon\w*|voucher\w*|cashback|waive\w*|"
    r"compensation|"
    r"lifetime|premium|gold|platinum|vip|tier|admin(?!ister(?:s|ed|ing)?\b)\w*|superuser|root|moderator\w*|operator\w*|owner|staff|"
    r"privilege\w*|permission\w*|rights|access|clearance|verified|entitled|owed|unlimited|unrestricted)\b",
    re.IGNORECASE,
)
_NUMBER = re.compile(r"\d[\d,.' ]*\d|\d")
_CAPITALISED = re.compile(r"(?<![\w'])[A-Z][\w'&.-]*")
_WORD = re.compile(r"[\w'&+-]+")


@lru_cache(maxsize=1)
def _stemmer():
    import Stemmer

    return Stemmer.Stemmer("english")


# Number words 0-100 in the languages a memory is often translated from (``num2words``, so "ده" finds the
# "10" of "after 10 p.m."), accents folded as the evidence is. Only words written with a letter outside
# ASCII ("dziesięć", "десять", "ده"): one in plain ASCII is too often an English word in another sense
# ("once", "fire", "cent", "null" are 11, 4, 100 and 0 in Spanish, Romanian, French and German).
_NUMBER_LANGUAGES = ("de", "fr", "es", "it", "pt", "nl", "pl", "ru", "uk", "cs", "tr", "sv", "da", "no", "fi", "hu",
                     "ro", "id", "fa", "ar", "he")


@lru_cache(maxsize=1)
def _number_phrases() -> tuple[re.Pattern[str], dict[str, str]]:
    from num2words import num2words

    table = dict(_NUMBER_WORDS)
    for lang in _NUMBER_LANGUAGES:
        for n in range(101):
            word = num2words(n, lang=lang).casefold()
            if not word.isascii():
                table.setdefault(_unaccented(word), str(n))
    alternatives = "|".join(re.escape(p) for p in sorted(table, key=len, reverse=True))
    return re.compile(rf"(?<!\w)(?:{alternatives})(?!\w)"), table


def _digits(text: str) -> set[str]:
    """The numbers ``text`` (folded) holds, as digit strings: written in digits, or as words."""
    found = {re.sub(r"\D", "", n) for n in _NUMBER.findall(text)}
    pattern, table = _number_phrases()
    return found | {table[m.group(0)] for m in pattern.finditer(text)}


# letters that Unicode does not decompose into a base letter and a mark ("Đà Nẵng", "Łódź", "Ørsted")
_FOLD = str.maketrans({"đ": "d", "Đ": "D", "ł": "l", "Ł": "L", "ø": "o", "Ø": "O", "ı": "i", "ß": "ss", "ħ": "h",
                       "Ħ": "H", "þ": "th", "Þ": "Th", "æ": "ae", "Æ": "Ae", "œ": "oe", "Œ": "Oe"})


def _unaccented(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", text.translate(_FOLD)) if not unicodedata.combining(c))


def _found(word: str, evidence: str, evidence_words: list[str], raw: str = "", raw_words: list[str] = ()) -> bool:
    """Whether ``word`` of the content is in ``evidence`` (case-folded, accents folded; ``raw`` and its
    ``raw_words``: the same before folding accents, where a term of another language is looked for)."""
    word = _unaccented(word.casefold().strip("'.-&"))
    if not word or word in _EXEMPT or re.search(rf"(?<!\w){re.escape(word)}(?!\w)", evidence):
        return True
    kind = _SAME_KIND_ELSEWHERE.get(word.rstrip("s"))
    if kind and (_names(kind, evidence, evidence_words) or (raw and _names(kind, raw, list(raw_words)))):
        return True
    stem = _unaccented(_stemmer().stemWord(word))
    return any(w.startswith(stem) or (len(stem) >= 6 and stem in w) for w in evidence_words)


# A money or role word of the content is in the evidence when the evidence names the same kind of thing
# in the user's language: the memory translated it ("kortingsbonnen" → "discount coupons",
# "amministratore" → "administrator"). The screen judges the claim either way.
_MONEY_ANY = claims.money_terms()
_ROLE_ANY = re.compile(r"administra\w*|amministra\w*|administrateur\w*|beheerder\w*|moderat\w*|sysadmin\w*|"
                       r"pentadbir\w*|gweinyddwr\w*|ylläpitäjä\w*|rendszergazd\w*|"
                       r"администратор\w*|модератор\w*|yönetici\w*|quản trị\w*|správce|správkyně|"
                       r"διαχειριστ\w*|מנהל\w*|管理员|管理者|관리자|एडमिन|मॉडरेटर|مشرف|مدير",
                       re.IGNORECASE)


def _names(kind: re.Pattern[str], evidence: str, evidence_words: list[str]) -> bool:
    """Whether ``evidence`` holds a term of ``kind``, also as the head of a compound ("kortingsbonnen")."""
    return bool(kind.search(evidence)) or any(kind.fullmatch(w[:k]) or (k <= 16 and kind.fullmatch(w[-k:]))
                                              for w in evidence_words for k in range(5, len(w)))


# money words of languages the screen does not read (a memory written in English from them is grounded,
# then screened in English), and "free" as a price in other languages
_MONEY_MORE = re.compile(r"hoàn tiền|giảm giá|khuyến mãi|tín dụng|diskon|potongan harga|pengembalian dana|"
                         r"kredit|знижк\w*|повернення коштів|кешбек|återbetalning\w*|återbäring|rabatt\w*|sleva|"
                         r"slevu|vrácení peněz|reducer\w*|rambursar\w*|έκπτωσ\w*|επιστροφή χρημάτων|הנחה|החזר\w*|"
                         # Finnish, Hungarian, Danish and Norwegian
                         r"hyvity\w*|alennu\w*|alennukse\w*|palautus|palautuks\w*|rahanpalautu\w*|visszatérítés\w*|"
                         r"kedvezmény\w*|jóváírás\w*|refusion\w*|godtgørelse\w*|kompensation\w*|kompensasjon\w*|"
                         r"erstatning(?:en|er|erne)?\b",
                         re.IGNORECASE)
_FREE_ANY = re.compile(r"gratis|gratuit\w*|kostenlos\w*|umsonst|bezpłatn\w*|darmow\w*|ücretsiz|bedava|"
                       r"бесплатн\w*|безкоштовн\w*|miễn phí|免费|無料|무료|مجان\w*|मुफ़्त|मुफ्त|kosteloos|"
                       r"ilmai(?:nen|sen|set|sia|seksi|sta|siin)\b|"
                       r"ingyen\w*|zdarma|δωρεάν|חינם",
                       re.IGNORECASE)
_SAME_KIND_ELSEWHERE = {
    **dict.fromkeys(("discount", "refund", "rebate", "credit", "coupon", "voucher", "cashback", "compensation"),
                    re.compile(f"{_MONEY_ANY.pattern}|{_MONEY_MORE.pattern}", _MONEY_ANY.flags | re.IGNORECASE)),
    "free": _FREE_ANY,
    **dict.fromkeys(("admin", "administrator", "moderator", "operator"), _ROLE_ANY),
    # the rights of a role the evidence names in its own language ("admin-õigused" → "admin rights")
    **{w.rstrip("s"): re.compile(r"(?<![^\W\d_])(?:admin|administrator|administrador[ae]?|administrateur|"
                                 r"amministratore|beheerder|yönetici|администратор\w*|root|sudo|superuser)"
                                 r"(?![^\W\d_])|管理员|管理者|관리자|एडमिन|مشرف|مدير", re.IGNORECASE)
       for w in ("rights", "access", "privileges", "permissions")},
}


def _glossed(word: str, content: str, evidence: str, evidence_words: list[str]) -> bool:
    """Whether the content glosses ``word`` (a name it translated) with the user's own words in brackets
    right after it, spelled alike (a cognate: "Turin (Torino)", "Da Nang (Đà Nẵng)", "an SME (PME)";
    not "Paris (Lyon)")."""
    particle = r"(?:of|the|de|del|della|di|du|des|da|do|van|von|der|la|le)"
    for m in re.finditer(rf"(?<![\w'])({re.escape(word)}(?:\s+(?:{particle}\s+)?(?:[dl]'|[dl]’)?[A-ZÀ-ÖØ-Þ][\w'-]*)"
                         rf"{{0,4}})\s*\(([^()]{{1,60}})\)", content):
        said = _WORD.findall(m.group(2))
        alike = SequenceMatcher(None, _unaccented(m.group(1).casefold()), _unaccented(m.group(2).casefold())).ratio()
        if said and alike >= 0.4 and all(_found(w, evidence, evidence_words) for w in said):
            return True
    return False


def _inflected(word: str, names_said: set[str]) -> bool:
    """Whether a capitalised word of the evidence (``names_said``, folded) is ``word`` (a name of five
    letters or more) with a case ending, as languages that decline names write it ("Rusałka" in "wokół
    Rusałki", "Poznań" in "w Poznaniu"): the name without its last letter starts that word, which adds
    at most four letters. Not a different name that begins alike ("Austria" for "Australia", "Stripe"
    for "stripped", "Georgia" for "George")."""
    word = _unaccented(word.casefold().strip("'.-&"))
    stem = word[:-1]
    return len(word) >= 5 and any(w.startswith(stem) and len(w) - len(stem) <= 4 for w in names_said)


def _cognate(word: str, names_said: set[str], evidence_words: list[str]) -> bool:
    """Whether a name of the content (``word``, four letters or more) is a name the user wrote in another
    language, under its English form: an exonym ("Manila" for "Maynila", "Senate" for "Senado") — a
    capitalised word of the evidence (``names_said``) with the same first two letters, at least as long, and
    letters alike (``difflib`` ratio ≥ 0.9) or sharing all but the last two letters of the name — or a
    word derived from it ("Ljubljana" in "ljubljanskih": the name less its last letter begins the word), or
    the name in Arabizi ("3amman") or after a Celtic initial mutation ("Nghaernarfon").
    Not a different name ("Berlin" for "Bern", "Petra" for "Peter", "Genua" for "genau")."""
    word = _unaccented(word.casefold().strip("'.-&"))
    if len(word) < 4:
        return False
    if len(word) >= 6 and any(w.startswith(word[:-1]) for w in evidence_words):
        return True
    # a name written with Arabizi digits for letters ("3amman"), or after an initial mutation of the Celtic
    # languages ("yng Nghaernarfon", "i gCorcaigh"): the user's word ends with the name less its first letter
    for w in evidence_words:
        letters = re.sub(r"[235679]", "", w) if re.search(r"[^\W\d_]", w) else w
        if letters == word or (len(word) >= 5 and len(w) - len(word) <= 3 and w.endswith(word[1:])
                               and w[0] in "bcdfghmnt"):
            return True
    for w in names_said:
        if len(w) < len(word) or w[:2] != word[:2]:
            continue
        shared = len(os.path.commonprefix([word, w]))
        if SequenceMatcher(None, word, w).ratio() >= 0.9 or shared >= len(word) - 2 >= 4:
            return True
    return False


def _mostly_latin(text: str) -> bool:
    letters = [c for c in text if c.isalpha()]
    return not letters or sum(c.isascii() for c in letters) >= 0.6 * len(letters)


def unsupported_words(content: str, evidence: str, message: str = "", carried: str = "") -> list[str]:
    """The value-bearing words of ``content`` that ``evidence`` does not hold (module docstring), in
    content order without repeats; ``[]`` when the content follows from the evidence. A name may
    also come from the rest of the cited ``message``: "I've been with Rafaela since August. She's a
    paramedic" cites "She's a paramedic" for "Rafaela is a paramedic"; so may a plain number ("Year 7
    already" beside the cited words); an amount (a percentage, a currency), money and role words must
    be in the evidence itself. ``carried``: for an update, the memory it replaces, whose values the
    update may keep (checked as evidence); whether the evidence is mostly in Latin script is judged on
    the user's words alone (a memory in English beside "刚入职字节跳动" does not make them Latin)."""
    names = _unaccented(prompt_text(message).casefold()) if message else ""
    names_words = _WORD.findall(names)
    latin = _mostly_latin(_unaccented(prompt_text(evidence)))
    names_said = {_unaccented(w.casefold()) for w in _CAPITALISED.findall(prompt_text(evidence))}
    raw = prompt_text(f"{evidence} {carried}" if carried else evidence).casefold()
    content, evidence = prompt_text(content), _unaccented(raw)
    evidence_digits, said_digits = _digits(evidence), _digits(names)
    missing: list[str] = []
    for m in _NUMBER.finditer(content):
        number, digits = m.group(0), re.sub(r"\D", "", m.group(0))
        if digits in evidence_digits or any(digits in d for d in evidence_digits):
            continue
        money = re.match(r"\s*(?:%|(?i:percent|per cent|euros?|dollars?|pounds?|quid|bucks)\b|[$€£¥₹]|[A-Z]{3}\b)",
                         content[m.end():]) or \
            re.search(r"[$€£¥₹]\s*$", content[:m.start()])
        if not money and digits in said_digits:  # "Year 7" said in the cited message, not in the cited words
            continue
        missing.append(number.strip())
    if latin:
        evidence_words, raw_words = _WORD.findall(evidence), _WORD.findall(raw)
        english = reads_english(evidence_words)
        capitalised = _CAPITALISED.findall(content.split(" ", 1)[1] if " " in content else "")
        for word in [*capitalised, *_VALUE_WORDS.findall(content)]:
            kind_of_place = (word in capitalised and word.strip("'.-&").casefold() in _PLACE_KINDS
                             and not any(w in _PLACE_KINDS for w in evidence_words))
            if word.casefold() in _NUMBER_WORDS or kind_of_place:
                continue
            if _found(word, evidence, evidence_words, raw, raw_words):
                continue
            if names and word in capitalised and not _VALUE_WORDS.fullmatch(word) and _found(word, names, names_words):
                continue
            if word in capitalised and not _VALUE_WORDS.fullmatch(word) and (
                    _inflected(word, names_said) or _glossed(word, content, evidence, evidence_words)
                    or (not english and _cognate(word, names_said, evidence_words))):
                continue
            missing.append(word.strip("'.-&"))
    return list(dict.fromkeys(missing))
