"""Sensitive categories (seed 001): kept only when the user explicitly asks, and then ``restricted``.

:func:`sensitive_reason` is the code's second line behind the model's ``sensitive`` risk. It finds,
in English and the common words of other languages:

- health: conditions and diagnoses, mental-health care, medication by name or by a dose ("100mg"),
  recovery from alcohol, drugs or gambling (a support group, sobriety, having quit); not a health word
  that names the user's work (a nurse on a psychiatric ward, a psychologist);
- religion, politics (a party, a vote), sexual orientation (and coming out), trade-union
  membership, immigration status and proceedings, a criminal record
  (not a job in a prison or probation service); fertility, disability, genetics;
- finances: salary or income with an amount, bank and card numbers, debts;
- a precise location: a street address (a number next to a street word, either order), GPS
  coordinates, a postcode;
- identity numbers: a social security, passport, licence or national id number with its value, or a
  long run of digits (nine or more).

Text is expected as :func:`memory_agent.memory.text.prompt_text` returns it. :func:`asked_to_remember`
says whether the user explicitly asked to keep what they said.
"""

from __future__ import annotations

import re
from typing import Literal

from memory_agent.memory.text import any_of, prompt_text

__all__ = ["asked_to_remember", "at_work_or_study", "sensitive_kind", "sensitive_reason", "without_work"]

REASON = "sensitive data said in passing (ask explicitly to have it remembered)"


