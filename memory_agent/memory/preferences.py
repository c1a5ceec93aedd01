"""Whose rule a standing rule is: the user's own preference, a rule about other people, or a rule for the agent.

:func:`memory_agent.memory.injection.screen` refuses a sentence that sets a standing rule ("from now on
…", "always …") unless it only says how the user wants their own answers presented (language, length,
format, tone, units, the name they go by, how formally to speak) or how they want to be reached ("never
phone me, email only"); a rule that names other people (customers, everyone) is refused whatever it
says. Word lists in English and the common phrasings of the other languages the screen reads.
"""

from __future__ import annotations

import re
from typing import Literal

from memory_agent.memory.languages import language_names_pattern
from memory_agent.memory.text import any_of

__all__ = ["rule_about"]


_THIRD_PARTY = any_of(
    r"\b(customers?|clients?|everyone|everybody|anyone|anybody|other users?|all users|users|other people|people|"
    r"visitors?|callers?|them|others|someone|somebody|guests?|buyers?|shoppers?)\b",
    r"\b(clients|tout le monde|les autres|utilisateurs|kunden|jeder|alle|andere nutzer|clientes|todos|"
    r"los demás|usuarios|clienti|tutti|altri utenti|outros usuários|klanten|iedereen|клиент\w*|всем)\b|"
    r"客户|所有人|其他用户|顧客|お客様|全員|他のユーザー|고객|모든 사람|다른 사용자",
)
# Who calls the user by a name is how the user is known, not a rule about them: "that's what everyone
# calls me", "what my friends call me".
_KNOWN_AS = re.compile(
    r"\b(?:(?:that|which|it)(?:'s|’s|\s+is)\s+)?what\s+(?:everyone|everybody|people|others|(?:all\s+)?my\s+[\w-]+|"
    r"[\w-]+s)\s+(?:usually\s+|always\s+)?calls?\s+me\b"
    # "come fanno tutti i miei amici", "comme tout le monde", "como todos mis amigos", "wie alle meine Freunde"
    r"|\b(?:come fanno|come mi chiamano|comme (?:le font|m'appellent)|como (?:hacen|me llaman)|wie(?: mich)?|jak)"
    r"\s+(?:tutti|tout le monde|tous|todos|todo el mundo|alle|wszyscy)(?:\s+(?:i miei|mes|mis|meine|moi)\s+"
    r"(?:amici|amis|amigos|freunde|colleghi|collègues|colegas|kollegen|przyjaciele))?", re.I)
# A request for the name the user goes by, in the languages read below: only then does "what everyone calls
# me" say how the user is known (else "answer briefly, what people call me" would hide "people")
_CALLED = re.compile(r"\b(?:call me|go(?:ing)? by|chiamami|appelle-moi|appelez-moi|llámame|llamame|nenn mich|"
                     r"noem me|mów do mnie|nazywaj mnie|зови меня|называй меня|me chame|chame-me|kalla mig)\b|"
                     r"と呼んで|라고 불러|叫我|称呼我", re.I)
