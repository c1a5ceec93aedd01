"""Request patterns of the aspects pets, family, vehicles, how to reach them (:mod:`memory_agent.memory.asks`)."""

from __future__ import annotations

from memory_agent.memory.asks.grammar import FAMILY, MINE, PETS, asks, mine

__all__ = ["CONTACT_ASKS", "FAMILY_ASKS", "PET_ASKS", "VEHICLE_ASKS"]

PET_ASKS = asks(
    rf"\b{MINE} (?:{PETS})\b",
    mine(es="perr[oa]s?|perrit[oa]s?|gat[oa]s?|gatit[oa]s?|mascotas?|cachorr[oa]s?|conejo|hámster",
          fr="chiens?|chienne|chats?|chatte|chaton|chatons|animal|animaux|lapin|hamster",
          de=r"Hund\w*|Katze\w*|Kater|Haustier\w*|Kaninchen|Hamster|Welpe\w*",
          it="cane|cani|cagnolino|cagnolina|gatt[oaie]|gattino|gattina|animale|animali|coniglio|criceto",
          pt="cão|cães|cachorr[oa]s?|gat[oa]s?|gatinh[oa]s?|cadela|bichinho|animal de estimação|pet|coelho|hamster",
          nl="hond|honden|kat|katten|poes|poezen|huisdier|huisdieren|konijn|hamster|puppy|kitten",
          pl=r"ps(?:a|u|em|ie|y)|pies|piesek|pieska|kot(?:a|u|em|ku|y|ów)?|kotk\w*|zwierza\w*|zwierzak\w*|"
             r"królik\w*|chomik\w*",
          ru=r"кош(?:ка|ки|ке|ку|кой)|кот(?:а|у|ом|е)?|котик\w*|котён\w*|котен\w*|собак\w*|пёс|пес|пса|псу|"
             r"щен\w*|питом\w*|хомяк\w*|кролик\w*",
          uk=r"кі[тш]\w*|кот(?:а|ові|ом|і)|котик\w*|кошен\w*|собак\w*|пес|пса|псові|цуцен\w*|"
             r"тварин\w*|хом['’]як\w*|кролик\w*",
          cs=r"pes|psa|psovi|psem|pejsk\w*|koč\w*|kocour\w*|kotě|koťátk\w*|mazlíč\w*|zvíř\w*|králík\w*|křeč(?:ek|ka|kovi|kem|ci|ky)",
          sv="katt|katter|hund|hundar|husdjur|kanin|valp|kattunge",
          da="kat|katte|hund|hunde|kæledyr|kanin|hvalp|killing",
          no="katt|katten|katter|kattene|hund|hunden|hunder|hundene|kjæledyr|kjæledyret|kanin|kaninen|valp|valpen",
          fi="kissa|kissoi|koira|koiri|lemmikki|lemmiki|kani|pentu|pennu",
          hu="macskám|kutyám|cicám|kutyusom|háziállatom|nyuszim|hörcsögöm",
          ro=r"pisica|pisicu[țţ]a|motanul|c[âa]inele|c[ăa][țţ]elul|c[ăa][țţ]ica|animalul|animalu[țţ]ul|iepurele",
          tr="kedim|kedilerim|köpeğim|köpeklerim|evcil hayvanım|tavşanım",
          el=r"γάτ\w*|γατούλ\w*|σκύλ\w*|σκυλ\w*|κατοικίδι\w*|κουτάβι\w*|γατάκι\w*",
          he="החתול|החתולה|חתול|חתולה|הכלב|הכלבה|כלב|כלבה|חיית המחמד|הגור|גור",
          ar="قطتي|قطي|كلبي|كلبتي|حيواني الأليف|أرنبي",
          fa="گربه|سگ|حیوان خانگی|پت|خرگوش",
          hi="बिल्ली|कुत्त(?:ा|े)|पालतू|पपी",
          ja="猫|ねこ|ネコ|犬|いぬ|イヌ|ペット|子|わんこ|にゃんこ",
          zh="猫|貓|狗|狗狗|猫咪|貓咪|宠物|寵物",
          ko=r"고양이|강아지|개(?=[가는를의랑와한도\s.,?!]|$)|반려동물|반려견|반려묘|냥이",
          vi="mèo|chó|thú cưng|cún",
          id="kucing|anjing|hewan peliharaan|peliharaan",
          th="แมว|หมา|สุนัข|สัตว์เลี้ยง"),
    r"愛犬|愛猫|飼い猫|飼い犬|うちの子|我家(?:的)?(?:猫|狗|貓)|우리 ?집 (?:고양이|강아지)|"
    r"\b(?:mèo|chó) nhà (?:tôi|mình)\b",
)

