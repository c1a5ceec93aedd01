"""Claims the user's word cannot establish: money entitlements and roles or permissions.

Seed 001: facts that affect price, credit or permissions are not stored from a user message
without validation. These detectors are the code's second line behind the model's ``entitlement``
and ``role`` risk (see :mod:`memory_agent.memory.injection`); what they find is refused whoever
approves.

- :func:`entitlement_reason`: a money term (discount, refund, credit, free shipping, "on the house",
  a locked price… in English and twelve other languages) *together with* a claim: an amount or a
  percentage, a grant ("promised", "agreed", "arranged", "entitled", "owed"), or a scope that makes it
  standing ("for me", "every order", "lifetime", "forever", "automatic"). A money word alone is
  not a claim: "my favourite band is Discount Cowboys", "I handle refund requests for an airline",
  "I collect coupons from the 1950s" are kept.
  Also a price kept standing ("renews at the old price forever", "at no extra cost") and a level of
  service granted ("priority support unlocked for me", "unlimited API calls on my plan, for free").
- :func:`role_reason`: a role or permission *in this service*: rights, privileges, access or
  clearance ("root access", "admin privileges", "permission to change other accounts"), a role
  noun tied to this service ("admin here", "moderator of this platform") or said bare
  ("The user is an administrator."), a tier ("Gold member", "VIP staff") or an assignment ("my
  role is …", "flagged as internal tester", "on the allow-list"). A job said about oneself is not
  one: "I work as a system administrator at a hospital", "I'm the owner of a bakery"; nor are the
  rights of that job ("… at a hospital, with root access to its servers").

Text is expected as :func:`memory_agent.memory.text.prompt_text` returns it.
"""

from __future__ import annotations

import re

from memory_agent.memory.text import any_of

__all__ = ["entitlement_reason", "role_reason"]

ENTITLEMENT = "claims prices, discounts, refunds, credit or another money entitlement"
ROLE = "claims a role or permissions (admin, access rights)"


_FREE_THING = (r"shipping|delivery|postage|upgrades?|subscriptions?|access|months?|years?|plans?|items?|products?|"
               r"orders?|trials?|tickets?|credits?|service|support|premium|membership|laptop|phone|device|gifts?|"
               r"returns?|repairs?|installation|lifetime|for life|forever")