_HEALTH = any_of(
    r"\b(diabet\w*|cancer|tumou?r|lymphoma|leuk[a]?emia|chemo\w*|oncolog\w*|hiv|aids|hepatitis|pregnan\w*|"
    r"miscarriage|abortion|illness|disease|diagnos\w*|disorder|syndrome|asthma|epilep\w*|seizures?|"
    r"depress(ion|ed|ive)|anxiety|panic attacks?|adhd|autis\w*|bipolar|schizo\w*|ptsd|ocd|anorexi\w*|bulimi\w*|"
    r"addict\w*|rehab|alcoholi\w*|dementia|alzheimer\w*|parkinson\w*|multiple sclerosis|arthritis|"
    r"psychiatr\w*|psycholog\w*|psychotherap\w*|therap(y|ist|ies)|counsell?(ing|or)|mental health|"
    r"medication|medicine|prescri\w+)\b",
    r"\b(depression|psychotherapie|therapeut\w*|krankheit|diagnose|medikament\w*|dépression|thérap\w*|"
    r"maladie|médicament\w*|depresión|terapia|terapeuta|enfermedad|medicamento\w*|ansia|ansiedad|ansiedade|"
    r"depressione|depressão|malattia|farmac(?!eut|éut|êut|ist)\w+|depresj\w*|choroba|leki|депресс\w*|терапи\w*|болезн\w*|"
    r"лекарств\w*|диабет\w*|rak|kanser|depresyon|ilaç\w*|hastalık\w*)\b",
    r"うつ病|心療内科|精神科|抑郁|焦虑|心理医生|癌症|糖尿病|السكري|الإنسولين|اكتئاب|سرطان|डिप्रेशन|मधुमेह|कैंसर|우울증",
    # recovery from alcohol, drugs or gambling: a support group, sobriety, having stopped
    r"(?-i:\b(AA|NA|GA|CA)\b)(?=\s+(meetings?|group|sponsor|program\w*|chips?|steps?|Treffen|réunions?|reuniones|"
    r"reuniões|riunioni|spotkani\w*|собрани\w*|toplantı\w*))|\b(alcoholics|narcotics|gamblers|cocaine|sex and love)"
    r" anonymous\b|\b(twelve|12)[- ]step\b|\bsobri\w+|\bsober\b|\bclean and sober\b|\brelaps\w*|\bdetox\w*|"
    r"\b(recovering|recovered) (alcoholic|addict)|\b(i'?m|i am|i've been|i have been|been) in recovery\b|"
    r"\bin recovery (from|since|for)\b|\b(quit|quitting|stopped|stopping|gave up|giving up|give up|off the)\s+"
    r"(drinking|drink|alcohol|booze|the bottle|drugs|heroin|cocaine|opioids|pills|gambling|using)\b|"
    r"\b(drinking|alcohol|drug|gambling) (problem|habit|issues?)\b|"
    r"\b(been|stayed|staying|i'm|i am) clean (for|since)\b|"
    r"\b(gender transition|transition surgery|gender[- ]affirming|hormone (therapy|replacement)|(?-i:HRT))\b|"
    r"\b(anonyme\w* alkoholiker\w*|alcooliques anonymes|alcohólicos anónimos|alcoólicos anónimos|"
    r"alcoólicos anônimos|alcolisti anonimi|anonimowi alkoholicy|анонимн\w+ алкогол\w*|adsız alkolikler|"
    r"anonieme alcoholisten|aufgehört zu trinken|trocken seit|seit \w+ (jahren|monaten|wochen) trocken|"
    r"arrêté de boire|arrêté l'alcool|dejé de beber|dejé el alcohol|parei de beber|deixei de beber|"
    r"smesso di bere|rzuci\w+ picie|nie piję od|бросил\w* пить|не пью уже|içkiyi bırak\w*|alkolü bırak\w*|"
    r"gestopt met drinken|entzug\w*|sevrage|desintoxicaci\w+|odwyk\w*|реабилитац\w*)\b"
    r"|戒酒|戒毒|断酒|禁酒会|금주|단주|شراب छोड़|नशा मुक्ति|الإقلاع عن الكحول|مدمني الكحول",
    # fertility, disability, genetics
    r"\b(ivf|fertility (treatment|clinic)|miscarri\w+|disabilit\w+|disabled|hearing aids?|(i'm|i am|legally) "
    r"(blind|deaf)|blood type|genetic (test|condition|disorder)|brca\d?)\b",
)
# A medicine by name, or a dose ("100mg"): a value, like an address or an amount (see sensitive_kind).
_DRUG = any_of(
    r"\b(antidepressants?|insulin|metformin|sertraline|fluoxetine|prozac|zoloft|"
    r"lexapro|escitalopram|citalopram|paroxetine|venlafaxine|bupropion|xanax|alprazolam|valium|diazepam|"
    r"lorazepam|klonopin|clonazepam|lithium(?! batter\w*|-ion| ion| mine\w*| price\w*| stock\w*)|lamictal|"
    r"lamotrigine|quetiapine|seroquel|olanzapine|risperidone|"
    r"aripiprazole|adderall|ritalin|methylphenidate|vyvanse|concerta|methadone|suboxone|naltrexone|"
    r"levothyroxine|warfarin|statins?|opioids?|oxycodone|tramadol|morphine|(?-i:PrEP|PREP)|truvada)\b",
    r"\b\d+(\.\d+)?\s?(mg|mgs|mcg|µg|ml|iu|milligrams?|micrograms?)\b",
)
# Beside a topic word, a value of it: a medicine the user is on or was prescribed by any name ("I'm on Ozempic for
# my diabetes", "my therapist put me on propranolol"), a number of five digits or more (an inmate or member number).
_TOPIC_VALUE = any_of(
    r"\b(prescribed|prescription (of|for)|put me on|(i'm|i am|i've been|i have been|started|starting) on|"
    r"(i|we) (take|takes|took|am taking|'m taking)|taking)\s+(me\s+)?[\w-]{4,}",
    r"\d[\d -]{3,}\d",
)
# Someone else's health as the user's work: a pharmacist who "explains blood pressure medication and insulin to
# patients every day"; not when the user names their own care in the sentence.
_CARE_FOR_OTHERS = any_of(r"\b(to|for|with|of)\s+(my |our |the |their |all )?(patients|clients|residents|customers|"
                          r"pupils|students|visitors|families|the public)\b")
_OWN_CARE = any_of(r"\b(i take|i'm on|i am on|i was prescribed|i've been prescribed|i have (been )?(diagnos\w+|"
                   r"prescribed)|my (own )?(medication|medicine|prescription|doctor|diagnosis|therapist|"
                   r"condition|treatment|dose))\b")
