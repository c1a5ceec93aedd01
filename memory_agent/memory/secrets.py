"""Credentials and secrets, which are never stored: the code detector behind the model's ``credential`` risk.

:func:`credential_reason` finds

- a secret named in words with its value: a password, PIN, passcode, door or alarm code, locker
  combination, recovery or 2FA code, seed phrase, code word, security answer, API key or token, followed by a
  value (``"my PIN is 4829"``, ``"Passwort lautet Sommer2024!"``, ``"密码是 660318"``, ``"şifrem Lale1453x"``),
  in English and the common phrasings of fifteen other languages. Naming a secret without its value
  is not one (``"I use a password manager"``, ``"a novel about a password thief"``);
- a secret whose value is any word, as for a password: the answer to a security question, a
  mother's maiden name, a seed or recovery phrase, a code word (``"the answer to my security question
  is Biscuit"``); and codes by their use: recovery, backup, one-time, SMS, verification codes, a card's
  CVV;
- a payment card number (13 to 19 digits passing the Luhn check), the card itself being a credential,
  and any digits given as the user's card ("my card is 4539, 1288, …");
- a login given with its password (``"my login is hebdenpots / Kiln$ummer88"``);
- a request to keep something *as* a secret (``"remember it as my PIN"``);
- a key or token by its shape: the detectors of ``detect-secrets`` (AWS, GitHub, Slack, Stripe, JWT,
  private keys, ``api_key = "..."`` assignments, quoted high-entropy strings; Yelp, Apache-2.0),
  scanned offline on the text itself, and long mixed-character tokens with a key prefix
  (``sk-``, ``tok_``, ``ghp_``) or of high entropy.

The text is expected as :func:`memory_agent.memory.text.prompt_text` returns it (the caller also
passes a leetspeak reading of it).
"""

from __future__ import annotations

import math
import re
from collections import Counter
from functools import cache

__all__ = ["card_numbers", "credential_reason", "holds_secret_value", "secret_values"]

REASON = "contains a password, PIN, key or other secret (never stored)"

