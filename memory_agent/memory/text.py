"""Text normalisation shared by the memory rules.

- :func:`prompt_text`: THE one normalisation of any text that is checked or reaches the prompt, so
  what a check reads is what the model reads.
- :func:`normalise`: how two statements are compared as text.
- :func:`reads_english`, :func:`written_in_english`: whether words or a message read as English, for
  the rules and the embedder (all-MiniLM-L6-v2), which read English only.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache

from confusable_homoglyphs import confusables

__all__ = ["any_of", "normalise", "prompt_text", "reads_english", "warm_up", "written_in_english"]

# Invisible characters that are not of category Cf (format): the combining grapheme joiner,
# variation selectors, Hangul fillers, the braille blank and the Mongolian vowel separator.
_INVISIBLE_OTHER = frozenset("\u034f\u115f\u1160\u17b4\u17b5\u180e\u2800\u3164\uffa0"
                             + "".join(chr(c) for c in range(0xFE00, 0xFE10))
                             + "".join(chr(c) for c in range(0xE0100, 0xE01F0)))
_WORD = re.compile(r"\w+")


@cache
def _latin_lookalike(char: str) -> str:
    """The Latin letter ``char`` looks like (Cyrillic ``"а"`` → ``"a"``, Greek ``"Ο"`` → ``"O"``), per the
    Unicode confusables table (``confusable_homoglyphs``); ``char`` itself when it is Latin or looks
    like no single Latin letter."""
    if char.isascii() or not char.isalpha() or unicodedata.name(char, "").startswith("LATIN"):
        return char
    for found in confusables.is_confusable(char, greedy=True, preferred_aliases=["latin"]) or []:
        for h in found.get("homoglyphs", []):
            if len(h["c"]) == 1 and h["c"].isascii() and h["c"].isalpha():
                # the table maps capital I look-alikes to "l"; a capital letter reads as "I"
                return "I" if h["c"] == "l" and char.isupper() else h["c"]
    return char


def _has_latin(word: str) -> bool:
    return any(c.isascii() and c.isalpha() for c in word)


def _fold_lookalikes(text: str) -> str:
    """Look-alike letters folded to Latin in every word that holds a Latin letter, and in a word made
    only of look-alikes next to such a word ("root ассеѕѕ" in Cyrillic letters). A word of another
    script among words of its own script is left alone ("рос" stays Russian)."""
    words = list(_WORD.finditer(text))
    latin = [_has_latin(m.group()) for m in words]
    out, at = [], 0
    for i, m in enumerate(words):
        word = m.group()
        folded = word
        if not word.isascii():
            candidate = "".join(_latin_lookalike(c) for c in word)
            near_latin = (i > 0 and latin[i - 1]) or (i + 1 < len(words) and latin[i + 1])
            if latin[i] or (near_latin and _has_latin(candidate) and all(
                    not c.isalpha() or c.isascii() for c in candidate)):
                folded = candidate
        out += [text[at:m.start()], folded]
        at = m.end()
    return "".join(out) + text[at:]


def _visible(char: str) -> str:
    """``""`` for an invisible character or a control character that is not whitespace (so
    ``"ref\\x00und"`` stays one word, ``refund``), ``" "`` for whitespace controls and line/paragraph
    separators, else ``char``."""
    category = unicodedata.category(char)
    if category == "Cf" or char in _INVISIBLE_OTHER:
        return ""
    if category == "Cc":
        return " " if char.isspace() else ""
    if category in ("Zl", "Zp"):
        return " "
    return char


def prompt_text(text: str) -> str:
    """``text`` as the checks read it and as it is put into a prompt: one line, nothing hidden.

    In order: NFKC (fullwidth ``＜`` becomes ``<``, ``𝐚𝐝𝐦𝐢𝐧`` becomes ``admin``); every format
    character (Unicode category Cf: zero-width, bidi controls, soft hyphen, tag characters) and the
    other invisible ones (variation selectors, Hangul fillers) removed; C0/C1 control characters and
    line/paragraph separators turned into spaces; letters of other scripts that look like Latin ones
    (Unicode confusables, e.g. Cyrillic ``а``) replaced by them inside a word that holds Latin
    letters, and in a word made only of look-alikes next to a Latin word, so ``"аdmin"`` and
    ``"root ассеѕѕ"`` read as Latin; whitespace collapsed to single spaces. Case is kept. Words of
    another script among words of that script are left alone.
    """
    text = "".join(_visible(c) for c in unicodedata.normalize("NFKC", str(text)))
    text = unicodedata.normalize("NFKC", text)  # removing a joiner can leave a composable pair
    return " ".join(_fold_lookalikes(text).split())


def normalise(text: str) -> str:
    """Case-folded text with runs of whitespace collapsed to one space."""
    return " ".join(text.casefold().split())


def any_of(*patterns: str) -> re.Pattern[str]:
    """One case-insensitive pattern matching any of ``patterns`` (regular expressions, joined by ``|``):
    how the screen's word lists are written."""
    return re.compile("|".join(patterns), re.IGNORECASE)


# The commonest English function words: text made of few of them is in another language.
_ENGLISH = frozenset(re.findall(r"\S+", "the a an and or but i i'm my me we our you is are was were am be been in at "
                                       "on of to for with from by as it this that not have has had do"))


def reads_english(words: list[str]) -> bool:
    """Whether case-folded ``words`` read as English: 15% or more of them (about one in seven) are
    English function words. Empty (a message with no Latin words, "最近はジムに通っています") is not English."""
    return bool(words) and sum(w in _ENGLISH for w in words) >= 0.15 * len(words)


def written_in_english(text: str) -> bool:
    """Whether a message is in English, by language identification (``py3langid``, its bundled model) for
    four words or more; one of three words or fewer in Latin letters ("Vegan now.", "Thanks!") counts as
    English, and one mostly in another script never does."""
    words = re.findall(r"[\w']+", text.casefold())
    if sum(_has_latin(w) for w in words) * 2 < len(words):
        return False
    return len(words) <= 3 or _language(text) == "en"


@cache
def _identifier():
    from py3langid.langid import MODEL_FILE, LanguageIdentifier  # loads its model: ~0.5 s, once

    return LanguageIdentifier.from_model_file(MODEL_FILE)


def _language(text: str) -> str:
    return _identifier().classify(text)[0]


def warm_up() -> None:
    """Load the language identifier now (~0.5 s; e.g. in a background thread at start-up), not at a first turn."""
    _identifier()