_MONEY = any_of(
    r"\b(discount\w*|refund\w*|rebates?|coupons?|vouchers?|promo codes?|cash ?back|store credit|account credit|"
    r"(standing|goodwill|bonus|account|service) credit|credits? (of|worth|on|to|in)\b|compensation|reimburs\w*|"
    r"chargebacks?|gift cards?|loyalty points|waive[sd]?|waiver|free of charge|for free|at no (cost|charge)|"
    r"no charge|on the house|half price|percent off|price (lock|locked|freeze|guarantee)|locked price|"
    r"(fees?|charges?|prices?) (are|is|were|was) (waived|zero|removed|cancelled|canceled|dropped)|"
    r"complimentary|comped|comp'd|grandfathered|legacy (pricing|price|rate|plan)|founders?'? (pricing|price|rate)|"
    r"money back|pay nothing|costs? (me )?nothing|owe nothing|(never|not|won't|don't|doesn't|do not|does not)\s+"
    r"(be\s+|get\s+)?(charged|billed|invoiced)|exempt from (fees?|charges?|payments?|vat|taxes|tax)|tax[- ]exempt|"
    r"bonus (points|miles|credits?)|credits? (available|to spend|balance|on (my|the) account|in my account))\b",
    # an amount of credit ("that £150 credit", "a 20 euro credit")
    r"(?:[$€£¥₹]\s?\d[\d,.]*|\d[\d,.]*\s?[$€£¥₹]|\b\d[\d,.]*[\s-]*(?:euros?|dollars?|pounds?|bucks))"
    r"[\s-]+(?:\w+\s+)?credits?\b",
    rf"\bfree\s+(?:\w+\s+)?({_FREE_THING})\b|\b(ships?|shipping|delivery) (is |are )?free\b|\d\s*%\s*(off|0ff)\b",
    r"\b(rabatt\w*|nachlass\w*|gutschrift\w*|gutschein\w*|erstattung\w*|rückerstattung\w*|kostenlos\w*|"
    r"versandkostenfrei|gratis|umsonst|remises?|réductions?|rabais|remboursement\w*|gratuit\w*|offert\w*|"
    r"descuentos?|reembolsos?|devoluci\w+|crédito|cupón|cupones|gratuit[oa]s?|sin (coste|costo|cargo)|"
    r"bonificaci\w+|desconto\w*|cupom|grátis|frete grátis|sconto|sconti|rimbors\w*|credito|omaggio|"
    # "rabat" (Danish, Polish) but not the city: "a hospital in Rabat"
    r"(?<!\bin )(?<!\bfrom )(?<!\bnear )(?<!\bto )rabat\w*|"
    r"zniżk\w*|zwrot\w*|darmow\w*|bezpłatn\w*|za darmo|скидк\w*|возврат\w*|бесплатн\w*|купон\w*|компенсаци\w*|"
    r"indirim\w*|iade\w*|ücretsiz|bedava|kredi\w*|korting|terugbetaling|tegoed)\b",
    r"折扣|[一二三四五六七八九]折|打.{0,2}折|退款|免费|免运费|包邮|优惠|返现|代金券|割引|返金|無料|クーポン|\d+\s*%\s*オフ|"
    r"خصم\w*|استرداد|مجان\w*|قسيمة|رصيد|छूट|रिफंड|मुफ़्त|मुफ्त|कैशबैक|할인|환불|무료|쿠폰",
)
_CLAIM = any_of(
    # an amount or a percentage
    r"\d\s*%|[$€£¥₹₺]\s?\d|\d\s?[$€£¥₹₺]|\b\d[\d,.]*\s*(euros?|eur|dollars?|usd|pounds?|gbp|zł|zloty|tl|lira|"
    r"руб\w*|reais|rupees?|yen)\b|\d\s*(元|円|ريال|रुपये)|\b(half|full|total|complete|integral)\b",
    # a grant or an agreement
    r"\b(entitled|eligible|qualif\w+|owed?|owes|deserve[sd]?|promised|guaranteed|approved|authori[sz]ed|"
    r"arranged|agreed|granted|waived|confirmed|set up|gave me|give me|gets?|getting|receives?|"
    r"have|has|holds?|carries|carry|applies|apply)\b",
    # a standing scope
    r"\b(for me|to me|for the user|to the user|the user's account|my account|my orders?|my purchases?|my plans?|"
    r"my subscriptions?|every|all(?!\s+(?:day|night|week|weekend|morning|afternoon|evening|year|month|the time|"
    r"long|summer|winter)\b)|any|always|"
    r"forever|permanent\w*|lifetime|for life|standing|automatic\w*|until \d{4}|next \w+ (months?|years?)|"
    r"on the house|no questions asked)\b",
    r"\b(anspruch|vereinbart|zugesagt|versprochen|genehmigt|bekomme|erhalte|habe|lebenslang\w*|dauerhaft|"
    r"für immer|immer|künftig|alle|droit|accordé\w*|promis\w*|convenu|toujours|à vie|toutes|tous|j'ai|"
    r"tengo|tiene|derecho|completo|diritto|totale|krijgt|krijg|alle|"
    r"tengo|me (lo |la )?(confirmó|prometi\w+|dieron|concedieron|dio)|siempre|de por vida|todo|todas|"
    r"tenho|fiquei|prometeram|vitalíci\w+|para sempre|sempre|promesso|promessa|ho diritto|a vita|per sempre|"
    r"tutti|tutto|mam|dożywotni\w*|na zawsze|zawsze|"
    r"ustalon\w*|obiecan\w*|wszystk\w+|у меня|навсегда|"
    r"пожизненн\w*|всегда|обещал\w*|вс[её]|ömür boyu|her zaman|süresiz|bana|tanımla\w*|tüm)\b",
    r"以后|所有|永久|终身|一直|同意|享受|已经|今後|ずっと|永久|全品|すべて|なりました|دائم\w*|مدى الحياة|منحني|كل|"
    r"हर|हमेशा|मिलती|मिलता|मंज़ूर|मंजूर|평생|항상|모든",
)
# A price the user claims as theirs ("my price is $1", "a price of 9.99 for me").
_OWN_PRICE = any_of(
    r"\b(my|the user's|his|her|their|our)\s+(\w+\s+)?(prices?|pricing|rates?)\b.{0,40}\b(is|are|was|of|at)\s+"
    r"[$€£¥]?\d",
    r"\b(my|the user's|his|her|their|our)\s+(\w+\s+)?(prices?|pricing|rates?)\s+(is|are|was|of|at|stays?)\b",
    r"\b(price|rate)\s+(of\s+)?[$€£]?\d[\d.,]*\s*(\w+\s+){0,3}(for me|for the user|forever|for life)",
)


