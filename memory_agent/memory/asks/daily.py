"""Request patterns of the aspects food and drink, leisure, fitness, their week (:mod:`memory_agent.memory.asks`)."""

from __future__ import annotations

from memory_agent.memory.asks.grammar import DAYS, MINE, asks, mine, when

__all__ = ["FITNESS_ASKS", "FOOD_ASKS", "LEISURE_ASKS", "SCHEDULE_ASKS"]

FOOD_ASKS = asks(
    r"\b(?:dinner|lunch|breakfast|brunch|supper|meals?|recipes?|cook\w*|bak(?:e|ing)|bakery|cakes?|"
    r"pastr(?:y|ies)|restaurants?|caf[ée]s?|food|eat|eating|snacks?|desserts?|menu|dish(?:es)?|night out|"
    r"drinks|bar|pub|grocer\w*|catering|party|barbecue|bbq|picnic|cena|comida|dîner|déjeuner|abendessen|"
    r"mittagessen)\b",
    # something to drink, for the user
    r"\b(?:my|our) (?:coffee|tea|morning coffee|drink|usual order)\b|\bsomething to (?:drink|snack on|nibble)\b|"
    r"\bwhat (?:should|can|could|shall) (?:i|we) (?:drink|order)\b|"
    r"\b(?:coffee|tea|drink|beverage|smoothie|cocktail|mocktail)s? (?:for me|for us|to (?:try|order|brew))\b",
    # meals, snacks and drinks in other languages; a drink for me
    r"\b(?:t[ée]|caf[ée]|infusi[óo]n|bebida|th[ée]|tisane|boisson|tee|kaffee|getränk|t[èe]|caff[èe]|tisana|bevanda|"
    r"ch[áa]|thee|koffie|drankje)s?\s+(?:para m[íi]|pour moi|für mich|per me|para mim|voor mij)\b|"
    r"\b(?:cenar|almuerzo|almorzar|desayuno|desayunar|merienda|tentempié|aperitivo|bebidas?|recetas?|"
    r"qué (?:puedo|debería|podría) (?:comer|cocinar|beber|tomar)|para (?:comer|beber|picar))\b|"
    r"\b(?:diner|petit-déjeuner|petit déj|goûter|en-cas|collation|apéro|apéritif|boissons?|recettes?|"
    r"quoi (?:manger|cuisiner|boire)|que (?:manger|cuisiner|boire)|à manger|à boire)\b|"
    r"\b(?:frühstück|abendbrot|zwischenmahlzeit|getränke?|rezepte?|zum essen|zum trinken|"
    r"was (?:soll|kann|könnte) ich\b[^.?!]{0,25}?\b(?:essen|kochen|trinken|backen)|"
    r"was (?:ich|wir) (?:essen|kochen|trinken))\b|"
    r"\b(?:pranzo|colazione|merenda|spuntino|bevande?|da bere|da mangiare|ricett[ae]|"
    r"cosa (?:mangiare|cucinare|bere|posso mangiare|posso cucinare))\b|"
    r"\b(?:jantar|almoço|almoco|café da manhã|pequeno-almoço|lanche|petisco|receitas?|"
    r"o que (?:comer|cozinhar|beber|posso comer|devo comer))\b|"
    r"\b(?:avondeten|ontbijt|tussendoortje|hapje|drankjes?|recepten?|"
    r"wat (?:moet|kan|zal) ik\b[^.?!]{0,25}?\b(?:eten|koken|drinken)|"
    r"wat eten we)\b|"
    r"\b(?:obiad\w*|kolacj\w*|śniadani\w*|przekąsk\w*|napój|napoje|napoj\w*|na obiad|na kolację|do jedzenia|"
    r"do picia|co (?:mam |mogę |powinienem |powinnam )?(?:zjeść|ugotować|wypić))\b|"
    r"\b(?:ужин\w*|обед\w*|завтрак\w*|перекус\w*|закуск\w*|напит\w*|что (?:мне )?(?:приготовить|поесть|съесть|"
    r"выпить))\b|"
    r"\b(?:вечер[яію]\w*|обід\w*|сніданок|сніданк\w*|перекус\w*|напій|напої|напоїв|"
    r"що (?:мені )?(?:приготувати|поїсти|з['’]їсти|випити))\b|"
    r"\b(?:večeř\w*|oběd\w*|snídan\w*|svačin\w*|občerstvení|nápoj\w*|"
    r"co (?:mám |bych měla? )?(?:uvařit|sníst|jíst|pít|vypít))\b|"
    r"\b(?:middag\w*|lunch\w*|frukost\w*|mellanmål|fika|vad ska jag (?:äta|laga|dricka)|till middag)\b|"
    r"\b(?:aftensmad|frokost\w*|morgenmad|mellemmåltid|drikkevarer|hvad skal jeg (?:spise|lave|drikke)|"
    r"opskrift\w*)\b|"
    r"\b(?:lunsj\w*|kveldsmat|mellommåltid|hva skal jeg (?:spise|lage|drikke)|oppskrift\w*)\b|"
    r"\b(?:illallis\w*|illallinen|lounas\w*|lounaa\w*|aamiai\w*|aamupala\w*|välipala\w*|juoma\w*|"
    r"päivälli\w*|ruoaksi|ruuaksi|mitä (?:söisin|kokkaisin|joisin|laittaisin))\b|"
    r"\b(?:vacsor\w*|ebéd\w*|reggeliz\w*|reggelire|uzsonn\w*|rágcsál\w*|italt|italok\w*|italra|"
    r"mit (?:egyek|főzzek|igyak))\b|"
    r"\b(?:cină|cinei|pentru cina|prânz\w*|micul dejun|mic dejun|gustar[ei]\w*|gustări|b[ăa]utur\w*|"
    r"re[țţ]et\w*|ce s[ăa] (?:m[ăa]n[âa]nc|g[ăa]tesc|beau))\b|"
    r"\b(?:akşam yemeği\w*|öğle yemeği\w*|kahvaltı\w*|atıştırmalık\w*|içecek\w*|yemek tarif\w*|"
    r"ne (?:yesem|pişirsem|içsem|yiyebilirim|pişirebilirim))\b|"
    r"\b(?:δείπνο\w*|βραδινό|μεσημεριαν\w*|πρωινό|σνακ|ποτό|ποτά|ρόφημα\w*|συνταγ\w*|"
    r"τι να (?:φάω|μαγειρέψω|πιω))(?!\w)|"
    r"ארוחת (?:ערב|צהריים|צהרים|בוקר)|נשנוש|חטיפים|משקאות|מתכונים?|מה (?:לאכול|לבשל|לשתות)|"
    r"(?<![\u0620-\u064a])[وفبل]?(?:ال|ل)?(?:عشاء|غداء|فطور|إفطار|وجبة|وجبات|مشروبات|مشروب|وصفة|وصفات)\b|"
    r"ماذا (?:آكل|أطبخ|اطبخ|أشرب)|"
    r"\b(?:شام|ناهار|صبحانه|میان\u200c?\s?وعده|تنقلات|نوشیدنی|دستور پخت|طرز تهیه|غذا)\b|"
    r"(?:چی|چه) (?:بخورم|بپزم|بنوشم)|"
    r"(?<![\u0900-\u097f])(?:रात का खाना|डिनर|लंच|दोपहर का खाना|नाश्त(?:ा|े)|स्नैक्स?|ड्रिंक|पेय|रेसिपी|"
    r"क्या (?:खाऊ[\u0901\u0902]|बनाऊ[\u0901\u0902]|पियू[\u0901\u0902]))|"
    r"夕食|夕飯|晩ご飯|晩御飯|晩ごはん|昼食|昼ご飯|昼ごはん|ランチ|朝食|朝ご飯|朝ごはん|おやつ|間食|軽食|飲み物|"
    r"ドリンク|レシピ|献立|何を?食べ|何を?作ろう|何を?飲|"
    r"晚饭|晚餐|午饭|午餐|早饭|早餐|零食|小吃|点心|饮料|飲料|喝什么|喝什麼|吃什么|吃什麼|做什么菜|做什麼菜|食谱|"
    r"食譜|菜谱|晚飯|午飯|早飯|宵夜|夜宵|下午茶|"
    r"저녁 ?식사|저녁 ?메뉴|점심|아침 ?식사|아침밥|간식|음료|마실 ?것|레시피|요리법|뭐 ?먹|뭘 ?먹|뭐 ?마[시실]|"
    r"뭘 ?마[시실]|야식|저녁밥|"
    r"\b(?:bữa tối|bữa trưa|bữa sáng|ăn tối|ăn trưa|ăn sáng|ăn vặt|đồ uống|thức uống|công thức nấu|ăn gì|"
    r"uống gì|nấu gì)\b|"
    r"\b(?:makan malam|makan siang|sarapan|camilan|cemilan|kudapan|minuman|resep|masak apa|makan apa|"
    r"minum apa)\b|"
    r"อาหารเย็น|มื้อเย็น|อาหารกลางวัน|มื้อกลางวัน|อาหารเช้า|มื้อเช้า|ของว่าง|เครื่องดื่ม|สูตรอาหาร|กินอะไรดี|"
    r"ทำอะไรกินดี|ดื่มอะไรดี",
)
LEISURE_ASKS = asks(
    rf"\b{MINE} (?:weekend|day off|days off|free time|spare time|holiday|vacation|evenings?|summer|"
    rf"hobb(?:y|ies))\b|\bsomething (?:fun )?to do\b|"
    rf"\bthis (?:weekend|summer)\b|\bnight out\b|\bweekend (?:trip|plans?)\b|"
    rf"\bsummer (?:project|holidays?|break)\b|\b(?:sommerferien|vacances d'été|vacaciones de verano)\b",
    # my weekend, my free time, my evening, my holiday, my hobbies
    mine(es="fin de semana|tiempo libre|tardes?|noches?|vacaciones|día libre|días libres|hobb(?:y|ies)|aficiones|"
             "afición|ocio",
          fr="week-end|weekend|temps libre|soirées?|soirs?|vacances|jours? de congé|jours? off|loisirs|passe-temps|"
             "hobb(?:y|ies)",
          de=r"Wochenende\w*|Freizeit|Abend\w*|Urlaub\w*|Ferien|freie[nr]? Tag\w*|Hobb(?:y|ys)",
          it="weekend|fine settimana|tempo libero|serat[ae]|ser[ae]|vacanz[ae]|giorno libero|giorni liberi|"
             "hobby|passatempi|passatempo",
          pt="fim de semana|fim-de-semana|tempo livre|noites?|tardes?|férias|folgas?|dia de folga|hobb(?:y|ies)|"
             "passatempos?",
          nl="weekend|vrije tijd|avond(?:en)?|vakantie|vrije dag(?:en)?|hobby's|hobby",
          pl=r"weekend\w*|czas\w* woln\w*|woln\w* czas\w*|wieczor\w*|wieczór|wakacj\w*|urlop\w*|woln\w* dzie\w*|"
             r"hobby|pasj\w*",
          ru=r"выходн\w*|свободн\w* врем\w*|вечер\w*|отпуск\w*|каникул\w*|хобби|досуг\w*",
          uk=r"вихідн\w*|вільн\w* час\w*|вечір|вечора|вечорі|вечори|відпустк\w*|канікул\w*|хобі|дозвілл\w*",
          cs=r"víkend\w*|voln\w* čas\w*|večer\w*|dovolen\w*|prázdnin\w*|volno|volna|koníč\w*|hobby",
          sv="helg|helgen|fritid|kväll|kvällar|semester|lediga? dag(?:ar)?|hobby|hobbyer|fritidsintressen",
          da="weekend|fritid|aften|aftener|ferie|fridag|fridage|hobby|hobbyer",
          no="helg|helgen|helga|fritid|fritiden|kveld|kvelden|kvelder|ferie|ferien|fridag|fridagen|hobby|hobbyen|"
             "hobbyer",
          fi="viikonloppu|viikonlopu|vapaa-aika|vapaa-aja|ilta|illa|loma|vapaapäivä|harrastus|harrastukse",
          hu="hétvégém|szabadidőm|estém|estéim|nyaralásom|szabadságom|szabadnapom|hobbim|hobbijaim",
          ro=r"weekendul|week-endul|timpul liber|seara|serile|vacan[țţt]a|concediul|ziua liber[ăa]|hobby-ul|"
             r"hobby-urile",
          tr="hafta sonum|boş zamanım|boş zamanlarım|akşamım|akşamlarım|tatilim|izin günüm|hobim|hobilerim",
          el=r"Σαββατοκύριακ\w*|ελεύθερ\w* χρόν\w*|βράδ\w*|διακοπ\w*|ρεπό|χόμπι",
          he=r"סוף השבוע|סופ\"ש|סופש|הזמן הפנוי|זמן פנוי|ערב|חופשה|חופש|יום חופש|תחביב|תחביבים",
          ar="عطلتي|عطلة نهاية الأسبوع الخاصة بي|وقت فراغي|أوقات فراغي|أمسيتي|إجازتي|هواياتي|هوايتي",
          fa="آخر هفته|تعطیلات|وقت آزاد|عصر|شب|مرخصی|روز تعطیل|سرگرمی|تفریح",
          hi="वीकेंड|सप्ताहांत|खाली समय|फ\u093c?्री टाइम|शाम|छुट्टी|छुट्टियों|छुट्टिया[\u0901\u0902]|शौक",
          ja="週末|休日|休み|自由時間|余暇|夜|趣味",
          zh="周末|週末|空闲时间|空閒時間|业余时间|業餘時間|假期|休假|爱好|愛好|晚上",
          ko="주말|여가 ?시간|자유 ?시간|저녁|휴가|휴일|쉬는 날|취미",
          vi="cuối tuần|thời gian rảnh|buổi tối|kỳ nghỉ|ngày nghỉ|sở thích",
          id="akhir pekan|akhir minggu|waktu luang|liburan|hari libur|hobi",
          th="วันหยุดสุดสัปดาห์|เวลาว่าง|ตอนเย็น|วันหยุด|งานอดิเรก"),
    # this weekend, in my free time
    r"\b(?:este fin de semana|en mi tiempo libre|ce week-end|ce weekend|pendant mon temps libre|dieses wochenende|"
    r"in meiner freizeit|questo (?:weekend|fine settimana)|nel mio tempo libero|(?:neste|este) fim de semana|"
    r"no meu tempo livre|dit weekend|in mijn vrije tijd|w (?:ten|najbliższy) weekend|w wolnym czasie|"
    r"(?:на )?(?:этих|эти) выходн\w*|в свободное время|(?:на )?(?:цих|ці) вихідн\w*|у вільний час|"
    r"(?:tento|o tomto) víkend\w*|ve volném čase|i helgen|på (?:min )?fritid(?:en)?|i weekenden|i min fritid|"
    r"i helga|tänä viikonloppuna|vapaa-ajallani|ezen a hétvégén|szabadidőmben|(?:în )?acest weekend|"
    r"(?:în )?weekendul acesta|în timpul meu liber|bu hafta sonu|boş zamanlarımda|"
    r"αυτό το Σαββατοκύριακο|στον ελεύθερο χρόνο μου|cuối tuần này|lúc rảnh|khi rảnh|akhir pekan ini|"
    r"weekend ini)\b|"
    r"בסוף השבוע הזה|בסופ\"ש הזה|בזמן הפנוי שלי|نهاية هذا الأسبوع|عطلة نهاية الأسبوع هذه|في وقت فراغي|"
    r"این آخر هفته|در وقت آزادم|(?<![\u0900-\u097f])(?:इस वीकेंड|इस सप्ताहांत|खाली समय में)|"
    r"休みの日|暇な時|空いた時間|这个周末|這個週末|这周末|這週末|下班后|下班後|이번 주말|쉬는 날에|퇴근 후|"
    r"สุดสัปดาห์นี้|เสาร์อาทิตย์นี้|ตอนว่าง|วันหยุดนี้",
)