# Words for a password: any value after a copula is one ("my password is hunter").
_PASSWORD = re.compile(
    r"\b(?:pw|pwd|pass(?=\s*[:=])|pass(?:word|words|wd|phrase|code)|passwort|kennwort|mot de passe|contraseña|"
    r"senha|palavra-passe|"
    r"has(?:ło|ła|łem|le)|парол\w*|şifre\w*|parola\w*)\b|密码|口令|パスワード|كلمة (?:المرور|السر)|पासवर्ड|비밀번호",
    re.IGNORECASE,
)
# Secrets whose value is any word, as for a password: the answer to a security question, a seed or
# recovery phrase, a code word or memorable word ("the answer to my security question is Biscuit").
_ANSWER_SECRET = re.compile(
    r"\b(?:(?:security|secret|verification|memorable|challenge)\s+(?:questions?|answers?|words?|information)|"
    r"answer to (?:my|the|a|your)\s+(?:\w+\s+){0,3}questions?|mother'?s maiden name|"
    r"(?:seed|recovery|mnemonic|backup|wallet)\s*-?\s*(?:phrase|words)|pass\s*phrase|"
    r"(?:code|safe|secret|magic|special|trigger|activation|key|pass)\s*-?\s*(?:word|phrase|term)s?|"
    r"sicherheitsfrage\w*|sicherheitsantwort\w*|geheimfrage\w*|mädchenname der mutter|"
    r"wiederherstellungsphrase|question (?:secrète|de sécurité)|réponse secrète|nom de jeune fille de (?:ma|la) mère|"
    r"phrase de (?:récupération|passe)|pregunta (?:de seguridad|secreta)|respuesta secreta|"
    r"frase (?:semilla|de recuperación|de recuperação|di recupero)|pergunta (?:de segurança|secreta)|"
    r"resposta secreta|domanda (?:di sicurezza|segreta)|risposta segreta|pytani\w* (?:bezpieczeństwa|"
    r"pomocnicz\w*)|fraz\w* (?:odzyskiwania|seed)|контрольн\w+ (?:вопрос\w*|слов\w*)|секретн\w+ (?:вопрос\w*|"
    r"слов\w*|фраз\w*)|сид-фраз\w*|мнемоническ\w+ фраз\w*|güvenlik sorusu\w*|gizli soru\w*|"
    r"kurtarma (?:ifadesi|kelimeleri)|beveiligingsvraag|herstelzin|"
    # anything given for verification is an answer to a check
    r"(?:for|as) (?:verification|authentication|identity (?:checks?|verification)|security (?:checks?|purposes)|"
    r"(?:phone|telephone|account) (?:banking|verification))|zur (?:verifizierung|identifizierung|authentifizierung)|"
    r"pour (?:la )?(?:vérification|authentification)|para (?:la )?(?:verificación|autenticación|verificação)|"
    r"per la verifica|do weryfikacji|для (?:проверки|верификации)|doğrulama için|voor verificatie)\b"
    r"|用于验证|验证用|確認用|للتحقق|सत्यापन के लिए|인증용"
    r"|安全问题|密保问题|助记词|秘密の質問|シードフレーズ|復元フレーズ|السؤال (?:الأمني|السري)|عبارة الاسترداد|"
    r"सुरक्षा प्रश्न|보안 질문|시드 문구",
    re.IGNORECASE,
)
# Other secrets: named with a value that holds a digit, a symbol or quotes ("my PIN is 4829").
_SECRET_NOUN = re.compile(
    r"\b(?:pin(?:\s*(?:code|number))?|pins|"
    r"(?:door|alarm|gate|locker|safe|lock|entry|access|garage|building|unlock|wifi|wi-fi)\s+(?:code|combination)|"
    r"combination|(?:recovery|backup|2fa|mfa|otp|one-time|one time|single-use|verification|confirmation|"
    r"authenticator|security|sms|login|log-in|sign-in|sign in|unlock|puk|tan)\s+"
    r"(?:codes?|keys?|seeds?|phrases?|numbers?|pins?)|(?:seed|recovery|mnemonic)\s+phrase|"
    r"security\s+(?:question|answer)s?|otp|(?-i:TAN|PUK|CVV2?|CVC2?|CID)|cvv2?|cvc2?|"
    r"card (?:security|verification) (?:code|value|number)|(?:three|3|four|4)[- ]digits? on the back|"
    r"security digits|"
    r"wiederherstellungscodes?|backup-codes?|einmal(?:code|passwort)|bestätigungscode|kartenprüfnummer|"
    r"prüfnummer|codes? de (?:récupération|secours|vérification|confirmation|sécurité)|cryptogramme|"
    r"códigos? de (?:recuperación|respaldo|verificación|seguridad|recuperação|verificação|segurança|backup)|"
    r"codic[ei] di (?:recupero|backup|verifica|sicurezza)|kody? (?:odzyskiwania|zapasow\w*|weryfikacyjn\w*|"
    r"jednorazow\w*|cvv)|код\w* (?:восстановления|подтверждения)|резервн\w+ код\w*|одноразов\w+ код\w*|"
    r"(?:kurtarma|yedek|doğrulama|onay|güvenlik) kod\w*|herstelcodes?|back-?upcodes?|verificatiecode|"
    r"(?:api|access|auth|bearer|secret|private|ssh|gpg|pgp|session|refresh)\s*[-_]?\s*(?:keys?|tokens?)|tokens?|"
    r"credentials|login\s+details|(?:code|safe|secret|magic)\s*-?\s*(?:word|phrase)s?|geheimzahl|"
    r"zugangs(?:code|daten)|code (?:pin|secret|d'accès)|identifiants|"
    r"clave(?: de acceso)?|código (?:pin|secreto|de acceso)|codice (?:pin|segreto|d'accesso)|token di accesso|"
    r"chiave|kod (?:dostępu|pin)|пин(?:-код)?|код доступа|токен\w*)\b"
    r"|验证码|密钥|令牌|恢复码|备用码|安全码|动态码|暗証番号|認証コード|確認コード|リカバリーコード|バックアップコード|"
    r"セキュリティコード|ワンタイムパスワード|トークン|رمز (?:الدخول|PIN|التحقق|الاسترداد|الأمان)|"
    r"رموز (?:الاسترداد|احتياطية)|"
    r"पिन|ओटीपी|(?:रिकवरी|बैकअप|सत्यापन) कोड|복구 코드|백업 코드|인증 ?코드|인증번호|보안 ?코드",
    re.IGNORECASE,
)
# Codes that are not secrets: addresses, numbers to dial, labels of things.
_PUBLIC_CODES = ("postal", "post", "zip", "area", "dialling", "dialing", "country", "dress", "tax", "sort", "airport",
                 "iata", "product", "discount", "promo", "coupon", "reference", "booking", "tracking", "order", "error",
                 "source", "style", "colour", "color", "language", "currency", "qr", "bar", "zone", "class", "course",
                 "flight", "ticket", "seat", "gate", "room", "house", "building", "department", "client", "customer")
