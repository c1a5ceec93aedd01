"""Text normalisation shared by the memory rules: how two statements are compared as text, and the
one form in which any text is checked or reaches the prompt (:func:`prompt_text`)."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache


def normalise(text: str) -> str:
    """Case-folded text with runs of whitespace collapsed to one space."""
    return " ".join(text.casefold().split())


# Invisible characters outside Unicode category Cf: Hangul fillers, the braille blank and the
# variation selectors (combining marks that change no letter).
_INVISIBLE = frozenset("\u115f\u1160\u3164\uffa0\u2800") | frozenset(map(chr, range(0xFE00, 0xFE10))) | \
    frozenset(map(chr, range(0xE0100, 0xE01F0)))
_WORD = re.compile(r"\w+")


def prompt_text(text: str) -> str:
    """The one normalisation of any text that is screened or reaches the prompt.

    In order: NFKC (fullwidth ``＜`` becomes ``<``, ligatures and mathematical letters become plain
    letters); every format character (Unicode category Cf: zero-width characters, bidi controls,
    the soft hyphen, the byte-order mark, tag characters) and the invisible fillers of
    ``_INVISIBLE`` and the control characters (Cc) that are not whitespace removed (``ref\\x00und``
    reads ``refund``); tabs, line breaks, the line and paragraph separators (Zl, Zp) and every other
    space turned into spaces; letters of other scripts that look like Latin letters folded to them inside
    words that hold a Latin letter (``аdmin`` with a Cyrillic ``а`` reads ``admin``; a word wholly in
    another script is left as it is; tables of the Unicode Consortium's confusables list, through
    the ``confusable-homoglyphs`` package); runs of whitespace collapsed to one space, ends
    stripped. Case is kept.

    Args:
        text: any text (a non-string is converted with ``str``).

    Returns:
        One line of text, possibly empty.
    """
    chars = []
    for ch in unicodedata.normalize("NFKC", str(text)):
        cat = unicodedata.category(ch)
        if cat == "Cf" or ch in _INVISIBLE:
            continue
        if cat == "Cc" and not ch.isspace():  # NUL, DEL, C1 controls: gone, so a word stays whole
            continue
        chars.append(" " if ch.isspace() else ch)
    folded = _WORD.sub(_fold_word, "".join(chars))
    return " ".join(folded.split())


def _fold_word(match: re.Match[str]) -> str:
    word = match.group(0)
    if word.isascii() or not any(_script(ch) == "LATIN" for ch in word):
        return word
    return "".join(_latin_lookalike(ch) or ch for ch in word)


@lru_cache(maxsize=4096)
def _script(ch: str) -> str:
    from confusable_homoglyphs.categories import alias

    return alias(ch)


@lru_cache(maxsize=4096)
def _latin_lookalike(ch: str) -> str | None:
    """The ASCII letter that ``ch`` (a letter of another script) is confusable with, or ``None``."""
    if not ch.isalpha() or _script(ch) in ("LATIN", "COMMON"):
        return None
    from confusable_homoglyphs.confusables import confusables_data

    for glyph in confusables_data.get(ch, ()):
        if len(glyph["c"]) == 1 and glyph["c"].isascii() and glyph["c"].isalpha():
            return glyph["c"]
    return None