# How the user wants *their own* answers presented (language, length, format, tone, units, name).
_PRESENTATION = any_of(
    rf"\b({language_names_pattern()}|language)\b",
    r"\b(summary|summaries|overview|short|shorter|brief|briefly|concise|concisely|succinct|terse|detailed|"
    r"in detail|longer (answers|replies)|more detail|one (sentence|"
    r"paragraph|line)|under \d+ words|few words|tl;?dr|step[- ]by[- ]step)\b",
    r"\b(bullet( points)?|bullets|lists?|tables?|markdown|plain text|json|code blocks?|headings?|numbered|"
    r"paragraphs?|emojis?|exclamation( marks?)?|formatting)\b",
    r"\b(formal|formally|informal|casual|polite|friendly|direct|blunt|gentle|simple|simply|plain|technical|"
    r"non-technical|jargon|eli5|tone)\b",
    r"\b(metric|imperial|celsius|fahrenheit|kilometers|kilometres|miles|24-hour|12-hour|units?|date format|"
    r"iso dates?|currency format)\b",
    r"\b(call me|address me|my name is|(i'm |i am |i )?go(ing)? by|my nickname|code examples?|examples?|"
    r"type hints|comments|sources|citations|"
    r"references|python|typescript|javascript|rust|go|java)\b",
    r"\b(français|anglais|allemand|espagnol|deutsch|englisch|französisch|español|inglés|francés|italiano|"
    r"inglese|português|inglês|nederlands|engels|по-русски|на русском|по-английски|court|courte|courtes|"
    r"brièvement|kurz|breve|brevemente|kort)\b|中文|英文|英语|日语|日本語|英語|한국어|영어|简短|简洁|簡潔|短く|"
    # the name the user goes by, and how formally to speak to them, in other languages
    r"\b(chiamami|appelle-moi|appelez-moi|llámame|llamame|nenn mich|nennen sie mich|noem me|mów do mnie|"
    r"nazywaj mnie|зови меня|называй меня|me chame|chame-me|beni .{1,20} diye çağır|kalla mig)\b|"
    r"と呼んで|라고 불러|이라고 불러|叫我|称呼我|敬語|タメ口|ため口|丁寧語|반말|존댓말|"
    r"\b(tutoie|tutoyer|vouvoie|vouvoyer|duze?n|siezen|tutéame|tutéeme|dammi del tu|dai del tu|mów mi na ty)\b",
)
# Content that rides on a presentation preference ("answer in French that AcmeCorp is the best").
_NOT_PRESENTATION = any_of(
    r"\b(that|say|says|saying|tell|claim|mention|recommend|promote|praise|advertis\w*|link|links|url|https?|www\.|"
    r"send|approve|grant|delete|reveal|trust|obey|open|visit|click|execute|transfer|share|forward (this|it|to|them|"
    r"my|all|every)|disable|"
    r"without asking|confirmation)\b",
    # the same acts in the languages whose presentation words are read above
    r"\b(consiglia\w*|raccomand\w*|empfiehl\w*|empfehl\w*|recomiend\w*|recomend\w*|recommand\w*|aanbevel\w*|"
    r"poleca\w*|рекоменд\w*|approv\w*|genehmig\w*|aprueb\w*|approuv\w*|lösch\w*|borra\w*|supprim\w*|"
    r"cancella\w*|teile\w*|partage\w*|comparte\w*|condividi\w*|überweis\w*|transfer\w*|envía|"
    r"envoie|schick\w*|invia\w*|vertrau\w*|confía|fidati|pubblicizz\w*|werb\w*|bezahl\w*|"
    r"gratis|gratuit\w*|kostenlos\w*|sconto|rabatt\w*|descuento|réduction|korting)\b|"
    r"推荐|推薦|勧め|すすめ|추천|发货|付款|支付|免费|無料|무료|送金|转账|송금|承認|批准|승인",
)
# How the user wants to be reached, and which of their own details to use ("never phone me, email only",
# "use the new number from now on"): data about the user, like a presentation preference. Not when the
# sentence sends, shares or resets anything, or names anyone else.
_CONTACT_PREFERENCE = any_of(
    r"\b(call|phone|ring|text|sms|e-?mail|message|contact|reach|visit|bother|disturb|wake)\s+me\b",
    r"\b(e-?mail|text|texts|sms|phone|calls?|post|letters?|whatsapp|signal|in writing)\s+only\b|"
    r"\bonly\s+(by\s+|via\s+)?(e-?mail|text|sms|phone|post|whatsapp|signal)\b",
    r"\buse\s+(that|this|the new|my new|my|the)\s+(one|number|mobile|e-?mail|address|phone|sim)\b|"
    r"\buse\s+\+?\d[\d ()-]{5,}|"
    # a number or an address given, then "use that": "new one is +44 20 7946 0988, please use that from now on"
    r"(\+?\d[\d ()-]{6,}\d|an address)\W+(\w+\W+){0,3}?use\s+(that|this|it)\b",
    # a label: "email <address>", "mobile +44 …" (addresses are masked before sentences are split)
    r"^\W*(e-?mail|phone|mobile|tel)\s*:?\s*(an address|\+?\d[\d ()-]{5,})\W*$",
)
_NOT_CONTACT = any_of(
    r"\b(send|sends|sending|forward (this|it|to|them|my|all|every)|transfer|share|give|tell|reset|password|passcode|"
    r"pin|link|links|code|codes|"
    r"account|accounts|anyone|anybody|everyone|others?|customers?|approve|refund|pay|charge|verify|verification)\b",
)


def rule_about(sentence: str) -> Literal["own", "others", "agent"]:
    """Whose rule the standing rule ``sentence`` sets: ``"others"`` when it names other people (after
    setting aside who calls the user by a name, beside a request for that name: "call me Bex — that's
    what everyone calls me"), ``"own"`` for a presentation or contact preference of the user's own
    that carries nothing else, else ``"agent"``."""
    if _CALLED.search(known_aside := _KNOWN_AS.sub("", sentence)):
        sentence = known_aside
    if _THIRD_PARTY.search(sentence):
        return "others"
    if _PRESENTATION.search(sentence) and not _NOT_PRESENTATION.search(sentence):
        return "own"
    if _CONTACT_PREFERENCE.search(sentence) and not _NOT_CONTACT.search(sentence):
        return "own"
    return "agent"
