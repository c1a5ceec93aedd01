"""Aspects of the user's life a request depends on (``memory_agent.memory.aspects``): which requests
ask for one, which facts state one, and how the relevance lifts a fact over the similarity floor."""

from __future__ import annotations

import time
import unicodedata

from conftest import T0, day, plant

from memory_agent.core.facts import Fact, Source
from memory_agent.memory.aspects import (
    ASPECT_RELEVANCE,
    ASPECTS,
    LANGUAGES,
    asked_aspects,
    aspect_relevance,
    fact_aspects,
    relevance_at,
    states,
)
from memory_agent.memory.retrieval import RetrievalConfig, rank


def fact(fid: str, content: str, kind: str = "fact", topic: str = "", at=T0) -> Fact:
    return Fact(id=fid, user_id="u", kind=kind, content=content, topic=topic, evidence=content,
                source=Source(thread_id="t", message_ids=["m"]), created_at=at, updated_at=at)


def names(query: str) -> list[str]:
    return [a.name for a in asked_aspects(query)]


def test_a_personal_request_asks_for_an_aspect_and_a_plain_question_for_none():
    assert names("Recommend a walk near home.") == ["home"]
    assert "work" in names("Draft a one-line bio for my conference badge.")
    assert names("What toys would you recommend for my pet?") == ["pet"]
    assert names("Suggest something for dinner tonight.") == ["food"]
    assert "tech" in names("How do I add a dependency to my web app?")
    for plain in ("How do I convert a string to an integer in JavaScript?", "What is the capital of Peru?"):
        assert names(plain) == [], plain
    assert names("Plan my training runs for next week.") == ["fitness"]  # the user's own training


def test_only_facts_of_an_asked_aspect_get_its_relevance():
    facts = {f.id: f for f in (fact("f_home", "The user lives in Lisbon."),
                               fact("f_job", "The user works at Globex as a data engineer."),
                               fact("f_band", "The user's favourite band is Radiohead.", kind="preference"),
                               fact("f_diet", "The user is vegetarian.", kind="preference"),
                               fact("f_db", "The user's backend uses Postgres.", topic="database"))}
    assert aspect_relevance("Any ideas for a walk near where I live?", facts) == {"f_home": ASPECT_RELEVANCE}
    assert aspect_relevance("Write a LinkedIn headline for me.", facts) == {"f_home": ASPECT_RELEVANCE,
                                                                            "f_job": ASPECT_RELEVANCE}
    assert aspect_relevance("What should I cook for dinner?", facts) == {"f_diet": ASPECT_RELEVANCE}
    assert aspect_relevance("How do I convert a string to an integer in JavaScript?", facts) == {}


def test_only_the_newest_statements_of_an_aspect_get_its_relevance():
    facts = {f.id: f for f in (fact("f_madrid", "The user lives in Madrid."),
                               fact("f_foz", "The user has settled in Foz.", at=day(90)),
                               fact("f_job", "The user works at Globex."))}
    assert aspect_relevance("Any day trips from home?", facts) == {"f_foz": ASPECT_RELEVANCE}
    assert aspect_relevance("Write a bio for my badge.", facts) == {"f_job": ASPECT_RELEVANCE}


def test_aspect_relevance_lifts_a_fact_over_the_floor_and_nothing_else():
    home, band = fact("f_home", "The user lives in Lisbon."), fact("f_band", "The user likes Radiohead.")
    unrelated = 0.99  # cosine distance of a request that shares no word with either
    assert rank([(home, unrelated), (band, unrelated)], day(1), RetrievalConfig()) == []
    ranked = rank([(home, unrelated), (band, unrelated)], day(1), RetrievalConfig(),
                  aspect={"f_home": ASPECT_RELEVANCE})
    assert [s.fact.id for s in ranked] == ["f_home"]


def test_retrieval_finds_where_the_user_lives_for_a_request_near_home(memory):
    plant(memory, "alice", "The user lives in Lisbon.")
    plant(memory, "alice", "The user's favourite band is Radiohead.", kind="preference", topic="music")
    near_home = memory.retrieve("alice", "Any ideas for a Sunday afternoon near home?", day(1))
    assert [s.fact.content for s in near_home] == ["The user lives in Lisbon."]
    assert memory.retrieve("alice", "How do I convert a string to an integer in JavaScript?", day(1)) == []
    off = memory.retrieve("alice", "Any ideas for a Sunday afternoon near home?", day(1),
                          config=RetrievalConfig(aspects=False))
    assert off == []  # the request shares no word with the fact: only the aspect finds it


def test_retrieval_follows_the_newest_statement_of_an_aspect_across_writes(memory):
    """The reader matches aspects once per snapshot of the user's facts: a write makes a new one, and
    the newer statement takes the aspect's relevance from the older."""
    plant(memory, "alice", "The user lives in Madrid.")
    plant(memory, "alice", "The user's favourite band is Radiohead.", kind="preference", topic="music")
    ask = "Any day trips from home?"
    assert [s.fact.content for s in memory.retrieve("alice", ask, day(1))] == ["The user lives in Madrid."]
    plant(memory, "alice", "The user has settled in Foz.", now=day(90))
    assert [s.fact.content for s in memory.retrieve("alice", ask, day(91))] == ["The user has settled in Foz."]


def test_a_request_about_the_users_vehicle_finds_what_they_drive():
    facts = {f.id: f for f in (fact("f_car", "The user drives a 2015 Honda Accord."),
                               fact("f_home", "The user lives in Lisbon."))}
    assert aspect_relevance("How often should I change the oil on my car?", facts) == {"f_car": ASPECT_RELEVANCE}
    assert aspect_relevance("Which tyres suit our van for snow?", facts) == {"f_car": ASPECT_RELEVANCE}
    assert aspect_relevance("Which car is the best-selling in Europe?", facts) == {}  # not the user's own


def test_a_past_home_is_not_where_the_user_lives_and_an_ended_stay_does_not_hide_the_home():
    facts = {f.id: f for f in (fact("f_cardiff", "The user is in Cardiff."),
                               fact("f_glasgow", "The user used to live in Glasgow as a student.", at=day(30)))}
    assert aspect_relevance("Any events near me this weekend?", facts) == {"f_cardiff": ASPECT_RELEVANCE}
    home = fact("f_home", "The user lives in Manchester.")
    stay = fact("f_stay", "The user is working from Lisbon until March 10.", at=day(20)).model_copy(
        update={"valid_until": day(25)})
    snapshot = {f.id: f for f in (home, stay)}
    ids = list(snapshot)
    during = relevance_at("Where can I climb near me?", [f.topic for f in snapshot.values()],
                          [f.content for f in snapshot.values()],
                          [f.updated_at.timestamp() for f in snapshot.values()], valid=[True, True])
    after = relevance_at("Where can I climb near me?", [f.topic for f in snapshot.values()],
                         [f.content for f in snapshot.values()],
                         [f.updated_at.timestamp() for f in snapshot.values()], valid=[True, False])
    assert [ids[k] for k in during] == ["f_stay"] and [ids[k] for k in after] == ["f_home"]


def test_near_home_and_family_are_asked_in_other_languages_too():
    assert names("今週末、家の近くで散歩できるいい場所ある？") == ["home"]
    assert names("Cosa posso fare stasera vicino a dove sto?") == ["home"]
    assert "family" in names("Pode me ajudar a escrever um bilhete para a professora do meu filho?")
    assert "home" in names("Suggest a dinner spot for Friday night.")


def test_nearby_and_ones_own_work_are_asked_for_in_other_languages_too():
    assert names("Une idée de balade pas trop loin ce soir ?") == ["home"]
    assert names("周末附近有什么好玩的？") == ["home"]
    assert "work" in names("Kannst du meine Woche planen?")
    assert "work" in names("Write a template for my weekly status update.")
    assert "self" in names("Which running app suits someone like me?")
    assert names("Cerca un libro di cucina") == []  # Italian "cerca" is "look for", not "near"


def test_a_team_of_a_sport_or_soon_is_no_work_or_home():
    assert names("¿Qué mochila compro para mi equipo de fútbol?") == []
    assert names("近く結婚します。") == []