# Any code or combination given with a value for something the user owns ("the code for the bike lock
# is 4471", "my garage opener combo: 12-34-56"): the value must hold a digit.
_OWN_CODE = re.compile(
    r"\b(?:my|the|our)\s+(?:[\w'-]+\s+){0,3}?" + "".join(f"(?<!{w} )" for w in _PUBLIC_CODES)
    + r"(?:codes?|combo|combination|digits)"
    r"(?=\s*(?:[:=]|is\b|are\b|was\b|for\s+(?:the|my|our)\b|to\s+(?:the|my|our)\b))",
    re.IGNORECASE,
)
# What a secret noun is followed by when the sentence is about the secret, not a value of it.
_NOT_A_VALUE = re.compile(
    r"\s*(?:managers?|resets?|policy|policies|thie(?:f|ves)|strength|hygiene|generators?|vaults?|apps?|fields?|"
    r"rules?|requirements?|changes?|leaks?|security|protection|expir\w*|game|manager)\b",
    re.IGNORECASE,
)
# A value: a copula or colon before something, or a token with a digit or a symbol inside it.
_COPULA = re.compile(
    r"^[^.!?;]{0,40}?(?:\s(?:is|are|was|were|iz|ist|lautet|est|es|é|è|to|jest|je|это|equals|answer|antwort|"
    r"réponse|respuesta|resposta|risposta|odpowiedź|ответ|cevab\w*|yanıt\w*|uitkomst|antwoord)\s+\S|[:=]\s*\S|"
    r"[是为は]\s*\S|\sهي\s|\s—\s*\S)",
    re.IGNORECASE,
)
_VALUE_TOKEN = re.compile(
    r"(?<![\w$€£])(?=[^\s,.;!?]*\d)(?![^\s]*\s+(?:times?|days?|years?|months?|weeks?|hours?|minutes?|"
    r"characters?|chars?|digits?|letters?)\b)[^\s,;]{3,}"
    r"|(?<!\w)['\"«“‘][^'\"»”’]{2,60}['\"»”’](?!\w)|\b[\w]+[-#!@$&*_][\w#!@$&*-]*\d[\w#!@$&*-]*",
)
# A year or a decade after a preposition ("changed in 2019", "tokens from the 1990s", "in the 90s") is a
# date, not a value.
_PUNCT_BOUND = re.compile(r"\b(?:in|since|for|every|after|before|by|until|of|from|the)\s+(?:the\s+)?\d{4}s?\b|"
                          r"\b(?:in|from|since|during)\s+the\s+['’]?\d[0o]s(?!\w)",  # "9os": "90s" read as leetspeak
                          re.IGNORECASE)
_KEEP_AS_SECRET = re.compile(
    r"\b(?:remember|save|store|keep|note|use)\s+(?:it|this|that|them|these|those)(?:\s+(?:one|number|code|word|"
    r"phrase|digits))?\s+as\s+(?:my|the|a)\s+"
    r"(?:\w+\s+)?(?:pin|password|passcode|code|key|token|secret|combination)\b",
    re.IGNORECASE,
)
_KEY_PREFIX = re.compile(r"\b(?:sk|pk|rk|tok|ghp|gho|ghs|github_pat|glpat|xox[abprs]|AKIA|AIza|key|api)[-_]"
                         r"[A-Za-z0-9_-]{8,}", re.IGNORECASE)
