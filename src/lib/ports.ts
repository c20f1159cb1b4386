import { foldText } from "./incoterms";

/**
 * The main world seaports with their UN/LOCODE (issue #24, ADR 0111), so a port a buyer names
 * in any common language ("Hamburgo", "汉堡", "鹿特丹", "جدة") becomes one code the seller can
 * price freight to. Each entry: the code (its first two letters are the ISO 3166 country), the
 * English name, then other names and spellings separated by "|". The table is a shipped
 * constant: no lookup leaves the process.
 */
export const PORTS: readonly (readonly [string, string, string])[] = [
  // China, Hong Kong, Taiwan
  ["CNSHA", "Shanghai", "上海|上海港|xangai|schanghai|شنغهاي|shanghái"],
  ["CNNGB", "Ningbo", "宁波|寧波|ningbo-zhoushan|宁波舟山|نينغبو"],
  ["CNSZX", "Shenzhen", "深圳|shenzhen port|شنتشن"],
  ["CNYTN", "Yantian", "盐田|鹽田"],
  ["CNSHK", "Shekou", "蛇口"],
  ["CNCAN", "Guangzhou", "广州|廣州|canton|cantón|كانتون|قوانغتشو"],
  ["CNNSA", "Nansha", "南沙"],
  ["CNTAO", "Qingdao", "青岛|青島|tsingtao|tsingtau|تشينغداو"],
  ["CNTXG", "Tianjin", "天津|tianjin xingang|xingang|新港|تيانجين"],
  ["CNXMN", "Xiamen", "厦门|廈門|amoy"],
  ["CNDLC", "Dalian", "大连|大連"],
  ["CNLYG", "Lianyungang", "连云港"],
  ["CNFOC", "Fuzhou", "福州"],
  ["CNYIK", "Yingkou", "营口"],
  ["CNZJG", "Zhangjiagang", "张家港"],
  ["CNNKG", "Nanjing", "南京"],
  ["CNZHA", "Zhanjiang", "湛江"],
  ["HKHKG", "Hong Kong", "香港|hongkong|hong-kong|هونغ كونغ"],
  ["TWKHH", "Kaohsiung", "高雄"],
  ["TWKEL", "Keelung", "基隆"],
  ["TWTXG", "Taichung", "台中"],
  // Japan, Korea
  ["JPTYO", "Tokyo", "东京|東京|tokio|طوكيو"],
  ["JPYOK", "Yokohama", "横滨|横浜"],
  ["JPUKB", "Kobe", "神户|神戸"],
  ["JPOSA", "Osaka", "大阪"],
  ["JPNGO", "Nagoya", "名古屋"],
  ["JPHKT", "Hakata", "博多|fukuoka|福冈"],
  ["KRPUS", "Busan", "釜山|pusan|بوسان"],
  ["KRINC", "Incheon", "仁川|inchon"],
  ["KRKAN", "Gwangyang", "光阳|kwangyang"],
  // South-east Asia
  ["SGSIN", "Singapore", "新加坡|singapur|سنغافورة|singapura"],
  ["MYPKG", "Port Klang", "巴生港|巴生|klang|port kelang|بورت كلانغ"],
  ["MYTPP", "Tanjung Pelepas", "丹戎帕拉帕斯|pelepas"],
  ["MYPEN", "Penang", "槟城|pulau pinang"],
  ["MYPGU", "Pasir Gudang", "巴西古当"],
  ["THLCH", "Laem Chabang", "林查班|兰差邦"],
  ["THBKK", "Bangkok", "曼谷|بانكوك"],
  ["VNSGN", "Ho Chi Minh City", "胡志明|胡志明市|saigon|ho chi minh|hcmc|cat lai"],
  ["VNHPH", "Haiphong", "海防|hai phong"],
  ["VNCMT", "Cai Mep", "盖梅"],
  ["VNDAD", "Da Nang", "岘港|danang"],
  ["IDJKT", "Jakarta", "雅加达|tanjung priok|yakarta|dschakarta|جاكرتا"],
  ["IDSUB", "Surabaya", "泗水|tanjung perak"],
  ["IDBLW", "Belawan", "勿拉湾|medan"],
  ["PHMNL", "Manila", "马尼拉|مانيلا"],
  ["PHCEB", "Cebu", "宿务"],
  ["KHKOS", "Sihanoukville", "西哈努克|西哈努克港|kampong saom"],
  ["KHPNH", "Phnom Penh", "金边"],
  ["MMRGN", "Yangon", "仰光|rangoon"],
  // South Asia
  ["INNSA", "Nhava Sheva", "那瓦舍瓦|jnpt|jawaharlal nehru|nava sheva|نهافا شيفا"],
  ["INBOM", "Mumbai", "孟买|bombay|bombai|مومباي"],
  ["INMUN", "Mundra", "蒙德拉|موندرا"],
  ["INMAA", "Chennai", "钦奈|金奈|madras|تشيناي"],
  ["INCCU", "Kolkata", "加尔各答|calcutta"],
  ["INVTZ", "Visakhapatnam", "维沙卡帕特南|vizag"],
  ["INCOK", "Cochin", "科钦|kochi"],
  ["INPAV", "Pipavav", "皮帕瓦"],
  ["INHZA", "Hazira", "哈兹拉"],
  ["PKKHI", "Karachi", "卡拉奇|كراتشي|karatschi"],
  ["PKBQM", "Port Qasim", "卡西姆港|bin qasim|ميناء قاسم"],
  ["LKCMB", "Colombo", "科伦坡|كولومبو"],
  ["BDCGP", "Chittagong", "吉大港|chattogram|شيتاغونغ"],
  // Middle East
  ["AEJEA", "Jebel Ali", "杰贝阿里|جبل علي|yebel ali|dschebel ali"],
  ["AEDXB", "Dubai", "迪拜|دبي|dubái|dubay|port rashid|ميناء راشد"],
  ["AEAUH", "Abu Dhabi", "阿布扎比|أبوظبي|ابو ظبي|abu dabi|abudhabi"],
  ["AEKHL", "Khalifa Port", "哈利法港|ميناء خليفة"],
  ["AESHJ", "Sharjah", "沙迦|الشارقة|sharja"],
  ["AEFJR", "Fujairah", "富查伊拉|الفجيرة"],
  [
    "SAJED",
    "Jeddah",
    "吉达|جدة|jiddah|jedda|yeda|dschidda|dschidda|jeddah islamic port|ميناء جدة الإسلامي",
  ],
  ["SADMM", "Dammam", "达曼|الدمام|king abdulaziz port|ميناء الملك عبدالعزيز"],
  ["SARUH", "Riyadh", "利雅得|الرياض|riad|riyad"],
  ["SAJUB", "Jubail", "朱拜勒|الجبيل"],
  ["SAYNB", "Yanbu", "延布|ينبع"],
  ["OMSOH", "Sohar", "苏哈尔|صحار"],
  ["OMSLL", "Salalah", "塞拉莱|صلالة"],
  ["OMMCT", "Muscat", "马斯喀特|مسقط|sultan qaboos|mascate|maskat"],
  ["QAHMD", "Hamad Port", "哈马德港|ميناء حمد|hamad"],
  ["QADOH", "Doha", "多哈|الدوحة"],
  ["KWSWK", "Shuwaikh", "舒韦赫|الشويخ"],
  ["KWKWI", "Kuwait", "科威特|الكويت|kuwait city|kuwait port"],
  ["BHKBS", "Khalifa Bin Salman", "巴林|bahrain|البحرين|ميناء خليفة بن سلمان"],
  ["IQUQR", "Umm Qasr", "乌姆盖斯尔|أم قصر|ام قصر"],
  ["IRBND", "Bandar Abbas", "阿巴斯港|بندر عباس|shahid rajaee"],
  ["JOAQJ", "Aqaba", "亚喀巴|العقبة|akaba"],
  ["LBBEY", "Beirut", "贝鲁特|بيروت|beyrouth|beirut port"],
  ["SYLTK", "Latakia", "拉塔基亚|اللاذقية"],
  ["ILHFA", "Haifa", "海法|حيفا"],
  ["ILASH", "Ashdod", "阿什杜德|أسدود"],
  ["YEADE", "Aden", "亚丁|عدن"],
  ["YEHOD", "Hodeidah", "荷台达|الحديدة"],
  ["TRMER", "Mersin", "梅尔辛|مرسين"],
  ["TRIST", "Istanbul", "伊斯坦布尔|إسطنبول|اسطنبول|estambul"],
  ["TRAMR", "Ambarli", "安巴利|ambarlı"],
  ["TRIZM", "Izmir", "伊兹密尔|إزمير|esmirna"],
  ["TRGEB", "Gebze", "盖布泽"],
  // Africa
  ["EGALY", "Alexandria", "亚历山大|الإسكندرية|الاسكندرية|alejandria|alexandrien"],
  ["EGPSD", "Port Said", "塞得港|بورسعيد|بور سعيد|east port said"],
  ["EGDAM", "Damietta", "达米埃塔|دمياط"],
  ["EGSOK", "Sokhna", "苏赫纳|السخنة|ain sokhna|العين السخنة"],
  ["MAPTM", "Tanger Med", "丹吉尔地中海港|طنجة المتوسط|tangier med|tanger"],
  ["MACAS", "Casablanca", "卡萨布兰卡|الدار البيضاء"],
  ["DZALG", "Algiers", "阿尔及尔|الجزائر العاصمة|argel|algier|alger"],
  ["DZORN", "Oran", "奥兰|وهران"],
  ["TNRAD", "Rades", "拉德斯|رادس|radès"],
  ["TNTUN", "Tunis", "突尼斯|تونس"],
  ["LYTIP", "Tripoli", "的黎波里|طرابلس|tripolis|tripoli libya"],
  ["LYMRA", "Misurata", "米苏拉塔|مصراتة"],
  ["SDPZU", "Port Sudan", "苏丹港|بورتسودان|بور سودان"],
  ["DJJIB", "Djibouti", "吉布提|جيبوتي|yibuti|dschibuti"],
  ["KEMBA", "Mombasa", "蒙巴萨|ممباسا"],
  ["TZDAR", "Dar es Salaam", "达累斯萨拉姆|دار السلام"],
  ["NGAPP", "Apapa", "阿帕帕|lagos apapa"],
  ["NGLOS", "Lagos", "拉各斯|لاغوس|tin can island"],
  ["GHTEM", "Tema", "特马|تيما"],
  ["CIABJ", "Abidjan", "阿比让|أبيدجان"],
  ["SNDKR", "Dakar", "达喀尔|داكار"],
  ["TGLFW", "Lome", "洛美|lomé|لومي"],
  ["BJCOO", "Cotonou", "科托努"],
  ["CMDLA", "Douala", "杜阿拉"],
  ["AOLAD", "Luanda", "罗安达"],
  ["ZADUR", "Durban", "德班|دربان"],
  ["ZACPT", "Cape Town", "开普敦|ciudad del cabo|kapstadt|كيب تاون"],
  ["ZAPLZ", "Port Elizabeth", "伊丽莎白港|gqeberha"],
  ["MZMPM", "Maputo", "马普托"],
  ["MUPLU", "Port Louis", "路易港"],
  // Europe
  ["NLRTM", "Rotterdam", "鹿特丹|روتردام|róterdam|rotterdão"],
  ["NLAMS", "Amsterdam", "阿姆斯特丹|أمستردام|ámsterdam"],
  ["BEANR", "Antwerp", "安特卫普|antwerpen|amberes|anvers|أنتويرب|انتويرب"],
  ["BEZEE", "Zeebrugge", "泽布吕赫"],
  ["DEHAM", "Hamburg", "汉堡|漢堡|hamburgo|hambourg|amburgo|هامبورغ|هامبورج"],
  ["DEBRV", "Bremerhaven", "不来梅港|بريمرهافن"],
  ["DEBRE", "Bremen", "不来梅|brema|بريمن"],
  ["DEWVN", "Wilhelmshaven", "威廉港"],
  ["GBFXT", "Felixstowe", "费利克斯托|فيليكستو"],
  ["GBSOU", "Southampton", "南安普顿|ساوثهامبتون"],
  ["GBLGP", "London Gateway", "伦敦门户港"],
  ["GBLON", "London", "伦敦|londres|لندن"],
  ["GBLIV", "Liverpool", "利物浦|ليفربول"],
  ["FRLEH", "Le Havre", "勒阿弗尔|el havre|لوهافر"],
  ["FRMRS", "Marseille", "马赛|marsella|marseilles|marsiglia|مرسيليا"],
  ["FRFOS", "Fos-sur-Mer", "福斯|fos"],
  ["ESVLC", "Valencia", "瓦伦西亚|巴伦西亚|فالنسيا|valència"],
  ["ESALG", "Algeciras", "阿尔赫西拉斯|الجزيرة الخضراء"],
  ["ESBCN", "Barcelona", "巴塞罗那|برشلونة|barcelone"],
  ["ESBIO", "Bilbao", "毕尔巴鄂|بلباو"],
  ["ITGOA", "Genoa", "热那亚|genova|génova|genua|gênes|جنوة"],
  ["ITSPE", "La Spezia", "拉斯佩齐亚|spezia"],
  ["ITGIT", "Gioia Tauro", "焦亚陶罗"],
  ["ITTRS", "Trieste", "的里雅斯特|triest"],
  ["ITNAP", "Naples", "那不勒斯|napoli|nápoles|neapel|نابولي"],
  ["ITVCE", "Venice", "威尼斯|venezia|venecia|venedig"],
  ["GRPIR", "Piraeus", "比雷埃夫斯|el pireo|piräus|pireas|بيرايوس"],
  ["PTLIS", "Lisbon", "里斯本|lisboa|lissabon|لشبونة"],
  ["PTSIE", "Sines", "锡尼什"],
  ["PLGDN", "Gdansk", "格但斯克|gdańsk|danzig"],
  ["PLGDY", "Gdynia", "格丁尼亚|gdingen"],
  ["SEGOT", "Gothenburg", "哥德堡|göteborg|goteborg|gotemburgo"],
  ["DKAAR", "Aarhus", "奥胡斯|århus"],
  ["DKCPH", "Copenhagen", "哥本哈根|københavn|kopenhagen|copenhague"],
  ["NOOSL", "Oslo", "奥斯陆"],
  ["FIHEL", "Helsinki", "赫尔辛基|helsingfors"],
  ["EETLL", "Tallinn", "塔林|muuga"],
  ["LVRIX", "Riga", "里加"],
  ["LTKLJ", "Klaipeda", "克莱佩达|klaipėda|memel"],
  [
    "RULED",
    "Saint Petersburg",
    "圣彼得堡|st petersburg|st. petersburg|sankt petersburg|san petersburgo|سانت بطرسبرغ",
  ],
  ["RUNVS", "Novorossiysk", "新罗西斯克|novorossiisk|نوفوروسيسك"],
  ["RUVVO", "Vladivostok", "符拉迪沃斯托克|海参崴|владивосток"],
  ["UAODS", "Odesa", "敖德萨|odessa|أوديسا"],
  ["ROCND", "Constanta", "康斯坦察|constanța|konstanza"],
  ["BGVAR", "Varna", "瓦尔纳"],
  ["SIKOP", "Koper", "科佩尔|capodistria"],
  ["HRRJK", "Rijeka", "里耶卡|fiume"],
  ["MTMAR", "Marsaxlokk", "马尔萨什洛克|malta freeport|马耳他"],
  ["IEDUB", "Dublin", "都柏林|dublín|دبلن"],
  ["ESLPA", "Las Palmas", "拉斯帕尔马斯"],
  // Americas
  ["USLAX", "Los Angeles", "洛杉矶|los ángeles|لوس أنجلوس"],
  ["USLGB", "Long Beach", "长滩"],
  ["USNYC", "New York", "纽约|nueva york|new york/new jersey|newark|نيويورك"],
  ["USSAV", "Savannah", "萨凡纳|سافانا"],
  ["USHOU", "Houston", "休斯顿|هيوستن"],
  ["USSEA", "Seattle", "西雅图|سياتل"],
  ["USTIW", "Tacoma", "塔科马"],
  ["USOAK", "Oakland", "oakland ca"],
  ["USCHS", "Charleston", "查尔斯顿"],
  ["USORF", "Norfolk", "诺福克"],
  ["USMIA", "Miami", "迈阿密|ميامي"],
  ["USBAL", "Baltimore", "巴尔的摩"],
  ["USJAX", "Jacksonville", "杰克逊维尔"],
  ["USMSY", "New Orleans", "新奥尔良|nueva orleans"],
  ["USPHL", "Philadelphia", "费城|filadelfia"],
  ["USBOS", "Boston", "波士顿"],
  ["CAVAN", "Vancouver", "温哥华|فانكوفر"],
  ["CAPRR", "Prince Rupert", "鲁珀特王子港"],
  ["CAMTR", "Montreal", "蒙特利尔|montréal"],
  ["CAHAL", "Halifax", "哈利法克斯"],
  ["CATOR", "Toronto", "多伦多|تورنتو"],
  ["MXZLO", "Manzanillo", "曼萨尼约|manzanillo mexico"],
  ["MXVER", "Veracruz", "韦拉克鲁斯"],
  ["MXLZC", "Lazaro Cardenas", "拉萨罗卡德纳斯|lázaro cárdenas"],
  ["MXATM", "Altamira", "阿尔塔米拉"],
  ["PAMIT", "Manzanillo (Panama)", "manzanillo panama|manzanillo international terminal"],
  ["PABLB", "Balboa", "巴尔博亚"],
  ["PAONX", "Colon", "科隆|colón|colon free zone"],
  ["COCTG", "Cartagena", "卡塔赫纳|cartagena de indias"],
  ["COBUN", "Buenaventura", "布埃纳文图拉"],
  ["COBAQ", "Barranquilla", "巴兰基亚"],
  ["BRSSZ", "Santos", "桑托斯"],
  ["BRRIG", "Rio Grande", "里奥格兰德"],
  ["BRPNG", "Paranagua", "巴拉那瓜|paranaguá"],
  ["BRRIO", "Rio de Janeiro", "里约热内卢|río de janeiro"],
  ["BRITJ", "Itajai", "伊塔雅伊|itajaí"],
  ["BRNVT", "Navegantes", "纳维根特斯"],
  ["BRSSA", "Salvador", "萨尔瓦多港"],
  ["BRSUA", "Suape", "苏阿佩"],
  ["ARBUE", "Buenos Aires", "布宜诺斯艾利斯|بوينس آيرس"],
  ["UYMVD", "Montevideo", "蒙得维的亚"],
  ["CLSAI", "San Antonio", "圣安东尼奥|san antonio chile"],
  ["CLVAP", "Valparaiso", "瓦尔帕莱索|valparaíso"],
  ["PECLL", "Callao", "卡亚俄|lima"],
  ["ECGYE", "Guayaquil", "瓜亚基尔"],
  ["VELAG", "La Guaira", "拉瓜伊拉"],
  ["VEPBL", "Puerto Cabello", "卡贝略港"],
  ["DOCAU", "Caucedo", "考塞多"],
  ["DOHAI", "Rio Haina", "海纳河"],
  ["JMKIN", "Kingston", "金斯敦"],
  ["BSFPO", "Freeport", "自由港|freeport bahamas"],
  ["CRLIO", "Puerto Limon", "利蒙港|puerto limón|limon"],
  ["GTSTC", "Santo Tomas de Castilla", "圣托马斯|santo tomás de castilla"],
  ["HNPCR", "Puerto Cortes", "科尔特斯港|puerto cortés"],
  // Oceania
  ["AUSYD", "Sydney", "悉尼|sídney|سيدني"],
  ["AUMEL", "Melbourne", "墨尔本|ملبورن"],
  ["AUBNE", "Brisbane", "布里斯班"],
  ["AUFRE", "Fremantle", "弗里曼特尔|perth|珀斯"],
  ["AUADL", "Adelaide", "阿德莱德"],
  ["NZAKL", "Auckland", "奥克兰|أوكلاند"],
  ["NZTRG", "Tauranga", "陶朗加"],
];

