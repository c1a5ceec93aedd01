"""Request patterns of the aspects studies, reading, travel, money (:mod:`memory_agent.memory.asks`)."""

from __future__ import annotations

from memory_agent.memory.asks.grammar import MINE, asks, mine

__all__ = ["MONEY_ASKS", "READING_ASKS", "STUDY_ASKS", "TRAVEL_ASKS"]

STUDY_ASKS = asks(
    r"\b(?:my|our) (?:stud(?:y|ies|ying)|exams?|finals|midterms|courses?|coursework|degree|thesis|dissertation|"
    r"classes|lectures|modules?|revision|homework|assignments?|semester|term paper|uni|university|college|"
    r"school|major|certification|revision timetable)\b|"
    r"\b(?:i'm|i am|we're|we are) (?:studying|revising|taking (?:a|an|the) (?:course|class|exam))\b|"
    r"\b(?:i have|i've got|i got) (?:an? |my )?(?:exams?|finals|midterms|test)\b|"
    r"\b(?:plan|organi[sz]e|schedule) (?:my|our) (?:study|studying|revision|exam prep)\b|"
    r"\b(?:study|revision|exam) (?:plan|schedule|timetable)\b",
    mine(es=r"estudios|exámen(?:es)?|examen|curso|carrera|tesis|clases|asignaturas|máster|universidad|facultad|"
             r"deberes|oposiciones|TFG|TFM",
          fr="études|examens?|cours|formation|licence|master|thèse|mémoire|fac|université|révisions|devoirs|"
             "partiels?|bac",
          de=r"Studium|Prüfung(?:en)?|Klausur(?:en)?|Kurs(?:e|es)?|Vorlesung(?:en)?|Abschlussarbeit|Bachelorarbeit|"
             r"Masterarbeit|Thesis|Uni|Universität|Hochschule|Hausaufgaben|Seminar\w*|Semester|Abitur|Ausbildung|"
             r"Lernplan|Lernen",
          it="studi|esami|esame|corso|corsi|laurea|tesi|università|lezioni|compiti|maturità|sessione",
          pt="estudos|provas?|exames?|curso|faculdade|universidade|tese|dissertação|TCC|aulas|matérias|"
             "disciplinas|vestibular|mestrado|doutorado|licenciatura",
          nl="studie|tentamens?|examens?|cursus|opleiding|scriptie|colleges|huiswerk|universiteit|hogeschool|"
             "toetsen|toets|vakken",
          pl=r"studi\w*|egzamin\w*|kurs\w*|kolokwi\w*|sesj\w*|prac\w* (?:magistersk|licencjack|dyplomow|"
             r"inżyniersk)\w*|zajęci\w*|uczelni\w*|nauk[aięą]|matur\w*|wykład\w*|przedmiot\w*",
          ru=r"учёб\w*|учеб\w*|экзамен\w*|сесси\w*|курс\w*|диплом\w*|диссертаци\w*|курсов\w*|лекци\w*|домашк\w*|"
             r"университет\w*|универ\w*|институт\w*|предмет\w*",
          uk=r"навчанн\w*|іспит\w*|екзамен\w*|сесі\w*|курс\w*|диплом\w*|дисертаці\w*|лекці\w*|домашк\w*|"
             r"університет\w*|універ\w*|предмет\w*",
          cs=r"studi\w*|studium|zkoušk\w*|kurz\w*|diplomk\w*|bakalářk\w*|diplomov\w* prác\w*|přednášk\w*|úkol\w*|"
             r"univerzit\w*|vysok\w* škol\w*|semestr\w*|maturit\w*|učení",
          sv="studier|studierna|tentor|tenta|tentan|prov|provet|kurs|kursen|kurser|examen|examensarbete|uppsats|"
             "föreläsningar|läxor|plugg|pluggande|pluggandet|universitet|utbildning",
          da="studie|studier|studiet|eksamen|eksaminer|kursus|speciale|bachelorprojekt|forelæsninger|lektier|"
             "uddannelse|universitet",
          no="studier|studiet|studie|eksamen|eksamener|eksamenene|emne|emner|kurs|kurset|masteroppgave|"
             "masteroppgaven|bacheloroppgave|bacheloroppgaven|forelesninger|lekser|utdanning|utdanningen|"
             "universitet",
          fi="opiskelu|opinno|opinnot|tentti|tenti|kokee|kurssi|kurssei|gradu|graduu|opinnäytetyö|luento|läksy|"
             "yliopisto|koulu",
          hu="tanulmányaim|vizsgáim|vizsgám|vizsgaidőszakom|kurzusom|kurzusaim|szakdolgozatom|diplomamunkám|"
             "óráim|előadásaim|házim|házi feladatom|egyetemem|tanulásom|tárgyaim|félévem|érettségim",
          ro=r"studiile|examenele|examenul|sesiunea|cursul|cursurile|licen[țţt]a|lucrarea de licen[țţt][ăa]|"
             r"diserta[țţt]ia|lucrarea|teza|orele|temele|facultatea|universitatea|materiile|bacul|înv[ăa][țţ]atul",
          tr="derslerim|sınavım|sınavlarım|vizem|vizelerim|finalim|finallerim|kursum|tezim|ödevlerim|ödevim|"
             "üniversitem|okulum|bölümüm|dönemim|çalışma planım|ders programım",
          el=r"σπουδ\w*|εξετάσ\w*|εξεταστικ\w*|μαθήματ\w*|πτυχιακ\w*|διπλωματικ\w*|διατριβ\w*|σχολ\w*|"
             r"πανεπιστήμι\w*|διάβασμ\w*",
          he="לימודים|מבחן|מבחנים|בחינה|בחינות|קורס|קורסים|תואר|עבודת ה?גמר|תזה|שיעורי בית|אוניברסיטה|מכללה|סמסטר",
          ar="دراستي|امتحاناتي|امتحاني|اختباراتي|اختباري|مقرراتي|أطروحتي|محاضراتي|دروسي|واجباتي|جامعتي|كليتي|"
             "مدرستي|مذاكرتي",
          fa="درس|درس\u200c?ها|دروس|امتحان|امتحانات|آزمون|کنکور|دوره|رشته|پایان\u200c?\\s?نامه|کلاس|کلاس\u200c?ها|"
             "تکلیف|دانشگاه|ترم|مطالعه",
          hi="पढ\u093c?ाई|परीक्षा(?:ए[\u0901\u0902]|ओं)?|एग\u093c?्जाम|कोर्स|डिग्री|थीसिस|क्लास|कक्षा|होमवर्क|कॉलेज|"
             "यूनिवर्सिटी|विश्वविद्यालय|सेमेस्टर|स्टडी",
          ja="勉強|試験|テスト|期末|授業|講義|課題|宿題|卒論|卒業論文|修論|論文|大学|学校|学期|資格試験|受験",
          zh="学习|學習|考试|考試|期末考|课程|課程|论文|論文|毕业论文|畢業論文|学位|學位|大学|大學|作业|作業|学期|"
             "學期|复习|複習",
          ko="공부|시험|기말고사|중간고사|수업|강의|과제|숙제|논문|졸업논문|학위|대학|학교|학기|전공",
          vi="việc học|học tập|bài thi|kỳ thi|kì thi|khóa học|luận văn|luận án|lớp học|bài tập về nhà|trường|"
             "đại học|học kỳ|môn học",
          id="kuliah|studi|ujian|kursus|skripsi|tesis|kelas|tugas kuliah|PR|sekolah|kampus|universitas|semester|"
             "pelajaran",
          th="การเรียน|การสอบ|วิชา|คอร์ส|วิทยานิพนธ์|การบ้าน|มหาวิทยาลัย|มหาลัย|โรงเรียน|เทอม"),
    # I have an exam, I'm studying, a study plan
    r"\b(?:tengo (?:un |el )?examen|estoy estudiando|horario de estudio|calendario de estudio|"
    r"(?:organiza|planifica)(?:r)?(?:me)? (?:mi|el) estudio|j'ai (?:un |mon )?(?:examen|partiel)|"
    r"planning de révisions?|plan de révisions?|je révise|ich (?:habe|hab|schreibe)\b[^.?!]{0,20}?\b(?:Prüfung|"
    r"Klausur|Examen)\w*|ich lerne für|ho (?:un|l') esame|devo studiare|sto studiando|piano di studio per me|"
    r"tenho (?:uma )?prova|tenho (?:um )?exame|estou estudando|cronograma de estudos?|ik heb een tentamen|"
    r"ik moet leren|studieplanning|mam (?:egzamin|kolokwium|sesję)|uczę się|plan nauki|harmonogram nauki|"
    r"(?:zaplanuj|rozplanuj|ułóż|rozpisz) mi naukę|у меня (?:экзамен|сесси)\w*|я учусь|план (?:учёбы|учебы|"
    r"подготовки)|подготовк\w* к (?:экзамен\w*|сесси\w*)|у мене (?:іспит|екзамен|сесі)\w*|я навчаюся|я вчуся|"
    r"план навчання|mám zkoušk\w*|učím se|naplánuj mi učení|studijní plán|jag har (?:en )?tenta|jag pluggar|"
    r"jag studerar|pluggschema|studieschema|jeg har eksamen|jeg studerer|jeg læser til|leseplan|"
    r"(?:minulla|mulla) on tentti|opiskelen|lukusuunnitelma|opiskelusuunnitelma|vizsgára készülök|"
    r"vizsgám lesz|tanulási terv|am (?:un )?examen|am sesiune|înv[ăa][țţ] pentru|plan de (?:studiu|"
    r"înv[ăa][țţ]are)|sınavım var|ders çalışma (?:planı|programı)|çalışma planı|έχω εξετάσ\w*|"
    r"πρόγραμμα (?:διαβάσματος|μελέτης)|διαβάζω για|lịch học|kế hoạch học tập|kế hoạch ôn thi|ôn thi|"
    r"tôi (?:có|sắp) thi|tôi đang học|jadwal belajar|rencana belajar|(?:saya|aku) (?:ada|punya) ujian|"
    r"belajar untuk ujian)(?!\w)|"
    r"יש לי (?:מבחן|בחינה)|אני (?:לומד|לומדת) ל|(?:عندي|لدي) (?:امتحان|اختبار)|(?:جدول|خطة) (?:ال)?مذاكرة|"
    r"امتحان دارم|درس می\u200c?خونم|درس می\u200c?خوانم|برنامه (?:مطالعه|درسی)|"
    r"(?<![\u0900-\u097f])(?:मेरी परीक्षा|पढ\u093c?ाई का (?:प्लान|शेड्यूल|टाइम ?टेबल)|स्टडी प्लान)|"
    r"勉強計画|学習計画|勉強の?スケジュール|試験勉強|テスト勉強|受験勉強|勉強の予定|学习计划|學習計畫|复习计划|"
    r"複習計畫|备考|備考|我(?:要|有|快)考试|我(?:要|有|快)考試|공부 ?계획|학습 ?계획|시험 ?공부|공부 일정|"
    r"시험이 있|ตารางอ่านหนังสือ|แผนการเรียน|ตารางเรียน|(?:ฉัน|ผม)(?:จะ|มี)สอบ|อ่านหนังสือสอบ",
)