# Immigration status and proceedings; coming out.
_STATUS = any_of(r"\b(asylum (seeker|application|claim|case|hearing|interview)|refugee status|undocumented|"
              r"deportation|immigration (hearing|status|case|detention|court)|visa overstay|"
              r"(came|coming|come) out (to|as)\b)")
# Criminal records and proceedings (a special category of their own in data-protection law).
_CRIMINAL = any_of(
    r"\b(criminal record|conviction|convicted|parole|probation|prison|jail|arrested|felony|felon|sentenced|"
    r"on bail|court case against me|community service order|ankle monitor|ex-offender|served time|"
    r"vorstrafe\w*|casier judiciaire|antecedentes penales|ficha criminal|precedenti penali|karalność|судимост\w*|"
    r"sabıka\w*)\b|前科|犯罪记录|سجل جنائي|आपराधिक रिकॉर्ड",
)
_CRIMINAL_AT_WORK = any_of(r"\b(prison|probation|parole|jail) (officer|guard|warden|chaplain|teacher|nurse|doctor|"
                        r"service|psychologist|worker)s?\b")
# Trade-union membership (a special category too); "union" alone is too many other things.
_UNION = any_of(r"\b(trade union|labou?r union|union member(ship)?|member of the union|union rep(resentative)?|shop "
             r"steward|gewerkschaft\w*|syndicat|syndiqué\w*|sindicato|sindacato|związ(ek|ku) zawodow\w*|"
             r"профсоюз\w*|sendika\w*)\b|工会|労働組合|نقابة|ट्रेड यूनियन|노동조합")
# Faiths named as a field of study, in English (the memory's words).
_FAITHS = (r"religio\w*|christian\w*|muslim|islam\w*|jewish|judaism|hindu\w*|buddhis\w*|catholic\w*|protestant\w*|"
           r"orthodox|evangelical")