_LONG_TOKEN = re.compile(r"(?<![\w@./])[A-Za-z0-9+/_=-]{16,}(?![\w@])")


@cache
def _plugins() -> tuple:
    """The pattern plugins of ``detect-secrets`` (not the public-IP one: an address is not a secret)."""
    from detect_secrets.core.plugins.util import get_mapping_from_secret_type_to_class

    return tuple(cls() for cls in get_mapping_from_secret_type_to_class().values()
                 if cls.__name__ != "IPPublicDetector")


def _detect_secrets_hit(text: str) -> bool:
    """Whether a ``detect-secrets`` plugin finds a secret in ``text`` (regex and entropy checks only: no
    verification, no network)."""
    from detect_secrets.plugins import keyword
    from detect_secrets.plugins.high_entropy_strings import HighEntropyStringsPlugin

    for plugin in _plugins():
        if isinstance(plugin, keyword.KeywordDetector):
            found = [*plugin.analyze_string(text),
                     *plugin.analyze_string(text, keyword.CONFIG_DENYLIST_REGEX_TO_GROUP)]
        else:
            found = list(plugin.analyze_string(text))
        if isinstance(plugin, HighEntropyStringsPlugin):
            found = [s for s in found if plugin.calculate_shannon_entropy(s) > plugin.entropy_limit]
        if found:
            return True
    return False


def _entropy(token: str) -> float:
    counts = Counter(token)
    return -sum(c / len(token) * math.log2(c / len(token)) for c in counts.values())


def _looks_like_key(token: str) -> bool:
    """A long token mixing letter cases and digits with high entropy, the shape of a generated key."""
    classes = sum(bool(re.search(p, token)) for p in (r"[a-z]", r"[A-Z]", r"\d"))
    return classes >= 2 and bool(re.search(r"\d", token)) and _entropy(token) >= 3.3


_CARD_NUMBER = re.compile(r"(?<![\d.-])(?<!\d[ -])\d(?:[ -]?\d){12,18}(?![ -]?\d)")


def _luhn_ok(digits: str) -> bool:
    total = 0
    for i, d in enumerate(int(c) for c in reversed(digits)):
        total += d if i % 2 == 0 else (d * 2 - 9 if d > 4 else d * 2)
    return total % 10 == 0


def card_numbers(text: str) -> list[str]:
    """Payment card numbers in ``text``: 13 to 19 digits, spaces or hyphens allowed between them, that
    pass the Luhn check (ISO/IEC 7812) and do not repeat one digit."""
    found = []
    for m in _CARD_NUMBER.finditer(text):
        digits = re.sub(r"\D", "", m.group())
        if len(set(digits)) > 1 and _luhn_ok(digits):
            found.append(m.group())
    return found


# A login given with its password ("my Etsy login is hebdenpots / Kiln$ummer88"): the second part is a password.
_LOGIN_PAIR = re.compile(
    r"\b(?:login|log-in|sign-in|username|user name|user id|account|credentials)\s*(?:is|are|:|=)\s*"
    r"(?P<user>[^\s/|,;]+)\s*(?:/|\|)\s*(?P<pw>[^\s,;]{3,})", re.IGNORECASE)
# A payment card given as the user's with its digits ("my card is 4539 1288 …"), even where they do not
# pass the Luhn check or are split by commas: the card itself is a credential.
_CARD_GIVEN = re.compile(
    r"\b(?:my|the|our|their|the user's)\s+(?:(?:credit|debit|bank|visa|mastercard|amex|payment)\s+)?card"
    r"(?:\s+(?:number|no\.?|details|digits))?\s*(?:is|are|:|=)\s*(?P<v>\d{4}(?:[\s,.-]{1,2}\d{3,4}){0,4})",
    re.IGNORECASE)
_VALUE_AFTER_COPULA = re.compile(r"\s*[:=]?\s*(?:['\"«“‘](?P<q>[^'\"»”’]{1,60})['\"»”’]|(?P<t>[^\s,;]+))")
_STRIP = "'\"«»“”‘’.,;:!?()[]{}"


