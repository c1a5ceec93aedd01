"""Request patterns of the aspects home, work, who the user is, their tech (:mod:`memory_agent.memory.asks`)."""

from __future__ import annotations

from memory_agent.memory.asks.grammar import MINE, asks, mine

__all__ = ["HOME_ASKS", "SELF_ASKS", "TECH_ASKS", "WORK_ASKS"]

# ---------------------------------------------------------------------------------------------------------
# What a request says, per aspect: English first, then "my <noun>" in each language (_mine), then the
# phrasings that are no possessive ("near me", "the book I'm reading", "what can I do on Sunday").

HOME_ASKS = asks(
    rf"\bnear (?:home|me|here|where {MINE} (?:live|am|are|stay\w*|work)|{MINE} (?:place|flat|house|home|"
    rf"apartment|office))\b|\b(?:around|close to) (?:here|home|me)\b|\bfrom home\b|\b{MINE} (?:area|"
    rf"city|town|neighbou?rhood|place|commute|local)\b|\bwhere {MINE} (?:live|am based)\b|"
    rf"\b(?:local|nearby)\b|\bweather\b|\btime ?zone\b|\bcommut\w*\b|\bday trips?\b|"
    rf"\bwhere (?:should|can|could) {MINE} (?:go|eat|get|find)\b|\bgo out\b|\bnight out\b|"
    rf"\b(?:weekend|day) trips?\b|\b(?:dinner|lunch|brunch|coffee|drinks?) (?:spot|place)s?\b|"
    rf"\b(?:round|around) (?:mine|my place)\b|\bcerca de (?:casa|mí|donde (?:vivo|estoy))\b|"
    rf"\bprès de chez moi\b|\bin meiner nähe\b|\bvicino a (?:casa|me|dove (?:sto|abito|vivo))\b|"
    rf"\bperto de (?:casa|mim|onde (?:moro|estou))\b|\bbij mij in de buurt\b|\bw pobliżu\b|"
    rf"家の近く|近所|家附近|我家附近|집 근처|"
    # "nearby" as other languages say it, bare as the English "nearby" above
    rf"\b(?:pas (?:trop )?loin|près d'ici|à proximité|dans le coin|in der nähe|nicht weit|in der gegend|"
    rf"por aquí|no (?:muy )?lejos|cerca de aquí|qui vicino|nelle vicinanze|non lontano|aqui perto|"
    rf"nas redondezas|in de buurt|dichtbij|niedaleko|w okolicy|yakınımda|yakınlarda|civarda|рядом|"
    rf"поблизости|недалеко|i närheten)\b|附近|周边|この近く|近くの|近くに|周辺|근처|주변",
    # where one lives, as "my <place>"
    mine(es="barrio|ciudad|zona|pueblo|casa|piso|apartamento|calle",
          fr="quartier|ville|coin|région|maison|appartement|appart|rue",
          de="Viertel|Stadtteil|Kiez|Stadt|Gegend|Nachbarschaft|Wohnung|Haus(?:e|es)?|Straße|Wohnort|"
             "Heimatstadt|Umgebung",
          it="quartiere|città|zona|paese|casa|appartamento|via",
          pt="bairro|cidade|zona|região|casa|apartamento|rua",
          nl="buurt|wijk|stad|dorp|huis|appartement|straat|woonplaats|omgeving",
          pl=r"okolic\w*|dzielnic\w*|miast(?:o|a|u|em)|mieście|osiedl\w*|dom|domu|domem|domie|mieszka(?:nie|nia|niu|"
             r"niem)|ulic\w*|sąsiedztw\w*",
          ru=r"район\w*|город\w*|дом|дома|доме|дому|домом|квартир\w*|улиц\w*|окрестност\w*",
          uk=r"район\w*|міст[оіа]|містом|дім|дому|домі|будин(?:ок|ку|ком)|квартир\w*|вулиц\w*|околиц\w*",
          cs=r"čtvrt\w*|měst[oau]|městě|okolí|dům|domu|domě|domov\w*|byt|bytu|bytě|ulic\w*|oblast\w*",
          sv="område|området|kvarter|stad|hemstad|hus|lägenhet|gata|grannskap",
          da="område|kvarter|by|hjemby|hus|lejlighed|gade|nabolag",
          no="område|området|nabolag|nabolaget|by|byen|hjemby|hus|huset|leilighet|leiligheten|gate|gata|strøk|"
             "strøket",
          fi="kaupunki|kaupungi|naapurusto|asuinalue|asuinaluee|koti|kodi|talo|asunto|asunno|katu|kadu|lähiö|"
             "kotikaupunki|kotikaupungi",
          hu="városom|környékem|lakóhelyem|lakásom|házam|otthonom|utcám|kerületem|szomszédságom",
          ro=r"cartierul|ora[șş]ul|orasul|zona|casa|apartamentul|strada|vecin[ăa]tatea",
          tr="mahallem|semtim|şehrim|evim|dairem|sokağım|bölgem|ilçem",
          el=r"γειτονι\w*|πόλη|πόλης|περιοχ\w*|σπίτι|σπιτιού|διαμέρισμ\w*|δρόμο|γειτονιά",
          he="שכונה|עיר|אזור|בית|דירה|רחוב|יישוב",
          ar="حيي|مدينتي|منطقتي|بيتي|منزلي|شقتي|شارعي|بلدتي",
          fa="محله|شهر|منطقه|خانه|خونه|آپارتمان|خیابان",
          hi="शहर|इलाक(?:ा|े)|मोहल्ल(?:ा|े)|घर|अपार्टमेंट|गली|पड\u093c?ोस",
          ja="家|近所|地元|町|街|地域|最寄り駅|最寄駅",
          zh="家|小区|小區|社区|社區|城市|街区|街區",
          ko="동네|집|도시|지역|아파트",
          vi="nhà|khu phố|thành phố|khu vực|quận|căn hộ|xóm",
          id="rumah|lingkungan|kota|daerah|kompleks|apartemen|kampung",
          th="บ้าน|ละแวกบ้าน|เมือง|ย่าน|คอนโด"),
    # near me / nearby / where I live
    r"\b(?:donde vivo|por mi zona|cerca de mi casa)\b|"
    r"\b(?:chez moi|autour de moi|là où j'habite|où j'habite|près de moi)\b|"
    r"\b(?:bei mir in der nähe|hier in der nähe|in der umgebung|wo ich wohne|bei mir um die ecke)\b|"
    r"\b(?:vicino a me|dove abito|dalle mie parti|in zona)\b|"
    r"\b(?:perto de mim|onde (?:eu )?moro|aqui perto)\b|"
    r"\b(?:hier in de buurt|waar ik woon|bij mij in de omgeving)\b|"
    r"\b(?:koło mnie|blisko mnie|obok mnie|gdzie mieszkam|w mojej okolicy)\b|"
    r"\b(?:рядом со мной|рядом с домом|возле дома|около дома|где я живу|недалеко от меня)\b|"
    r"\b(?:поруч|поблизу|неподалік|біля дому|біля мене|де я живу)\b|"
    r"\b(?:v okolí|poblíž|nedaleko|blízko mě|kde bydlím)\b|"
    r"\b(?:nära mig|där jag bor|här i närheten|runt hörnet)\b|"
    r"\b(?:i nærheden|tæt på mig|hvor jeg bor|her i nærheden)\b|"
    r"\b(?:i nærheten|nær meg|der jeg bor|i nærområdet)\b|"
    r"\b(?:lähistöllä|lähellä minua|lähelläni|lähellä kotia|kotini lähellä|täällä lähellä|missä asun|"
    r"lähiseudulla|lähialueella)\b|"
    r"\b(?:a közelemben|közelemben|a közelben|itt a közelben|ahol lakom|a környéken|lakásom közelében)\b|"
    r"\b(?:lângă mine|langa mine|aproape de mine|în apropiere|in apropiere|prin apropiere|unde locuiesc|"
    r"lângă casă|aproape de casă)\b|"
    r"\b(?:evime yakın|oturduğum yer\w*|yaşadığım yer\w*|buralarda|etrafımda|yakınımdaki)\b|"
    r"\b(?:κοντά μου|κοντά στο σπίτι|εδώ κοντά|όπου μένω|εκεί που μένω|κοντά σε μένα)\b|"
    r"לידי(?!\s*ביטוי)\b|ליד הבית|קרוב אליי|קרוב אלי\b|בסביבה\b|איפה שאני גר|"
    r"(?:بالقرب|قريب(?:ة|ا)?)\s+مني|بالقرب من (?:منزلي|بيتي)|قرب (?:بيتي|منزلي)|حيث (?:أسكن|أعيش)|"
    r"نزدیک (?:من|خانه|خونه)|همین (?:اطراف|نزدیکی)|این اطراف|دور و بر|جایی که زندگی می\u200c?کنم|"
    r"(?<![\u0900-\u097f])(?:मेरे आस-?पास|आस-?पास|नज\u093c?दीक|घर के पास|जहा[\u0901\u0902]? मैं रहत[ाी]|"
    r"यहा[\u0901\u0902]? पास)|"
    r"地元|住んでいる(?:所|ところ|場所|街)|住んでる(?:所|ところ)|最寄り|うちの近く|"
    r"我住的地方|我这边|我這邊|我所在的城市|离我(?:家)?近|離我(?:家)?近|本地|當地|"
    r"우리 동네|내가 사는 곳|제가 사는 곳|이 근처|가까운 곳|"
    r"\b(?:gần tôi|gần nhà|gần đây|quanh đây|nơi tôi sống|chỗ tôi ở|gần chỗ tôi)\b|"
    r"\b(?:dekat sini|dekat rumah|dekat saya|dekatku|di sekitar saya|sekitar sini|di daerah saya)\b|"
    r"ใกล้ฉัน|ใกล้ผม|ใกล้บ้าน|แถวนี้|แถวบ้าน|ละแวกนี้|ใกล้ๆ ?นี้",
)