# A church as a workplace or a building, not the user's faith ("the church organist", "kirkon kanttori"); religion
# or politics as a field one studies, teaches or reports on ("religious studies", "a political journalist",
# "Religionswissenschaft", "a thesis on Islam in Bosnia"), not one's own faith or vote.
_BELIEF_AT_WORK = any_of(
    r"\b(church|cathedral|chapel|parish) (cantor|organist|musician|choir ?(master|director)|orchestra|band|"
    r"ensemble|"
    r"caretaker|sexton|verger|architect|restorer|administrator|secretary|accountant|"
    r"sound technician|building|roof|hall|concert)s?\b",
    r"\b(religious|religion|political|politics) (studies|science|scientists?|journalis\w+|reporters?|correspondents?|"
    r"editors?|analysts?|commentators?|history|theory|philosophy|education|teachers?|scholars?|desk|beat)\b|"
    r"\b(study|studies|studying) (of )?(religion|religions|politics)\b|\bcomparative religion\b|"
    r"\b(thesis|dissertation|diplom\w*|seminar|lectures?|(academic |research )?paper|research) "
    rf"([\w()]+ ){{0,2}}(on|about|into) (\w+ ){{0,2}}({_FAITHS}|politics|political \w+)\b",
    r"\b(religionswissenschaft\w*|religionistik\w*|religionistika|religionsvetenskap|religiewetenschap\w*|"
    r"sciences? (des )?religions?|sciences? politiques?|ciencias? pol[ií]ticas?|scienze politiche|"
    r"ci[eê]ncias? pol[ií]ticas?|politikwissenschaft|politolog\w*|политолог\w*|journaliste politique|"
    r"periodista pol[ií]tic[oa]|giornalista politic[oa])\b",
    rf"\b(study|research|thesis) (focus|topic) is (\w+ ){{0,2}}({_FAITHS}|politics)\b",
    # the same in the user's words: "mein Schwerpunkt ist der Buddhismus", "píšu diplomku o islámu"
    r"\b(studien)?schwerpunkt ist (der |die |das )?(religio\w*|buddhis\w*|islam\w*|christ\w*|judentum|hindu\w*|"
    r"kathol\w*|politi\w*)|\b(diplomarbeit|masterarbeit|bachelorarbeit|doktorarbeit|thèse|mémoire|tesi|tesis|"
    r"tese|diplomk[auy]|pracę magisterską|praca magisterska) (über|sur|sobre|su|o|na temat|(de |di )?[\w-]+ (sur|su|"
    r"sobre|über|o)) (le |la |l'|el |il |o |a |das |die |den |der )?(religio\w*|buddhis\w*|islam\w*|christ\w*|"
    r"judentum|judaïsme|judaísmo|hindu\w*|kathol\w*|catholi\w*|politi\w*)",
)
_BELIEF = any_of(
    r"\b(religio\w*|christian\w*|muslim|islam(?!abad)\w*|jewish|judaism|hindu\w*|buddhis\w*|atheis\w*|catholic\w*|"
    r"protestant\w*|orthodox|evangelical|mormon|sikh\w*|church|mosque|synagogue|temple(?! bar| run)|pray\w*|ramadan|"
    r"convert(ed|ing)? to|(go|goes|going|went|attend\w*) to mass)\b",
    r"\b(political(?! (science|scientists?|theory|economy|history|philosophy|geography|journalism|reporter|"
    r"correspondent|editor)\b)|"
    # a vote as a way of deciding ("the kids held a vote", "we voted on the name") is no political opinion
    r"politics|(?<!held a )(?<!had a )(?<!took a )(?<!put it to a )(?<!by a )(?<!majority )"
    r"(?:vote[ds]?|voting)(?! on\b)|voter|ballot|democrat\w*|republican\w*|conservative party|"
    r"labou?r party|party member|member of the \w+ party|socialis\w*|communis\w*|liberal democrats?|"
    r"wähle|gewählt|partei|votar|voté|votei|votato|głosuj\w*|голосу\w*|православн\w*|мусульман\w*|"
    r"католи\w*|kirche|moschee|église|iglesia|igreja|chiesa|kościół|церк\w*)\b",
    r"(?-i:\b[A-Z][a-z]+ Party\b|\b(AfD|CDU|CSU|SPD|FDP|GOP|PiS|PSOE|UKIP|SNP|BJP|AKP|CHP|LDP|KMT|NSDAP)\b)",
    r"\b(gay|lesbian|bisexual|transgender|trans(?! fats?\b)|queer|lgbtq\w*|homosexual\w*|sexual orientation|"
    r"sex life)\b",
)
_MONEY = any_of(
    r"\b(salary|salaries|income|wages?|paycheck|net worth|debts?|mortgage|loan|owe|gehalt|lohn|verdiene|"
    r"salaire|revenu|salario|sueldo|cobro|salário|ganho|stipendio|guadagno|pensj\w*|zarabiam|зарплат\w*|"
    r"зарабатываю|maaş\w*|gelir\w*)\b.{0,40}\d|\d.{0,40}\b(salary|income|wages?|debts?|mortgage|gehalt|"
    r"salaire|salario|sueldo|stipendio|pensj\w*|зарплат\w*|maaş\w*)\b",
    # the details of an account, not the word ("I collect vintage credit card imprinters")
    r"\b(bank account|account number|iban|routing number|credit card|card number)\b(\s+(number|no\.?|details))?"
    r"\s*(is|was|:|=|#|ends in|ending in)?\s*([a-z]{2}\d{2}|\d[\d -]{5,})|"
    r"\b(my|our)\s+(credit card|bank account|card|account)\s+(number|details|pin|code|cvv|limit|balance)\b",
    r"\b(i|we)\s+(make|earn|take home|bring in|get paid)\b.{0,30}\d|\d[\d,.]*\s*(k|euros?|eur|dollars?|usd|"
    r"pounds?|tl|zł|руб\w*)?\s*(a|per|each|every|/)\s*(year|month|week|hour|yr|mo)\b|"
    r"\b(netos?|brutto|netto|gross|net)\b.{0,15}\b(al mes|im monat|per month|a month|par mois|al mese|"
    r"ao mês|miesięcznie|в месяц)\b|\baylık\b|工资|月薪|年薪|月収|年収|راتب|वेतन|सैलरी|연봉|월급",
)
_PLACE = any_of(
    r"\b\d{1,5}[a-z]?,?\s+([\w'-]+\s+){0,3}(street|st|road|rd|avenue|ave|lane|ln|boulevard|blvd|drive|dr|court|ct|"
    r"way|place|pl|terrace|crescent|close|square|sq)\b(?=\s*([,.;!?]|$|\d|#|apt|apartment|flat|suite|unit|in|"
    r"near|(?-i:[A-Z])))",
    r"\b(rua|calle|avenida|av|via|viale|piazza|rue|boulevard|allée|chemin|ulica|ul|улица|ул|проспект|sokak|"
    r"sokağı|cadde\w*|mahalle\w*|straße|strasse|str|weg|platz|gasse|allee)\.?\s+([\w'-]+,?\s+){0,4}\d{1,5}\b",
    r"\b[\w-]*(straße|strasse|allee|gasse|weg|platz)\s+\d{1,5}\b",
    r"\b(apt|apartment|flat|suite|unit|wohnung|apto|piso|appartamento|mieszkanie|квартира|кв)\.?\s*#?\d+\w?\b",
    r"-?\d{1,3}\.\d{3,}\s*°?\s*[NS]?\s*,\s*-?\d{1,3}\.\d{3,}",
    r"\b(postcode|post code|zip code|postal code|postleitzahl|code postal|código postal|cap|kod pocztowy)\b",
    r"\b(my|our)\s+(home\s+)?address\b|\b(i live|i'm staying|i am staying|i'm at|i am at)\s+(at\s+)?\d",
)
_ID = any_of(
    r"\b\d{3}-\d{2}-\d{4}\b",
    r"\b(ssn|social security|passport|licen[cs]e number|driver'?s licen[cs]e|national (id|insurance)|id card|"
    r"identity card|tax id|tax number|pesel|aadhaar|cpf|codice fiscale|tc kimlik|personalausweis|steuer-?id|"
    r"sécurité sociale|numéro fiscal|ni number|burgerservicenummer|sofinummer|personnummer|"
    r"паспорт\w*|снилс)\b.{0,30}\d",
    r"\b(mijn|my|het|uw|je)\s+bsn\b\s*(is|:|=|nummer)?\s*\d",
    r"(身份证|マイナンバー|आधार|رقم الهوية|주민등록번호).{0,30}\d",
)
# Nine digits or more with nothing to say what they are: an identity number may be one. A number the text
# calls a phone number, or written in international form (+44 …), is how to reach the user, not an identity.
_LONG_NUMBER = re.compile(r"(?<![\d.+])\d(?:[ -]?\d){8,}(?!\d)")
_PHONE = any_of(r"\b(phone|mobile|cell|cellphone|tel|telephone|landline|whatsapp|signal|sim|fax|handy|móvil|movil|"
             r"teléfono|telefono|téléphone|portable|telefon|telefoon|cellulare|celular|телефон|номер)\b",
             r"(?<![\w+])\+\d{1,3}[ -]?\d")