# Requests that depend on a side of the user's life, as users write them in other languages (and a few in
# English for the aspects added with them): each must ask for its aspect.
ASKED_IN_OTHER_LANGUAGES: dict[str, list[tuple[str, str]]] = {
    'home': [
        ('es', '¿Qué restaurantes hay en mi barrio?'),
        ('fr', 'Une boulangerie ouverte dimanche près de chez moi ?'),
        ('de', 'Gibt es ein gutes Café in meiner Nähe?'),
        ('it', 'Consigliami una palestra dalle mie parti.'),
        ('pt', 'Há algum mercado perto de mim aberto agora?'),
        ('nl', 'Welke parken zijn er hier in de buurt?'),
        ('pl', 'Jakie są dobre kawiarnie w pobliżu?'),
        ('ru', 'Где поблизости можно поплавать?'),
        ('uk', 'Де поруч можна купити квіти?'),
        ('cs', 'Je nějaká dobrá pizzerie poblíž?'),
        ('sv', 'Finns det ett bra bageri i närheten?'),
        ('da', 'Er der en god frisør tæt på mig?'),
        ('no', 'Finnes det en fin tursti i nærheten?'),
        ('fi', 'Onko lähistöllä hyvää kahvilaa?'),
        ('hu', 'Van a közelemben jó pékség?'),
        ('ro', 'Ce restaurante bune sunt în apropiere?'),
        ('tr', 'Evime yakın bir spor salonu önerir misin?'),
        ('el', 'Υπάρχει κάποιο καλό εστιατόριο κοντά μου;'),
        ('he', 'יש בית קפה טוב ליד הבית?'),
        ('ar', 'هل يوجد مطعم جيد بالقرب مني؟'),
        ('fa', 'یک کافه خوب نزدیک خانه پیشنهاد بده'),
        ('hi', 'मेरे घर के पास कोई अच्छा पार्क है?'),
        ('ja', '地元でおすすめのパン屋はある？'),
        ('zh', '我住的地方有什么好吃的？'),
        ('ko', '우리 동네에 괜찮은 카페 있어?'),
        ('vi', 'Có quán cà phê nào ngon gần tôi không?'),
        ('id', 'Ada restoran enak dekat rumah?'),
        ('th', 'แถวบ้านมีร้านกาแฟดีๆ ไหม'),
        ('es', 'Busco un gimnasio cerca de donde vivo.'),
        ('fr', 'Des activités sympas dans mon quartier ?'),
        ('de', 'Was kann man in meiner Stadt am Abend machen?'),
        ('pt', 'Restaurantes bons no meu bairro?'),
        ('ru', 'Какие есть кафе в моём районе?'),
        ('pl', 'Co ciekawego jest w mojej okolicy?'),
        ('tr', 'Mahallemde iyi bir kafe var mı?'),
        ('ja', '近所で夜遅くまで開いているスーパーは？'),
        ('ko', '집 근처에 산책하기 좋은 곳 있어?'),
        ('zh', '离我家近的健身房有哪些？'),
        ('it', 'Ci sono buoni ristoranti nella mia città?'),
        ('nl', 'Zijn er leuke cafés in mijn wijk?'),
        ('sv', 'Vilka restauranger finns där jag bor?'),
        ('el', 'Τι να κάνω στη γειτονιά μου;'),
        ('vi', 'Quanh đây có tiệm bánh nào ngon?'),
        ('id', 'Ada kafe bagus di sekitar sini?'),
    ],
    'work': [
        ('es', 'Ayúdame a preparar una presentación para mi equipo del trabajo.'),
        ('fr', 'Comment annoncer à mon chef que je pars en congé ?'),
        ('de', 'Schreib eine E-Mail an meine Kollegen wegen der Verschiebung.'),
        ('it', 'Come posso chiedere un aumento al mio capo?'),
        ('pt', 'Escreve um resumo do meu trabalho para a avaliação anual.'),
        ('nl', 'Help me een mail te schrijven aan mijn baas.'),
        ('pl', 'Pomóż mi napisać maila do mojego szefa.'),
        ('ru', 'Помоги составить письмо моему начальнику.'),
        ('uk', 'Допоможи написати лист моїм колегам.'),
        ('cs', 'Jak mám říct šéfovi, že chci změnit práci? Moje práce mě nebaví.'),
        ('sv', 'Hjälp mig skriva ett mejl till min chef.'),
        ('da', 'Hvordan beder jeg min chef om fri?'),
        ('no', 'Skriv en melding til sjefen min om møtet.'),
        ('fi', 'Miten kerron pomolleni, että olen sairaana? Työpaikkani on kaukana.'),
        ('hu', 'Segíts levelet írni a főnökömnek.'),
        ('ro', 'Cum îi spun șefului meu că plec în concediu?'),
        ('tr', 'Patronuma izin için nasıl bir e-posta yazarım?'),
        ('el', 'Γράψε ένα email στο αφεντικό μου για άδεια.'),
        ('he', 'עזור לי לכתוב מייל לבוס שלי.'),
        ('ar', 'ساعدني في كتابة رسالة إلى مديري في العمل.'),
        ('fa', 'یک ایمیل برای رئیسم بنویس.'),
        ('hi', 'मेरे बॉस को छुट्टी के लिए ईमेल लिखो।'),
        ('ja', '上司に送るお礼のメールを書いて。'),
        ('zh', '帮我给我的老板写一封请假邮件。'),
        ('ko', '제 상사에게 보낼 이메일 좀 써줘.'),
        ('vi', 'Viết email cho sếp của tôi để xin nghỉ phép.'),
        ('id', 'Tolong tulis email untuk atasan saya.'),
        ('th', 'ช่วยเขียนอีเมลถึงหัวหน้าของฉันหน่อย'),
        ('es', 'Redacta un correo para mis compañeros de trabajo.'),
        ('fr', 'Aide-moi à préparer mon entretien annuel avec mon manager, mon boulot me stresse.'),
        ('de', 'Formuliere eine Nachricht an mein Team.'),
        ('it', 'Scrivi una mail ai miei colleghi.'),
        ('pt', 'Ajuda-me com um e-mail para a minha chefe.'),
        ('ru', 'Как рассказать коллегам на работе о переезде?'),
        ('ja', '同僚への挨拶文を考えて。'),
        ('zh', '我的同事总是迟到怎么办？'),
        ('ko', '회사에서 발표할 자료 좀 만들어줘.'),
        ('tr', 'Ekibim için motive edici bir mesaj yaz.'),
        ('pl', 'Jak poprosić szefa o podwyżkę w mojej firmie?'),
        ('nl', 'Help me met mijn cv.'),
        ('cs', 'Pomoz mi s mým životopisem.'),
        ('fi', 'Päivitä ansioluetteloni.'),
    ],
    'self': [
        ('es', 'Escribe un párrafo sobre mí para la web.'),
        ('fr', 'Que sais-tu sur moi ?'),
        ('de', 'Schreib einen kurzen Text über mich.'),
        ('it', 'Scrivi due righe su di me per il sito.'),
        ('pt', 'Escreve uma pequena apresentação sobre mim.'),
        ('nl', 'Schrijf een korte tekst over mij.'),
        ('pl', 'Napisz krótki tekst o mnie.'),
        ('ru', 'Напиши пару строк о себе для сайта знакомств.'),
        ('uk', 'Напиши короткий текст про мене.'),
        ('cs', 'Napiš krátký text o mně.'),
        ('sv', 'Skriv en kort presentation om mig.'),
        ('da', 'Skriv en kort tekst om mig.'),
        ('no', 'Skriv en kort tekst om meg.'),
        ('fi', 'Kirjoita lyhyt esittely minusta.'),
        ('hu', 'Írj egy rövid szöveget rólam.'),
        ('ro', 'Scrie un scurt text despre mine.'),
        ('tr', 'Hakkımda kısa bir yazı yaz.'),
        ('el', 'Γράψε ένα σύντομο κείμενο για μένα.'),
        ('he', 'כתוב פסקה קצרה עליי.'),
        ('ar', 'اكتب فقرة قصيرة عني.'),
        ('fa', 'یک متن کوتاه درباره من بنویس.'),
        ('hi', 'मेरे बारे में एक छोटा परिचय लिखो।'),
        ('ja', '私についての短い紹介文を書いて。'),
        ('zh', '写一段关于我的简短介绍。'),
        ('ko', '나에 대한 짧은 소개글을 써줘.'),
        ('vi', 'Viết một đoạn giới thiệu về tôi.'),
        ('id', 'Tulis paragraf singkat tentang saya.'),
        ('th', 'เขียนแนะนำตัวสั้นๆ เกี่ยวกับฉัน'),
        ('de', 'Was weißt du über mich?'),
        ('es', '¿Qué sabes de mí?'),
        ('ja', '私のことをどれくらい知ってる？'),
        ('zh', '你对我了解多少？关于我的事。'),
        ('ko', '나에 대해 뭘 알고 있어?'),
        ('ru', 'Что ты знаешь обо мне?'),
        ('fr', 'Que sais-tu de moi ?'),
        ('pt', 'O que você sabe sobre mim?'),
        ('it', 'Cosa sai di me?'),
    ],
    'tech': [
        ('es', 'Muéstrame cómo configuro las pruebas en mi proyecto.'),
        ('fr', 'Montre-moi comment je déploie ça sur mon serveur.'),
        ('de', 'Zeig mir, wie ich das in meinem Projekt einrichte.'),
        ('it', 'Scrivimi una funzione che ordini questa lista.'),
        ('pt', 'Escreve uma função que valide o e-mail no meu projeto.'),
        ('nl', 'Schrijf een functie die de lijst sorteert.'),
        ('pl', 'Napisz mi skrypt, który zrobi kopię zapasową.'),
        ('ru', 'Напиши мне скрипт для резервного копирования.'),
        ('uk', 'Напиши мені функцію для сортування списку.'),
        ('cs', 'Napiš mi skript pro zálohování mého počítače.'),
        ('sv', 'Visa mig hur jag sätter upp testerna i mitt projekt.'),
        ('da', 'Vis mig hvordan jeg sætter det op på min computer.'),
        ('no', 'Skriv en funksjon som sorterer lista i prosjektet mitt.'),
        ('fi', 'Kirjoita minulle funktio, joka lajittelee listan.'),
        ('hu', 'Írj egy függvényt, ami rendezi a listát.'),
        ('ro', 'Scrie-mi o funcție care sortează lista.'),
        ('tr', 'Listeyi sıralayan bir fonksiyon yaz.'),
        ('el', 'Γράψε μου μια συνάρτηση που ταξινομεί τη λίστα.'),
        ('he', 'תכתוב לי פונקציה שממיינת רשימה.'),
        ('ar', 'اكتب لي دالة ترتب القائمة.'),
        ('fa', 'یک تابع برام بنویس که لیست را مرتب کند.'),
        ('hi', 'एक फ़ंक्शन लिखो जो सूची को क्रमबद्ध करे।'),
        ('ja', 'リストを並べ替える関数を書いて。'),
        ('zh', '帮我写一个排序列表的函数。'),
        ('ko', '리스트를 정렬하는 함수를 작성해줘.'),
        ('vi', 'Viết cho tôi một hàm sắp xếp danh sách.'),
        ('id', 'Buatkan fungsi untuk mengurutkan daftar.'),
        ('th', 'ช่วยเขียนฟังก์ชันเรียงลำดับรายการให้หน่อย'),
        ('de', 'Zeig mir, wie ich Docker auf meinem Laptop installiere.'),
        ('fr', 'Montre-moi comment configurer mon serveur.'),
        ('es', 'Muéstrame cómo despliego mi app.'),
        ('ja', '私のPCにPythonを入れる方法を教えて。'),
        ('zh', '教我怎么在我的电脑上安装Python。'),
        ('ru', 'Покажи мне, как настроить мой сервер.'),
    ],
    'food': [
        ('es', '¿Qué puedo cenar esta noche? Dame una receta rápida.'),
        ('fr', 'Une idée de recette pour le dîner ce soir ?'),
        ('de', 'Was soll ich heute Abend kochen?'),
        ('it', 'Cosa cucinare per pranzo domani?'),
        ('pt', 'O que comer no jantar hoje?'),
        ('nl', 'Wat moet ik vanavond koken? Iets voor het avondeten.'),
        ('pl', 'Co mogę zjeść na kolację?'),
        ('ru', 'Что приготовить на ужин?'),
        ('uk', 'Що приготувати на вечерю?'),
        ('cs', 'Co mám uvařit k večeři?'),
        ('sv', 'Vad ska jag laga till middag?'),
        ('da', 'Hvad skal jeg lave til aftensmad?'),
        ('no', 'Hva skal jeg lage til middag?'),
        ('fi', 'Mitä kokkaisin illalliseksi?'),
        ('hu', 'Mit főzzek vacsorára?'),
        ('ro', 'Ce să gătesc la cină?'),
        ('tr', 'Akşam yemeği için ne pişirsem?'),
        ('el', 'Τι να μαγειρέψω για δείπνο;'),
        ('he', 'מה לבשל לארוחת ערב?'),
        ('ar', 'ماذا أطبخ على العشاء؟'),
        ('fa', 'برای شام چی بپزم؟'),
        ('hi', 'आज रात का खाना क्या बनाऊं?'),
        ('ja', '今日の夕飯、何を作ろう？'),
        ('zh', '今天晚饭吃什么？'),
        ('ko', '오늘 저녁 메뉴 추천해줘.'),
        ('vi', 'Tối nay nấu gì cho bữa tối?'),
        ('id', 'Malam ini masak apa untuk makan malam?'),
        ('th', 'เย็นนี้ทำอะไรกินดี'),
        ('en', 'What should I drink with dinner?'),
        ('en', 'Suggest something to drink this afternoon.'),
        ('de', 'Was soll ich zum Frühstück essen?'),
        ('ja', 'おやつに何を食べよう？'),
        ('zh', '下午茶喝什么好？'),
        ('ko', '간식 뭐 먹을까?'),
        ('es', '¿Qué bebida me recomiendas para la merienda?'),
        ('fr', "Quelle boisson pour l'apéro ?"),
        ('it', 'Cosa bere a colazione?'),
    ],
    'leisure': [
        ('es', '¿Qué hago este fin de semana?'),
        ('fr', 'Des idées pour mon week-end à la campagne ?'),
        ('de', 'Was kann ich in meiner Freizeit Neues lernen?'),
        ('it', 'Idee per il mio tempo libero?'),
        ('pt', 'O que fazer no meu tempo livre?'),
        ('nl', 'Wat kan ik doen in mijn vrije tijd?'),
        ('pl', 'Jak spędzić mój wolny czas?'),
        ('ru', 'Чем заняться в свободное время?'),
        ('uk', 'Що робити на цих вихідних?'),
        ('cs', 'Co dělat tento víkend?'),
        ('sv', 'Vad ska jag göra i helgen?'),
        ('da', 'Hvad skal jeg lave i weekenden?'),
        ('no', 'Hva kan jeg gjøre i helga?'),
        ('fi', 'Mitä tekisin tänä viikonloppuna?'),
        ('hu', 'Mit csináljak ezen a hétvégén?'),
        ('ro', 'Ce pot face în weekendul acesta?'),
        ('tr', 'Bu hafta sonu ne yapabilirim?'),
        ('el', 'Τι να κάνω αυτό το Σαββατοκύριακο;'),
        ('he', 'מה לעשות בסוף השבוע הזה?'),
        ('ar', 'ماذا أفعل في وقت فراغي؟'),
        ('fa', 'این آخر هفته چه کار کنم؟'),
        ('hi', 'इस वीकेंड क्या करूँ?'),
        ('ja', '休みの日に何をしようかな？'),
        ('zh', '这个周末做什么好？'),
        ('ko', '이번 주말에 뭐 하지?'),
        ('vi', 'Cuối tuần này nên làm gì?'),
        ('id', 'Apa yang bisa dilakukan akhir pekan ini?'),
        ('th', 'สุดสัปดาห์นี้ทำอะไรดี'),
        ('de', 'Was mache ich an meinem freien Tag?'),
        ('es', '¿Qué hago en mis vacaciones?'),
        ('ja', '私の趣味に合う新しい遊びを教えて。'),
        ('zh', '我的爱好是画画，推荐点活动。'),
        ('ko', '내 취미에 맞는 활동 추천해줘.'),
        ('ru', 'Что делать на моих выходных?'),
    ],
    'fitness': [
        ('en', 'Make me a training plan for the next month.'),
        ('en', 'Can you adjust my workouts for a sore knee?'),
        ('es', 'Hazme un plan de entrenamiento para mí de tres días.'),
        ('fr', "Propose-moi un programme d'entraînement pour courir un 10 km."),
        ('de', 'Erstelle einen Trainingsplan für mich.'),
        ('it', 'Preparami una scheda di allenamento per la palestra.'),
        ('pt', 'Monta um plano de treino para mim.'),
        ('nl', 'Maak een trainingsschema voor mij.'),
        ('pl', 'Ułóż mi plan treningowy na siłownię.'),
        ('ru', 'Составь мне план тренировок на неделю.'),
        ('uk', 'Склади мені план тренувань.'),
        ('cs', 'Sestav mi tréninkový plán na půlmaraton.'),
        ('sv', 'Gör ett träningsschema åt mig.'),
        ('da', 'Lav et træningsprogram til mig.'),
        ('no', 'Lag et treningsprogram for meg.'),
        ('fi', 'Tee minulle treeniohjelma kuntosalille.'),
        ('hu', 'Készíts nekem egy edzéstervet.'),
        ('ro', 'Fă-mi un plan de antrenament pentru sală.'),
        ('tr', 'Bana bir antrenman programı hazırla.'),
        ('el', 'Φτιάξε μου ένα πρόγραμμα προπόνησης.'),
        ('he', 'תכין לי תוכנית אימונים לשבוע.'),
        ('ar', 'اعمل لي برنامج تدريب أسبوعي.'),
        ('fa', 'یک برنامه تمرینی برای من بنویس.'),
        ('hi', 'मेरे लिए एक वर्कआउट प्लान बनाओ।'),
        ('ja', '一週間のトレーニングメニューを考えて。'),
        ('zh', '帮我制定一个健身计划。'),
        ('ko', '운동 루틴 좀 짜줘.'),
        ('vi', 'Lập kế hoạch tập luyện cho tôi.'),
        ('id', 'Buatkan jadwal latihan untuk saya.'),
        ('th', 'ช่วยจัดตารางออกกำลังกายให้หน่อย'),
        ('en', 'Plan my gym sessions for the week.'),
        ('en', "I'm training for a half marathon, adjust my running."),
        ('de', 'Wie baue ich mein Training für den Marathon auf?'),
        ('es', 'Ajusta mis entrenamientos de esta semana.'),
        ('fr', 'Adapte mes séances de sport à mon genou.'),
        ('ja', '私のトレーニングを見直して。'),
        ('zh', '我的训练需要调整吗？'),
        ('ko', '내 운동 루틴 좀 봐줘.'),
        ('ru', 'Как улучшить мои тренировки?'),
        ('pl', 'Jak poprawić moje treningi?'),
        ('it', 'Come migliorare i miei allenamenti?'),
    ],
    'schedule': [
        ('en', 'Which evening am I free this week?'),
        ('en', 'Organise my Friday, please.'),
        ('en', 'What can I do on Sunday?'),
        ('en', 'List my regular commitments.'),
        ('es', '¿Cómo organizo mi viernes?'),
        ('fr', "Que puis-je faire dimanche ? Je n'ai rien prévu."),
        ('de', 'Was kann ich am Sonntag unternehmen?'),
        ('it', 'Cosa posso fare domenica pomeriggio?'),
        ('pt', 'O que posso fazer no sábado à tarde?'),
        ('nl', 'Wat kan ik zaterdag doen?'),
        ('pl', 'Co mogę robić w sobotę wieczorem?'),
        ('ru', 'Что мне делать в субботу?'),
        ('uk', 'Що мені робити в неділю?'),
        ('cs', 'Co můžu dělat v sobotu?'),
        ('sv', 'Vad kan jag göra på lördag?'),
        ('da', 'Hvad kan jeg lave på lørdag?'),
        ('no', 'Hva kan jeg gjøre på søndag?'),
        ('fi', 'Mitä voin tehdä sunnuntaina?'),
        ('hu', 'Mik a rendszeres programjaim?'),
        ('hu', 'Mit csináljak szombaton? Én ráérek.'),
        ('ro', 'Ce pot face duminică?'),
        ('tr', 'Pazar günü ne yapabilirim?'),
        ('el', 'Τι μπορώ να κάνω την Κυριακή;'),
        ('he', 'מה אני יכול לעשות ביום שישי?'),
        ('ar', 'ماذا يمكنني أن أفعل يوم الجمعة؟'),
        ('fa', 'من جمعه چه کار کنم؟'),
        ('hi', 'मैं रविवार को क्या करूँ?'),
        ('ja', '土曜日に何をしようかな？'),
        ('zh', '我周六可以做什么？'),
        ('ko', '토요일에 뭐 하지?'),
        ('vi', 'Tôi nên làm gì vào chủ nhật?'),
        ('id', 'Apa yang bisa saya lakukan hari Sabtu?'),
        ('th', 'วันเสาร์นี้ฉันทำอะไรดี'),
        ('de', 'Wann habe ich diese Woche Zeit? Ich plane meinen Sonntag.'),
        ('es', '¿Qué puedo hacer el domingo?'),
        ('fr', 'Organise mon vendredi.'),
        ('it', 'Cosa faccio sabato sera? Sono libero.'),
        ('ru', 'Что я могу сделать в воскресенье?'),
        ('ja', '日曜日は何をしようかな？'),
        ('zh', '我星期五晚上有空，做什么好？'),
        ('ko', '금요일 저녁에 뭐 할까?'),
        ('tr', 'Cumartesi günü ne yapabilirim?'),
        ('pl', 'Co mogę zrobić w niedzielę?'),
        ('nl', 'Wat zal ik op zondag doen? Ik heb tijd.'),
        ('ar', 'ما الذي يمكنني فعله يوم السبت؟'),
        ('he', 'מה לעשות בשבת? אני פנוי.'),
        ('fi', 'Mitä tekisin perjantaina? Olen vapaa.'),
    ],
    'study': [
        ('en', 'Plan my studying this week.'),
        ('en', 'Help me prepare for my exams.'),
        ('es', 'Organiza mi semana para mis exámenes.'),
        ('fr', 'Aide-moi à organiser mes études ce mois-ci.'),
        ('de', 'Wie bereite ich mich auf meine Prüfungen vor?'),
        ('it', 'Come preparo i miei esami di giugno?'),
        ('pt', 'Faz um cronograma de estudos para as minhas provas.'),
        ('nl', 'Help me met de planning voor mijn tentamens.'),
        ('pl', 'Pomóż mi zaplanować naukę do moich egzaminów.'),
        ('ru', 'Помоги подготовиться к моим экзаменам.'),
        ('uk', 'Допоможи спланувати моє навчання.'),
        ('cs', 'Jak si rozvrhnout moje studium? Naplánuj mi učení.'),
        ('sv', 'Gör ett pluggschema inför mina tentor.'),
        ('da', 'Hjælp mig med at planlægge min eksamen.'),
        ('no', 'Lag en leseplan for eksamenene mine.'),
        ('fi', 'Auta minua suunnittelemaan opiskeluni.'),
        ('hu', 'Segíts beosztani a vizsgáim előtti heteket.'),
        ('ro', 'Ajută-mă să mă pregătesc pentru examenele mele.'),
        ('tr', 'Sınavlarım için bir çalışma planı yap.'),
        ('el', 'Βοήθησέ με να οργανώσω τις σπουδές μου.'),
        ('he', 'תעזור לי לתכנן את הלימודים שלי.'),
        ('ar', 'ساعدني في تنظيم دراستي.'),
        ('fa', 'برای امتحانم یک برنامه مطالعه بنویس.'),
        ('hi', 'मेरी पढ़ाई का टाइम टेबल बनाओ।'),
        ('ja', '来週の試験勉強の計画を立てて。'),
        ('zh', '帮我做一个这周的学习计划。'),
        ('ko', '이번 주 공부 계획 좀 세워줘.'),
        ('vi', 'Lập lịch học cho tuần này giúp tôi.'),
        ('id', 'Buatkan jadwal belajar untuk ujian saya.'),
        ('th', 'ช่วยทำตารางอ่านหนังสือสอบให้หน่อย'),
        ('en', 'I have an exam on Monday, help me revise.'),
        ('de', 'Hilf mir beim Lernplan für meine Klausuren.'),
        ('fr', "J'ai un examen lundi, aide-moi à réviser."),
        ('ja', '私の勉強の計画を立てて。'),
        ('zh', '我下周有考试，帮我做复习计划。'),
        ('ko', '다음 주 시험 공부 계획 세워줘.'),
        ('ru', 'У меня экзамен в пятницу, помоги подготовиться.'),
        ('es', 'Tengo un examen el jueves.'),
        ('it', 'Ho un esame venerdì, aiutami a ripassare.'),
        ('pt', 'Tenho uma prova amanhã.'),
        ('cs', 'Mám zkoušku v pátek.'),
        ('tr', 'Cuma sınavım var, yardım et.'),
    ],
    'reading': [
        ('en', "Recommend a film like the book I'm reading."),
        ('es', '¿Qué película se parece al libro que estoy leyendo?'),
        ('fr', "Un film dans l'esprit du livre que je lis en ce moment ?"),
        ('de', 'Gibt es einen Film wie das Buch, das ich gerade lese?'),
        ('it', 'Consigliami un film simile al libro che sto leggendo.'),
        ('pt', 'Um filme parecido com o livro que estou lendo?'),
        ('nl', 'Een film zoals het boek dat ik nu lees?'),
        ('pl', 'Poleć film podobny do książki, którą teraz czytam.'),
        ('ru', 'Посоветуй фильм, похожий на книгу, которую я сейчас читаю.'),
        ('uk', 'Порадь фільм, схожий на книжку, яку я зараз читаю.'),
        ('cs', 'Doporuč film podobný knize, kterou teď čtu.'),
        ('sv', 'Tipsa om en film som liknar boken jag läser.'),
        ('da', 'Anbefal en film som bogen jeg læser.'),
        ('no', 'Anbefal en film som ligner på boka jeg leser.'),
        ('fi', 'Suosittele elokuvaa, joka muistuttaa lukemaani kirjaa.'),
        ('hu', 'Ajánlj filmet, ami hasonlít a könyvhöz, amit most olvasok.'),
        ('ro', 'Recomandă-mi un film ca și cartea pe care o citesc.'),
        ('tr', 'Okuduğum kitaba benzeyen bir film öner.'),
        ('el', 'Πρότεινε μια ταινία σαν το βιβλίο που διαβάζω.'),
        ('he', 'תמליץ על סרט שדומה לספר שאני קורא.'),
        ('ar', 'اقترح فيلماً يشبه الكتاب الذي أقرؤه.'),
        ('fa', 'فیلمی شبیه کتابی که دارم می\u200cخونم پیشنهاد بده.'),
        ('hi', 'मैं अभी जो किताब पढ़ रहा हूँ, उस जैसी फ़िल्म बताओ।'),
        ('ja', '今読んでいる本に似た映画を教えて。'),
        ('zh', '推荐一部跟我正在读的书类似的电影。'),
        ('ko', '내가 읽고 있는 책이랑 비슷한 영화 추천해줘.'),
        ('vi', 'Gợi ý phim giống cuốn sách tôi đang đọc.'),
        ('id', 'Rekomendasikan film seperti buku yang sedang saya baca.'),
        ('th', 'แนะนำหนังที่คล้ายกับหนังสือที่ฉันกำลังอ่าน'),
        ('en', "What should I watch after the series I'm watching?"),
        ('de', 'Ich lese gerade einen Krimi, was danach?'),
        ('fr', 'Je suis en train de lire Dune, que lire après ?'),
        ('ja', '最近読んでいる小説に似た作品は？'),
        ('zh', '我最近在看的剧完结了，推荐类似的。'),
        ('ko', '요즘 보는 드라마랑 비슷한 거 추천해줘.'),
        ('ru', 'Я сейчас читаю Толстого, что дальше?'),
        ('es', 'Estoy leyendo a García Márquez, ¿qué más me gustaría?'),
    ],
    'travel': [
        ('es', 'Ayúdame a planear mi viaje a Japón.'),
        ('fr', 'Que mettre dans la valise pour mon voyage ?'),
        ('de', 'Was muss ich für meine Reise nach Rom einpacken?'),
        ('it', 'Cosa portare per il mio viaggio a Parigi?'),
        ('pt', 'O que levar na minha viagem a Lisboa?'),
        ('nl', 'Wat moet ik meenemen op mijn reis?'),
        ('pl', 'Co spakować na moją podróż?'),
        ('ru', 'Что взять в мою поездку в Стамбул?'),
        ('uk', 'Що взяти в мою подорож?'),
        ('cs', 'Co si zabalit na moji dovolenou?'),
        ('sv', 'Vad ska jag packa inför min resa?'),
        ('da', 'Hvad skal jeg pakke til min rejse?'),
        ('no', 'Hva bør jeg pakke til reisen min?'),
        ('fi', 'Mitä pakkaan matkalleni?'),
        ('hu', 'Mit vigyek az utazásomra?'),
        ('ro', 'Ce să iau în călătoria mea?'),
        ('tr', 'Seyahatim için ne almalıyım?'),
        ('el', 'Τι να πάρω για το ταξίδι μου;'),
        ('he', 'מה לארוז לטיול שלי?'),
        ('ar', 'ماذا آخذ معي في رحلتي؟'),
        ('fa', 'برای سفرم چی ببرم؟'),
        ('hi', 'मेरी यात्रा के लिए क्या पैक करूँ?'),
        ('ja', '私の旅行の持ち物リストを作って。'),
        ('zh', '帮我规划我的旅行行程。'),
        ('ko', '내 여행 일정 좀 짜줘.'),
        ('vi', 'Chuẩn bị gì cho chuyến đi của tôi?'),
        ('id', 'Apa yang perlu dibawa untuk perjalanan saya?'),
        ('th', 'ช่วยวางแผนทริปของฉันหน่อย'),
        ('de', 'Was ziehe ich auf meiner Reise nach Island an?'),
        ('ja', '次の旅行の計画を手伝って。'),
        ('es', '¿Qué llevo en mi vuelo a Lima?'),
        ('zh', '帮我安排这次旅行的行程。'),
        ('ko', '다음 여행 준비물 알려줘.'),
    ],
    'money': [
        ('es', '¿Cómo puedo ajustar mi presupuesto mensual?'),
        ('fr', 'Comment mieux gérer mon budget ?'),
        ('de', 'Wie lege ich meine Ersparnisse am besten an?'),
        ('it', 'Come gestire i miei risparmi?'),
        ('pt', 'Como organizar o meu orçamento?'),
        ('nl', 'Hoe beheer ik mijn budget beter?'),
        ('pl', 'Jak zaplanować mój budżet?'),
        ('ru', 'Как лучше распределить мой бюджет?'),
        ('uk', 'Як спланувати мій бюджет?'),
        ('cs', 'Jak si naplánovat můj rozpočet?'),
        ('sv', 'Hur ska jag lägga upp min budget?'),
        ('da', 'Hvordan lægger jeg mit budget?'),
        ('no', 'Hvordan setter jeg opp budsjettet mitt?'),
        ('fi', 'Miten suunnittelen budjettini?'),
        ('hu', 'Hogyan osszam be a pénzem?'),
        ('ro', 'Cum îmi organizez bugetul meu?'),
        ('tr', 'Bütçemi nasıl planlarım?'),
        ('el', 'Πώς να οργανώσω τα οικονομικά μου;'),
        ('he', 'איך לנהל את התקציב שלי?'),
        ('ar', 'كيف أنظم ميزانيتي؟'),
        ('fa', 'چطور بودجه\u200cام را مدیریت کنم؟'),
        ('hi', 'मेरा बजट कैसे बनाऊँ?'),
        ('ja', '私の予算の立て方を教えて。'),
        ('zh', '怎么规划我的预算？'),
        ('ko', '내 예산을 어떻게 짜야 할까?'),
        ('vi', 'Làm sao quản lý ngân sách của tôi?'),
        ('id', 'Bagaimana mengatur keuangan saya?'),
        ('th', 'จะจัดการเงินของฉันยังไงดี'),
        ('de', 'Wie spare ich mehr von meinem Gehalt?'),
        ('ja', '家計の見直し方を教えて。'),
        ('zh', '我的工资怎么理财？'),
        ('es', '¿Cómo invierto mis ahorros?'),
        ('ru', 'Куда вложить мои сбережения?'),
        ('ko', '내 월급으로 저축하는 법'),
        ('pt', 'Como poupar do meu salário?'),
    ],
    'pet': [
        ('es', '¿Qué juguetes le compro a mi perro?'),
        ('fr', 'Mon chat ne mange plus, que faire ?'),
        ('de', 'Welches Futter ist gut für meine Katze?'),
        ('it', 'Il mio cane ha paura dei tuoni, come aiutarlo?'),
        ('pt', 'Que brinquedos comprar para a minha gata?'),
        ('nl', 'Welk speelgoed is goed voor mijn hond?'),
        ('pl', 'Jaką karmę kupić dla mojego psa?'),
        ('ru', 'Чем кормить мою кошку?'),
        ('uk', 'Чим годувати мого кота?'),
        ('cs', 'Co dát mému psovi k narozeninám?'),
        ('sv', 'Vilka leksaker passar min katt?'),
        ('da', 'Hvilket foder er godt til min hund?'),
        ('no', 'Hvilke leker passer for katten min?'),
        ('fi', 'Mitä leluja ostaisin kissalleni?'),
        ('hu', 'Milyen játékot vegyek a kutyámnak?'),
        ('ro', 'Ce jucării să iau pentru pisica mea?'),
        ('tr', 'Kedime hangi oyuncakları alayım?'),
        ('el', 'Τι παιχνίδια να πάρω για τη γάτα μου;'),
        ('he', 'איזה צעצועים לקנות לכלב שלי?'),
        ('ar', 'ما الألعاب المناسبة لقطتي؟'),
        ('fa', 'برای سگم چه اسباب\u200cبازی بخرم؟'),
        ('hi', 'मेरी बिल्ली के लिए कौन से खिलौने लूँ?'),
        ('ja', 'うちの猫におすすめのおもちゃは？'),
        ('zh', '我家猫不爱吃饭怎么办？'),
        ('ko', '우리 강아지한테 좋은 장난감 추천해줘.'),
        ('vi', 'Nên mua đồ chơi gì cho mèo của tôi?'),
        ('id', 'Mainan apa yang cocok untuk kucing saya?'),
        ('th', 'ของเล่นแบบไหนเหมาะกับแมวของฉัน'),
        ('ru', 'Моя собака боится грозы, что делать?'),
        ('ja', '愛犬の散歩コースを教えて。'),
        ('ko', '우리 고양이가 밥을 안 먹어.'),
        ('zh', '我的狗总是叫怎么办？'),
        ('de', 'Mein Hund bellt ständig.'),
        ('fr', 'Quelle croquette pour ma chienne ?'),
        ('it', 'La mia gatta non mangia.'),
        ('nl', 'Mijn kat krabt aan de bank.'),
        ('es', 'Mi gata no quiere comer.'),
        ('pl', 'Mój kot drapie meble.'),
        ('tr', 'Köpeğim sürekli havlıyor.'),
        ('ar', 'كلبي لا يأكل.'),
        ('he', 'החתולה שלי לא אוכלת.'),
    ],
    'family': [
        ('es', '¿Qué le regalo a mi novia por su cumpleaños?'),
        ('fr', 'Quel cadeau pour ma femme ?'),
        ('de', 'Was schenke ich meiner Tochter zum Geburtstag?'),
        ('it', 'Che regalo fare a mia moglie?'),
        ('pt', 'O que dar de presente ao meu marido?'),
        ('nl', 'Wat geef ik mijn ouders voor hun jubileum?'),
        ('pl', 'Co kupić na urodziny mojej córki?'),
        ('ru', 'Что подарить моей жене на годовщину?'),
        ('uk', 'Що подарувати моїй дружині?'),
        ('cs', 'Co koupit mé sestře k narozeninám?'),
        ('sv', 'Vad ska jag ge min fru i present?'),
        ('da', 'Hvad skal jeg give til min datters fødselsdag?'),
        ('no', 'Hva skal jeg gi kona mi til jul?'),
        ('fi', 'Mitä ostaisin vaimolleni lahjaksi?'),
        ('hu', 'Mit vegyek a feleségemnek?'),
        ('ro', 'Ce cadou să iau pentru soția mea?'),
        ('tr', 'Annem için ne hediye alayım?'),
        ('el', 'Τι δώρο να πάρω στη γυναίκα μου;'),
        ('he', 'מה לקנות לאשתי ליום ההולדת?'),
        ('ar', 'ماذا أهدي زوجتي في عيد ميلادها؟'),
        ('fa', 'برای همسرم چه هدیه\u200cای بخرم؟'),
        ('hi', 'मेरी पत्नी के लिए कौन सा तोहफ़ा लूँ?'),
        ('ja', '妻の誕生日プレゼントは何がいい？'),
        ('zh', '我老婆生日送什么好？'),
        ('ko', '우리 엄마 생신 선물 추천해줘.'),
        ('vi', 'Nên tặng gì cho vợ tôi?'),
        ('id', 'Hadiah apa yang cocok untuk istri saya?'),
        ('th', 'ควรซื้ออะไรให้แฟนของฉันดี'),
        ('ja', '娘の誕生日会のアイデアある？'),
        ('zh', '送我妈什么生日礼物好？'),
        ('ko', '남편 생일 선물 뭐가 좋을까? 내 남편은 요리를 좋아해.'),
        ('ru', 'Как помочь моему сыну с математикой?'),
        ('pl', 'Jak pomóc mojemu synowi w lekcjach?'),
        ('cs', 'Jak pomoct mému synovi s úkoly?'),
        ('da', 'Hvad kan min søn lave i ferien?'),
        ('no', 'Hva kan sønnen min gjøre i ferien?'),
        ('fi', 'Mitä tekisin lasteni kanssa?'),
        ('hu', 'Mit csináljak a gyerekeimmel hétvégén?'),
        ('ro', 'Ce să fac cu copiii mei în weekend?'),
        ('el', 'Τι να κάνω με τα παιδιά μου;'),
        ('hi', 'मेरे बच्चों के लिए कोई खेल बताओ।'),
        ('vi', 'Chơi gì với con tôi?'),
        ('id', 'Kegiatan apa untuk anak saya?'),
        ('th', 'พาลูกของฉันไปเที่ยวไหนดี'),
        ('he', 'מה לעשות עם הילדים שלי?'),
        ('ar', 'ماذا أفعل مع أطفالي؟'),
        ('fa', 'با بچه\u200cهایم چه کار کنم؟'),
        ('uk', 'Що подарувати моєму синові?'),
    ],
    'vehicle': [
        ('es', '¿Cada cuánto cambio el aceite de mi coche?'),
        ('fr', 'Quand faire la révision de ma voiture ?'),
        ('de', 'Wann muss mein Auto zum TÜV?'),
        ('it', 'Ogni quanto cambiare le gomme della mia macchina?'),
        ('pt', 'Quando devo fazer a revisão do meu carro?'),
        ('nl', 'Hoe vaak moet mijn auto naar de garage?'),
        ('pl', 'Kiedy zrobić przegląd w moim aucie?'),
        ('ru', 'Когда менять масло в моей машине?'),
        ('uk', 'Коли міняти шини на моїй машині?'),
        ('cs', 'Kdy mám přezout moje auto?'),
        ('sv', 'När ska min bil besiktigas?'),
        ('da', 'Hvornår skal min bil til syn?'),
        ('no', 'Når må bilen min på EU-kontroll?'),
        ('fi', 'Milloin autoni pitää huoltaa?'),
        ('hu', 'Mikor kell az autómat szervizbe vinni?'),
        ('ro', 'Când schimb uleiul la mașina mea?'),
        ('tr', 'Arabamın yağını ne zaman değiştirmeliyim?'),
        ('el', 'Πότε να κάνω σέρβις στο αυτοκίνητό μου;'),
        ('he', 'מתי להחליף שמן במכונית שלי?'),
        ('ar', 'متى أغير زيت سيارتي؟'),
        ('fa', 'کی باید روغن ماشینم را عوض کنم؟'),
        ('hi', 'मेरी कार की सर्विस कब करानी चाहिए?'),
        ('ja', '私の車のオイル交換はいつ？'),
        ('zh', '我的车多久换一次机油？'),
        ('ko', '내 차 엔진오일은 언제 갈아야 해?'),
        ('vi', 'Khi nào nên bảo dưỡng xe của tôi?'),
        ('id', 'Kapan mobil saya harus diservis?'),
        ('th', 'รถของฉันควรเปลี่ยนน้ำมันเครื่องเมื่อไหร่'),
        ('de', 'Welche Winterreifen passen zu meinem Auto?'),
        ('fr', 'Quels pneus pour mon vélo ?'),
        ('es', '¿Qué neumáticos le pongo a mi bici?'),
        ('pl', 'Jakie opony do mojego samochodu?'),
        ('ru', 'Какие шины поставить на мой велосипед?'),
        ('ja', '愛車の洗車方法を教えて。'),
        ('ko', '제 차 타이어 교체 시기 알려줘.'),
        ('zh', '我的电动车电池怎么保养？'),
        ('cs', 'Jaké pneumatiky na mé kolo?'),
        ('fi', 'Mitkä renkaat polkupyörääni?'),
    ],
    'contact': [
        ('es', 'Escribe un mensaje con mi número de contacto.'),
        ('fr', 'Ajoute mon numéro de téléphone en bas du mail.'),
        ('de', 'Füge meine Telefonnummer in die Signatur ein.'),
        ('it', 'Aggiungi il mio numero di telefono alla firma.'),
        ('pt', 'Coloca o meu e-mail no final da mensagem.'),
        ('nl', 'Zet mijn telefoonnummer onder de brief.'),
        ('pl', 'Dodaj mój numer telefonu do podpisu.'),
        ('ru', 'Добавь мой номер телефона в письмо.'),
        ('uk', 'Додай мій номер телефону в лист.'),
        ('cs', 'Přidej moje číslo do podpisu.'),
        ('sv', 'Lägg till mitt telefonnummer i mejlet.'),
        ('da', 'Tilføj mit telefonnummer til mailen.'),
        ('no', 'Legg til telefonnummeret mitt i e-posten.'),
        ('fi', 'Lisää puhelinnumeroni viestin loppuun.'),
        ('hu', 'Írd bele a telefonszámomat a levélbe.'),
        ('ro', 'Adaugă numărul meu de telefon în semnătură.'),
        ('tr', 'Mesaja telefon numaramı ekle.'),
        ('el', 'Πρόσθεσε το τηλέφωνό μου στο μήνυμα.'),
        ('he', 'תוסיף את מספר הטלפון שלי להודעה.'),
        ('ar', 'أضف رقم هاتفي إلى الرسالة.'),
        ('fa', 'شماره تلفنم را به پیام اضافه کن.'),
        ('hi', 'संदेश में मेरा फ़ोन नंबर जोड़ दो।'),
        ('ja', 'メールの最後に私の電話番号を入れて。'),
        ('zh', '告诉快递员我的联系电话。'),
        ('ko', '메시지에 내 연락처를 넣어줘.'),
        ('vi', 'Thêm số điện thoại của tôi vào tin nhắn.'),
        ('id', 'Tambahkan nomor telepon saya ke pesan.'),
        ('th', 'ใส่เบอร์โทรของฉันในข้อความด้วย'),
        ('de', 'Schreib eine Absage und gib meine E-Mail-Adresse an.'),
        ('ru', 'Напиши объявление с моим номером телефона.'),
        ('ja', '名刺に私の連絡先を入れて。'),
        ('ko', '제 전화번호를 넣어서 문자 써줘.'),
        ('es', 'Pon mi correo al final.'),
        ('fr', 'Mets mon adresse e-mail en signature.'),
        ('zh', '把我的手机号加到签名里。'),
        ('pl', 'Wpisz mój adres e-mail w stopce.'),
        ('tr', 'İlana cep numaramı ekle.'),
        ('nl', 'Voeg mijn e-mailadres toe.'),
    ],
}