WORK_ASKS = asks(
    rf"\b{MINE} (?:job|work|role|career|team|manager|boss|colleagues?|coworkers?|company|employer|"
    rf"position|profession|office|workplace|sprint|clients?|business|shop|current role|day job|"
    rf"direct reports?|reports|gig|week|weekly calendar|calendar|schedule|routine|hours|shifts?|"
    rf"day off|days off)\b|\bat work\b|\bfor work\b|\bwhere {MINE} work\b|\b(?:bio|headline|"
    rf"linkedin|cv|résumé|resume|cover letter|signature|invoice|elevator pitch|marketing|sprints?|"
    rf"stand-?ups?|retros?|1:1s?|one-on-ones?|deductions?|taxes|status (?:updates?|reports?)|"
    rf"weekly (?:updates?|reports?)|(?:annual|performance|mid-?year|year-?end|salary) reviews?|appraisals?|"
    rf"lesson plans?|(?:plan|prep\w*) (?:\w+'s |a |the |my |our |\w+ )?lessons?|"
    rf"{MINE} (?:year \d+ |\w+ )?class(?:es)?)\b|\breport to me\b|"
    rf"\b(?:i'm|i am|i have|i've got|ik heb|ich habe)\b[^.?!]{{0,20}}?\b(?:(?:night|late|early) shifts?|"
    rf"nachtdienst|nachtschicht|dienst)\b|"
    # a week to plan: the user's work, whatever the words for it ("plan my next week", "Plan für nächste Woche")
    rf"\b(?:plan|organi[sz]e|map out)(?: out)? (?:{MINE} |the |our )?(?:next |coming |this )?week\b|"
    rf"\b(?:plan|planung) für (?:die |meine )?(?:nächste|kommende|diese) woche\b|"
    rf"\b(?:organizar|planificar|planear|planejar|organiser|planifier|organizzare|pianificare|plannen|planera|"
    rf"zaplanować|zorganizować) (?:la |mi |ma |a |minha |mia |mijn |min |mój )?(?:semana|semaine|settimana|week|"
    rf"vecka|tydzień)\b|\b(?:la semana que viene|la semaine prochaine|la prossima settimana|a próxima semana|"
    rf"volgende week|nästa vecka|przyszły tydzień)\b|"
    # the way to work ("mon trajet", "Arbeitsweg", "woon-werkverkeer")
    rf"\b(?:trajet|arbeitsweg|woon-werkverkeer|pendling\w*|dojazd\w*)\b|"
    # one's work, week or team in other languages, and what a job's papers name
    rf"\b(?:mijn|mein\w*|mon|ma|mi|il mio|la mia|o meu|a minha|moja|mój|мо[йяе]) (?:werk|baan|functie|week|"
    rf"arbeit|job|stelle|woche|travail|boulot|poste|semaine|trabajo|puesto|semana|lavoro|settimana|trabalho|"
    rf"emprego|praca|tydzień|работа|неделя)\b|"
    rf"签名|署名|서명|职位|职务|직무|직위|役職|我的工作|私の仕事|내 (?:업무|직장)",
    mine(es=r"trabajo|curro|empleo|puesto|cargo|equipo(?!\s+de\b)|jefe|jefa|compañeros de trabajo|colegas|empresa|"
             r"oficina|currículum|curriculum|cv|firma|carrera profesional|clientes|negocio|turno|profesión",
          fr="travail|boulot|job|emploi|poste|équipe|chef|patron|patronne|collègues|entreprise|boîte|société|"
             "bureau|cv|carrière|signature|clients|métier|profession",
          de=r"Arbeit|Job|Stelle|Beruf|Team|Chef|Chefin|Kolleg(?:en|in|innen)|Firma|Arbeitgeber|Büro|Lebenslauf|"
             r"Karriere|Signatur|E-Mail-Signatur|Kunden|Arbeitsplatz|Unternehmen|Abteilung|Schicht",
          it="lavoro|impiego|team|capo|colleghi|colleghe|azienda|ditta|ufficio|curriculum|cv|carriera|firma|"
             "clienti|mestiere|professione|turno",
          pt="trabalho|emprego|cargo|equipe|equipa|chefe|colegas|empresa|escritório|currículo|cv|carreira|"
             "assinatura|clientes|profissão|turno",
          nl="werk|baan|functie|team|baas|leidinggevende|manager|collega's|collega|bedrijf|werkgever|kantoor|cv|"
             "dienst|diensten|nachtdienst|"
             "loopbaan|carrière|handtekening|klanten|beroep",
          pl=r"prac(?:a|y|ę|ą|y|ie)|pracodaw\w*|zesp[oó]\w*|szef\w*|kole(?:g|dz)\w*|firm\w*|biur\w*|cv|życiorys\w*|"
             r"karier\w*|podpis\w*|klient\w*|tydzień|tygodni\w*|stanowisk\w*|zawod\w*|zawód",
          ru=r"работ\w*|должност\w*|команд\w*|начальни\w*|босс\w*|коллег\w*|компани\w*|фирм\w*|офис\w*|резюме|"
             r"карьер\w*|подпис\w*|клиент\w*|недел\w*|професси\w*|смен\w*",
          uk=r"робот\w*|посад\w*|команд\w*|начальни\w*|керівни\w*|колег\w*|компані\w*|фірм\w*|офіс\w*|резюме|"
             r"кар['’]єр\w*|підпис\w*|клієнт\w*|тиж(?:день|ня|ні|нем)|професі\w*|змін\w*",
          cs=r"prác\w*|práce|zaměstnání|job|tým\w*|šéf\w*|koleg\w*|firm\w*|kancelář\w*|životopis\w*|cv|kariér\w*|"
             r"podpis\w*|klient\w*|týden|týdne|týdnu|profes\w*|povolání|zaměstnavatel\w*|směn\w*",
          sv="jobb|arbete|tjänst|roll|team|chef|kollegor|kollega|företag|arbetsgivare|kontor|cv|karriär|"
             "signatur|kunder|vecka|yrke|arbetsplats",
          da="job|arbejde|stilling|rolle|team|chef|kolleger|kollegaer|kollega|firma|virksomhed|arbejdsplads|"
             "arbejdsgiver|kontor|cv|karriere|signatur|kunder|uge|fag",
          no="jobb|jobben|arbeid|arbeidet|stilling|stillingen|rolle|rollen|team|teamet|sjef|sjefen|kolleger|"
             "kollegaer|kollegene|kollega|firma|firmaet|bedrift|bedriften|arbeidsgiver|arbeidsgiveren|"
             "arbeidsplass|arbeidsplassen|kontor|kontoret|cv|cv-en|karriere|karrieren|signatur|kunder|kundene|"
             "uke|uka|uken|yrke",
          fi="työ|työpaik|tiimi|pomo|esimie|kollego|työkaveri|yrityks|firma|toimisto|ansioluettelo|cv|"
             "allekirjoitu|asiakka|viikko|viiko|ammati|ammatti|vuoro",
          hu="munkám|munkahelyem|állásom|pozícióm|csapatom|főnököm|kollégáim|kollégám|munkatársaim|cégem|"
             "cégünk|irodám|önéletrajzom|karrierem|aláírásom|ügyfeleim|hetem|szakmám|munkaidőm|beosztásom|"
             "műszakom",
          ro=r"munca|jobul|serviciul|postul|echipa|echipei|[șş]eful|[șş]efa|colegii|colegilor|colegul|compania|"
             r"companiei|firma|firmei|biroul|[șş]efului|[șş]efei|cv-ul|cariera|carierei|semn[ăa]tura|clien[țţ]ii|s[ăa]pt[ăa]m[âa]na|"
             r"meseria|tura",
          tr="işim|işyerim|iş yerim|mesleğim|pozisyonum|ekibim|patronum|müdürüm|yöneticim|iş arkadaşlarım|"
             "meslektaşlarım|şirketim|ofisim|özgeçmişim|cv'?m|kariyerim|imzam|müşterilerim|haftam|mesaim|"
             "vardiyam",
          el=r"δουλει\w*|εργασί\w*|θέση|ομάδα|αφεντικ\w*|προϊστάμεν\w*|συνάδελφ\w*|εταιρεί\w*|εταιρί\w*|"
             r"γραφεί\w*|βιογραφικ\w*|καριέρα|υπογραφ\w*|πελάτ\w*|εβδομάδα|βδομάδα|επάγγελμ\w*|βάρδι\w*",
          he=r"עבודה|משרה|תפקיד|צוות|בוס|מנהל|מנהלת|עמיתים|קולגות|חברה|משרד|קורות החיים|קו\"ח|קריירה|חתימה|"
             r"לקוחות|שבוע|מקצוע|משמרת",
          ar="وظيفتي|شغلي|فريقي|مديري|مديرتي|زملائي|شركتي|مكتبي|سيرتي الذاتية|مسيرتي المهنية|توقيعي|عملائي|"
             "زبائني|مهنتي|منصبي|مناوبتي|(?:في|مكان|بيئة|زملاء|مدير|فريق) عملي",
          fa="کار|شغل|تیم|رئیس|همکار(?:ا|ان|های)?|شرکت|دفتر|محل کار|رزومه|حرفه|امضا|امضای|مشتری(?:ها|ان)|هفته|"
             "شیفت",
          hi="नौकरी|काम|जॉब|टीम|बॉस|मैनेजर|सहकर्मी|सहकर्मियों|कंपनी|ऑफिस|दफ\u093c?्तर|बायोडाटा|रिज\u093c?्यूमे|"
             "सीवी|करियर|कैरियर|हस्ताक्षर|क्लाइंट|ग्राहकों|हफ\u093c?्त(?:ा|े)|पेश(?:ा|े)|शिफ्ट",
          ja="仕事|職場|会社|チーム|上司|同僚|履歴書|職務経歴書|経歴|キャリア|署名|部署|業務|勤務先|勤め先|シフト",
          zh="工作|同事|老板|老闆|领导|領導|团队|團隊|公司|简历|簡歷|履历|履歷|职位|職位|职业|職業|客户|客戶|签名|"
             "簽名|上司|部门|部門",
          ko="직장|회사|업무|직업|팀|상사|동료|동료들|이력서|경력|커리어|서명|고객|일자리|부서|근무|사장님",
          vi="công việc|việc làm|nghề|nhóm|sếp|đồng nghiệp|công ty|văn phòng|cv|sơ yếu lý lịch|sự nghiệp|"
             "chữ ký|khách hàng|tuần|ca làm",
          id="pekerjaan|kerjaan|tim|bos|atasan|rekan kerja|kolega|perusahaan|kantor|cv|riwayat hidup|karier|"
             "karir|tanda tangan|klien|pelanggan|profesi|jabatan|shift",
          th="งาน|ที่ทำงาน|ทีม|หัวหน้า|เจ้านาย|บอส|เพื่อนร่วมงาน|บริษัท|ออฟฟิศ|สำนักงาน|เรซูเม่|ลายเซ็น|ลูกค้า|"
             "อาชีพ|ตำแหน่ง"),
    # at work, where I work
    r"\b(?:en el trabajo|donde trabajo|au travail|au boulot|là où je travaille|bei der arbeit|auf der arbeit|"
    r"wo ich arbeite|al lavoro|dove lavoro|no trabalho|onde trabalho|op het werk|op mijn werk|waar ik werk|"
    r"w pracy|gdzie pracuję|на работе|где я работаю|на роботі|де я працюю|v práci|kde pracuju|kde pracuji|"
    r"på jobbet|där jag jobbar|på arbejdet|hvor jeg arbejder|på jobb|der jeg jobber|töissä|työpaikallani|"
    r"a munkahelyemen|ahol dolgozom|la serviciu|la muncă|unde lucrez|iş yerinde|çalıştığım yer\w*|"
    r"στη δουλειά|εκεί που δουλεύω|di kantor|tempat kerja saya|tempat saya bekerja|ở công ty|nơi tôi làm việc|"
    r"chỗ làm)\b|"
    r"בעבודה\b|במקום העבודה|איפה שאני עובד|في العمل|مكان عملي|سر کار|محل کارم|जहा[\u0901\u0902]? मैं काम|"
    r"職場|勤務先|勤め先|弊社|うちの会社|上司|同僚|上班|我们公司|我們公司|我司|회사에서|직장에서|출근|퇴근|ที่ทำงาน",
)

