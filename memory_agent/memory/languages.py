"""The English names of the languages of ISO 639-1 (the two-letter codes), lower case.

A presentation preference names the language of the answers ("from now on answer me in Bulgarian");
a memory translated into English names the user's language the same way. Names that are also common
English words or too short to tell apart ("ewe", "ido", "yi") are left out. Source: the English
names of the ISO 639-1 code list, with the common alternative names (Farsi, Odia, Slovene).
"""

from __future__ import annotations

__all__ = ["LANGUAGE_NAMES", "language_names_pattern"]

_NAMES = """
abkhazian afar afrikaans akan albanian amharic arabic aragonese armenian assamese avaric avestan aymara
azerbaijani bambara bashkir basque belarusian bengali bangla bislama bosnian breton bulgarian burmese catalan
chamorro chechen chichewa chinese mandarin cantonese chuvash cornish corsican croatian czech danish dhivehi dutch
dzongkha english esperanto estonian faroese fijian filipino finnish french galician georgian german greek
guarani gujarati haitian creole hausa hebrew herero hindi hungarian icelandic igbo indonesian interlingua
inuktitut inupiaq irish italian japanese javanese kalaallisut kannada kanuri kashmiri kazakh khmer kikuyu
kinyarwanda kyrgyz kirghiz komi kongo korean kurdish kwanyama lao latin latvian limburgish lingala lithuanian
luxembourgish macedonian malagasy malay malayalam maltese manx maori marathi marshallese mongolian nauruan
navajo ndebele ndonga nepali norwegian nynorsk bokmål occitan ojibwe oriya odia oromo ossetian punjabi panjabi
pashto persian farsi polish portuguese quechua romanian moldovan romansh rundi kirundi russian samoan sango
sanskrit sardinian serbian shona sindhi sinhala sinhalese slovak slovenian slovene somali sotho sesotho spanish
castilian sundanese swahili swati swedish tagalog tahitian tajik tamil tatar telugu thai tibetan tigrinya tongan
tsonga tswana turkish turkmen twi uyghur uighur ukrainian urdu uzbek venda vietnamese volapük walloon welsh
wolof xhosa yiddish yoruba zhuang zulu
"""
LANGUAGE_NAMES: frozenset[str] = frozenset(_NAMES.split())


def language_names_pattern() -> str:
    """A regex alternation of :data:`LANGUAGE_NAMES`, longest first (for use inside ``\\b(...)\\b``)."""
    return "|".join(sorted(LANGUAGE_NAMES, key=len, reverse=True))