READING_ASKS = asks(
    r"\b(?:book|novel|series|show|film|movie|manga|comic|podcast|audiobook)s? (?:that |which )?(?:i'm|i am|"
    r"i've been|we're|we are|i was|i just|i|we) (?:currently |now |just )?(?:reading|watching|listening to|"
    r"finished|read|watched|into|hooked on|bingeing)\b|"
    r"\b(?:my|our) (?:current (?:book|read|series|show)|reading list|bookshelf|tbr|watchlist|book club|"
    r"books|reads)\b|\bwhat (?:i'm|i am|we're) (?:reading|watching)\b|"
    r"\b(?:i'm|i am|i've been|we're|we are) (?:currently |now )?(?:reading|watching|re-reading|bingeing|"
    r"binge-watching)\b",
    r"\b(?:libro|novela|serie|película|peli|cómic|manga|podcast)s?\s+que\s+(?:estoy|estaba|he estado|acabo de)\s+"
    r"(?:leyendo|viendo|escuchando|leer|ver|terminar)|\b(?:estoy|he estado) (?:leyendo|viendo)\b|"
    r"\b(?:livre|roman|série|film|bd|manga|podcast)s?\s+que\s+(?:je\s+|j['’])(?:lis|regarde|écoute|viens de|"
    r"suis en train de|ai lu|ai vu)|\bje suis en train de (?:lire|regarder)\b|\bje (?:lis|regarde) "
    r"(?:en ce moment|actuellement)\b|"
    r"\b(?:Buch|Roman|Serie|Film|Comic|Manga|Podcast|Hörbuch)\w*,?\s+(?:das|den|die)\s+ich\s+(?:gerade\s+|zurzeit\s+|"
    r"im Moment\s+)?(?:lese|schaue|gucke|sehe|höre|gelesen|geschaut)|\bich\s+(?:lese|schaue|gucke|höre)\s+"
    r"(?:gerade|zurzeit|im Moment|derzeit)\b|\bwas ich (?:gerade )?(?:lese|schaue)\b|"
    r"\b(?:libro|romanzo|serie|film|fumetto|manga|podcast)\s+che\s+(?:sto|stavo|ho appena|ho)\s+(?:leggendo|"
    r"guardando|ascoltando|letto|visto|finito)|\bsto (?:leggendo|guardando)\b|"
    r"\b(?:livro|romance|série|filme|quadrinho|mangá|manga|podcast)s?\s+que\s+(?:eu\s+)?(?:estou|estava|acabei de)\s+"
    r"(?:lendo|a ler|vendo|a ver|assistindo|ouvindo|ler|ver|assistir)|\bestou (?:lendo|a ler|assistindo|vendo)\b|"
    r"\b(?:boek|roman|serie|film|strip|manga|podcast)\s+(?:dat|die)\s+ik\s+(?:nu\s+|momenteel\s+)?(?:lees|kijk|"
    r"luister|aan het lezen|heb gelezen|gelezen heb)|\bik (?:lees|kijk) (?:nu|momenteel|op dit moment)\b|"
    r"\bik ben (?:nu )?(?:\w+ )?aan het (?:lezen|kijken)\b|"
    r"\b(?:książk\w*|powieś\w*|serial\w*|film\w*|komiks\w*|mang\w*|podcast\w*),?\s+(?:którą|który|które|jaką|"
    r"jaki)\s+(?:teraz\s+|właśnie\s+|obecnie\s+)?(?:czytam|oglądam|słucham|przeczytał[ae]m|obejrzał[ae]m)|"
    r"\b(?:teraz|właśnie|obecnie) (?:czytam|oglądam)\b|\b(?:czytam|oglądam) (?:teraz|właśnie|obecnie)\b|"
    r"\b(?:книг\w*|роман\w*|сериал\w*|фильм\w*|комикс\w*|манг\w*|подкаст\w*),?\s+(?:котор\w*|что)\s+(?:я\s+)?"
    r"(?:сейчас\s+)?(?:читаю|смотрю|слушаю|прочитал\w*|посмотрел\w*|дочитал\w*)|\bя\s+(?:сейчас\s+)?(?:читаю|"
    r"смотрю|пересматриваю)(?!\w)|\b(?:сейчас|как раз) (?:читаю|смотрю)(?!\w)|"
    r"\b(?:книж?к\w*|книг\w*|роман\w*|серіал\w*|фільм\w*|комікс\w*|манг\w*|подкаст\w*),?\s+(?:як\w*|що)\s+"
    r"(?:я\s+)?(?:зараз\s+)?(?:читаю|дивлюся|дивлюсь|слухаю|прочитав|прочитала|подивився|подивилася)|"
    r"\bя\s+(?:зараз\s+)?(?:читаю|дивлюся|дивлюсь)(?!\w)|"
    r"\b(?:knih\w*|román\w*|seriál\w*|film\w*|komiks\w*|mang\w*|podcast\w*),?\s+(?:kterou|který|které|co)\s+"
    r"(?:teď\s+|právě\s+|zrovna\s+)?(?:čtu|sleduju|sleduji|koukám|poslouchám|jsem četl\w*|jsem přečetl\w*|"
    r"jsem viděl\w*)|\b(?:teď|právě|zrovna) (?:čtu|sleduju|sleduji|koukám na)(?!\w)|"
    r"\b(?:bok|boken|roman|romanen|serie|serien|film|filmen|podd|podden|podcast|podcasten)\s+(?:som\s+)?jag\s+"
    r"(?:håller på att läsa|läser|tittar på|kollar på|lyssnar på|har läst|läste)|\bjag (?:läser|tittar på|"
    r"kollar på) (?:just nu|nu)\b|\bjag håller på (?:att|och) (?:läsa|titta)|"
    r"\b(?:bog|bogen|roman|romanen|serie|serien|film|filmen|podcast|podcasten)\s+(?:som\s+|der\s+)?jeg\s+"
    r"(?:er ved at læse|læser|ser|lytter til|har læst|læste|så)\b|\bjeg (?:læser|ser) (?:lige nu|for tiden)\b|"
    r"\b(?:bok|boka|boken|roman|romanen|serie|serien|film|filmen|podkast|podcast)\s+(?:som\s+)?jeg\s+"
    r"(?:holder på å lese|leser|ser på|ser|hører på|har lest|leste|så)\b|\bjeg (?:leser|ser på) (?:nå|for tiden)\b|"
    r"\bjeg holder på å (?:lese|se)\b|"
    r"\b(?:kirja|romaani|sarja|elokuva|sarjakuva|manga|podcast)\w*,?\s+(?:jota|joita|jonka|mitä)\s+(?:parhaillaan\s+|"
    r"nyt\s+|juuri\s+)?(?:luen|katson|kuuntelen|luin|katsoin)\b|\b(?:luen|katson) (?:parhaillaan|nyt|"
    r"tällä hetkellä|juuri nyt)\b|\b(?:lukemani|katsomani|lukemaani|katsomaani)\b|"
    r"\b(?:könyv|regény|sorozat|film|képregény|manga|podcast)\w*,?\s+(?:amit|amelyet|amiket)\s+(?:most\s+|éppen\s+|"
    r"épp\s+)?(?:olvasok|olvasom|nézek|nézem|hallgatok|hallgatom|olvastam|néztem)\b|\b(?:most|éppen|épp)\s+"
    r"(?:olvasok|olvasom|nézem|nézek)\b|\bolvasmányom\w*|"
    r"\b(?:cartea|romanul|serialul|filmul|podcastul)\s+pe\s+care\s+(?:o|îl|il|le|i)\s+(?:citesc|urm[ăa]resc|"
    r"v[ăa]d|ascult|am citit|am v[ăa]zut)\b|\b(?:citesc|m[ăa] uit la|urm[ăa]resc)\s+(?:acum|în prezent|"
    r"momentan)\b|"
    r"\b(?:okuduğum|izlediğim|seyrettiğim|dinlediğim|okumakta olduğum|izlemekte olduğum)\b|"
    r"\b(?:şu an|şu sıralar|şimdi)\s+(?:\w+\s+)?(?:okuyorum|izliyorum)\b|"
    r"\b(?:βιβλί\w*|μυθιστόρημ\w*|σειρ\w*|ταινί\w*|κόμικ)\s+που\s+(?:τώρα\s+)?(?:διαβάζω|βλέπω|παρακολουθώ|ακούω|"
    r"διάβασα|είδα|τελείωσα)(?!\w)|\b(?:διαβάζω|βλέπω)\s+(?:τώρα|αυτή την περίοδο|αυτό τον καιρό)(?!\w)|"
    r"(?:ספר|רומן|סדרה|סרט|קומיקס|מנגה|פודקאסט)\w*\s+ש(?:אני\s+)?(?:קורא|קוראת|רואה|צופה|מאזין|מאזינה|קראתי|"
    r"ראיתי)\b|אני (?:קורא|קוראת|רואה|צופה)\s+(?:עכשיו|כרגע|בימים אלה)|אני (?:עכשיו|כרגע) (?:קורא|קוראת|רואה|"
    r"צופה)|"
    r"(?:الكتاب|الرواية|المسلسل|الفيلم|القصة|البودكاست)\s+(?:الذي|التي)\s+(?:أقرؤه|أقرأه|أقرؤها|أقرأها|"
    r"أشاهده|أشاهدها|أتابعه|أتابعها|أسمعه|قرأته|قرأتها|شاهدته|شاهدتها)|(?:أقرأ|أشاهد|أتابع)\s+(?:حاليا|حالياً|"
    r"الآن|هذه الأيام)|(?:حاليا|حالياً) (?:أقرأ|أشاهد|أتابع)|"
    r"(?:کتاب|رمان|سریال|فیلم|پادکست)ی\s+که\s+(?:(?:الان|دارم)\s+){0,2}(?:می\u200c?خونم|می\u200c?خوانم|می\u200c?بینم|"
    r"خوندم|خواندم|دیدم)|دارم\s+(?:\S+\s+)?(?:می\u200c?خونم|می\u200c?خوانم)|"
    r"(?<![\u0900-\u097f])(?:मैं|जो)\s+(?:अभी\s+|आजकल\s+)?(?:\S+\s+){0,2}?(?:पढ\u093c?|देख|सुन)\s+रह(?:ा|ी|े)|"
    r"(?:今|最近|いま)?(?:読んで(?:い)?る|読み途中の|見て(?:い)?る|観て(?:い)?る|聴いて(?:い)?る|聞いて(?:い)?る)"
    r"(?:本|小説|漫画|マンガ|ドラマ|アニメ|シリーズ|映画|ポッドキャスト)|(?:今|いま|最近)(?:読んで|観て)(?:い)?る|"
    r"(?<![自忘本])我(?:正在|最近在|现在在|現在在|最近|在|正)(?:读|讀|看|追|听|聽)(?:的|一本|一部|这本|這本|这部|"
    r"這部)?(?:书|書|小说|小說|剧|劇|电视剧|電視劇|动漫|動漫|漫画|漫畫|电影|電影|美剧|韩剧|日剧|播客)|"
    r"(?:내가|제가|요즘|지금)\s?(?:읽고 있는|읽는|보고 있는|보는|듣고 있는|듣는|읽은|본)\s?(?:책|소설|드라마|"
    r"시리즈|영화|만화|웹툰|애니|팟캐스트)|"
    r"\b(?:sách|cuốn sách|tiểu thuyết|bộ phim|phim|truyện|manga|podcast)\s+(?:mà\s+)?(?:tôi|mình|tớ)\s+(?:đang|vừa|"
    r"mới)\s+(?:đọc|xem|nghe)\b|\b(?:tôi|mình|tớ)\s+(?:đang|hiện đang)\s+(?:đọc|xem)\b|"
    r"\b(?:buku|novel|serial|film|drama|komik|manga|podcast)\s+yang\s+(?:sedang\s+|lagi\s+|baru\s+)?(?:saya|aku|"
    r"gue)\s+(?:sedang\s+|lagi\s+)?(?:baca|tonton|dengar|dengarkan)\b|\b(?:saya|aku|gue)\s+(?:sedang|lagi)\s+"
    r"(?:membaca|baca|menonton|nonton)\b|\b(?:bacaanku|tontonanku)\b|"
    r"(?:ฉัน|ผม|เรา|หนู)\s?กำลัง\s?(?:อ่าน|ดู(?!แล)|ฟัง)|(?:หนังสือ|นิยาย|ซีรีส์|ซีรีย์|หนัง|การ์ตูน|มังงะ|พอดแคสต์)"
    r"(?:เล่ม|เรื่อง)?ที่(?:ฉัน|ผม|เรา|หนู)\s?(?:กำลัง)?\s?(?:อ่าน|ดู(?!แล)|ฟัง)",
    mine(es="lecturas?|libro actual|lista de lectura|club de lectura", fr="lectures?|livre du moment|liste de lecture",
          de="Lektüre|Leseliste|Buchclub|Lesekreis", it="letture|lettura|lista di lettura",
          pt="leituras?|lista de leitura|clube do livro", nl="leeslijst|boekenclub|leesclub",
          pl=r"lektur\w*|list\w* lektur", ru=r"чтени\w*|книжн\w* клуб\w*", uk=r"читанн\w*|книжков\w* клуб\w*",
          cs=r"četb\w*", sv="läslista|bokcirkel", da="læseliste|bogklub", no="leseliste|leselista|bokklubb",
          fi="lukulista|lukupiiri", hu="olvasmányom|olvasmányaim|könyvklubom", ro="lecturile|clubul de carte",
          tr="okuma listem|kitap kulübüm", el=r"διάβασμ\w*|αναγνώσ\w*", he="רשימת הקריאה|מועדון הקריאה",
          ar="قراءاتي", fa="کتاب\u200cخوانی", hi="किताब|किताबें", ja="本棚|読書リスト|積読", zh="书单|書單|书架|書架",
          ko="책장|독서 목록|읽을 목록", vi="danh sách đọc", id="daftar bacaan", th="ชั้นหนังสือ"),
)