SELF_ASKS = asks(
    r"\b(?:for|about|of) me\b|\b(?:intro|introduction|bio|profile) (?:about|of|for) me\b|"
    r"\bwho (?:am i|i am)\b|\bsabes de mí\b|\bsais de moi\b|\bweißt du über mich\b|"
    r"\b(?:someone|somebody|people|a person) like me\b|\bintroduce (?:me|myself)\b",
    # about me, for me, introduce me, my profile, who I am, someone like me
    r"\b(?:sobre mí|acerca de mí|de mí|para mí|preséntame|presentarme|quién soy|alguien como yo|"
    r"(?:gente|personas) como yo)(?!\w)|"
    r"\b(?:sur moi|à propos de moi|de moi|pour moi|me présenter|qui je suis|quelqu'un comme moi|"
    r"(?:des )?gens comme moi)\b|"
    r"\bstell(?:e|en sie)? mich\b[^.?!]{0,30}?\bvor\b|\bstel (?:me|mij) (?:\w+ ){0,4}?voor\b|"
    r"\b(?:über mich|für mich|mich vorstellen|stell mich vor|wer ich bin|jemand(?:en)? wie (?:ich|mich)|"
    r"leute wie (?:ich|mich))\b|"
    r"\b(?:su di me|di me|per me|presentarmi|presentami|chi sono io|qualcuno come me|persone come me)\b|"
    r"\b(?:sobre mim|de mim|para mim|me apresentar|apresentar-me|quem (?:eu )?sou(?: eu)?|alguém como eu|"
    r"pessoas como eu)\b|"
    r"\b(?:over mij|over mezelf|voor mij|mezelf voorstellen|wie ik ben|iemand zoals ik|mensen zoals ik)\b|"
    r"\b(?:o mnie|o sobie|dla mnie|przedstaw mnie|kim jestem|ktoś (?:taki )?jak ja|(?:osoby|ludzi) takie?j? "
    r"jak ja)\b|"
    r"\b(?:обо мне|о себе|для меня|представь меня|кто я(?: такой| такая)?|таким как я|такого как я|"
    r"такой как я|таких как я)(?!\w)|"
    r"\b(?:про мене|про себе|для мене|представ мене|хто я|такого як я|таких як я|такої як я)(?!\w)|"
    r"\b(?:o mně|o sobě|pro mě|pro mne|představ mě|kdo jsem|někoho jako já|někdo jako já|lidi jako já)(?!\w)|"
    r"\b(?:om mig|för mig|åt mig|presentera mig|vem jag är|någon som (?:jag|mig)|folk som jag|"
    r"personer som jag)\b|"
    r"\b(?:om mig|for mig|til mig|præsentere mig|hvem jeg er|en som mig|nogen som mig|folk som mig)\b|"
    r"\b(?:om meg|for meg|til meg|presentere meg|hvem jeg er|en som meg|noen som meg|folk som meg)\b|"
    r"\b(?:minusta|itsestäni|minulle|esittele minut|kuka olen|kaltaiselleni|kaltaiseni|kaltaisilleni)\b|"
    r"\b(?:rólam|magamról|számomra|nekem való|nekem szóló|hozzám (?:illő|passzoló|hasonló)|ki vagyok|"
    r"bemutatkoz\w*)|"
    r"\b(?:despre mine|pentru mine|s[ăa] m[ăa] prezint|cine sunt eu|cineva ca mine|oameni ca mine)\b|"
    r"\b(?:hakkımda|benim için|bana göre|bana uygun|kendimi tanıt\w*|kim olduğum\w*|benim gibi (?:biri|insanlar)"
    r"\w*)|"
    r"\b(?:για μένα|για εμένα|σχετικά με μένα|για τον εαυτό μου|ποιος είμαι|ποια είμαι|σαν εμένα|σαν κι εμένα)"
    r"(?!\w)|"
    r"\bעליי\b|בשבילי\b|עבורי\b|להציג אותי|מי אני\b|(?:מישהו|מישהי|אנשים) כמוני|"
    r"(?<![\u0620-\u064a])(?:عني|عنّي)\b|من أجلي|لأجلي|بالنسبة لي|قدمني|نبذة عني|من أنا|(?:شخص|أشخاص) مثلي|"
    r"درباره\u200c?ی? من|در مورد من|برای من|خودم را معرفی|خودمو معرفی|من کی هستم|(?:کسی|آدمی|افرادی) مثل من|"
    r"(?<![\u0900-\u097f])(?:मेरे बारे में|मेरे लिए|मेरा परिचय|मैं कौन हू[\u0901\u0902]|मेरे जैसे)|"
    r"私について|私のこと|自己紹介|私に合う|私にぴったり|私向け|私のような人|私みたいな人|僕について|僕に合う|"
    r"自分に合う|关于我|關於我|介绍我|介紹我|我的简介|我的簡介|我是谁|我是誰|像我这样的人|像我這樣的人|适合我|"
    r"適合我|나에 대해|저에 대해|나에 대한|저에 대한|자기소개|나 같은 사람|저 같은 사람|나에게 맞는|저에게 맞는|"
    r"나한테 맞는|저한테 맞는|나를 위한|저를 위한|"
    r"\b(?:về tôi|về bản thân|giới thiệu bản thân|tôi là ai|người như tôi|dành cho tôi|phù hợp với tôi)\b|"
    r"\b(?:tentang saya|tentang aku|tentang diriku|tentang diri saya|untuk saya|buat saya|untukku|buatku|"
    r"perkenalan diri|siapa saya|siapa aku|orang seperti saya|orang sepertiku)\b|"
    r"เกี่ยวกับฉัน|เกี่ยวกับผม|เกี่ยวกับตัวฉัน|สำหรับฉัน|สำหรับผม|แนะนำตัว|ฉันเป็นใคร|ผมเป็นใคร|คน(?:อย่าง|แบบ)(?:ฉัน|ผม)|"
    r"เหมาะกับ(?:ฉัน|ผม)",
    mine(es="perfil|biografía|bio", fr="profil|biographie|bio", de="Profil|Biografie|Bio", it="profilo|biografia",
          pt="perfil|biografia", nl="profiel|bio", pl=r"profil\w*|biografi\w*", ru=r"профил\w*|биографи\w*",
          uk=r"профіл\w*|біографі\w*", cs=r"profil\w*|životopis\w*", sv="profil|presentation",
          da="profil|præsentation", no="profil|profilen|presentasjon", fi="profiili|esittely", hu="profilom",
          ro="profilul|biografia", tr="profilim", el=r"προφίλ", he="פרופיל|ביוגרפיה", ar="ملفي الشخصي|سيرتي",
          fa="پروفایل|بیوگرافی", hi=r"प्रोफ\u093c?ाइल|परिचय", ja="プロフィール|経歴", zh="资料|資料|个人资料|個人資料",
          ko="프로필|소개", vi="hồ sơ|tiểu sử", id="profil|biodata", th="โปรไฟล์|ประวัติ"),
)