# A secret noun that names a value said just before it: "my lucky number is 550193 — it's also the PIN
# for my door", "… 7781, which is my alarm code"
_NAMES_BEFORE = re.compile(r"(?:\b(?:it|that|this|which|the same number|same)(?:'s|’s|\s+is|\s+was|\s+doubles\s+as)"
                           r"\s+(?:also\s+|actually\s+|really\s+|even\s+)?(?:my|the|our|a)\s+(?:[\w'-]+\s+){0,2})$",
                           re.IGNORECASE)


def _values_named(text: str) -> list[str]:
    """The values given with a secret noun in ``text`` (``"my PIN is 4829"`` → ``["4829"]``), and the one
    said just before a noun that names it (``"550193 — it's also my PIN"``)."""
    values = []
    for m in [*_PASSWORD.finditer(text), *_ANSWER_SECRET.finditer(text), *_SECRET_NOUN.finditer(text),
              *_OWN_CODE.finditer(text)]:
        if back := _NAMES_BEFORE.search(text[max(0, m.start() - 60):m.start()]):
            said = text[max(0, m.start() - 60 - 120):m.start() - len(back.group())].rstrip(" .!?;—–-,\n")
            before = re.split(r"[.!?;\n](?:\s|$)", said)[-1]
            values += [v.group() for v in _VALUE_TOKEN.finditer(_PUNCT_BOUND.sub(" ", before))][-1:]
        if _NOT_A_VALUE.match(text, m.end()):
            continue
        after = text[m.end(): m.end() + 80]
        copula = _COPULA.match(after)
        if m.re in (_PASSWORD, _ANSWER_SECRET) and copula:
            value = _VALUE_AFTER_COPULA.match(after, copula.end() - 1)
            values.append((value["q"] or value["t"]) if value else after[copula.end() - 1:])
        values += [v.group() for v in _VALUE_TOKEN.finditer(_PUNCT_BOUND.sub(" ", after[:50]))]
    return values


def secret_values(*readings: str) -> list[str]:
    """Every secret value found in ``readings`` (the values of :func:`credential_reason`'s findings:
    what follows a secret noun, key-like tokens), stripped of quotes and punctuation, without
    repeats. Used to keep a value out of every proposal made from the message that gave it, even
    one split into several sentences ("First part: 19-34.")."""
    found: list[str] = []
    for text in readings:
        found += _values_named(text)
        found += [m.group() for m in _KEY_PREFIX.finditer(text)]
        found += [t for t in _LONG_TOKEN.findall(text) if _looks_like_key(t)]
        found += card_numbers(text)
        found += [m["pw"] for m in _LOGIN_PAIR.finditer(text)]
        found += [g for m in _CARD_GIVEN.finditer(text) for g in re.split(r"[\s,.-]+", m["v"])]
    values = (v.strip(_STRIP).strip() for v in found)
    return list(dict.fromkeys(v for v in values if len(v) >= 3))


def holds_secret_value(text: str, values: list[str]) -> bool:
    """Whether ``text`` holds one of ``values`` (:func:`secret_values`): the whole value, or a word of
    it with a digit or of five letters or more ("Whiskers" of "Mr. Whiskers the Third"), case folded."""
    folded = text.casefold()
    words = set(re.findall(r"[\w#!@$&*-]+", folded))
    for value in values:
        value = value.casefold()
        if value in folded:
            return True
        if any(w in words for w in re.findall(r"[\w#!@$&*-]+", value) if len(w) >= 5 or re.search(r"\d", w)):
            return True
    return False


def credential_reason(*readings: str) -> str | None:
    """:data:`REASON` when any of ``readings`` (the text, and e.g. its leetspeak reading) holds a
    credential as the module docstring describes; ``None`` otherwise."""
    for text in readings:
        if _values_named(text) or _KEEP_AS_SECRET.search(text) or _KEY_PREFIX.search(text) or card_numbers(text):
            return REASON
        if _LOGIN_PAIR.search(text) or _CARD_GIVEN.search(text):
            return REASON
        if any(_looks_like_key(t) for t in _LONG_TOKEN.findall(text)):
            return REASON
    return REASON if _detect_secrets_hit(readings[0]) else None