TRAVEL_ASKS = asks(
    rf"\b{MINE} (?:trip|travel\w*|flights?|holiday|vacation|visit|journey|itinerary)\b",
    mine(es="viajes?|vuelos?|vacaciones|itinerario|escapada|visita",
          fr="voyages?|vols?|vacances|itinéraire|séjour|escapade",
          de=r"Reise\w*|Flug\w*|Urlaub\w*|Route|Trip",
          it="viaggio|viaggi|volo|voli|vacanz[ae]|itinerario|soggiorno",
          pt="viagem|viagens|voo|vôo|voos|férias|itinerário|roteiro|estadia",
          nl="reis|reizen|vlucht|vluchten|vakantie|reisplan|route|trip",
          pl=r"podróż\w*|wyjazd\w*|lot(?:u|em|cie|y|ów)?|wakacj\w*|urlop\w*|wycieczk\w*",
          ru=r"поездк\w*|путешестви\w*|рейс\w*|полёт\w*|перелёт\w*|перелет\w*|отпуск\w*|маршрут\w*",
          uk=r"поїздк\w*|подорож\w*|рейс\w*|політ\w*|переліт\w*|перельот\w*|відпустк\w*|маршрут\w*",
          cs=r"cest[auyě]|cestou|let|letu|letem|dovolen\w*|výlet\w*|itinerář\w*",
          sv="resa|resor|flyg|flygresa|semester|resplan|utflykt",
          da="rejse|rejser|fly|flyrejse|ferie|rejseplan|tur",
          no="reise|reisen|tur|turen|fly|flyet|flyreise|flyreisen|ferie|ferien|reiserute",
          fi="matka|matkoi|lento|lenno|lomamatka|reissu|matkasuunnitelma",
          hu="utam|utazásom|utazásaim|repülőm|járatom|nyaralásom|kirándulásom|útitervem",
          ro=r"c[ăa]l[ăa]toria|zborul|vacan[țţt]a|excursia|itinerariul|drumul",
          tr="seyahatim|yolculuğum|gezim|uçuşum|tatilim|rotam|turum",
          el=r"ταξίδ\w*|πτήσ\w*|διακοπ\w*|δρομολόγι\w*",
          he="טיול|נסיעה|טיסה|חופשה|מסלול",
          ar="رحلتي|سفري|سفرتي|رحلة طيراني|طيراني|عطلتي|إجازتي",
          fa="سفر|پرواز|تعطیلات|مسافرت|برنامه سفر",
          hi="यात्रा|ट्रिप|सफ\u093c?र|उड\u093c?ान|फ\u093c?्लाइट|छुट्टि(?:यों|या[\u0901\u0902])|छुट्टी",
          ja="旅行|旅|出張|フライト|便|休暇|旅程",
          zh="旅行|旅游|旅遊|行程|航班|出差|假期|度假",
          ko="여행|비행기|항공편|휴가|출장|여행 일정",
          vi="chuyến đi|chuyến bay|kỳ nghỉ|lịch trình|chuyến du lịch",
          id="perjalanan|penerbangan|liburan|itinerari|rencana perjalanan|trip",
          th="ทริป|การเดินทาง|เที่ยวบิน|แผนการเดินทาง"),
    r"今度の旅行|次の旅行|今回の旅行|旅行の予定|这次旅行|這次旅行|下次旅行|이번 여행|다음 여행|chuyến đi sắp tới",
)