# a topic alone, in English and other languages: no reference to the user's own life
TOPIC_ONLY: list[tuple[str, str]] = [
    ('es', '¿Cómo convierto una cadena en JavaScript?'),
    ('es', '¿Cuál es el río más largo de Europa?'),
    ('fr', "Quelle est la capitale de l'Australie ?"),
    ('fr', 'Comment fonctionne la photosynthèse ?'),
    ('de', 'Was ist die Hauptstadt von Kanada?'),
    ('de', 'Wie funktioniert ein Elektroauto?'),
    ('it', 'Chi ha scritto la Divina Commedia?'),
    ('it', 'Qual è la capitale della Cina?'),
    ('pt', 'Quantos planetas existem no sistema solar?'),
    ('nl', 'Hoe werkt een warmtepomp?'),
    ('pl', 'Jak działa silnik elektryczny?'),
    ('ru', 'Какая самая высокая гора в мире?'),
    ('uk', 'Скільки людей живе в Японії?'),
    ('cs', 'Kdo vynalezl telefon?'),
    ('sv', 'Hur många invånare har Norge?'),
    ('da', 'Hvornår blev Danmark medlem af EU?'),
    ('no', 'Hvordan fungerer en varmepumpe?'),
    ('fi', 'Mikä on Suomen pisin joki?'),
    ('hu', 'Mi Magyarország fővárosa?'),
    ('ro', 'Care este cel mai lung râu din lume?'),
    ('tr', "Python'da bir liste nasıl sıralanır?"),
    ('el', 'Ποια είναι η τρίτη μεγαλύτερη χώρα με πληθυσμό στην Ευρώπη;'),
    ('he', 'מה בעלי חיים אוכלים בחורף?'),
    ('ar', 'ما هي عاصمة اليابان؟'),
    ('fa', 'کدام کشور بزرگ\u200cترین جمعیت را دارد؟'),
    ('hi', 'भारत की राजधानी क्या है?'),
    ('ja', '日本で一番高い山は何ですか？'),
    ('zh', '光合作用是如何进行的？'),
    ('ko', '자바스크립트에서 문자열을 숫자로 바꾸는 방법은?'),
    ('vi', 'Thủ đô của Canada là gì?'),
    ('id', 'Apa ibu kota Australia?'),
    ('th', 'ประเทศไทยมีกี่จังหวัด'),
    ('en', 'What is the boiling point of water?'),
    ('en', 'Explain how a car engine works.'),
    ('en', 'Who won the 2018 World Cup?'),
    ('en', 'What does a training schedule for a neural network look like?'),
    ('es', '¿Cuál es el mejor coche eléctrico del mercado?'),
    ('es', '¿Cuántos habitantes tiene Madrid?'),
    ('fr', 'Combien de temps vit un chat ?'),
    ('fr', "Qu'est-ce qu'un trou noir ?"),
    ('de', 'Wie lange lebt ein Hund?'),
    ('de', 'Wie weit ist Essen von Köln entfernt?'),
    ('de', 'Wer hat die Relativitätstheorie entwickelt?'),
    ('it', 'Come si fa il pane in casa?'),
    ('pt', 'O que é inflação?'),
    ('pt', 'Quem descobriu o Brasil?'),
    ('nl', 'Wat is de hoofdstad van België?'),
    ('pl', 'Kto napisał Pana Tadeusza?'),
    ('ru', 'Как работает двигатель внутреннего сгорания?'),
    ('ru', 'Что такое среда разработки?'),
    ('uk', 'Яка столиця Польщі?'),
    ('cs', 'Jak funguje fotosyntéza?'),
    ('sv', 'Vad är Sveriges största sjö?'),
    ('da', 'Hvad er hovedstaden i Island?'),
    ('no', 'Hva er Norges høyeste fjell?'),
    ('fi', 'Miten sähköauto toimii?'),
    ('hu', 'Ki írta az Egri csillagokat?'),
    ('ro', 'Cine a fost Ștefan cel Mare?'),
    ('tr', "Türkiye'nin başkenti neresidir?"),
    ('tr', 'Bir kedinin ortalama ömrü nedir?'),
    ('el', 'Ποια είναι η πρωτεύουσα της Ελλάδας;'),
    ('he', 'מהי בירת צרפת?'),
    ('ar', 'ما هو أطول نهر في العالم؟'),
    ('ar', 'يعني ماذا كلمة ديمقراطية؟'),
    ('fa', 'پایتخت ایران کجاست؟'),
    ('hi', 'सूरज कितना गर्म है?'),
    ('ja', '大丈夫ですか？光の速さはどれくらい？'),
    ('ja', '猫は何年生きますか？'),
    ('zh', '自我介绍怎么写才好？'),
    ('zh', '世界上最大的国家是哪个？'),
    ('ko', '내일 날씨가 어때?'),
    ('ko', '문제 해결 방법을 알려줘.'),
    ('vi', 'Việt Nam có bao nhiêu tỉnh?'),
    ('id', 'Berapa jarak bumi ke bulan?'),
    ('th', 'แม่น้ำที่ยาวที่สุดในโลกคืออะไร'),
]