export interface Port {
  /** UN/LOCODE, e.g. DEHAM. */
  locode: string;
  name: string;
  /** ISO 3166-1 alpha-2. */
  country: string;
}

/** The port count of the table (ADR 0111 promises the main ports: 150 or more). */
export const PORT_COUNT = PORTS.length;

/**
 * A name as compared: without accents, lower case, Arabic letters in one form (alef with
 * hamza or madda as bare alef, teh marbuta as heh, alef maksura as yeh, no diacritics or
 * tatweel), punctuation as spaces.
 */
export function foldPortName(text: string): string {
  return foldText(
    text
      .normalize("NFC")
      .replace(/[\u064B-\u065F\u0670\u0640]/g, "")
      .replace(/[أإآ]/g, "ا")
      .replace(/ة/g, "ه")
      .replace(/ى/g, "ي"),
  )
    .replace(/[.,;:()'"’\-/]/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

/** Words around a port's name that are not its name ("port of", "puerto de", "港", "ميناء"). */
const AFFIXES = [
  /^(the )?port of /,
  /^puerto de /,
  /^puerto /,
  /^hafen /,
  /^porto de /,
  /^port /,
  /^ميناء /,
  /^مرفا /,
  / (port|harbour|harbor|hafen|seaport)$/,
  /港口$/,
  /港$/,
];

const BY_NAME = new Map<string, Port>();
const BY_CODE = new Map<string, Port>();
for (const [locode, name, others] of PORTS) {
  const port = { locode, name, country: locode.slice(0, 2) };
  BY_CODE.set(locode, port);
  for (const n of [name, ...others.split("|")]) {
    const key = foldPortName(n);
    if (key && !BY_NAME.has(key)) BY_NAME.set(key, port);
  }
}
/** Names longest first, for finding one inside a longer text ("CIF Hamburg, Germany"). */
const NAMES_LONGEST_FIRST = [...BY_NAME.keys()].sort((a, b) => b.length - a.length);

const isWordChar = (ch: string | undefined) => ch !== undefined && /[a-z0-9]/.test(ch);

/**
 * The port a text names: a UN/LOCODE ("DEHAM", "DE HAM"), a name or spelling of the table
 * (with or without "port of" / "港" / "ميناء"), else the longest name of the table inside the
 * text (Latin names only as whole words). Undefined when it names none of the table's ports.
 */
export function findPort(raw: string | null | undefined): Port | undefined {
  if (!raw) return undefined;
  const code = /^\s*([A-Za-z]{2})\s?([A-Za-z2-9]{3})\s*$/.exec(raw);
  if (code) {
    const port = BY_CODE.get(`${code[1]}${code[2]}`.toUpperCase());
    if (port) return port;
  }
  const folded = foldPortName(raw);
  if (!folded) return undefined;
  const exact = BY_NAME.get(folded);
  if (exact) return exact;
  let bare = folded;
  for (const affix of AFFIXES) bare = bare.replace(affix, "").trim();
  const stripped = BY_NAME.get(bare);
  if (stripped) return stripped;
  for (const name of NAMES_LONGEST_FIRST) {
    if (name.length < 2) continue;
    let at = folded.indexOf(name);
    while (at !== -1) {
      const latin = /[a-z]/.test(name);
      if (!latin || (!isWordChar(folded[at - 1]) && !isWordChar(folded[at + name.length]))) {
        return BY_NAME.get(name);
      }
      at = folded.indexOf(name, at + 1);
    }
  }
  return undefined;
}