FITNESS_ASKS = asks(
    # a training plan: made for the one who asks (not a model's)
    r"\b(?:training|workout|exercise|gym|fitness|running|strength|lifting|cardio|marathon|half-marathon|5k|"
    r"10k|swim|swimming|cycling|climbing) (?:plan|schedule|programme|program|routine|split|regime|regimen|"
    r"block)s?\b(?![^.?!\n]{0,40}\b(?:models?|networks?|neural|llms?|datasets?|epochs?|learning rate)\b)",
    r"\b(?:my|our) (?:training(?! (?:data|sets?|loss|jobs?|scripts?|pipelines?|code|models?|examples|samples|corpus|"
    r"materials?|courses?|budget))|workouts?|exercise|exercising|gym|fitness|runs|running|training runs|lifting|"
    r"swims?|rides|cardio|strength training|marathon training|training sessions|gym sessions|race prep)\b|"
    r"\b(?:should|can|could|shall) (?:i|we) exercise\b|\bhelp (?:me|us) (?:get fit|get in shape)\b|"
    r"\b(?:i'm|i am|we're|we are) training for\b|"
    r"\btrain(?:ing)? for (?:a|my|the|our) (?:marathon|half|race|5k|10k|triathlon|ironman)\b",
    r"\b(?:plan|rutina|programa|tabla|calendario|horario)\s+de\s+(?:entrenamiento|ejercicios?|gimnasio|gym|"
    r"running|carrera|fuerza|musculación)\b|"
    r"\b(?:programme|plan|planning|routine)\s+(?:d['’]|de\s+)(?:entraînement|entrainement|sport|musculation|course|"
    r"exercices?|fitness)\b|"
    r"\b(?:Trainings|Fitness|Lauf|Workout|Übungs|Sport|Gym|Kraft)(?:plan|programm|routine)\w*|"
    r"\b(?:piano|programma|scheda|routine|tabella)\s+(?:di\s+)?(?:allenamento|allenamenti|esercizi|palestra|"
    r"corsa)\b|"
    r"\b(?:plano|rotina|programa|ficha|cronograma)\s+de\s+(?:treino|treinos|exercícios?|academia|ginásio|"
    r"corrida|musculação)\b|"
    r"\b(?:trainings|sport|hardloop|workout|fitness|oefen)(?:schema|plan|programma|routine)\w*|"
    r"\bplan\w*\s+(?:treningow\w*|treningu|treningów|ćwiczeń)\b|\brozpisk\w*\s+treningow\w*|"
    r"\b(?:план\w*|программ\w*|расписани\w*|график\w*)\s+(?:тренировок|тренировки|занятий спортом|упражнений|"
    r"пробежек)(?!\w)|"
    r"\b(?:план\w*|програм\w*|розклад\w*|графік\w*)\s+(?:тренувань|тренування|вправ|пробіжок)(?!\w)|"
    r"\b(?:tréninkov\w*\s+plán\w*|plán\w*\s+(?:tréninku|tréninků|cvičení))(?!\w)|"
    r"\b(?:tränings|löp|gym)(?:schema|program|plan|rutin)\w*|"
    r"\b(?:trænings|løbe|motions|fitness)(?:program|plan|skema)\w*|"
    r"\b(?:trenings|løpe|styrke)(?:program|plan|opplegg)\w*|"
    r"\b(?:treeni|harjoitus|kuntosali|juoksu|liikunta)(?:ohjelma|suunnitelma|aikataulu|rutiini)\w*|"
    r"\bedzés(?:terv|program|rend)\w*|"
    r"\b(?:plan|program)(?:ul)?\s+de\s+(?:antrenament|antrenamente|exerci[țţt]ii|sal[ăa]|alergare)\b|"
    r"\b(?:antrenman|egzersiz|spor|koşu|idman|fitness)\s+(?:planı|programı|rutini)\w*|"
    r"(?:πρόγραμμα|προγράμματος|πλάνο|ρουτίνα)\s+(?:προπόνησης|προπονήσεων|γυμναστικής|άσκησης|ασκήσεων|"
    r"τρεξίματος)|"
    r"(?:תוכנית|תכנית)\s+(?:אימונים|אימון|כושר|ריצה)|"
    r"(?:برنامج|خطة|جدول)\s+(?:ال)?(?:تدريب|تدريبات|تمارين|تمرين|رياضي|لياقة)|"
    r"برنامه\u200c?ی?\s*(?:تمرینی|تمرین|ورزشی|بدنسازی)|"
    r"(?<![\u0900-\u097f])(?:वर्कआउट|ट्रेनिंग|व्यायाम|कसरत|एक्सरसाइज\u093c?|जिम|फ\u093c?िटनेस)\s+(?:प्लान|योजना|"
    r"शेड्यूल|रूटीन)|"
    r"(?:トレーニング|筋トレ|練習|運動|ワークアウト|ジム|ランニング)(?:の)?(?:メニュー|計画|プラン|スケジュール)|"
    r"(?:训练|訓練|健身|锻炼|鍛鍊|鍛煉|运动|運動|跑步)(?:计划|計畫|計劃|安排|课表|課表|方案)|"
    r"(?:운동|훈련|트레이닝|헬스|러닝)\s?(?:계획|루틴|스케줄|프로그램)|"
    r"\b(?:kế hoạch|lịch|chương trình|giáo án)\s+(?:tập luyện|tập gym|tập|luyện tập|chạy bộ)\b|"
    r"\b(?:rencana|jadwal|program)\s+(?:latihan|olahraga|gym|fitness|lari)\b|"
    r"(?:ตาราง|แผน|โปรแกรม)(?:การ)?(?:ฝึกซ้อม|ออกกำลังกาย|ฝึก|เวท|วิ่ง)",
    # my training, my workouts
    mine(es="entrenamientos?|entrenos?|ejercicio|gimnasio|carreras|sesiones de entrenamiento",
          fr="entraînements?|entrainements?|séances?(?: de sport)?|footings?|musculation",
          de="Training(?:s|seinheiten)?|Workouts?|Läufe|Lauftraining|Krafttraining|Sport",
          it="allenament[oi]|esercizi|palestra|corse|scheda",
          pt="treinos?|exercícios|academia|ginásio|corridas",
          nl="trainingen|training|workouts?|sportschool|hardlooprondjes|oefeningen",
          pl=r"trening\w*|ćwiczeni\w*|siłowni\w*|biegani\w*",
          ru=r"тренировк\w*|пробежк\w*|упражнени\w*",
          uk=r"тренуван\w*|пробіжк\w*|вправ\w*",
          cs=r"trénink\w*|cvičení|běhání",
          sv="träning|träningen|träningspass|löprundor|gympass",
          da="træning|træningen|træningspas|løbeture",
          no="trening|treningen|treningsøkter|treningsøktene|økter|øktene|løpeturer|løpeturene",
          fi="treeni|treene|harjoitukse|harjoittelu|lenki|lenkki|juoksu|kuntosalikäyn",
          hu="edzésem|edzéseim|edzéstervem|edzésprogramom|futásom|futásaim",
          ro=r"antrenamentul|antrenamentele|exerci[țţt]iile|alerg[ăa]rile",
          tr="antrenmanım|antrenmanlarım|idmanım|egzersizlerim|koşularım|sporum",
          el=r"προπονήσ\w*|γυμναστικ\w*|ασκήσ\w*|τρέξιμ\w*",
          he="אימונים|אימון|ריצות|כושר",
          ar="تدريبي|تدريباتي|تماريني|تمريني|رياضتي",
          fa="تمرین|تمرینات|تمرین\u200cها|ورزش|باشگاه",
          hi="वर्कआउट|ट्रेनिंग|व्यायाम|कसरत|एक्सरसाइज\u093c?|जिम",
          ja="トレーニング|筋トレ|練習|ワークアウト|ランニング|運動",
          zh="训练|訓練|健身|锻炼|鍛鍊|跑步",
          ko="운동|훈련|트레이닝|헬스|러닝",
          vi="lịch tập|buổi tập|việc tập luyện|bài tập",
          id="latihan|olahraga|jadwal latihan|program latihan",
          th="การออกกำลังกาย|การฝึกซ้อม|ตารางออกกำลังกาย"),
)