def test_every_aspect_is_asked_for_in_many_languages():
    assert len(LANGUAGES) == 28 and {a.name for a in ASPECTS} == set(ASKED_IN_OTHER_LANGUAGES)
    for aspect, requests in ASKED_IN_OTHER_LANGUAGES.items():
        assert len({language for language, _ in requests} - {"en"}) >= 8, aspect
        missed = [(language, text) for language, text in requests if aspect not in names(text)]
        assert missed == [], aspect


def test_a_topic_alone_asks_for_no_aspect_in_any_language():
    """Also a short form inside a longer word: Italian "Cina" is no Romanian "cina" (dinner), Turkish "nasıl"
    no Hungarian snack, Japanese "大丈夫" no husband, Persian "کدام" no "my code", Arabic "يعني" no "about me"."""
    assert len(TOPIC_ONLY) >= 15
    wrong = [(language, text, names(text)) for language, text in TOPIC_ONLY if names(text)]
    assert wrong == []
    for text in ("Qual è la capitale della Cina?", "What is the capital of Italy?", "Python'da liste nasıl sıralanır?",
                 "Kdo má auto v Praze nejčastěji?", "¿Qué mochila compro para mi equipo de fútbol?"):
        assert names(text) == [], text


def test_no_request_matches_an_empty_or_neutral_message():
    for text in ("", " ", "ok", "?", "12345", "Thanks!", "Gracias", "谢谢", "ありがとう"):
        assert names(text) == [], text