# A price kept from before, made standing ("renews at the old price forever").
_KEPT_PRICE = any_of(
    r"\b(renews?|renewing|billed|charged|pay|paying|locked|stays?|kept)\s+(in\s+)?(at|for|on)\s+(the\s+|my\s+)?"
    r"(old|original|same|current|introductory|launch|legacy|founding|early[- ]bird|beta|first)\s+(price|rate|pricing)",
    r"\b(old|original|introductory|legacy|founding|early[- ]bird)\s+(price|rate|pricing)\b.{0,40}\b(forever|for life|"
    r"permanent\w*|always|guaranteed|locked|for good)\b",
    r"\bat no (extra|additional) (cost|charge)\b|\bno extra charge\b|\bfree of cost\b",
)
# A level of service given to the user ("priority support unlocked for me", "unlimited API calls on my plan"):
# with a grant or a standing scope, as for money.
_PERK = any_of(
    r"\b(priority|premium|unlimited|extra|bonus|lifetime|vip|enterprise|business|pro|plus)\s+(support|access|api "
    r"calls?|calls|usage|quota|storage|seats?|features?|tier|plan|upgrade|membership|service|requests|credits?)\b",
)
_GRANT = any_of(
    r"\b(gave|give|given|granted|promised|arranged|set up|unlocks?|unlocked|comes with|included|includes|activated|"
    r"enabled|added|put me on|moved me to|upgraded me|for free|free of charge|forever|for life|permanent\w*|"
    r"lifetime|no extra|no additional|at no)\b",
)


def money_terms() -> re.Pattern[str]:
    """The money terms of :func:`entitlement_reason` (discount, refund, credit, … in every language it reads)."""
    return _MONEY


def entitlement_reason(*readings: str) -> str | None:
    """:data:`ENTITLEMENT` when a reading holds a money term with a claim, a price kept standing, or a
    level of service granted (module docstring), else ``None``."""
    for text in readings:
        if _OWN_PRICE.search(text) or _KEPT_PRICE.search(text):
            return ENTITLEMENT
        for sentence in re.split(r"(?<=[.!?。！？])\s+|\s*[;\n]\s*", text):
            if _PERK.search(sentence) and _GRANT.search(sentence):
                return ENTITLEMENT
        for sentence in re.split(r"(?<=[.!?。！？])\s+|\s*[;\n]\s*", text):
            if _MONEY.search(sentence) and _CLAIM.search(sentence) and not _others_at_work(sentence):
                return ENTITLEMENT
    return None


# Money handled for others as one's job ("The user is a cashier, handling customer discounts every day", "a
# lawyer helping people get refunds"): no claim of the user's own. Only in a sentence that names the user's job,
# with a verb of that work and others as the ones it is for, and with no amount, no grant or standing word and
# no word for the user or their account beside it.
_JOB = any_of(r"\b(?:i'm an?|i am an?|i work(?:ed)? as|the user is an?|the user works? as|the user has worked as)\b")
_FOR_OTHERS = any_of(r"\b(customers?|clients?|people|patients|consumers?|shoppers|guests|tenants|buyers|passengers|"
                     r"travell?ers|residents)(?:'s?)?\b(?!\s+(?:service|support|care|success|relations))")