SCHEDULE_ASKS = asks(
    rf"\b(?:my|our) (?:{DAYS}|week|weekly schedule|schedule|calendar|routine|timetable|weekdays|weekends|"
    rf"evenings|mornings|afternoons)\b|"
    rf"\b(?:my|our) (?:regular|usual|weekly|recurring|standing|fixed|normal|typical) (?:\w+ )?(?:commitments|"
    rf"activities|schedule|routine|plans|classes|appointments|week|timetable|calendar)\b|"
    rf"\b(?:am|are) (?:i|we) (?:free|busy|available|off)\b|\b(?:i'm|i am|we're|we are) (?:free|busy|available|off)"
    rf"\b|\bwhen (?:do|can) (?:i|we) (?:fit|squeeze)\b|"
    + when(r"\b(?:i|i'm|i've|we|we're|my|our)\b", rf"\b(?:on|this|next|every|coming)\s+(?:{DAYS})\b"),
    # a day of the user's week: the day and a first-person word in one sentence ("¿qué puedo hacer el domingo?")
    when(r"\b(?:me|mi|mis|yo|puedo|podría|debería|tengo|estoy|voy|hago|nos|nuestr[oa]s?)\b",
          r"\b(?:lunes|martes|mi[ée]rcoles|jueves|viernes|s[áa]bados?|domingos?)\b"),
    when(r"\b(?:je|j'|moi|me|m'|mon|ma|mes|nous|nos|notre)\b", r"\b(?:(?:lun|mar|mercre|jeu|vendre|same)dis?|"
          r"dimanches?)\b"),
    when(r"\b(?:ich|mich|mir|mein\w*|wir|uns|unser\w*)\b", r"\b(?:Montag|Dienstag|Mittwoch|Donnerstag|Freitag|"
          r"Samstag|Sonnabend|Sonntag)\w*"),
    when(r"\b(?:io|mi|me|mio|mia|miei|mie|posso|devo|sono|ho|faccio|noi|ci|nostr[oaie])\b",
          r"\b(?:luned[iì]|marted[iì]|mercoled[iì]|gioved[iì]|venerd[iì]|sabat[oi]|domenic(?:a|he))\b"),
    when(r"\b(?:eu|me|meu|minha|meus|minhas|posso|devo|tenho|estou|vou|faço|nós|nos)\b",
          r"\b(?:(?:segunda|terça|terca|quarta|quinta|sexta)(?:-feira|\s+feira)s?|s[áa]bados?|domingos?|"
          r"(?:na|nas|às|as|esta|essa|próxima|toda|todas)\s+(?:segunda|terça|terca|quarta|quinta|sexta)s?)\b"),
    when(r"\b(?:ik|mij|me|mijn|m'n|we|wij|ons|onze)\b", r"\b(?:maan|dins|woens|donder|vrij|zater|zon)dag\w*"),
    when(r"\b(?:ja|mnie|mi|mój|moj\w*|moi|mogę|mam|jestem|będę|robię|my|nas|nam|nasz\w*)\b",
          r"\b(?:poniedział(?:ek|ki|ku|kami)|wtor(?:ek|ki|ku|kami)|środ(?:a|y|ę|zie|ami)|czwart(?:ek|ki|ku|kami)|"
          r"piąt(?:ek|ki|ku|kami)|sobot(?:a|y|ę|ą|ami)|sobocie|niedziel(?:a|i|ę|ą|e|ami))\b"),
    when(r"\b(?:я|мне|меня|мой|моя|мои|мо(?:его|ей|ему|им|их|ю)|мы|нам|нас|наш\w*|могу|буду|свобод\w*)(?!\w)",
          r"\b(?:понедельник\w*|вторник\w*|(?:в|во|по|каждую|эту|следующую|на)\s+сред(?:у|ам)|четверг\w*|"
          r"пятниц\w*|суббот\w*|воскресень\w*)"),
    when(r"\b(?:я|мені|мене|мій|моя|мої|мо(?:го|єї|єму|їм|їй|їх|ю)|ми|нам|нас|наш\w*|можу|буду|вільн\w*)(?!\w)",
          r"\b(?:понеділ(?:ок|ка|ки|кам|ку)|вівтор(?:ок|ка|ки|кам)|серед(?:а|и|у|ам)|четвер(?:га|ги|гам)?|"
          r"п['’]ятниц\w*|субот\w*|неділ\w*)(?!\w)"),
    when(r"\b(?:já|mě|mi|mně|můj|moj[eií]|mé|mého|mým|můžu|mohu|mám|jsem|budu|my|nás|nám)(?!\w)",
          r"\b(?:pondělí|pondělky|úterý|úterky|střed(?:a|u|y|ě|ách)|čtvrt(?:ek|ky|ku)|pát(?:ek|ky|ku)|"
          r"sobot(?:a|u|y|ě)|neděl(?:e|i))(?!\w)"),
    when(r"\b(?:jag|mig|mej|min|mitt|mina|vi|oss|vår|vårt|våra)\b", r"\b(?:mån|tis|ons|tors|fre|lör|sön)dag\w*"),
    when(r"\b(?:jeg|mig|meg|min|mit|mitt|mine|mi|vi|os|oss|vores|vår|vårt|våre)\b",
          r"\b(?:man|tirs|ons|tors|fre|lør|søn)dag\w*"),
    when(r"\b(?:minä|mä|minulla|mulla|minun|mun|minulle|mulle|meillä|voin|voinko|olen|olenko|teen|tekisin|"
          r"pitäisi|voisin)\b",
          r"\b(?:maanantai|tiistai|keskiviikko|keskiviikkona|torstai|perjantai|lauantai|sunnuntai)\w*"),
    r"\b(?:maanantai|tiistai|keskiviiko|keskiviikko|torstai|perjantai|lauantai|sunnuntai)\w{0,4}ni\b",
    when(r"\b(?:én|nekem|engem|nálam|ráérek|vagyok|tudok|csináljak|menjek|csinálhatok|programom|terveim)\b",
          r"\b(?:hétfő|kedd|szerd[aá]|csütörtök|péntek|szombat|vasárnap)\w*"),
    when(r"\b(?:eu|m[ăa]|îmi|imi|mi|meu|mea|mele|pot|sunt|am|fac|noi|ne)\b",
          r"\b(?:lunea|(?:pe|în|in|de|fiecare)\s+luni|mar[țţt]i|miercuri|joi|vineri|s[âa]mb[ăa]t[ăa]|duminic[ăa])\b"),
    when(r"\b(?:ben|bana|beni|benim|boşum|müsaitim|programım|planım|yapabilirim|yapayım|yapsam|gidebilirim)\b",
          r"\b(?:pazartesi|salı|çarşamba|perşembe|cuma|cumartesi|pazar)(?:\s+(?:günü|akşamı|sabahı|öğleden sonra)|"
          r"ları|leri|ya|ye|dan|den)?\b"),
    # (Greek "τρίτη" and "πέμπτη" are also "third" and "fifth": those two only with a sign of the day)
    when(r"\b(?:εγώ|μου|μένα|εμένα|μας|εμείς|μπορώ|είμαι|κάνω)(?!\w)",
          r"\b(?:Δευτέρ(?:α|ες)|Τετάρτ(?:η|ες)|Παρασκευ(?:ή|ές)|Σάββατ(?:ο|α)|Κυριακ(?:ή|ές)|Τρίτες|Πέμπτες|"
          r"(?:κάθε|αυτή την|αυτήν την|αυτή τη|την ερχόμενη|την επόμενη)\s+(?:Τρίτη|Πέμπτη)|"
          r"(?:Τρίτη|Πέμπτη)\s+(?:το\s+)?(?:πρωί|απόγευμα|βράδυ))(?!\w)"),
    when(r"\b(?:אני|לי|שלי|אותי|אנחנו|לנו|שלנו|יכול|יכולה|פנוי|פנויה)\b",
          r"(?<![\u05d0-\u05ea])[בלה]?(?:(?:יום|ימי) (?:ראשון|שני|שלישי|רביעי|חמישי|שישי)|שבת|שישי)\b"),
    when(r"(?<![\u0620-\u064a])(?:أنا|لي|عندي|يمكنني|أستطيع|أقدر|أفعل|أكون|نحن|لنا|جدولي)\b",
          r"(?:يوم|أيام|كل|هذا|في)\s+(?:ال)?(?:اثنين|إثنين|ثلاثاء|أربعاء|خميس|جمعة|سبت|أحد)|"
          r"(?<![\u0620-\u064a])(?:الاثنين|الإثنين|الثلاثاء|الأربعاء|الخميس|الجمعة|السبت)\b"),
    when(r"\b(?:من|برام|میتونم|می\u200c?تونم|می\u200c?توانم|هستم|بکنم|آزادم|وقتم)\b",
          r"\b(?:(?:یک|دو|سه|چهار|پنج)[\u200c ]?)?شنبه\w*|\bجمعه\w*"),
    when(r"(?<![\u0900-\u097f])(?:मैं|मुझे|मेरा|मेरी|मेरे|हम|हमें|हमारा|हमारी|हमारे)(?![\u0900-\u097f])",
          r"(?:सोम|मंगल|बुध|गुरु|बृहस्पति|शुक्र|शनि|रवि)वार"),
    when(r"\b(?:tôi|mình|tớ)\b", r"\b(?:(?:vào|tối|sáng|chiều|trưa|mỗi|các|ngày|hôm)\s+thứ\s+(?:hai|ba|tư|năm|sáu|"
          r"bảy)|chủ nhật)\b"),
    when(r"\b(?:saya|aku|gue|gua|kami|kita|jadwalku|waktuku)\b", r"\b(?:senin|selasa|rabu|kamis|jum'?at|sabtu|"
          r"minggu)\b"),
    when(r"ฉัน|ผม|เรา|หนู|ดิฉัน", r"วัน(?:จันทร์|อังคาร|พุธ|พฤหัส(?:บดี)?|ศุกร์|เสาร์|อาทิตย์)"),
    # a day of the week in Chinese, Japanese, Korean (the person is in the verb or left out)
    r"(?<![自忘本])我(?:的|们|們)?(?:周|星期|礼拜|禮拜)[一二三四五六日天]|"
    r"(?:周|週|星期|礼拜|禮拜)[一二三四五六日天][^。？?！!]{0,12}?(?:我|有空|空闲|空閒|干什么|做什么|幹什麼|做什麼)|"
    r"我(?:哪天|哪个晚上|哪個晚上|什么时候|什麼時候|几号|幾號)(?:有空|空闲|空閒|有时间|有時間)|"
    r"(?:哪天|哪个晚上|哪個晚上)我?(?:有空|有时间|有時間)|我的(?:日程|行程|一周|一週|每周安排|每週安排|作息|固定安排)|"
    r"我(?:每周|每週)|"
    r"(?:私|僕|俺|自分)の(?:予定|スケジュール|一週間|1週間|週|[月火水木金土日]曜)|"
    r"[月火水木金土日]曜日?(?:の予定|に何を|に何し|は何を|は何し|は空いて|に空いて|は暇|に暇|の夜は|の夜に何)|"
    r"(?:いつ|何曜日?|どの(?:夜|日|晩))(?:が|に|なら)?(?:空いて|暇)|空いている(?:日|夜|晩)|"
    r"(?:定期的な|いつもの|毎週の|一週間の|1週間の)予定|"
    r"(?:내|제|나의|저의)\s(?:[월화수목금토일]요일|일정|스케줄|일주일)|"
    r"[월화수목금토일]요일(?:에|엔|은|날)?\s?[^.?!\n]{0,20}?(?:뭐 ?하|뭘 ?하|할까|할 수 있|시간 ?(?:돼|있|비)|"
    r"한가|비어)|"
    r"(?:언제|어느 저녁|무슨 요일)(?:에)?\s?(?:시간이? ?(?:있|돼|비)|한가|비어)|정기적인 (?:일정|약속)|고정 일정|"
    r"주간 일정",
    # my week, my schedule, my regular commitments
    mine(es=r"semana|agenda|horario|rutina|calendario|compromisos(?: habituales| regulares| fijos| semanales)?|"
             r"lunes|martes|mi[ée]rcoles|jueves|viernes|s[áa]bados?|domingos?",
          fr="semaine|agenda|emploi du temps|planning|routine|engagements|(?:lun|mar|mercre|jeu|vendre|same)dis?|"
             "dimanches?",
          de=r"Woche|Wochenplan|Terminkalender|Kalender|Routine|Alltag|Termine|Verpflichtungen|(?:regelmäßigen|"
             r"festen|wöchentlichen) (?:Termine|Verpflichtungen|Aktivitäten)|(?:Montag|Dienstag|Mittwoch|"
             r"Donnerstag|Freitag|Samstag|Sonntag)\w*",
          it="settimana|agenda|calendario|routine|impegni(?: fissi| regolari| settimanali| abituali)?|"
             "luned[iì]|marted[iì]|mercoled[iì]|gioved[iì]|venerd[iì]|sabato|domenica",
          pt="semana|agenda|rotina|compromissos(?: fixos| regulares| semanais| habituais)?|"
             "(?:segunda|terça|quarta|quinta|sexta)(?:-feira)?|sábado|domingo",
          nl=r"week|agenda|weekschema|rooster|routine|vaste (?:afspraken|verplichtingen|activiteiten)|"
             r"(?:maan|dins|woens|donder|vrij|zater|zon)dag\w*",
          pl=r"tydzień|tygodni\w*|grafik\w*|kalendarz\w*|harmonogram\w*|plan\w* tygodnia|rutyn\w*|"
             r"stał\w* (?:zajęci\w*|zobowiąza\w*|obowiązk\w*)|poniedział\w*|wtor(?:ek|ki|ku)|środ\w*|czwart\w*|"
             r"piąt(?:ek|ki|ku)|sobot\w*|niedziel\w*",
          ru=r"недел\w*|график\w*|расписани\w*|распоряд(?:ок|ка|ке|ком)|(?:регулярн|постоянн|обычн)\w* "
             r"(?:дел\w*|заняти\w*|обязанност\w*)|понедельник\w*|вторник\w*|четверг\w*|пятниц\w*|суббот\w*|"
             r"воскресень\w*",
          uk=r"тиж(?:день|ня|ні)|графік\w*|розклад\w*|розпоряд(?:ок|ку)|(?:регулярн|постійн|звичайн)\w* "
             r"(?:справ\w*|заняття|обов['’]язк\w*)|понеділ\w*|вівтор\w*|четвер\w*|п['’]ятниц\w*|субот\w*|неділ\w*",
          cs=r"týden|týdne|týdnu|rozvrh\w*|harmonogram\w*|kalendář\w*|pravideln\w* (?:povinnost\w*|aktivit\w*|"
             r"závazk\w*)|rutin\w*|pondělí|úterý|středu|středa|čtvrtek|pátek|sobotu|sobota|neděle|neděli",
          sv=r"vecka|veckan|schema|schemat|kalender|rutiner|fasta (?:åtaganden|aktiviteter|tider)|"
             r"(?:mån|tis|ons|tors|fre|lör|sön)dag\w*",
          da=r"uge|skema|kalender|rutiner|faste (?:aftaler|aktiviteter|forpligtelser)|(?:man|tirs|ons|tors|fre|lør|"
             r"søn)dag\w*",
          no=r"uke|uka|uken|timeplan|timeplanen|kalender|kalenderen|rutiner|faste (?:avtaler|aktiviteter|"
             r"forpliktelser)|(?:man|tirs|ons|tors|fre|lør|søn)dag\w*",
          fi="viikko|viiko|aikataulu|kalenteri|rutiini|menoi|meno",
          hu="hetem|heti (?:rutinom|beosztásom|programom|programjaim)|rendszeres (?:programjaim|programom|"
             "elfoglaltságaim|teendőim|kötelezettségeim)|napirendem|naptáram|órarendem",
          ro=r"s[ăa]pt[ăa]m[âa]na|programul|calendarul|rutina|angajamentele|activit[ăa][țţt]ile",
          tr="haftam|haftalık (?:programım|rutinim|planım)|programım|takvimim|rutinim|düzenli (?:işlerim|"
             "aktivitelerim|programım|faaliyetlerim)",
          el=r"εβδομάδα|πρόγραμμ\w*|ημερολόγι\w*|ρουτίνα|υποχρεώσεις|δραστηριότητ\w*",
          he="שבוע|לו\"ז|לוז|לוח הזמנים|לוח זמנים|יומן|שגרה|התחייבויות הקבועות|פעילויות הקבועות",
          ar="أسبوعي|جدولي|جدول أعمالي|روتيني|التزاماتي|مواعيدي|برنامجي الأسبوعي|نشاطاتي المنتظمة",
          fa="هفته|برنامه|برنامه هفتگی|تقویم|روتین|کارهای ثابت|قرارهای ثابت",
          hi="हफ\u093c?्त(?:ा|े)|सप्ताह|दिनचर्या|शेड्यूल|कैलेंडर|रूटीन",
          ja="予定|スケジュール|一週間|1週間",
          zh="日程|行程|安排|一周|一週|作息",
          ko="일정|스케줄|일주일|주간 일정",
          vi="tuần|lịch|lịch trình|thời khóa biểu|lịch hằng tuần|thói quen",
          id="minggu|jadwal|jadwal mingguan|kalender|rutinitas|kegiatan rutin|agenda",
          th="ตารางเวลา|ตาราง|สัปดาห์|กิจวัตร|ตารางประจำสัปดาห์"),
    # when am I free
    r"\b(?:estoy libre|estaré libre|tengo libre|tengo (?:la |el )?(?:tarde|noche|mañana|día) libre|"
    r"je suis (?:libre|disponible|dispo)|suis-je (?:libre|disponible)|bin ich frei|habe? ich (?:frei|zeit)|"
    r"ich (?:frei|zeit) habe|sono (?:liber[oa]|disponibile)|ho (?:la serata|la sera|tempo) liber[oa]|"
    r"estou (?:livre|disponível)|estarei livre|ben ik vrij|heb ik tijd|ik (?:vrij ben|tijd heb)|"
    r"jestem woln\w*|mam woln\w*|mam czas|będę woln\w*|я свобод\w*|у меня свобод\w*|свобод(?:ен|на) ли я|"
    r"я вільн\w*|у мене вільн\w*|mám volno|jsem voln\w*|mám čas|är jag ledig|jag är ledig|har jag tid|"
    r"er jeg ledig|jeg er ledig|har jeg (?:tid|fri)|jeg har fri|olen(?:ko)? vapaa|(?:minulla|mulla) on (?:aikaa|"
    r"vapaata)|ráérek|szabad vagyok|van időm|sunt (?:liber[ăa]?|disponibil[ăa]?)|am timp liber|boşum|"
    r"müsaitim|είμαι (?:ελεύθερ|διαθέσιμ)\w*|tôi rảnh|mình rảnh|saya (?:kosong|luang|senggang)|"
    r"aku (?:kosong|luang|senggang))(?!\w)|"
    r"אני פנוי|יש לי זמן פנוי|(?:أنا|أكون) (?:متفرغ|فاضي|متاح)\w*|\bآزادم\b|وقت آزاد دارم|"
    r"(?<![\u0900-\u097f])मैं\s+(?:\S+\s+){0,2}?(?:फ\u093c?्री|खाली)|ฉันว่าง|ผมว่าง",
)