FAMILY_ASKS = asks(
    rf"\b{MINE} (?:{FAMILY})\b|\b(?:mi|mis|mon|ma|mes|mein|meine|meinem|meiner|meu|minha|meus|mio|mia|"
    rf"miei|mijn|mój|moja) (?:hij[oa]s?|fils|fille|enfants?|sohn|tochter|kinder?|filh[oa]s?|figli[oa]?|"
    rf"zoon|dochter|syn|córka|marido|mujer|mari|femme|mann|frau|esposa|moglie|marito)\b",
    mine(es="espos[oa]|mujer|marido|pareja|novi[oa]|hij[oa]s?|herman[oa]s?|padres|madre|padre|mamá|papá|"
             "familia|abuel[oa]s?|suegr[oa]s?",
          fr="femme|mari|copain|copine|partenaire|compagn(?:on|e)|fils|fille|filles|enfants?|sœur|soeur|frère|"
             "frères|sœurs|parents|mère|père|famille|grand-mère|grand-père|beaux-parents",
          de=r"Frau|Mann|Partner(?:in)?|Freundin|Tochter|Töchter\w*|Sohn|Söhne\w*|Kinder\w*|Kind(?:es)?|"
             r"Schwester\w*|Bruder|Brüder\w*|Eltern|Mutter|Mama|Vater|Papa|Familie|Oma|Opa|Schwiegereltern",
          it="moglie|marito|ragazz[oa]|compagn[oa]|partner|figli[oa]?|figlie|sorell[ae]|fratell[oi]|genitori|"
             "madre|mamma|padre|papà|famiglia|nonn[oaie]",
          pt="esposa|mulher|marido|namorad[oa]|companheir[oa]|parceir[oa]|filh[oa]s?|irmã|irmãs|irmãos?|pais|mãe|"
             "pai|família|avó|avô|avós|sogr[oa]s?",
          nl="vrouw|man|partner|vriend|vriendin|dochter|dochters|zoon|zonen|kinderen|kind|zus|zussen|zuster|broer|"
             "broers|ouders|moeder|mama|vader|papa|familie|oma|opa|schoonouders",
          pl=r"żon\w*|mąż|męż\w*|chłopak\w*|dziewczyn\w*|partner\w*|cór(?:ka|ki|kę|ką|ce|ek|kami)|córeczk\w*|"
             r"syn\w*|dzie(?:ci|ciom|ćmi|ciach)|dzieck\w*|siostr\w*|bra(?:t|ta|tu|tem|cie|cia)|rodzic\w*|"
             r"mam(?:a|y|ie|ę|ą)|ta(?:ta|ty|cie|tę|tą)|rodzin\w*|babci\w*|babk\w*|dziadk\w*|teściow\w*",
          ru=r"жен(?:а|ы|е|у|ой)|муж(?:а|у|ем|е)?|парн(?:я|ю|ем|е)|парень|девушк\w*|доч(?:ь|ери|ерью|ка|ки|ке|ку|"
             r"кой|ерей|ерям)|сын\w*|дет(?:и|ей|ям|ьми|ях)|ребён\w*|ребен\w*|сестр\w*|брат\w*|родител\w*|"
             r"мам(?:а|ы|е|у|ой)|пап(?:а|ы|е|у|ой)|семь(?:я|и|е|ю|ей)|бабушк\w*|дедушк\w*|супруг\w*",
          uk=r"дружин\w*|чолов(?:ік|іка|ікові|іку|іком)|хлоп(?:ець|ця|цеві|цем)|дівчин\w*|доньк\w*|донечк\w*|"
             r"доньц\w*|дочк\w*|доч(?:ка|ки|ці|кою)|син(?:а|ові|ом|у|и|ів)?|діт(?:и|ей|ям|ьми)|дитин\w*|сестр\w*|брат\w*|"
             r"батьк\w*|мам(?:а|и|і|у|ою)|тат(?:о|а|ові|ом|у)|родин\w*|сім['’]\w*|бабус\w*|дідус\w*",
          cs=r"žen\w*|manžel\w*|přítel\w*|dce[rř]\w*|syn\w*|dět(?:i|í|em|mi)|děti|dít\w*|sest[rř]\w*|bratr\w*|"
             r"rodič\w*|mám(?:a|y|ě|u|ou)|mamink\w*|matk\w*|matce|táta|táty|tátovi|tátu|otc\w*|otec|rodin\w*|"
             r"babič\w*|děd\w*",
          sv="fru|frus|man|mans|make|sambo|sambons|partner|pojkvän|flickvän|dotter|dotters|döttrar|son|sons|söner|"
             "barn|barns|syster|systers|systrar|bror|brors|bröder|föräldrar|mamma|mammas|pappa|pappas|familj|"
             "mormor|farmor|morfar|farfar",
          da="kone|kones|mand|mands|kæreste|kærestes|partner|datter|datters|døtre|søn|søns|sønner|børn|børns|"
             "barn|søster|søsters|bror|brors|brødre|forældre|mor|mors|far|fars|familie|familien|mormor|farmor",
          no="kone|kona|konen|mann|mannen|kjæreste|kjæresten|samboer|samboeren|partner|datter|dattera|datteren|"
             "døtre|døtrene|sønn|sønnen|sønner|barn|barna|barnet|søster|søstera|søsteren|bror|broren|brødre|"
             "foreldre|foreldrene|mor|mora|moren|far|faren|familie|familien",
          fi="vaimo|miehe|mies|poikaystävä|tyttöystävä|kumppani|puoliso|tyttäre|tytär|poja|poika|lapse|lapsi|lasta|"
             "laste|sisko|sisare|velje|vanhemp|vanhemm|äidi|äiti|isä|perhee|perhe|mumm|vaari|ukki",
          hu="feleségem|férjem|barátnőm|párom|lányom|fiam|gyerekeim|gyerekem|húgom|nővérem|öcsém|bátyám|"
             "testvérem|testvéreim|szüleim|anyám|anyukám|apám|apukám|családom|nagymamám|nagypapám|nagyszüleim",
          ro=r"so[țţ]i(?:a|ei)|so[țţ]ul(?:ui)?|iubit(?:a|ul|ei|ului)|partener(?:a|ul|ei|ului)|prieten(?:a|ei)|"
             r"fiic(?:a|ei)|fiul(?:ui)?|copii(?:i|lor)|copilul(?:ui)?|sor(?:a|ei)|fratel(?:e|ui)|fra[țţ]ii|"
             r"p[ăa]rin[țţ]ii|p[ăa]rin[țţ]ilor|mam(?:a|ei)|tat[ăa]l(?:ui)?|famili(?:a|ei)|bunic(?:a|ul|ii)",
          tr="eşim|eşimin|eşime|karım|kocam|sevgilim|kız arkadaşım|erkek arkadaşım|kızım|oğlum|çocuklarım|"
             "çocuğum|kardeşim|kardeşlerim|ablam|abim|ağabeyim|annem|babam|ailem|annemler|babaannem|anneannem|"
             "dedem",
          el=r"γυναίκα|γυναίκας|σύζυγ\w*|συζύγ\w*|άντρα|άντρας|άνδρα|άνδρας|σύντροφ\w*|συντρόφ\w*|κοπέλα|κοπέλας|"
             r"αγόρι|κόρη|κόρης|κόρες|γιος|γιο|γιου|γιοι|παιδιά|παιδιών|παιδί|παιδιού|αδερφ\w*|αδελφ\w*|γονείς|"
             r"γονιούς|γονιών|μητέρα|μητέρας|μαμά|πατέρα|πατέρας|μπαμπά|μπαμπάς|οικογένει\w*|γιαγιά|παππού\w*",
          he="האישה|האשה|הבעל|בן הזוג|בת הזוג|בן זוג|בת זוג|החבר|החברה|הבת|הבן|הילדים|הילדה|הילד|האחות|"
             "האח|ההורים|אמא|אבא|המשפחה|סבתא|סבא",
          ar="زوجتي|زوجي|خطيبتي|خطيبي|ابنتي|بنتي|ابني|أبنائي|أولادي|أطفالي|أختي|أخي|والدي|والدتي|والداي|أمي|أبي|"
             "عائلتي|أسرتي|جدتي|حماتي",
          fa="همسر|شوهر|زن|نامزد|دوست\u200c?\\s?دختر|دوست\u200c?\\s?پسر|دختر|پسر|بچه\u200c?ها|بچه|خواهر|برادر|"
             "والدین|پدر و مادر|مادر|پدر|خانواده|مامان|بابا|مادربزرگ|پدربزرگ",
          hi="पत्नी|पति|बीवी|बॉयफ\u093c?्रेंड|गर्लफ\u093c?्रेंड|बेटी|बेटियों|बेट(?:ा|े|ों)|बच्च(?:ा|े|ों)|बहन|बहनों|"
             "भाई|भाइयों|माता-?पिता|मम्मी-?पापा|मा[\u0901\u0902]|मम्मी|पिता|पिताजी|पापा|परिवार|दादी|दादा|नानी|नाना",
          ja="妻|夫|旦那|嫁|彼氏|彼女|恋人|パートナー|娘|息子|子供|子ども|兄|姉|弟|妹|両親|母|父|親|家族|祖母|祖父",
          zh="老婆|老公|妻子|丈夫|太太|先生|男朋友|女朋友|男友|女友|伴侣|伴侶|女儿|女兒|儿子|兒子|孩子|"
             "小孩|姐姐|妹妹|哥哥|弟弟|父母|爸妈|爸媽|爸爸|妈妈|媽媽|爸|妈|媽|家人|爷爷|爺爺|奶奶|外婆|姥姥|外公",
          ko="아내|와이프|남편|남자친구|여자친구|남친|여친|애인|딸(?!기)|아들|아이들|아이(?![디폰콘템])|애들|자녀|언니|"
             "오빠|누나|형(?![태편식])|동생|여동생|남동생|부모님|엄마|아빠|어머니|아버지|가족|할머니|할아버지",
          vi="vợ|chồng|bạn trai|bạn gái|người yêu|con gái|con trai|các con|con|chị gái|anh trai|em gái|em trai|"
             "bố mẹ|ba mẹ|cha mẹ|mẹ|bố|gia đình|ông bà|bà|ông",
          id="istri|suami|pacar|pasangan|putri|putra|anak-anak|anak|kakak|adik|orang ?tua|ibu|ayah|mama|papa|"
             "keluarga|nenek|kakek|mertua",
          th="ภรรยา|เมีย|สามี|แฟน|ลูกสาว|ลูกชาย|ลูก|พี่สาว|น้องสาว|พี่ชาย|น้องชาย|พ่อแม่|พ่อ|แม่|ครอบครัว|ยาย|ย่า|ปู่"),
    # own family said without a possessive: the Japanese humble words, Hebrew, Arabic, Persian suffixes
    r"(?<![丈工凡水農漁])夫(?=[のとにがはへを])|妻(?=[のとにがはへを])|息子(?!さん)|(?<!小)娘(?=[のとにがはへを])|"
    r"両親|(?<![酵保乳])母(?=[のとにがはへを])|(?<![神])父(?=[のとにがはへを])|"
    r"אשתי\b|בעלי\b(?!\s*(?:ה?חיים|עסק\w*|ה?בית|מקצוע|ה?דירה|חוב|זכות|תפקיד\w*|מניות|ה?כלב\w*|ה?חתול\w*|"
    r"ה?רכב|ה?דירות))|הוריי\b|ילדיי\b",
)