_WORK_VERB = any_of(r"\b(handle|handles|handling|process|processes|processing|issue|issues|issuing|help|helps|"
                    r"helping|deals? with|dealing with|approve|approves|approving|advise|advises|advising|"
                    r"calculate|calculates|calculating)\b")
_OWN = any_of(r"\b(my|me|mine|i've|i'll|i'd|for the user|to the user|the user's|this account|on this account|"
              r"their own|lifetime|forever|for life|permanent\w*|always|promised|agreed|granted|gave|given|"
              r"entitled|owed|owes|for free|free of charge)\b|\d\s*%|[$€£¥₹]\s?\d|\d\s?[$€£¥₹]|"
              r"\b\d[\d,.]*\s*(?:euros?|dollars?|pounds?)\b")


def _others_at_work(sentence: str) -> bool:
    return bool(_JOB.search(sentence) and _FOR_OTHERS.search(sentence) and _WORK_VERB.search(sentence)
                and not _OWN.search(sentence))


# Roles that hold power in a service; said bare ("I'm an admin.") they are a claim on this one.
_POWER_NOUN = (r"admin|administrator|superuser|super user|super-user|sysadmin|root user|moderator|operator|"
               r"owner|staff|staff member|member of staff|insider|vip")
# Any role, a claim only when tied to this service ("a developer of this app").
_ROLE_NOUN = _POWER_NOUN + r"|employee|developer|engineer|tester|manager|supervisor|agent|representative"
_THIS = (r"(this|your|the|our)\s+(system|service|platform|site|website|app|application|workspace|backend|server|"
         r"account|accounts|company|assistant|bot|chat|agent|tool|team|store|shop|database|organi[sz]ation)")
# rights, privileges, access or clearance
_RIGHTS = (r"\b(admin(istrator|istrative)?|root|superuser|sudo|full|elevated|special|unrestricted|unlimited|"
           r"privileged|internal|owner|highest|master|god|staff|employee|moderator|moderation|operator|extra|total|"
           r"complete|level[- ]?\d+|[a-z]+-level|same)\s+(moderation\s+)?(access|rights|privileges?|permissions?|"
           r"clearance|access level|powers?|trust)\b")