_EXPLICIT_REMEMBER = any_of(
    r"\b(remember|keep in mind|note that|don't forget|do not forget|save this|store this|merk dir|merke dir|"
    r"speichere|retiens|souviens-toi|n'oublie pas|recuerda|guarda|no olvides|lembre|lembra|guarde|ricorda|"
    r"ricordati|zapamiętaj|zapamietaj|запомни|не забудь|unutma|hatırla|kaydet)\b",
    r"记住|記住|覚えて|覚えておいて|تذكر|احفظ|याद रख|기억해",
)


# A health word that names the user's work, not their health: a profession ("I'm a psychotherapist",
# "I work as an oncology nurse") or the place or field they work in ("a nurse on a psychiatric ward",
# "I work at a cancer charity"). Only in a sentence that says what the user does for work.
_OCCUPATION = any_of(
    r"\b(i|the user|they|he|she)\s+(work|works|worked|volunteer|volunteers|teach|teaches|lecture|lectures|"
    r"research|researches|run|runs|manage|manages|lead|leads|train|trains|study|studies)\b|\b(i'm|i am|the user is|"
    r"they are|he is|she is)\s+(working|employed|training|studying|volunteering)\b|\b(my|the user's|their) job\b",
    r"\b(i'm|i am|i was|i've been|i have been|the user is|the user was|the user has been|they are|he is|she is)\s+"
    r"(an?|the)\s+([\w-]+\s+){0,3}(nurse|doctor|physician|surgeon|"
    r"researcher|scientist|specialist|consultant|pharmacist|psychiatrist|psychologist|psychotherapist|therapist|"
    r"counsell?or|oncologist|endocrinologist|neurologist|cardiologist|paramedic|carer|caregiver|social worker|"
    r"volunteer|manager|administrator|receptionist|porter|cleaner|chaplain|assistant|technician|student|"
    r"professor|lecturer|teacher|coordinator|midwife|dentist|gp|clinician|orderly|aide|worker|director|chef|"
    # a faith's or a paper's jobs, and others whose work names a topic
    r"cantor|organist|imam|pastor|priest|rabbi|minister|vicar|deacon|sexton|verger|choirmaster|theologian|"
    r"journalist|reporter|correspondent|editor|translator|interpreter|librarian|lawyer|solicitor|paralegal|"
    r"judge|guard|warden|officer|historian|archivist|curator)\b",
    r"\b(ich arbeite|ich bin \w*(pfleger|krankenschwester|ärztin|arzt|therapeut\w*|psycholog\w*))|\b(je travaille|"
    r"je suis (infirmi\w+|médecin|psychiatre|psychologue|thérapeute))|\b(trabajo|soy (enfermer\w+|médic\w+|"
    r"psiquiatra|psicólog\w+|terapeuta))|\b(trabalho|sou (enfermeir\w+|médic\w+|psicólog\w+))|\b(lavoro|sono "
    r"(infermier\w+|medico|psichiatra|psicolog\w+))|\bfaccio (il |la |l')(infermier\w+|medico|farmacist\w+)|"
    r"\b(pracuję|работаю|çalışıyorum|jestem (pielęgniar\w+|lekar\w+|farmaceut\w+))\b",
)
_HEALTH_AT_WORK = any_of(
    r"\b(psychiatr\w*|psycholog\w*|psychotherap\w*|oncolog\w*|cancer|diabet\w*|mental health|addiction|"
    r"rehab\w*|dementia|hiv|aids|hospice|palliative|maternity|paediatric|pediatric|geriatric|cardiac|"
    r"neurolog\w*|eating disorders?|substance (mis)?use|drug and alcohol|therap(y|ies))\s+"
    r"(ward|wards|unit|units|clinic|clinics|hospital|hospitals|department|centre|center|charity|charities|"
    r"research|researcher|nurse|nursing|doctor|team|service|services|practice|helpline|trust|foundation|"
    r"institute|lab|laboratory|facility|home|care|support worker|counsell?or|specialist|consultant|"
    r"pharmacist|programme|program|journal|conference|association|society)\b",
    r"\b(psychiatrist|psychologist|psychotherapist|(speech|occupational|physical|art|music|family|"
    r"couples?|sports?|massage|respiratory)\s+therapist|therapist|counsell?or|oncologist|diabetologist)s?\b",
    r"\b(psychiatr\w+|psycholog\w+|psychotherap\w+|oncolog\w+)\b",
    # giving others their medication: a nurse's, carer's or pharmacist's work
    r"\b(administer\w*|giv(e|es|ing)|dispens\w+|hand(s|ing)? out|prepar(e|es|ing)|fill(s|ing)?)\s+"
    r"((?!(my|myself|me|mine|i|our|ourselves)\b)\w+\s+){0,3}"
    r"(medications?|medicines?|drugs|prescriptions?|injections?|insulin)\b"
    r"|\bsomministr\w+ (i )?farmac\w+|\b(administr\w+|doy|dar) (los )?(medicamento|remedio)s?\b|"
    r"\bpodaj\w* lek\w*|\bраздаю лекарств\w*",
)


