"""Ends the user states or implies for a fact ("until March 10", "this quarter", "for the next two
months"), read at the context clock, and the check of a model's ``valid_until`` against them.

A fact the user bounds in time must not outlive the bound: ``valid_until`` then replaces the kind's
default validity (:func:`memory_agent.memory.lifecycle.validity`), and an expired fact is never
injected. The model proposes the date (``ProposedFact.valid_until``, ISO ``YYYY-MM-DD``, the last
day the fact holds); code keeps it only when it is today or later at the context clock and grounded
in the user's words (:func:`check_valid_until`).

Phrases read by :func:`stated_ends` (English, case-insensitive):

- an end word (``until``, ``till``, ``through``, ``up to``, ``by``, ``to the end of``; ``back on``
  ends the day before) and a day:
  ``March 10``, ``10th of March``, ``2026-03-10``, ``the 20th``, ``Friday``, ``next Friday``,
  ``tomorrow``, ``tonight``; a month (``until March``: the day before it starts; ``through March``,
  ``the end of March``: its last day; ``mid-March``: the 15th);
- a period: ``this``/``next`` ``week``/``weekend``/``month``/``quarter``/``year``, ``the rest of the
  week``, ``the end of the month``: the period's last day (weeks end on Sunday, ISO 8601);
- a duration from today: ``for the next two months``, ``for 10 days``, ``for a fortnight``,
  ``over the coming weeks`` is not one (no number).

A day without a year is the next such day, unless it lies at most 30 days back (then it is that past
day, which :func:`check_valid_until` refuses as past: "I was away until March 10").
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta

_MONTHS = {m.lower(): i for i, m in enumerate(calendar.month_name) if m}
_MONTHS.update({m.lower(): i for i, m in enumerate(calendar.month_abbr) if m})
_MONTHS["sept"] = 9
_MONTH = r"(?:" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")\.?"
_WEEKDAYS = {d.lower(): i for i, d in enumerate(calendar.day_name)}
_WEEKDAY = r"(?:" + "|".join(_WEEKDAYS) + r")"
_NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
            "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "a couple of": 2, "a few": 3,
            "couple of": 2, "few": 3}
_NUMBER = r"(?:\d{1,3}|" + "|".join(sorted(map(re.escape, _NUMBERS), key=len, reverse=True)) + r")"
_ORD = r"(?:st|nd|rd|th)?"
_END_WORD = (r"\b(?P<lead>until|till|til|'til|untill|through|thru|up to|up until|by|to the end of|"
             r"till the end of|until the end of|back on|back by|back)\s+")
_DAY = (
    r"(?P<iso>\d{4}-\d{2}-\d{2})"
    rf"|(?P<d1>\d{{1,2}}){_ORD}(?:\s+of)?\s+(?P<m1>{_MONTH})(?:,?\s+(?P<y1>\d{{4}}))?"
    rf"|(?P<m2>{_MONTH})\s+(?P<d2>\d{{1,2}}){_ORD}\b(?:,?\s+(?P<y2>\d{{4}}))?"
    rf"|(?:the\s+)?(?P<part>end|middle|mid|start|beginning)(?:\s+of|-)\s*(?P<m3>{_MONTH})(?:\s+(?P<y3>\d{{4}}))?"
    rf"|mid-?(?P<m4>{_MONTH})"
    rf"|(?:the\s+)?(?P<d5>\d{{1,2}})(?:st|nd|rd|th)\b"
    rf"|(?P<next>next\s+)?(?P<wd>{_WEEKDAY})"
    r"|(?P<rel>tomorrow|tonight|today|the weekend)"
    rf"|(?P<m6>{_MONTH})(?:\s+(?P<y6>\d{{4}}))?\b"
)
_PERIOD = (r"\b(?:(?:for\s+|during\s+)?(?:the\s+)?rest\s+of\s+(?:the\s+|this\s+)"
           r"|(?:the\s+)?end\s+of\s+(?:the\s+|this\s+)"
           r"|(?P<which>this|next)\s+)(?P<unit>week|weekend|month|quarter|year)\b")
_DURATION = (rf"\b(?:for|over)\s+(?:the\s+)?(?:next\s+|coming\s+)?(?P<n>{_NUMBER})\s+"
             r"(?P<unit>days?|weeks?|months?|years?)\b|\bfor\s+(?:a\s+)?(?P<fortnight>fortnight)\b")
_PATTERNS = (re.compile(_END_WORD + r"(?:the\s+)?(?:" + _DAY + r")", re.I), re.compile(_PERIOD, re.I),
             re.compile(_DURATION, re.I))


@dataclass(frozen=True)
class StatedEnd:
    """An end read from the user's words: ``last_day`` (the last day the fact holds), the ``words``
    that state it, and ``slack_days``: how far a model's reading of the same words may differ (the
    calendar arithmetic of "next week" or "two months" is not one fixed rule)."""

    last_day: date
    words: str
    slack_days: int = 1


def _month_end(year: int, month: int) -> date:
    return date(year, month, calendar.monthrange(year, month)[1])


def _add_months(day: date, months: int) -> date:
    month0 = day.month - 1 + months
    year, month = day.year + month0 // 12, month0 % 12 + 1
    return date(year, month, min(day.day, calendar.monthrange(year, month)[1]))


def _upcoming(today: date, month: int, day: int, year: str | None) -> date | None:
    """The day ``month``/``day`` of ``year``, or without a year the next such day (see the module docstring)."""
    try:
        if year:
            return date(int(year), month, day)
        found = date(today.year, month, min(day, calendar.monthrange(today.year, month)[1]))
        return found if found >= today - timedelta(days=30) else _upcoming(today, month, day, str(today.year + 1))
    except ValueError:
        return None


def _after(today: date, n: int, unit: str) -> date:
    """The day ``n`` ``unit`` (``day``, ``week``, ``month``, ``year``) after ``today``."""
    if unit in ("month", "year"):
        return _add_months(today, n * (12 if unit == "year" else 1))
    return today + timedelta(days=n * (7 if unit == "week" else 1))


def _period_end(today: date, unit: str, ahead: int) -> date:
    if unit in ("week", "weekend"):
        return today + timedelta(days=6 - today.weekday() + 7 * ahead)
    if unit == "month":
        first = _add_months(today.replace(day=1), ahead)
        return _month_end(first.year, first.month)
    if unit == "quarter":
        first = _add_months(today.replace(day=1), 3 * ahead)
        last_month = (first.month - 1) // 3 * 3 + 3
        return _month_end(first.year, last_month)
    return date(today.year + ahead, 12, 31)


def _day(m: re.Match[str], today: date) -> tuple[date | None, int]:
    """The last day named by an end word and a day (``_DAY``), with its slack in days: "back on" a day
    ends the day before it."""
    last, slack = _named_day(m, today)
    if last is not None and m["lead"].lower().startswith("back"):
        return last - timedelta(days=1), slack
    return last, slack


def _named_day(m: re.Match[str], today: date) -> tuple[date | None, int]:
    g = m.groupdict()
    lead = g["lead"].lower()
    if g["iso"]:
        try:
            return date.fromisoformat(g["iso"]), 1
        except ValueError:
            return None, 0
    for d, mo, y in (("d1", "m1", "y1"), ("d2", "m2", "y2")):
        if g[d]:
            return _upcoming(today, _MONTHS[g[mo].lower().rstrip(".")], int(g[d]), g[y]), 1
    if g["m3"] or g["m4"]:
        month = _MONTHS[(g["m3"] or g["m4"]).lower().rstrip(".")]
        part = (g["part"] or "mid").lower()
        if part == "end":
            first = _upcoming(today, month, 1, g["y3"])
            return (_month_end(first.year, month) if first else None), 2
        return _upcoming(today, month, 1 if part in ("start", "beginning") else 15, g["y3"]), 3
    if g["d5"]:
        day = int(g["d5"])
        if not 1 <= day <= 31:
            return None, 0
        month = today if day >= today.day else _add_months(today.replace(day=1), 1)
        return _upcoming(today, month.month, day, str(month.year)), 1
    if g["wd"]:
        ahead = (_WEEKDAYS[g["wd"].lower()] - today.weekday()) % 7
        if g["next"]:
            return today + timedelta(days=ahead if ahead > 6 - today.weekday() else ahead + 7), 7
        return today + timedelta(days=ahead), 1
    if g["rel"]:
        rel = g["rel"].lower()
        if rel == "the weekend":
            return _period_end(today, "week", 0), 1
        return today + timedelta(days=1 if rel == "tomorrow" else 0), 1
    month = _MONTHS[g["m6"].lower().rstrip(".")]
    first = _upcoming(today, month, 1, g["y6"])
    if first is None:
        return None, 0
    if "end" in lead or lead in ("through", "thru") or first <= today:
        return _month_end(first.year, month), 2
    return first - timedelta(days=1), 2


def stated_ends(text: str, now: datetime) -> list[StatedEnd]:
    """Every end the words of ``text`` state, read at the clock ``now`` (in text order, one per
    phrase; see the module docstring for the phrases). ``[]`` when there is none."""
    today = now.astimezone(UTC).date() if now.tzinfo else now.date()
    found: list[tuple[int, StatedEnd]] = []
    taken: list[tuple[int, int]] = []
    for kind, pattern in enumerate(_PATTERNS):
        for m in pattern.finditer(text or ""):
            if any(a < m.end() and m.start() < b for a, b in taken):
                continue
            g = m.groupdict()
            if kind == 0:
                last, slack = _day(m, today)
            elif kind == 1:
                ahead = 1 if (g.get("which") or "").lower() == "next" else 0
                last, slack = _period_end(today, g["unit"].lower(), ahead), 2 if g["unit"].lower() != "year" else 7
            elif g.get("fortnight"):
                last, slack = today + timedelta(days=14), 1
            else:
                n = _NUMBERS.get(g["n"].lower()) if not g["n"].isdigit() else int(g["n"])
                last = _after(today, n, g["unit"].lower().rstrip("s"))
                slack = max(1, (last - today).days // 10)
            if last is not None:
                taken.append((m.start(), m.end()))
                found.append((m.start(), StatedEnd(last, m.group(0).strip(), slack)))
    return [end for _, end in sorted(found, key=lambda x: x[0])]


# When a fact's event happens, which bounds it: "training for a half marathon in October", "the movers
# come on the 20th", "we're playing on Saturday", "this summer". Read only to check a model's date (a
# date the user gives for an event implies the fact's end); never to set one: "my birthday is in May"
# does not end in May.
_EVENT = re.compile(r"\b(?P<lead>in|on|at|during|for|this|next|coming|is)\s+(?:the\s+)?(?:" + _DAY + r")", re.I)
_SEASONS = {"spring": 5, "summer": 8, "autumn": 11, "fall": 11, "winter": 2}
_SEASON = re.compile(r"\b(?P<which>this|next|in the|over the|during the)\s+"
                     r"(?P<season>spring|summer|autumn|fall|winter)\b", re.I)
# Periods in the other languages a user writes in: "nächste Woche", "le mois prochain", "bu yaz", "下周".
_N = r"(?P<n>\d{1,3}|two|deux|zwei|dos|dois|duas|due|twee|iki|three|trois|drei|tres|três|tre|drie|üç)"
_N_VALUE = {"two": 2, "deux": 2, "zwei": 2, "dos": 2, "dois": 2, "duas": 2, "due": 2, "twee": 2, "iki": 2,
            "three": 3, "trois": 3, "drei": 3, "tres": 3, "três": 3, "tre": 3, "drie": 3, "üç": 3}
_FOREIGN_PERIODS = (
    ("week", 1, r"nächste[nr]? woche|la semaine prochaine|la próxima semana|la semana que viene|(?:a|na) próxima "
                r"semana|semana que vem|(?:la )?prossima settimana|settimana prossima|volgende week|gelecek hafta|"
                r"önümüzdeki hafta|下周|下星期|来週|다음 ?주|на следующей неделе|w przyszłym tygodniu|nästa vecka"),
    ("week", 0, r"diese woche|dieses wochenende|am wochenende|cette semaine|ce week-end|esta semana|este fin de "
                r"semana|(?:n)?este fim de semana|questa settimana|questo fine settimana|deze week|dit weekend|"
                r"bu hafta(?: sonu)?|这个?周末|这周|今週(?:末)?|이번 ?주(?:말)?|на этой неделе|в эти выходные|"
                r"w ten weekend|i helgen|denna vecka|"
                # "until the end of the week"
                r"bis (?:zum )?ende der woche|jusqu'(?:à|a) la fin de (?:la|cette) semaine|hasta (?:el )?(?:fin|final) "
                r"de (?:la|esta) semana|até (?:o )?(?:fim|final) d[ae] (?:semana|esta semana)|fino alla fine della "
                r"settimana|tot (?:het )?eind(?:e)? van de week|do końca tygodnia|hafta sonuna kadar|veckan ut|"
                r"till slutet av veckan|до конца недели|到周末|这周末之前|週末まで|今週いっぱい|이번 ?주(?:말)?까지"),
    ("month", 1, r"nächste[nr]? monat|le mois prochain|el (?:mes que viene|próximo mes)|(?:o|no) próximo mês|"
                 r"(?:il )?mese prossimo|(?:il )?prossimo mese|volgende maand|gelecek ay|önümüzdeki ay|下个?月|"
                 r"来月|다음 ?달|в следующем месяце|w przyszłym miesiącu|nästa månad"),
    ("month", 0, r"diesen monat|ce mois-ci|este mes|este mês|questo mese|deze maand|bu ay|这个月|今月|이번 ?달|"
                 r"в этом месяце|w tym miesiącu|denna månad|"
                 # "until the end of the month"
                 r"bis (?:zum )?(?:monatsende|ende des monats)|jusqu'(?:à|a) la fin du mois|"
                 r"hasta (?:el )?(?:fin|final) de(?:l| este) mes|até (?:o )?(?:fim|final) d(?:o|este) mês|"
                 r"fino alla fine del mese|tot (?:het )?eind(?:e)? van de maand|do końca miesiąca|ay sonuna kadar|"
                 r"månaden ut|till slutet av månaden|"
                 r"до конца месяца|到月底|月末まで|이번 ?달 ?말까지|월말까지"),
    ("summer", 0, r"diesen sommer|cet été|este verano|(?:n)?este verão|quest'estate|questa estate|deze zomer|bu yaz|"
                  r"今年夏天|这个夏天|今年の夏|이번 ?여름|этим летом|tego lata|i sommar"),
)
_FOREIGN_PERIOD = [(unit, ahead, re.compile(words, re.I)) for unit, ahead, words in _FOREIGN_PERIODS]
_FOREIGN_DURATIONS = [re.compile(pattern.replace("N", _N), re.I) for pattern in (
    r"(?:in den |die )?nächsten N (?P<unit>monat|woche|tag)\w*",
    r"(?:les|dans les|pendant les) N prochain(?:e)?s (?P<unit>mois|semaine|jour)",
    r"(?:(?:en |durante )?los|(?:durante )?(?:n)?os) próxim[oa]s N (?P<unit>mes|semana|día|dia)\w*",
    r"(?:nei|i|per i) prossim[ie] N (?P<unit>mes|settiman|giorn)\w*",
    r"(?:de )?komende N (?P<unit>maand|we|dag)\w*",
)]
_UNIT = {"monat": "month", "mois": "month", "mes": "month", "maand": "month", "woche": "week", "semaine": "week",
         "semana": "week", "settiman": "week", "we": "week", "tag": "day", "jour": "day", "día": "day", "dia": "day",
         "giorn": "day", "dag": "day"}


def implied_ends(text: str, now: datetime) -> list[StatedEnd]:
    """Ends a model may read from ``text`` beyond :func:`stated_ends`: the day or month an event happens
    ("in October", "on the 20th", "on Saturday", "this summer") and periods said in other languages
    ("nächste Woche", "nos próximos dois meses", "bu yaz", "下周"). Used to check a model's
    ``valid_until`` (:func:`check_valid_until`), never to set one."""
    today = now.astimezone(UTC).date() if now.tzinfo else now.date()
    found: list[StatedEnd] = []
    for m in _EVENT.finditer(text or ""):
        last, slack = _named_day(m, today) if not m["m6"] else (_event_month(m, today), 2)
        if last is not None:
            found.append(StatedEnd(last, m.group(0).strip(), slack))
    for m in _SEASON.finditer(text or ""):
        month = _SEASONS[m["season"].lower()]
        year = today.year + (1 if m["which"].lower() == "next" or month < today.month else 0)
        found.append(StatedEnd(_month_end(year, month), m.group(0).strip(), 15))
    for unit, ahead, pattern in _FOREIGN_PERIOD:
        for m in pattern.finditer(text or ""):
            last = _month_end(today.year + (today.month > 8), 8) if unit == "summer" else \
                _period_end(today, unit, ahead)
            found.append(StatedEnd(last, m.group(0), 15 if unit == "summer" else 2))
    for m in (m for pattern in _FOREIGN_DURATIONS for m in pattern.finditer(text or "")):
        n = int(m["n"]) if m["n"].isdigit() else _N_VALUE[m["n"].lower()]
        last = _after(today, n, _UNIT[m["unit"].lower()])
        found.append(StatedEnd(last, m.group(0), max(1, (last - today).days // 10)))
    return found


def _event_month(m: re.Match[str], today: date) -> date | None:
    """The last day of the month an event is said to happen in ("in October")."""
    first = _upcoming(today, _MONTHS[m["m6"].lower().rstrip(".")], 1, m["y6"])
    return _month_end(first.year, first.month) if first else None


def end_of_day(day: date) -> datetime:
    """The UTC instant a fact that holds through ``day`` stops holding: midnight after it."""
    return datetime.combine(day + timedelta(days=1), time.min, tzinfo=UTC)


# month names in German, French, Spanish, Portuguese, Italian, Dutch, the Scandinavian languages, Finnish
# (partitive), Hungarian, Romanian, Turkish, Polish, Czech, Russian and Ukrainian (genitive: "15 kwietnia",
# "15 апреля"), and Greek, January first
_FOREIGN_MONTHS = (
    "januar janvier enero janeiro gennaio januari tammikuuta január ianuarie ocak stycznia ledna января січня "
    "ιανουαρίου",
    "februar février febrero fevereiro febbraio februari helmikuuta február februarie şubat subat lutego února "
    "февраля лютого φεβρουαρίου",
    "märz mars marzo março maart marts maaliskuuta március martie mart marca března марта березня μαρτίου",
    "avril abril aprile april huhtikuuta április aprilie nisan kwietnia dubna апреля квітня απριλίου",
    "mai mayo maio maggio mei maj toukokuuta május mayıs mayis maja května мая травня μαΐου",
    "juni juin junio junho giugno kesäkuuta június iunie haziran czerwca června июня червня ιουνίου",
    "juli juillet julio julho luglio heinäkuuta július iulie temmuz lipca července июля липня ιουλίου",
    "août agosto augustus augusti elokuuta augusztus august ağustos agustos sierpnia srpna августа серпня "
    "αυγούστου",
    "septembre septiembre setembro settembre september syyskuuta szeptember septembrie eylül eylul września "
    "zari září сентября вересня σεπτεμβρίου",
    "oktober octobre octubre outubro ottobre lokakuuta október octombrie ekim października října октября жовтня "
    "οκτωβρίου",
    "novembre noviembre novembro november marraskuuta noiembrie kasım kasim listopada listopadu ноября листопада "
    "νοεμβρίου",
    "dezember décembre diciembre dezembro dicembre december joulukuuta decembrie aralık aralik grudnia prosince "
    "декабря грудня δεκεμβρίου")


def _names_day(text: str, day: date) -> bool:
    """True when ``text`` writes ``day`` out: its ISO form, or its month (name or abbreviation, in
    English or in :data:`_FOREIGN_MONTHS`) and its day number next to each other ("12 September",
    "September 12th", "12. September", "30 giugno", "30 de junio"); a month's last day also as the end of
    that month in another language ("bis Ende Juni", "a finales de junio", "do końca czerwca", "6月末")."""
    if day.isoformat() in text:
        return True
    months = [n for n, i in _MONTHS.items() if i == day.month] + _FOREIGN_MONTHS[day.month - 1].split()
    names = "|".join(sorted(months, key=len, reverse=True))
    n = str(day.day)
    if day == _month_end(day.year, day.month) and re.search(  # "bis Ende Juni", "fin de junio", "6月末"
            rf"\b(?:ende|fin|fine|finales?|fim|końca|koniec|eind|einde|slutet av|slutten av|slutningen af|конца|"
            rf"кінця|τέλος)\s+(?:de |di |do |of |av |des |del )?(?:{names})(?!\w)|\b(?:{names})\s+sonu\w*|"
            rf"(?<!\d){day.month}\s*月\s*(?:末|底)|(?<!\d){day.month}\s*월\s*말", text, re.I):
        return True
    return bool(re.search(rf"\b{n}\.?{_ORD}(?:\s+(?:of|de|di|del))?\s+(?:{names})(?!\w)|"
                          rf"\b(?:{names})\.?\s+{n}{_ORD}\b|"
                          rf"(?<!\d){day.month}\s*月\s*{n}\s*[日号]|(?<!\d){day.month}\s*월\s*{n}\s*일", text, re.I))


def end_in_content(content: str, said: str, now: datetime) -> datetime | None:
    """The end a model wrote into a fact's ``content`` but not into ``valid_until`` ("… in Ankara for
    work until 15 April"), when the user's words ``said`` ground it (:func:`check_valid_until`); the
    instant it stops holding, else ``None``. Only an end naming a day or a period is read (the
    content's own English, :func:`stated_ends`)."""
    for end in stated_ends(content, now):
        until, _ = check_valid_until(end.last_day.isoformat(), said, now)
        if until is not None:
            return until
    return None


def check_valid_until(value: str | None, said: str, now: datetime) -> tuple[datetime | None, str]:
    """Check a model's ``valid_until`` against the user's words ``said`` at the clock ``now``.

    Returns ``(valid_until, "")`` when it is kept (the UTC instant the fact stops holding: midnight
    after the last day), ``(None, "")`` when there is none, and ``(None, reason)`` when it is dropped:
    not an ISO date, a day before today, or not grounded in ``said`` (no end phrase there gives that
    day within its slack, nor an event's day or a period in another language (:func:`implied_ends`),
    and the words do not write the day out). A dropped date never drops the
    fact: it keeps its kind's default validity.
    """
    if value is None or not str(value).strip():
        return None, ""
    text = str(value).strip()
    try:
        day = date.fromisoformat(text[:10])
    except ValueError:
        return None, f"valid_until {text!r} dropped: not an ISO date (YYYY-MM-DD)"
    today = now.astimezone(UTC).date() if now.tzinfo else now.date()
    if day < today:
        return None, f"valid_until {day.isoformat()} dropped: a date in the past (today is {today.isoformat()})"
    ends = stated_ends(said, now)
    implied = implied_ends(said, now)
    if any(abs((day - e.last_day).days) <= e.slack_days for e in (*ends, *implied)) or _names_day(said, day):
        return end_of_day(day), ""
    if ends:
        read = ", ".join(f"'{e.words}' ends {e.last_day.isoformat()}" for e in ends)
        return None, f"valid_until {day.isoformat()} dropped: not what the user's words say ({read})"
    return None, f"valid_until {day.isoformat()} dropped: the user's words state no end"