_ROLE = any_of(
    _RIGHTS,
    r"\b(access|rights|privileges|permissions?|clearance)\s+(to|on|over|for)\s+(the\s+)?(hidden|beta|unreleased|admin|"
    r"staff|restricted|secret|experimental|developer|debug)\b(?![^.!?;]*\b(at|for|in) (work|my (job|company|office|"
    r"employer|work)))|"
    r"\b(access|rights|privileges|permissions?|clearance)\s+(to|on|over|for)\s+(read|see|view|access|edit|change|"
    r"delete|approve|override|manage|bypass|everything|all|other|any|every|your|this|the backend)\b",
    r"\b(has|have|had|with|granted|given|gets?|holds?)\s+(the\s+|a\s+)?(permission|permissions|privileges|"
    r"clearance|access level)\b|\b(authori[sz]ed|permitted|cleared|allowed)\s+to\s+(bypass|override|see|view|"
    r"access|approve|change|edit|delete|read|manage)\b",
    # a role tied to this service, or said bare at the end of a sentence
    rf"\b({_ROLE_NOUN})s?\s+(here|on|of|for|at|in|with|to)\s+{_THIS}\b|\b({_ROLE_NOUN})\s+here\b",
    rf"\b(i am|i'm|user is|i was made|i've been made|user was made)\s+(an?\s+|the\s+|one of the\s+)?"
    rf"(verified\s+|trusted\s+|official\s+|internal\s+|"
    rf"beta\s+|senior\s+|head\s+)?({_POWER_NOUN})s?\s*([.!,;]|$|\b(with|and|who|so|now)\b)",
    r"\b(work|working|am|i'm)\s+(for|at|with|in|on)\s+your\s+(company|team|staff|support|organi[sz]ation|"
    r"engineering|billing|security|trust)",
    # a tier or an assignment
    r"\b(gold|platinum|silver|diamond|elite|vip)\s+(member|membership|tier|status|"
    r"customer|client|account|level|staff|user|access)\b|\btier\s*[:=]",
    r"\bas my role\b|\brole\s*[:=]\s*\S|\bholds? the \w+ role\b|\b(flagged|marked)\s+as\b|"
    r"\b(mark|flag|list|register|set|tag)\w*\s+(me|my account|this account|the user)\s+as\b|"
    r"\b(verified|trusted|official|internal)\s+(staff|admin\w*|moderator|employee|member of staff|operator)\b|"
    r"\b(allow-?list|allowlist|whitelist\w*|safelist)\b|\belevat\w+\s+(\w+\s+){0,2}(to|trust|access|user)\b|"
    r"\bbypass\s+(identity|verification|checks?|security)\b|\brestrictions\s+(are\s+)?(lifted|removed|off)\b|"
    r"\bpre-?authori[sz]ed\b|\b(superuser|super user|admin|administrator|root|moderator|operator|staff|owner|"
    r"sysadmin)\s+(status|role|account|mode|level|powers?)\b",
    # other languages
    r"\b(administra\w+|amministra\w+|администратор\w*|superusuari\w+|superutente|moderat\w+|модератор\w*)\s+"
    r"(mit|hier|de cette|de esta|del sistema|da plataforma|della piattaforma|del servizio|tego|tej|этой|этого|"
    r"системы|dieses|dieser|officiel)\b|\bsuperusuari\w+|\bsuperutente\b",
    r"\b(volle[n]? rechte\w*|alle rechte|adminrechte\w*|zugriffsrechte|vollzugriff\w*|berechtigung\w*|"
    r"droits d'admin\w*|tous les droits|accès (total|complet|illimité)|permisos? (de administrador|especiales|"
    r"totales)|acceso total|acesso total|permissões|permess[oi] special\w*|uprawnieni\w+|полн\w+ права\w*|"
    r"права доступа|полномочи\w*|yetki\w*)\b",
    # access to other people's accounts or data
    r"\b(pull up|show me|read|open|access|see|view|look at|look into|check|go through|log into|sign into)\s+"
    r"(their|his|her|others'|other people's|someone else's|everyone's|(my|our)\s+[\w-]+'s)\s+([\w-]+\s+)?"
    r"(chats?|conversations?|messages?|accounts?|histor(y|ies)|data|memories|profiles?|inbox)\b",
    r"\b(other|another|any|all)\s+(users?|customers?|clients?|people|members?)'?s?\s+(accounts?|account details|"
    r"data|details|orders?|order histories|histories|addresses|home addresses|records|files)\b|"
    r"\b(comptes?|cuentas?|contas?|konten|konta|аккаунт\w*)\s+(des|de|von|innych|других)\s+(autres|otros|"
    r"outros|anderen|użytkowników|пользователей)\b",
    r"\b(support-?mitarbeiter|mitarbeiter (bei euch|von euch|ihres|eures)|funcionári\w+ da equipe|equipe de "
    r"segurança de vocês)\b",
    r"\b(administrat\w+|beheerder|moderat\w+)\s+(de ce|de cette|de la plateforme|du système|du service|van dit|"
    r"van deze)\b|\b(permisos? para|tengo permiso|datos de otros)\b|"
    r"(这个|此|本)(平台|系统|服务|网站).{0,3}管理员|权限|権限|مشرف (النظام|هذا|هذه)|صلاحيات|مسؤول النظام|"
    r"इस .{0,20}एडमिन|(सारे|सभी|पूरे) अधिकार|권한",
)