TECH_ASKS = asks(
    rf"\b(?:write|show|give|generate|draft)(?: me)? (?:a |an |the |some )?(?:new )?(?:query|code|function|"
    rf"script|snippet|examples?|controller|handler|endpoint|config\w*|class|tests?|ci step|pipeline|"
    rf"dockerfile|migration|keybindings?|program)\b|\bshow me how\b|\b{MINE} (?:machine|laptop|"
    rf"computer|editor|ide|setup|stack|app|web app|project|repo|codebase|code|terminal|shell|os|"
    rf"services?|api|platform|infra\w*|database|db|tests|pipeline|logs|cluster|server)\b|"
    rf"\b(?:install|set up|setup|deploy\w*|dependency|dependencies|keybinding)\b",
    # show me how I ...
    r"\b(?:muéstrame cómo|enséñame (?:cómo|a)|montre-moi comment|montre moi comment|zeig(?:e|en sie)? mir,? wie|"
    r"mostrami come|fammi vedere come|mostre-me como|me mostr[ae] como|mostra-me como|laat (?:me|mij) zien hoe|"
    r"pokaż mi,? jak|покажи(?:те)? мне,? как|покажи(?:ть)? мені,? як|ukaž mi,? jak|visa mig hur|"
    r"vis mig,? hvordan|vis meg,? hvordan|näytä minulle,? (?:miten|kuinka)|mutasd meg,? hogy(?:an)?|"
    r"arat[ăa]-mi cum|bana\s+(?:\S+\s+){0,3}?göster\w*|δείξε μου πώς|δείξε μου πως|chỉ (?:cho )?tôi cách|"
    r"hướng dẫn tôi cách|tunjukkan (?:saya |aku )?(?:cara|bagaimana)|ajari (?:saya|aku) cara)\b|"
    r"תראה לי איך|תראי לי איך|(?:أرني|أريني|اريني) كيف|(?:به من )?(?:نشان|نشون)(?:م)? بده (?:چطور|چگونه)|"
    r"(?<![\u0900-\u097f])मुझे दिखा(?:ओ|इए|इये)|(?:やり方|方法)を(?:教えて|見せて)|教我(?:怎么|怎麼|如何)|"
    r"给我演示|給我演示|어떻게 하는지 보여|방법을 보여|แสดงให้ดูว่า|สอน(?:ฉัน|ผม)วิธี|"
    # write me code that ...
    r"\b(?:escr[ií]beme|escribe|genera|écris(?:-moi)?|génère|schreib(?:e)?(?: mir)?|generiere|"
    r"scrivi(?:mi)?|genera|escreva(?:-me)?|me escreva|escreve(?:-me)?|gere|schrijf(?: me| mij)?|genereer|"
    r"napisz(?: mi)?|напиши(?:те)?(?: мне)?|напиши(?:ть)?(?: мені)?|napiš(?: mi)?|skriv(?: mig| meg)?|"
    r"kirjoita(?: minulle)?|írj(?: nekem)?|scrie(?:-mi)?|γράψε(?: μου)?|viết(?: cho tôi)?|buatkan(?: saya)?|"
    r"tuliskan)\s+(?:(?:un|una|uno|el|la|le|lo|il|du|des|del|dello|della|dei|un[ae]?|ein(?:e[nm]?)?|den|die|das|um|uma|o|a|een|en|et|ett|"
    r"egy|o|bir|ένα|έναν|μια|một|sebuah)\s+)?(?:(?:nuev[oa]|nouvelle|nouveau|neue[ns]?|nuov[oa]|nov[oa]|"
    r"nieuwe|ny|nytt|uusi)\s+)?(?:c[oó]digo|codice|code|kod|kód|kode|код\w*|koodi\w*|kódot|cod|κώδικα|mã|kode|"
    r"funci[oó]n|fonction|funktion|funzione|função|functie|funkcj\w*|функци\w*|funkc\w*|funksjon|funktio\w*|"
    r"függvényt|func[țţt]ie|συνάρτηση|hàm|fungsi|функці\w*|script|skrypt\w*|skript|scriptet|szkriptet|skripti\w*|скрипт|"
    r"consulta|requête|abfrage|query|zapytanie|запрос|запит|dotaz|forespørgsel|spørring|kysely\w*|"
    r"lekérdezést|interogare|ερώτημα|truy vấn|clase|classe|klasse|klas\w*|класс|клас|tříd\w*|klass|luokka\w*|"
    r"osztályt|clas[ăa]|κλάση|tests?|testi\w*|tesztet|тест\w*|prueba|program(?:a|ma|me|mu|ot)?|программ\w*|"
    r"програм\w*|ohjelma\w*|snippet|regex|expresión regular|expression régulière)\b|"
    r"\b(?:kod|fonksiyon|işlev|betik|script|sorgu|sınıf|test|program|regex)\w*\s+(?:yaz|oluştur)\w*|"
    r"(?:תכתוב|תכתבי|כתוב|כתבי)\s+(?:לי\s+)?(?:קוד|פונקציה|סקריפט|שאילתה|מחלקה|טסט|תוכנית)|"
    r"اكتب(?:\s+لي)?\s+(?:كود|كودا|شيفرة|دالة|سكربت|سكريبت|استعلام|برنامج)|"
    r"\b(?:کد|تابع|اسکریپت|کوئری)\s+(?:\S+\s+)?(?:برام|برایم|برای من)?\s*بنویس|"
    r"(?<![\u0900-\u097f])(?:कोड|फ\u093c?ंक्शन|स्क्रिप्ट|क्वेरी)\s+(?:\S+\s+)?लिख|"
    r"(?:コード|関数|スクリプト|クエリ|プログラム|テスト|正規表現)を(?:書いて|作って|生成して)|"
    r"(?:帮我|幫我|给我|給我|替我)(?:写|寫|生成|编写|編寫)[^。？！?!]{0,12}?(?:代码|代碼|函数|函數|脚本|腳本|"
    r"程序|程式|查询|查詢|测试|測試|类|類|正则|正則)|"
    r"(?:코드|함수|스크립트|쿼리|프로그램|테스트|정규식)(?:를|을)?\s?(?:좀\s)?(?:짜|작성해|만들어|써)|"
    r"(?:ช่วย)?เขียน(?:โค้ด|ฟังก์ชัน|สคริปต์|คิวรี)",
    # my laptop, my project, my code, my server ...
    mine(es="portátil|ordenador|computadora|pc|proyecto|código|app|aplicación|servidor|base de datos|"
             "repositorio|repo|configuración|editor|terminal",
          fr="ordinateur|ordi|pc|portable|projet|code|appli|application|serveur|base de données|dépôt|repo|"
             "configuration|config|éditeur|terminal",
          de=r"Laptop|Rechner|Computer|PC|Projekt\w*|Code|App|Anwendung|Server|Datenbank|Repo|Repository|Setup|"
             r"Konfiguration|Editor|Terminal",
          it="portatile|computer|pc|progetto|codice|app|applicazione|server|database|repository|repo|"
             "configurazione|editor|terminale",
          pt="portátil|notebook|computador|pc|projeto|projecto|código|app|aplicativo|aplicação|servidor|"
             "banco de dados|base de dados|repositório|repo|configuração|editor|terminal",
          nl="laptop|computer|pc|project|code|app|applicatie|server|database|repo|configuratie|setup|editor|"
             "terminal",
          pl=r"laptop\w*|komputer\w*|projekt\w*|kod\w*|aplikacj\w*|serwer\w*|baz\w* danych|repozytori\w*|repo|"
             r"konfiguracj\w*|edytor\w*|terminal\w*",
          ru=r"ноутбук\w*|компьютер\w*|комп|проект\w*|код\w*|приложени\w*|сервер\w*|баз\w* данных|"
             r"репозитори\w*|репо|конфиг\w*|редактор\w*|терминал\w*",
          uk=r"ноутбук\w*|комп['’]ютер\w*|про[єе]кт\w*|код\w*|застосун\w*|додат\w*|сервер\w*|баз\w* даних|"
             r"репозитор\w*|конфіг\w*|редактор\w*|термінал\w*",
          cs=r"notebook\w*|laptop\w*|počítač\w*|projekt\w*|kód\w*|aplikac\w*|server\w*|databáz\w*|repozitář\w*|"
             r"repo|konfigurac\w*|editor\w*|terminál\w*",
          sv="dator|datorn|laptop|projekt|kod|app|applikation|server|databas|repo|konfiguration|editor|terminal",
          da="computer|bærbare|laptop|projekt|kode|app|server|database|repo|opsætning|editor|terminal",
          no=r"datamaskin\w*|pc|pc-en|laptop\w*|prosjekt\w*|kode\w*|app\w*|server\w*|database\w*|repo|oppsett\w*|"
             r"editor\w*|terminal\w*",
          fi="tietokone|tietokonee|läppäri|kannettava|projekti|koodi|sovellus|sovellukse|palvelin|palvelime|"
             "tietokanta|tietokanna|repo|editori",
          hu="gépem|laptopom|számítógépem|projektem|kódom|alkalmazásom|appom|szerverem|adatbázisom|repóm|"
             "beállításaim|szerkesztőm|terminálom",
          ro=r"laptopul|calculatorul|computerul|proiectul|codul|aplica[țţt]ia|serverul|baza de date|repo-ul|"
             r"configura[țţt]ia|editorul|terminalul",
          tr="bilgisayarım|laptopum|dizüstüm|projem|kodum|uygulamam|sunucum|veritabanım|repom|ayarlarım|"
             "editörüm|terminalim",
          el=r"υπολογιστ\w*|λάπτοπ|laptop|έργο|project|κώδικ\w*|εφαρμογ\w*|διακομιστ\w*|server|βάση δεδομένων|"
             r"repo|ρυθμίσ\w*|τερματικ\w*",
          he="מחשב|לפטופ|מחשב נייד|פרויקט|פרוייקט|קוד|אפליקציה|שרת|מסד הנתונים|מסד נתונים|ריפו|הגדרות|טרמינל",
          ar="حاسوبي|كمبيوتري|جهازي|لابتوبي|مشروعي|كودي|شيفرتي|تطبيقي|خادمي|سيرفري|قاعدة بياناتي|مستودعي|"
             "إعداداتي",
          fa="کامپیوتر|رایانه|لپ\u200c?تاپ|پروژه|کد(?!ام)|اپ|اپلیکیشن|سرور|دیتابیس|پایگاه داده|مخزن|ریپو|"
             "تنظیمات|ترمینال",
          hi="लैपटॉप|कंप्यूटर|कम्प्यूटर|प्रोजेक्ट|कोड|ऐप|सर्वर|डेटाबेस|रिपो|सेटअप|एडिटर|टर्मिनल",
          ja="パソコン|PC|ノートパソコン|マシン|プロジェクト|コード|アプリ|サーバー?|データベース|DB|リポジトリ|環境|"
             "エディタ|ターミナル",
          zh="电脑|電腦|笔记本|筆電|项目|專案|代码|代碼|程式|应用|應用|服务器|伺服器|数据库|資料庫|仓库|倉庫|环境|"
             "環境|编辑器|編輯器|终端|終端",
          ko="컴퓨터|노트북|맥북|프로젝트|코드|앱|서버|데이터베이스|DB|저장소|레포|리포|개발 환경|에디터|터미널",
          vi="máy tính|laptop|dự án|mã nguồn|code|ứng dụng|app|máy chủ|server|cơ sở dữ liệu|database|repo|"
             "cấu hình|terminal",
          id="laptop|komputer|proyek|projek|kode|aplikasi|app|server|database|basis data|repo|repositori|"
             "konfigurasi|editor|terminal",
          th="คอมพิวเตอร์|คอม|แล็ปท็อป|โน้ตบุ๊ก|โปรเจกต์|โปรเจค|โค้ด|แอป|แอพ|เซิร์ฟเวอร์|ฐานข้อมูล|รีโป"),
    r"自分の環境|手元の環境|うちの環境",
)