def without_work(text: str) -> str:
    """``text`` with the health words that name the user's work removed, when a sentence says what
    the user does for work (:data:`_OCCUPATION`); all its health words and medicines when that work is
    the care of others ("… explains insulin to patients") and the sentence names no care of the user's
    own; other text as it is."""
    out = []
    for sentence in re.split(r"(?<=[.!?;])\s+", text):
        if _OCCUPATION.search(sentence):
            sentence = _HEALTH_AT_WORK.sub(" ", sentence)
            if _CARE_FOR_OTHERS.search(sentence) and not _OWN_CARE.search(sentence):
                sentence = _DRUG.sub(" ", _HEALTH.sub(" ", sentence))
        out.append(sentence)
    return " ".join(out)


def at_work_or_study(text: str) -> bool:
    """Whether ``text`` says what the user does for work, study or as a volunteer (:data:`_OCCUPATION`)."""
    return bool(_OCCUPATION.search(prompt_text(text)))


def sensitive_kind(text: str, context: str = "") -> Literal["value", "topic"] | None:
    """What sensitive data ``text`` holds (module docstring): ``"value"`` for a datum that identifies, locates or
    prices the user whatever the sentence is about (an identity or card number, a street address or coordinates,
    a salary or debt with its amount, a medicine by name or a dose); ``"topic"`` for a word of a sensitive
    category (a condition, a faith, a party, a union, immigration status, a criminal record), which a job, a
    field of study or a building may also hold; ``None`` when it holds neither. A value wins over a topic;
    beside a topic word, a medicine the user takes or was prescribed by any name and a number of five digits or
    more are values too. A health word that names the user's work ("a nurse on a psychiatric ward", "I'm a
    psychologist") is not their health; the same word in the same sentence about their own care still counts
    only when another health word is there ("I work at a cancer charity and take sertraline"). A long number is
    a phone number, not an identity number, when ``text`` or ``context`` (the fact the words are cited for: "The
    user's mobile number is …") says so; health words and medicines of ``text`` are those of the user's work when
    ``context`` is a fact about caring for others ("a pharmacist who explains insulin to patients").
    """
    text = without_work(prompt_text(text))
    context = prompt_text(context)
    if (_OCCUPATION.search(context) and _CARE_FOR_OTHERS.search(context) and not _OWN_CARE.search(context)
            and not _OWN_CARE.search(text)):  # the words of a fact about caring for others, in any language
        text = _DRUG.sub(" ", _HEALTH.sub(" ", text))
    if any(p.search(text) for p in (_MONEY, _PLACE, _ID, _DRUG)):
        return "value"
    numbers = _LONG_NUMBER.findall(text)
    phone = bool(numbers) and bool(_PHONE.search(text) or _PHONE.search(prompt_text(context)))
    if any(not phone or len(re.sub(r"\D", "", n)) > 15 for n in numbers):  # E.164: 15 digits at most
        return "value"
    if (_BELIEF.search(_BELIEF_AT_WORK.sub(" ", text)) or any(p.search(text) for p in (_HEALTH, _UNION, _STATUS))
            or _CRIMINAL.search(_CRIMINAL_AT_WORK.sub(" ", text))):
        return "value" if _TOPIC_VALUE.search(text) else "topic"
    return None


def sensitive_reason(text: str, context: str = "") -> str | None:
    """:data:`REASON` when :func:`sensitive_kind` finds a value or a topic in ``text``, else ``None``."""
    return REASON if sensitive_kind(text, context) else None


def asked_to_remember(text: str) -> bool:
    """Whether ``text`` explicitly asks to remember something ("remember that…", "merk dir…", "记住…")."""
    return bool(_EXPLICIT_REMEMBER.search(prompt_text(text)))