def test_a_request_typed_decomposed_is_read_composed():
    assert "home" in names(unicodedata.normalize("NFD", "Có quán cà phê nào ngon gần tôi không?"))
    assert "pet" in names(unicodedata.normalize("NFD", "우리 고양이가 밥을 안 먹어."))


def test_no_request_pattern_backtracks_on_a_long_message():
    """Linear time on 20,000 characters, also on input made of the patterns' own pieces (a first-person
    word and a weekday again and again, possessives, scripts without spaces)."""
    for piece in ("my ", "I on ", "me lunes ", "ich Sonntag ", "moim ", "我的", "내 ", "मेरे ", "ของฉัน", "من ",
                  "ה", "a", "1 ", "j' "):
        text = (piece * (20_000 // len(piece) + 1))[:20_000]
        start = time.perf_counter()
        asked_aspects(text)
        assert time.perf_counter() - start < 5, piece


# English memories (how facts are written) that state, or do not state, a new aspect
STATED = {
    "fitness": (["The user plays padel three times a week.", "The user goes to the gym on Tuesdays.",
                 "The user is training for the Berlin marathon.", "The user swims before work.",
                 "The user does yoga every morning.", "The user has been running 5k three times a week."],
                ["The user runs a bakery in Leeds.", "The user runs Arch Linux on a ThinkPad.",
                 "The user lives in Utrecht.", "The user is vegetarian."]),
    "schedule": (["The user has Spanish lessons on Thursday afternoons.",
                  "The user plays football every Sunday morning.",
                  "The user visits their mother on Wednesday evenings.", "The user climbs three times a week.",
                  "The user works from home on Fridays."],
                 ["The user lives in Utrecht.", "The user prefers tea to coffee.", "The user has a cat named Miso."]),
    "study": (["The user studies law at the University of Porto.", "The user has a statistics exam next month.",
               "The user is doing a master's in data science.", "The user takes evening classes in Japanese.",
               "The user is a second-year student."],
              ["The user works at Globex as a data engineer.", "The user has a cat named Miso."]),
    "reading": (["The user is reading Dune.", "The user loves novels by Ursula K. Le Guin.",
                 "The user is watching The Bear.", "The user listens to history podcasts."],
                ["The user lives in Utrecht.", "The user plays padel.", "The user booked a table for Friday."]),
    "food": (["The user prefers hojicha to coffee.", "The user drinks matcha every morning.",
              "The user avoids caffeine after noon.", "The user likes oat milk in their tea."],
             ["The user lives in Utrecht.", "The user drives a 2015 Honda Accord.", "The user's team uses Jira."]),
}


def test_the_new_aspects_are_stated_by_english_memories():
    for aspect, (stating, other) in STATED.items():
        for content in stating:
            assert aspect in [a.name for a in fact_aspects(fact("f", content))], (aspect, content)
        for content in other:
            assert aspect not in [a.name for a in fact_aspects(fact("f", content))], (aspect, content)


def test_a_request_in_another_language_finds_the_english_memory_of_its_aspect():
    facts = {f.id: f for f in (fact("f_padel", "The user plays padel three times a week."),
                               fact("f_home", "The user lives in Utrecht."),
                               fact("f_phone", "The user's mobile number is +34 612 345 678."),
                               fact("f_tea", "The user prefers hojicha to coffee.", kind="preference"),
                               fact("f_book", "The user is reading The Left Hand of Darkness."))}
    assert aspect_relevance("Hazme un plan de entrenamiento para mí.", facts).keys() >= {"f_padel"}
    assert "f_home" in aspect_relevance("Onko lähistöllä hyvää kahvilaa?", facts)
    assert "f_home" in aspect_relevance("Van a közelemben jó pékség?", facts)
    assert "f_phone" in aspect_relevance("Escribe un mensaje con mi número de contacto.", facts)
    assert "f_phone" in aspect_relevance("告诉快递员我的联系电话。", facts)
    assert "f_tea" in aspect_relevance("今日のおやつと飲み物は何がいい？", facts)
    assert "f_book" in aspect_relevance("今読んでいる本に似た映画を教えて。", facts)
    assert "f_padel" in aspect_relevance("¿Qué puedo hacer el domingo?", facts)  # "three times a week"
    assert aspect_relevance("Was ist die Hauptstadt von Kanada?", facts) == {}


def test_the_phrasings_each_new_aspect_was_added_for():
    examples = {
        "fitness": ["Make me a training plan.", "Can you adjust my workouts?", "Un plan de entrenamiento para mí.",
                    "Trainingsplan für mich, bitte.", "Gör ett träningsschema åt mig.",
                    "Φτιάξε μου ένα πρόγραμμα προπόνησης.", "トレーニングメニューを考えて。",
                    "Quiero un plan de entrenamiento."],
        "schedule": ["Which evening am I free?", "Organise my Friday.", "What can I do on Sunday?",
                     "List my regular commitments.", "¿Cómo organizo mi viernes?", "Was mache ich am Sonntag?",
                     "Melyek a rendszeres programjaim?", "Welke avond ben ik vrij?", "どの夜が空いてる？",
                     "我哪个晚上有空？"],
        "study": ["Plan my studying this week.", "My exams start in May.", "Any tips for my course?",
                  "Jak zorganizovat moje studium?", "Comment organiser mes études ?", "Meine Prüfungen stehen an.",
                  "Pomoz mi naplánovat moje učení.", "Mám zkoušky, jak se učit?"],
        "reading": ["Recommend a film like the book I'm reading.", "¿Qué tal el libro que estoy leyendo?",
                    "今読んでいる本に似た映画は？", "Ich lese gerade einen Krimi, was danach?",
                    "Je suis en train de lire Dune."],
        "food": ["What should I drink with dinner?", "Suggest something to drink.", "¿Qué bebida para la merienda?",
                 "Quel thé pour moi ce soir ?", "下午茶喝什么好？", "뭐 마실까?"],
        "tech": ["Show me how I deploy this.", "Write me code that parses a CSV.", "Zeig mir, wie ich das mache.",
                 "Montre-moi comment je fais.", "Muéstrame cómo lo hago.", "Écris-moi du code qui lit un CSV.",
                 "Напиши код, который читает CSV."],
    }
    for aspect, requests in examples.items():
        assert [text for text in requests if aspect not in names(text)] == [], aspect
    assert names("Tell me what happened on Tuesday.") == []  # a weekday without the user's own week
    assert names("What does a training schedule for a neural network look like?") == []  # a model's training


def test_a_review_a_lesson_a_shift_a_commute_or_a_week_to_plan_asks_for_the_users_work():
    for text in ("Can you help me prep for my annual review next week?", "Help me plan Monday's lesson.",
                 "Any ideas for a fun lesson for my Year 9 class?", "Ik heb morgen weer nachtdienst, tips?",
                 "Can you help me plan next week?", "Kannst du mir einen Plan für nächste Woche machen?",
                 "¿Me ayudas a organizar la semana que viene?", "Qu'est-ce que je dois prévoir pour mon trajet ?"):
        assert "work" in names(text), text
    for text in ("What is a lesson in functional programming?", "Plan a trip for next week to Rome",
                 "What did the Romans teach about lessons of history?", "How do night shifts affect sleep?"):
        assert names(text) == [], text


def test_a_stay_somewhere_for_a_while_states_where_the_user_is():
    for content in ("The user is working remotely from Lisbon until the end of March.",
                    "The user will be in Heraklion for a project until the end of May.",
                    "The user is staying at Casa Azul in Oaxaca."):
        assert states(_BY_NAME_TEST["home"], "", content), content
    assert states(_BY_NAME_TEST["work"], "", "The user cycles 40 minutes to their office.")


_BY_NAME_TEST = {a.name: a for a in ASPECTS}
