"""Ends read from the user's words at the context clock, and the check of a model's ``valid_until``."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from memory_agent.memory.end_dates import check_valid_until, end_in_content, end_of_day, stated_ends

NOW = datetime(2026, 1, 20, 10, tzinfo=UTC)  # a Tuesday


@pytest.mark.parametrize(("text", "last_day"), [
    ("I'm away until March 10", date(2026, 3, 10)),
    ("offline now, back on the 3rd of February", date(2026, 2, 2)),
    ("the promo runs through 2026-04-30", date(2026, 4, 30)),
    ("I'm in the office until Friday", date(2026, 1, 23)),
    ("I'm on call until next Friday", date(2026, 1, 30)),
    ("we're focused on sales this quarter", date(2026, 3, 31)),
    ("I'm at a conference next week", date(2026, 2, 1)),
    ("I'm not drinking for the next two months", date(2026, 3, 20)),
    ("my sister stays with us for 10 days", date(2026, 1, 30)),
    ("no meetings for a fortnight", date(2026, 2, 3)),
    ("the gym is closed until the end of the month", date(2026, 1, 31)),
    ("I'm on leave until March", date(2026, 2, 28)),
    ("renovations run through March", date(2026, 3, 31)),
    ("until mid-February I work part time", date(2026, 2, 15)),
    ("the 25th is my last day, I'm here till the 25th", date(2026, 1, 25)),
    ("I'm in Paris this weekend", date(2026, 1, 25)),
    ("for the rest of the year I'm remote", date(2026, 12, 31)),
])
def test_common_end_phrases(text: str, last_day: date) -> None:
    assert [e.last_day for e in stated_ends(text, NOW)][-1:] == [last_day]


@pytest.mark.parametrize("text", ["I work until 6pm", "I love tea", "I moved to Porto", "my deadline is tight"])
def test_no_end_is_read_where_none_is_stated(text: str) -> None:
    assert stated_ends(text, NOW) == []


def test_a_day_without_a_year_is_the_next_one_unless_it_just_passed() -> None:
    assert stated_ends("until January 10", NOW)[0].last_day == date(2026, 1, 10)  # 10 days ago: that day
    assert stated_ends("until January 2", datetime(2026, 3, 1, tzinfo=UTC))[0].last_day == date(2027, 1, 2)


def test_a_grounded_future_date_is_kept_as_the_midnight_after_it() -> None:
    assert check_valid_until("2026-03-10", "I'm away until March 10", NOW) == (end_of_day(date(2026, 3, 10)), "")
    assert end_of_day(date(2026, 3, 10)) == datetime(2026, 3, 11, tzinfo=UTC)
    # "next week" is read as ending on Sunday; a model that ends it on Friday is still grounded
    assert check_valid_until("2026-01-30", "I'm at a conference next week", NOW)[0] is not None
    # a day the words write out is grounded even without an end phrase the parser knows
    assert check_valid_until("2026-05-04", "my visa is good to May 4", NOW)[0] is not None


@pytest.mark.parametrize(("value", "said", "why"), [
    ("2025-12-01", "I was away until December 1", "a date in the past"),
    ("2026-05-01", "I love tea", "state no end"),
    ("2026-06-30", "I'm away until March 10", "not what the user's words say"),
    ("next tuesday", "I'm away until next Tuesday", "not an ISO date"),
])
def test_a_past_ungrounded_or_malformed_date_is_dropped_with_a_reason(value: str, said: str, why: str) -> None:
    kept, reason = check_valid_until(value, said, NOW)
    assert kept is None and why in reason and value in reason


def test_no_date_is_no_reason() -> None:
    assert check_valid_until(None, "I'm away until March 10", NOW) == (None, "")
    assert check_valid_until("  ", "anything", NOW) == (None, "")


@pytest.mark.parametrize(("said", "value"), [
    # the day or month an event happens bounds what is said about it
    ("I'm training for a half marathon in October.", "2026-10-31"),
    ("the movers come on the 20th", "2026-01-20"),
    ("we're playing the Brudenell on Saturday", "2026-01-24"),
    ("Second round with Copperleaf is Friday.", "2026-01-23"),
    ("heading to Lisbon this summer with friends", "2026-08-31"),
    ("Ich plane meine Hochzeit für den 12. September in Lindau.", "2026-09-12"),
    # periods said in other languages
    ("Nos próximos dois meses tô sem açúcar.", "2026-03-20"),
    ("Nächste Woche bin ich in Rom.", "2026-02-01"),
    ("Il mese prossimo compio quarant'anni.", "2026-02-28"),
    ("bu yaz Kapadokya'ya gitmek istiyorum", "2026-08-31"),
    ("下周在上海演出", "2026-02-01"),
    # "until the end of the week / month" said in other languages
    ("Do końca tygodnia mieszka u nas siostra z dwójką dzieci.", "2026-01-25"),
    ("Bis Ende der Woche arbeite ich von Hamburg aus.", "2026-01-25"),
    ("Estoy en Sevilla hasta el final de la semana.", "2026-01-25"),
    ("Jusqu'à la fin du mois je suis à Lyon.", "2026-01-31"),
    ("До конца месяца я в Казани.", "2026-01-31"),
    ("到月底我都在深圳出差", "2026-01-31"),
    # the end of a month named in another language
    ("Ich bin bis Ende Juni in Elternzeit.", "2026-06-30"),
    ("Estoy en Sevilla hasta finales de marzo.", "2026-03-31"),
    ("Jestem w Krakowie do końca kwietnia.", "2026-04-30"),
    ("5月末まで大阪にいます", "2026-05-31"),
])
def test_a_model_date_implied_by_the_users_words_is_kept(said: str, value: str) -> None:
    kept, reason = check_valid_until(value, said, NOW)
    assert reason == "" and kept == end_of_day(date.fromisoformat(value))


def test_an_event_day_is_only_a_check_never_an_end_the_code_reads_itself() -> None:
    assert stated_ends("My birthday is in May.", NOW) == []
    assert check_valid_until("2026-07-31", "I'm training for a half marathon in October.", NOW)[0] is None


def test_a_day_written_with_a_month_name_of_another_language_grounds_a_date():
    now = datetime(2026, 3, 1, 10, tzinfo=UTC)
    for said in ("Fino al 30 giugno sono a Milano", "hasta el 30 de junio estoy en Madrid", "até 30 de junho em Lisboa",
                 "jusqu'au 30 juin à Lyon", "bis zum 30. Juni in Berlin", "tot 30 juni in Utrecht"):
        kept, reason = check_valid_until("2026-06-30", said, now)
        assert kept == datetime(2026, 7, 1, tzinfo=UTC) and reason == "", said
    assert check_valid_until("2026-07-30", "Fino al 30 giugno sono a Milano", now)[0] is None
    for said in ("Do 30 czerwca jestem w Gdańsku", "30 Haziran'a kadar İzmir'deyim", "június 30-ig Pécsen vagyok",
                 "До 30 июня я в Казани", "Olen Oulussa 30. kesäkuuta asti", "6月30日まで大阪にいます",
                 "6월 30일까지 부산에 있어요", "Μέχρι 30 Ιουνίου είμαι στη Θεσσαλονίκη"):
        assert check_valid_until("2026-06-30", said, now)[0] == datetime(2026, 7, 1, tzinfo=UTC), said


def test_an_end_the_model_wrote_only_into_the_content_is_kept_when_the_users_words_ground_it():
    now = datetime(2026, 4, 2, 9, tzinfo=UTC)
    content = "The user is in Ankara for work until 15 April."
    assert end_in_content(content, "15 Nisan'a kadar iş için Ankara'dayım.", now) == datetime(2026, 4, 16, tzinfo=UTC)
    assert end_in_content(content, "İş için Ankara'dayım.", now) is None  # the user named no end
    assert end_in_content("The user lives in Leeds.", "I live in Leeds until 15 April", now) is None  # none written


def test_the_end_of_a_month_in_another_language_grounds_only_its_last_day() -> None:
    assert check_valid_until("2026-06-15", "Ich bin bis Ende Juni in Elternzeit.", NOW)[0] is None
    assert check_valid_until("2026-07-31", "Ich bin bis Ende Juni in Elternzeit.", NOW)[0] is None