MONEY_ASKS = asks(
    rf"\b{MINE} (?:savings?|budget|finances|money|spending|taxes|tax return|pension|investments?)\b|"
    rf"\bdeductions?\b",
    mine(es="ahorros|presupuesto|finanzas|dinero|gastos|impuestos|declaración de la renta|pensión|jubilación|"
             "inversiones|sueldo|salario|nómina",
          fr="économies|épargne|budget|finances|argent|dépenses|impôts|déclaration d'impôts|retraite|"
             "investissements|salaire|paie",
          de="Ersparnisse|Erspartes|Budget|Finanzen|Geld(?:es)?|Ausgaben|Steuern|Steuererklärung|Rente|"
             "Altersvorsorge|Investitionen|Geldanlagen|Gehalt|Lohn",
          it="risparmi|budget|finanze|soldi|denaro|spese|tasse|dichiarazione dei redditi|pensione|investimenti|"
             "stipendio",
          pt="poupanças?|economias|orçamento|finanças|dinheiro|gastos|despesas|impostos|declaração de IRS|"
             "aposentadoria|reforma|investimentos|salário",
          nl="spaargeld|besparingen|budget|financiën|geld|uitgaven|belasting|belastingaangifte|pensioen|"
             "beleggingen|investeringen|salaris|loon",
          pl=r"oszczędnoś\w*|budżet\w*|finans\w*|pieni(?:ądz|ędz)\w*|wydat\w*|podat\w*|emerytur\w*|inwestycj\w*|"
             r"pensj\w*|wypłat\w*|zarob\w*",
          ru=r"сбережени\w*|накоплени\w*|бюджет\w*|финанс\w*|деньг\w*|денег|расход\w*|трат\w*|налог\w*|пенси\w*|"
             r"инвестици\w*|зарплат\w*|доход\w*",
          uk=r"заощаджен\w*|збережен\w*|бюджет\w*|фінанс\w*|грош\w*|витрат\w*|податк\w*|пенсі\w*|інвестиці\w*|"
             r"зарплат\w*|доход\w*|дохід",
          cs=r"úspor\w*|rozpočet|rozpočt\w*|financ\w*|peněz|peníze|penězi|výdaj\w*|daně|daní|daňov\w* přiznání|"
             r"důchod\w*|penz\w*|investic\w*|plat|platu|výplat\w*",
          sv="sparpengar|besparingar|budget|ekonomi|pengar|utgifter|skatt|skatter|deklaration|pension|"
             "investeringar|lön",
          da="opsparing|budget|økonomi|penge|udgifter|skat|selvangivelse|pension|investeringer|løn",
          no="sparepenger|sparing|budsjett|budsjettet|økonomi|økonomien|penger|pengene|utgifter|skatt|"
             "skattemelding|skattemeldingen|selvangivelse|pensjon|pensjonen|investeringer|lønn|lønna|lønnen",
          fi="säästö|budjet|talou|raha|meno|kulu|vero|veroilmoitu|eläke|eläkkee|sijoitukse|sijoitus|palkka|palka",
          hu="megtakarításaim|megtakarításom|költségvetésem|büdzsém|pénzügyeim|pénzem|kiadásaim|adóm|"
             "adóbevallásom|nyugdíjam|befektetéseim|fizetésem",
          ro=r"economiile|bugetul|finan[țţt]ele|banii|cheltuielile|taxele|impozitele|declara[țţt]ia|pensia|"
             r"investi[țţt]iile|salariul",
          tr="birikimim|birikimlerim|bütçem|finansım|param(?:ı|a|la|dan|ın)?\\b|harcamalarım|vergim|vergilerim|"
             "emekliliğim|yatırımlarım|maaşım|gelirim",
          el=r"οικονομι\w*|αποταμιεύσ\w*|προϋπολογισμ\w*|χρήματ\w*|λεφτά|έξοδ\w*|φόρ\w*|σύνταξ\w*|επενδύσ\w*|μισθ\w*",
          he="חסכונות|חיסכון|תקציב|כספים|כסף|הוצאות|מיסים|מסים|פנסיה|השקעות|משכורת",
          ar="مدخراتي|ميزانيتي|أموالي|مصاريفي|نفقاتي|ضرائبي|تقاعدي|معاشي|استثماراتي|راتبي|دخلي",
          fa="پس\u200c?\\s?انداز|بودجه|امور مالی|پول|هزینه\u200c?ها|مخارج|مالیات|بازنشستگی|حقوق|درآمد|"
             "سرمایه\u200c?گذاری",
          hi="बचत|बजट|वित्त|पैस(?:ा|े|ों)|खर्च|खर्चे|टैक्स|पेंशन|निवेश|सैलरी|तनख\u093c?्वाह|वेतन|आमदनी",
          ja="貯金|予算|家計|お金|支出|税金|年金|投資|給料|収入",
          zh="存款|积蓄|積蓄|预算|預算|财务|財務|钱|錢|开支|開支|税|稅|退休金|养老金|養老金|投资|投資|工资|工資|薪水|"
             "收入",
          ko="저축|예산|재정|돈|지출|세금|연금|투자|월급|연봉|수입",
          vi="tiền tiết kiệm|ngân sách|tài chính|tiền|chi tiêu|thuế|lương hưu|đầu tư|lương|thu nhập",
          id="tabungan|anggaran|budget|keuangan|uang|pengeluaran|pajak|pensiun|investasi|gaji|penghasilan",
          th="เงินออม|งบประมาณ|งบ|การเงิน|เงินเดือน|เงิน|ค่าใช้จ่าย|ภาษี|เงินบำนาญ|การลงทุน|รายได้"),
    r"確定申告|家計|手取り|연말정산",
)