VEHICLE_ASKS = asks(
    rf"\b{MINE} (?:car|cars|bike|bicycle|e-?bike|motorbike|motorcycle|scooter|van|truck|vehicle|campervan|"
    rf"caravan)\b",
    mine(es="coche|carro|auto|moto|motocicleta|bici|bicicleta|furgoneta|vehículo|camioneta|patinete",
          fr="voiture|bagnole|auto|moto|vélo|scooter|camionnette|véhicule|camping-car|trottinette",
          de=r"Auto|Autos|Wagen\w*|Fahrrad\w*|Rad|Motorrad\w*|Roller\w*|E-Bike|Fahrzeug\w*|Transporter\w*|"
             r"Wohnmobil\w*",
          it="macchina|auto|automobile|moto|bici|bicicletta|scooter|furgone|veicolo|camper|monopattino",
          pt="carro|automóvel|moto|mota|bicicleta|bike|scooter|carrinha|van|veículo|caminhonete",
          nl="auto|wagen|fiets|e-bike|motor|brommer|scooter|busje|bestelbus|voertuig|camper",
          pl=r"samoch(?:ód|odu|odem|odzie|ody)|aut(?:o|a|u|em)|aucie|rower\w*|motocykl\w*|motor(?:a|em|ze)?|skuter\w*|"
             r"hulajnog\w*|pojazd\w*|bus\w*",
          ru=r"машин\w*|автомобил\w*|тачк\w*|велосипед\w*|велик\w*|мотоцикл\w*|байк\w*|скутер\w*|самокат\w*",
          uk=r"машин\w*|автомобіл\w*|авто|автівк\w*|велосипед\w*|мотоцикл\w*|скутер\w*|самокат\w*",
          cs=r"aut(?:o|a|u|em|ě)|vůz|vozu|vozem|kol(?:o|a|e|em)|motork\w*|motocykl\w*|skútr\w*|koloběžk\w*",
          sv="bil|bilen|bils|cykel|cykeln|motorcykel|moped|vespa|skoter|husbil|elcykel",
          da="bil|bilen|cykel|cyklen|motorcykel|knallert|scooter|varevogn|autocamper|elcykel",
          no="bil|bilen|bilens|sykkel|sykkelen|motorsykkel|motorsykkelen|moped|mopeden|scooter|varebil|bobil|"
             "elsykkel|elbil|elbilen",
          fi="auto|pyörä|pyörä|polkupyörä|moottoripyörä|mopo|skootteri|pakettiauto|asuntoauto|sähköpyörä",
          hu="autóm|kocsim|biciklim|bringám|motorom|robogóm|járművem|rollerem|lakóautóm",
          ro=r"ma[șş]ina|masina|ma[șş]inii|bicicleta|motocicleta|motorul|scuterul|trotineta|duba|autoturismul",
          tr="arabam|aracım|otomobilim|bisikletim|motorum|motosikletim|scooterım|minibüsüm|karavanım",
          el=r"αυτοκίνητ\w*|αμάξι\w*|ποδήλατ\w*|μηχανή|μηχανής|μηχανάκι|μοτοσικλέτ\w*|σκούτερ|όχημ\w*",
          he="המכונית|מכונית|האוטו|אוטו|הרכב|רכב|האופניים|אופניים|האופנוע|אופנוע|הקטנוע|קטנוע",
          ar="سيارتي|عربيتي|دراجتي|دراجتي النارية|مركبتي|موتوري",
          fa="ماشین|خودرو|اتومبیل|دوچرخه|موتور|موتورسیکلت|اسکوتر",
          hi="कार|गाड\u093c?ी|बाइक|साइकिल|स्कूटर|स्कूटी|मोटरसाइकिल",
          ja="車|くるま|クルマ|自転車|バイク|愛車|原付|スクーター",
          zh="车|車|汽车|汽車|自行车|自行車|单车|單車|电动车|電動車|摩托车|摩托車|电瓶车",
          ko=r"차(?=[를을에가의는도로랑와\s.,?!]|$)|자동차|자전거|오토바이|스쿠터|전기차",
          vi="xe|xe máy|ô tô|xe hơi|xe đạp|xe điện",
          id="mobil|motor|sepeda|sepeda motor|skuter|kendaraan",
          th="รถ|รถยนต์|รถมอเตอร์ไซค์|มอเตอร์ไซค์|จักรยาน|รถเก๋ง"),
    r"愛車|マイカー",
)