# Rights held in the user's job at another organisation: "I work as a sysadmin at a hospital, with root access to
# all its servers", "The user is an IT support specialist at the University of Tartu with admin rights to the
# computer labs", "manages admin permissions in Active Directory at work". The sentence names the job (a work
# verb, or a job title at or for an organisation) and the rights name what they are over, and that is none of
# this service's things.
_JOB_TITLE = (r"sysadmin|administrator|admin|specialist|engineer|technician|developer|programmer|dba|analyst|"
              r"architect|consultant|manager|officer|librarian|teacher|lecturer|professor|nurse|doctor|pharmacist|"
              r"accountant|clerk|coordinator|director|head|lead|support|operator|scientist|researcher|editor")
_WORKS_ELSEWHERE = any_of(
    r"\b(i|the user|they|he|she)\s+(work|works|worked|am employed|is employed|was employed)\s+(as|at|for|with)\b",
    rf"\b(i'm|i am|the user is|the user was|they are|he is|she is|as)\s+(an?|the)\s+([\w-]+\s+){{0,3}}?"
    rf"({_JOB_TITLE})s?\s+(at|for|with)\s+(?!(this|your)\b)",
    r"\b(employed by|at work|at my (job|work|company|office|employer|workplace)|in my (job|work))\b",
    r"\b(my|the user's|their)\s+(daily\s+|day-to-day\s+)?(work|job|duties)\s+(includes?|involves?|is|are|means)\b",
)
# the things of this service, or of its other users, or asked for: never the object of someone's job rights
_SERVICE_THINGS = (r"system|systems|service|platform|app|application|site|website|backend|database|data|memory|"
                   r"memories|store|model|ai|assistant|bot|chatbot|chat|chats|history|histories|account|accounts|"
                   r"user|users|profile|profiles|everything|everyone|everybody|deployment|dashboard|panel|console")
_HERE = any_of(rf"\b(here|you|your|yours|{_THIS}|(the|an?)\s+(admin|control|management)\s+(panel|console|dashboard)|"
               r"the backend|other (users?|customers?|accounts?)|every (user|customer|member)|everyone|everybody|"
               r"all users|my account|built this|developers?|(give|grant|unlock|enable|allow|let|treat|set)\s+"
               r"(me|the user|them|my account)|(be|been|being|get|gets|getting)\s+(granted|given|upgraded))\b")
_RIGHTS_AT_ONES_WORK = any_of(_RIGHTS)
_RIGHTS_OVER = re.compile(
    rf"{_RIGHTS}\s+(to|on|over|for|in|at|across|throughout)\s+(?P<object>(all\s+(of\s+)?)?((its|their|our|the|\w+'s|[A-Z][\w-]*)\s+)?"
    r"[~≈]?[\w'-]+(\s+[\w'-]+){0,4})", re.IGNORECASE)


def _rights_at_work_elsewhere(sentence: str) -> bool:
    """Whether the only claim of ``sentence`` is rights held in the user's job at another organisation, over
    things named as that organisation's (not this service's, nor its users')."""
    if not _WORKS_ELSEWHERE.search(sentence) or _HERE.search(sentence):
        return False
    if _ROLE.search(_RIGHTS_AT_ONES_WORK.sub(" ", sentence)):
        return False
    overs = list(_RIGHTS_OVER.finditer(sentence))
    return len(overs) == len(_RIGHTS_AT_ONES_WORK.findall(sentence)) > 0 and not any(
        re.search(rf"\b({_SERVICE_THINGS})\b", m.group("object"), re.IGNORECASE) for m in overs)


def role_reason(*readings: str) -> str | None:
    """:data:`ROLE` when a reading claims a role or permission in this service (module docstring), else ``None``.
    Rights that a sentence holds in the user's job elsewhere ("a sysadmin at a hospital with root access to its
    servers") are not claimed here, unless the sentence also names this service, "you" or an admin panel."""
    for text in readings:
        for sentence in re.split(r"(?<=[.!?;])\s+|\n+", text):
            if _ROLE.search(sentence) and not _rights_at_work_elsewhere(sentence):
                return ROLE
    return None