CONTACT_ASKS = asks(
    rf"\b(?:phone|mobile|cell|e-?mail|contact|reach me|text me|{MINE} (?:address|number))\b",
    mine(es="número(?: de (?:teléfono|móvil|celular|contacto))?|teléfono|móvil|celular|correo(?: electrónico)?|"
             "e-?mail|dirección|datos de contacto|contacto|whatsapp",
          fr="numéro(?: de (?:téléphone|portable))?|téléphone|portable|mobile|e-?mail|mail|adresse|coordonnées|"
             "contact",
          de="Nummer|Telefonnummer|Handynummer|Handy|Telefon|E-?Mail(?:-Adresse)?|Mail|Adresse|Anschrift|"
             "Kontaktdaten|Kontakt",
          it="numero(?: di (?:telefono|cellulare))?|cellulare|telefono|e-?mail|mail|indirizzo|contatti|recapiti?",
          pt="número(?: de (?:telefone|telemóvel|celular))?|telefone|telemóvel|celular|e-?mail|endereço|morada|"
             "conta[c]?tos?|dados de conta[c]?to",
          nl="nummer|telefoonnummer|mobiele nummer|mobiel|telefoon|e-?mail(?:adres)?|mail|adres|contactgegevens",
          pl=r"numer\w*|telefon\w*|komórk\w*|e-?mail\w*|mail\w*|adres\w*|dan\w* kontaktow\w*|kontakt\w*",
          ru=r"номер\w*|телефон\w*|мобильн\w*|почт\w*|e-?mail|имейл\w*|адрес\w*|контакт\w*",
          uk=r"номер\w*|телефон\w*|мобільн\w*|пошт\w*|e-?mail|імейл\w*|адрес\w*|контакт\w*",
          cs=r"čísl(?:o|a|u|em)|telefon\w*|mobil\w*|e-?mail\w*|mail\w*|adres\w*|kontakt\w*",
          sv="nummer|telefonnummer|mobilnummer|mobil|telefon|mejl|mejladress|e-post(?:adress)?|mail|adress|"
             "kontaktuppgifter",
          da="nummer|telefonnummer|mobilnummer|mobil|telefon|mail|e-?mail|mailadresse|adresse|kontaktoplysninger",
          no="nummer|nummeret|telefonnummer|telefonnummeret|mobilnummer|mobilnummeret|mobil|mobilen|telefon|"
             "telefonen|e-?post|e-?posten|e-?postadresse|e-?postadressen|mail|mailen|adresse|adressen|"
             "kontaktinformasjon|kontaktinformasjonen",
          fi="numero|puhelinnumero|puhelin|puhelime|sähköposti|sähköpostiosoitte|osoitte|osoite|yhteystiedo|"
             "yhteystiedot",
          hu="számom|telefonszámom|mobilszámom|telefonom|mobilom|e-?mailem|e-?mail címem|email címem|címem|"
             "elérhetőségem|elérhetőségeim",
          ro="num[ăa]rul(?: de telefon)?|telefonul|mobilul|e-?mailul|adresa|datele de contact",
          tr="numaram|telefon numaram|telefonum|cep telefonum|cep numaram|e-postam|e-posta adresim|mailim|"
             "e-?mail adresim|adresim|iletişim bilgilerim|iletişim numaram",
          el=r"αριθμ\w*|τηλέφων\w*|τηλεφων\w*|κινητ\w*|e-?mail|μέιλ|διεύθυνσ\w*|στοιχεία επικοινωνίας",
          he="מספר|מספר הטלפון|טלפון|נייד|מייל|אימייל|דוא\"ל|כתובת|כתובת המייל|פרטי הקשר|פרטי התקשרות",
          ar="رقمي|رقم هاتفي|رقم جوالي|رقم موبايلي|جوالي|موبايلي|بريدي الإلكتروني|بريدي|إيميلي|ايميلي|عنواني",
          fa="شماره|شماره تلفن|شماره موبایل|تلفن|موبایل|ایمیل|آدرس|نشانی|اطلاعات تماس",
          hi="नंबर|फ\u093c?ोन नंबर|मोबाइल नंबर|फ\u093c?ोन|मोबाइल|ई-?मेल|पता|पते|संपर्क विवरण|कॉन्टैक्ट",
          ja="電話番号|連絡先|メールアドレス|メアド|住所|携帯番号|番号|メール",
          zh="电话|電話|电话号码|電話號碼|手机号(?:码)?|手機號(?:碼)?|号码|號碼|邮箱|郵箱|电子邮件|電子郵件|地址|联系方式|"
             "聯絡方式|聯繫方式|联系电话|聯絡電話",
          ko="전화번호|번호|휴대폰 번호|핸드폰 번호|연락처|이메일|메일 주소|주소",
          vi="số điện thoại|số|điện thoại|email|địa chỉ email|địa chỉ|thông tin liên hệ",
          id="nomor|nomor telepon|nomor hp|nomor wa|telepon|email|alamat email|alamat|kontak|info kontak",
          th="เบอร์โทรศัพท์|เบอร์โทร|เบอร์|หมายเลขโทรศัพท์|อีเมล|ที่อยู่|ช่องทางติดต่อ|ข้อมูลติดต่อ"),
    # reach me, contact me, call me
    r"\b(?:contactarme|llamarme|localizarme|me joindre|me contacter|m'appeler|mich (?:erreichen|anrufen|"
    r"kontaktieren)|contattarmi|chiamarmi|raggiungermi|me contatar|contactar-me|ligar-me|me ligar|"
    r"(?:me|mij) (?:bereiken|bellen)|skontaktować się ze mną|zadzwonić do mnie|связаться со мной|позвонить мне|"
    r"зв['’]язатися зі мною|зателефонувати мені|kontaktovat mě|zavolat mi|(?:nå|ringa|kontakta) mig|"
    r"(?:kontakte|ringe til) mig|(?:kontakte|ringe|nå) meg|ottaa minuun yhteyttä|soittaa minulle|"
    r"tavoittaa minut|s[ăa] m[ăa] contacteze|s[ăa] m[ăa] sune|bana ulaş\w*|beni ara\w*|"
    r"να επικοινωνήσ\w* μαζί μου|να με πάρ\w*|liên hệ với tôi|gọi cho tôi|menghubungi saya|hubungi saya)(?!\w)|"
    r"ליצור איתי קשר|להתקשר אליי|التواصل معي|الاتصال بي|با من تماس|تماس با من|"
    r"(?<![\u0900-\u097f])मुझसे संपर्क|連絡先|联系方式|聯絡方式|联系电话|聯絡電話|연락처|ติดต่อ(?:ฉัน|ผม)",
)
