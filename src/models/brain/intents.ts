/**
 * What a user turn asks for, recognised from a few phrases in the table's languages. Anything
 * not matched here is a question for retrieval (retrieval.ts). Order matters: a farewell or a
 * thank-you wins over the words around it; a greeting only counts when the turn is little
 * more than the greeting ("hi, where do you live?" is a question). Chinese phrases (zh, no
 * spaces between words) are matched without word boundaries.
 */
export type Intent =
  | { kind: 'goodbye' }
  | { kind: 'thanks' }
  | { kind: 'greeting' }
  | { kind: 'how_are_you' }
  | { kind: 'ask_name' }
  | { kind: 'about_self' }
  | { kind: 'role' }
  | { kind: 'story' }
  | { kind: 'tale'; subject: string | null }
  | { kind: 'joke' }
  | { kind: 'small_talk'; about: SmallTalk }
  | { kind: 'ask_user_name' }
  | { kind: 'tell_user_name'; user: string }
  | { kind: 'abilities' }
  | { kind: 'memory' }
  | { kind: 'question'; text?: string };

/** Small talk that is neither a question nor a greeting, answered as such. */
export type SmallTalk = 'met' | 'fine' | 'ok' | 'sorry' | 'compliment';

const fold = (s: string) =>
  s
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .replace(/[’`]/g, "'")
    .replace(/[^\p{L}\p{N}' ]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();

const any =
  (...res: RegExp[]) =>
  (t: string) =>
    res.some((r) => r.test(t));

// Each: Chinese (matched anywhere), then the Latin-script languages on folded text (no
// accents, lower case, punctuation gone): en, es, fr, de, it, pt.
const isGoodbye = any(
  /(再见|拜拜|回头见|下次见|晚安|我先走了|明天见|告辞)/,
  /\b(good ?bye|bye( bye)?|farewell|see (you|ya)( later| soon| tomorrow)?|talk (to you )?(later|soon)|take care|gotta go|i (have|need) to go|i'?m (off|leaving)|good ?night|have a (nice|good|great) (day|evening|one|night)|later)\b/,
  /\b(adios|hasta (luego|pronto|manana)|nos vemos|chao|chau|me voy|buenas noches|cuidate|que te vaya bien)\b/,
  /\b(au revoir|a bientot|a plus|a demain|bonne (journee|soiree|nuit)|je dois (y aller|partir)|adieu)\b/,
  /\b(tschuss|auf wiedersehen|bis (bald|spater|morgen|dann)|mach'?s gut|gute nacht|(einen )?schonen (tag|abend|feierabend|wochenende)( noch)?|ich muss los)\b/,
  /\b(arrivederci|ciao ciao|a presto|a dopo|ci vediamo|buona ?notte|buona (giornata|serata)|devo andare|addio)\b/,
  /\b(tchau|ate (logo|mais|breve|amanha)|adeus|boa noite|tenho que ir|falou)\b/,
);
const isThanks = any(
  /(谢谢|多谢|感谢|谢啦|辛苦了|这很有用|很有帮助|帮了大忙)/,
  /\b(thanks?( you| a lot| so much)?|thank u|thx|ty|cheers|much appreciated|(i )?appreciate (it|that|your help)|(that|this) (was|is|'s) (very |really |so |super )?(helpful|useful|great|perfect|awesome|kind of you|interesting))\b/,
  /\b(gracias|te lo agradezco|muy amable|(fue|eso fue|muy) util)\b/,
  /\b(merci|je (te|vous) remercie|c'est (tres )?gentil|(c'etait|c'est) (tres |vraiment )?utile)\b/,
  /\b(danke( schon)?|dankeschon|vielen dank|besten dank|ich danke (dir|ihnen)|das war (sehr |wirklich )?hilfreich)\b/,
  /\b(grazie|ti ringrazio|molto gentile|(e stato|molto) utile)\b/,
  /\b(obrigad[oa]|valeu|agradeco|brigad[oa]|foi (muito )?util|muito gentil)\b/,
);
const isGreeting = any(
  /^(你好|您好|嗨|哈喽|早上好|下午好|晚上好)/,
  /^(hi|hello|hey|hiya|howdy|greetings|good (morning|afternoon|evening)|hola|buenos dias|buenas( tardes| noches)?|bonjour|bonsoir|salut|hallo|guten (tag|morgen|abend)|servus|ciao|buongiorno|buonasera|ola|oi|bom dia|boa (tarde|noite))\b/,
);
const isHowAreYou = any(
  /(你好吗|您好吗|最近怎么样|你怎么样|过得怎么样|今天怎么样|最近好吗|你还好吗|一切都好吗)/,
  /\bhow (are|r) (you|u)\b|\bhow('s| is) (it going|your day|life|everything|things)\b|\bhow do you do\b|\bhow have you been\b|\bhow you doing\b|\bhow do you feel\b|\bwhat'?s up\b|^sup$|\bare you (ok|okay|well|doing well|good)$/,
  /\b(como estas|que tal|como te va|como va todo|como has estado|como andas|todo bien|como te encuentras)\b/,
  /\b(comment (ca va|allez vous|vas tu|tu vas)|ca va|tu vas bien|quoi de neuf|la forme)\b/,
  /\b(wie geht'?s|wie geht es (dir|ihnen)|wie gehts|alles gut|wie lauft'?s|was gibt'?s neues|geht'?s dir gut)\b/,
  /\b(come stai|come va|tutto bene|come te la passi|come sta|che si dice)\b/,
  /\b(como (vai|voce esta|esta|tem passado)|tudo (bem|bom|certo)|e ai|beleza)\b/,
);
const isAskName = any(
  /(你叫什么|你的名字|您贵姓|怎么称呼|你叫啥|你有名字吗)/,
  /\b(what('s| is) your name|your name|what (should|do|can) i call you|how should i call you|do you have a name|what are you called)\b/,
  /\b(como te llamas|cual es tu nombre|tu nombre|como debo llamarte|como se llama usted|tienes (un )?nombre)\b/,
  /\b(comment (tu t'appelles|t'appelles tu|vous appelez vous)|quel est (ton|votre) nom|c'est quoi ton nom|ton nom|tu t'appelles comment)\b/,
  /\b(wie heisst du|wie heissen sie|was ist dein name|wie ist (dein|ihr) name|dein name|wie soll ich dich nennen|hast du einen namen|du heisst wie)\b/,
  /\b(come ti chiami|qual e il tuo nome|il tuo nome|come si chiama|come posso chiamarti|hai un nome)\b/,
  /\b(qual (e )?(o )?seu nome|como (voce )?se chama|como te chamas|seu nome|voce tem (um )?nome|como posso te chamar)\b/,
);
const isAboutSelf = any(
  /(你是谁|您是谁|介绍一下你自己|介绍一下自己|介绍你自己|自我介绍|说说你自己|讲讲你自己|你是什么|你是机器人吗|你是人吗|跟我说说你|我在和谁说话)/,
  /\b(who (are|r) (you|u)|who is this|who am i (talking|speaking) (to|with)|tell me (a (bit|little) |something )?about (yourself|you)|introduce yourself|describe yourself|what are you$|are you (a |an )?(bot|robot|human|real|ai|person))\b/,
  /\b(quien eres|quien es usted|hablame (de|sobre) ti|cuentame (sobre|de) ti|presentate|que eres|eres (un |una )?(robot|bot|humano|humana|real|ia)|describete|con quien hablo)\b/,
  /\b(qui es tu|qui etes vous|parle(z)? moi de (toi|vous)|presente(z)? (toi|vous)|qu'est ce que tu es|tu es (un |une )?(robot|humain|humaine|bot|ia)|decris toi|a qui je parle)\b/,
  /\b(wer bist du|wer sind sie|erzahl(en sie)? (mir |mal )*(was |etwas )?(von|uber) (dir|dich|sich)|stell(en sie)? (dich|sich) (bitte )?vor|was bist du|bist du (ein |eine )?(roboter|mensch|bot|ki)|beschreib dich|mit wem spreche ich)\b/,
  /\b(chi sei|chi e lei|parlami di te|raccontami di te|presentati|cosa sei|sei (un |una )?(robot|umano|umana|bot|ia)|descriviti|con chi sto parlando|dimmi qualcosa (di|su) te)\b/,
  /\b(quem (e|es) (voce|tu|vc)|fal[ae] (sobre|de) voce|me fal[ae] (sobre|de) voce|(se )?apresente( se)?|o que e voce|voce e (um |uma )?(robo|humano|humana|bot|ia)|com quem estou falando|me conta sobre voce|conte me sobre voce)\b/,
);
const isRole = any(
  /(你是做什么的|你做什么工作|你的工作是什么|你是干什么的|你干什么的|你是干嘛的|你的职业|你的角色|你的职责|你在哪里工作)/,
  /\bwhat (exactly )?do you do( for (a living|work))?( here| exactly)?$|\bwhat('s| is) your (job|role|purpose|occupation|profession|work|line of work)\b|\bwhat are you for\b|\bwhat do you work( as)?\b|\bwhere do you work\b|\bwhat kind of work\b/,
  /\b(a que te dedicas|que haces( aqui)?$|cual es tu (trabajo|funcion|profesion|rol|oficio)|en que trabajas|de que trabajas|para que sirves)\b/,
  /\b(que fais tu|qu'est ce que (tu fais|vous faites)|tu fais quoi|vous faites quoi|que faites vous|quel est (ton|votre) (metier|travail|role|job)|tu travailles dans quoi|dans quoi tu travailles)\b/,
  /\b(was machst du|was machen sie|was ist (dein|ihr) (beruf|job)|was ist deine (aufgabe|rolle)|was arbeitest du|als was arbeitest du|wo arbeitest du)\b/,
  /\b(cosa fai|che lavoro fai|qual e il tuo (lavoro|ruolo|mestiere)|di cosa ti occupi|che fai|che mestiere fai|dove lavori)\b/,
  /\b(o que (e que )?voce faz|qual (e )?(o )?seu (trabalho|papel|emprego|oficio|cargo)|qual (e )?a sua (funcao|profissao)|qual sua profissao|com o que voce trabalha|voce trabalha com o que|onde voce trabalha)\b/,
);
const isStory = any(
  /(讲讲你的故事|说说你的故事|你的故事|讲讲你的经历|说说你的过去|说说你的生活|你的经历)/,
  /\b(tell me (more|everything) about (you|yourself|your life)|tell me (about )?your (life )?story|what'?s your (back)?story|tell me about your (life|past|background|history|childhood)|tell me more)\b/,
  /\b(cuentame tu historia|cuentame (mas|todo) (sobre|de) ti|cual es tu historia|cuentame (de|sobre) tu (vida|pasado))\b/,
  /\b(raconte (moi )?ton histoire|raconte moi (ta vie|tout)|quelle est ton histoire|parle moi de ton passe)\b/,
  /\b(erzahl (mir )?deine geschichte|was ist deine geschichte|erzahl mir (mehr|alles) (von|uber) dich|erzahl mir von deinem leben)\b/,
  /\b(raccontami la tua storia|qual e la tua storia|raccontami (di piu|tutto) (su di te|di te)|raccontami della tua vita)\b/,
  /\b(qual e a sua historia|me conta (mais|tudo) sobre voce|conte (a )?sua historia|me fala da sua vida)\b/,
);
/** "Tell me a story (about a cat)": a story, not the persona's life. */
const isTale = any(
  /(讲(一)?个.{0,10}故事|给我讲.{0,10}故事|说个故事|来个故事|讲故事)/,
  /\b((tell|read|make up|share|give|write) (me |us )?(a |an |another |one more )?((long|short|little|good|nice|interesting|funny|quick|bedtime|fun|true) )*(story|tale)|(know|have|got) any (good )?stories|story time)\b/,
  /\b((cuentame|cuentanos|contame|cuenta|me cuentas|narrame|dime) (una|un|otra|otro) ((corta|pequena|breve|larga|bonita) )?(historia|cuento|historieta)|(sabes|tienes) (alguna|algun) (historia|cuento))\b/,
  /\b((raconte(z)?|dis) (moi |nous )?(une|un) ((petite|courte|longue|belle) )?(histoire|conte)|tu (connais|as) une histoire)\b/,
  /\b((erzahl(e|en sie)?|lies) (mir |uns )?(mal )?(eine|ein) ((kurze|kleine|lange|lustige|schone) )?(geschichte|marchen)|(kennst|weisst) du eine geschichte)\b/,
  /\b((raccontami|raccontaci|racconta(mi)?|dimmi) (una|un) ((breve|piccola|lunga|bella) )?(storia|favola|racconto)|(conosci|sai) una storia)\b/,
  /\b(((me )?conta|conte( me)?|me conte|conta( me)?) (uma|um) ((pequena|curta|longa) )?(historia|historinha|conto)|(sabe|conhece) (uma|alguma) historia)\b/,
);
const isJoke = any(
  /(讲(个|一个)?笑话|说(个|一个)?笑话|来个笑话|逗我笑|笑话)/,
  /\b((tell|say|share) (me |us )?(a |another |one more |your best )?((good|funny|short|bad|dad) )*joke|(know|have|got) any (good )?jokes|make me laugh|say something funny|be funny)\b/,
  /\b((cuentame|dime|cuenta(me)?) (un|otro) chiste|(sabes|conoces) (algun|un) chiste|hazme reir|dime algo gracioso)\b/,
  /\b((raconte(z)?|dis) (moi )?une (autre )?blague|tu connais une blague|fais moi rire|dis moi quelque chose de drole)\b/,
  /\b((erzahl|sag) (mir )?(mal )?(einen|noch einen) witz|kennst du einen witz|bring mich zum lachen)\b/,
  /\b((raccontami|dimmi|racconta(mi)?) (una|un'|un) (altra )?(barzelletta|battuta)|(conosci|sai) (una )?barzellett[ae]|fammi ridere)\b/,
  /\b(((me )?conta|conte( me)?|me conte|me diga|diga) (uma|outra) piada|(sabe|conhece) (uma|alguma) piada|me faz rir|me faca rir)\b/,
);
const SMALL_TALK: [SmallTalk, (t: string) => boolean][] = [
  [
    'met',
    any(
      /(很高兴认识你|认识你很高兴|幸会)/,
      /^((it'?s )?(very |so )?(nice|good|great|pleased|glad) (to meet|meeting) you( too)?|pleasure to meet you|likewise)\b/,
      /^(encantad[oa]( de conocerte)?|mucho gusto|un placer( conocerte)?)\b/,
      /^(enchante(e)?|ravi(e)? de (te|vous) (connaitre|rencontrer))\b/,
      /^(freut mich( dich kennenzulernen)?|schon dich kennenzulernen|sehr erfreut)\b/,
      /^(piacere( di conoscerti)?|lieto di conoscerti|molto piacere)\b/,
      /^(prazer( em (te )?conhecer( voce)?)?|muito prazer)\b/,
    ),
  ],
  [
    'fine',
    any(
      /^(我很好|我还好|我挺好|还不错|我也很好)/,
      /^(i'?m|i am) (fine|good|great|well|ok|okay|alright|doing (well|good|great|fine)|not bad)\b|^(not bad|pretty good|all good|doing (well|good|great|fine))\b/,
      /^(estoy (bien|muy bien)|todo bien por aqui)\b/,
      /^(je vais (bien|tres bien)|ca va bien|pas mal)\b/,
      /^(mir geht'?s gut|mir geht es (gut|sehr gut)|ganz gut)\b/,
      /^(sto (bene|benissimo)|tutto bene qui)\b/,
      /^(estou (bem|otimo|otima)|tudo bem por aqui|tudo otimo)\b/,
    ),
  ],
  [
    'sorry',
    any(
      /^(对不起|不好意思|抱歉)/,
      /^(sorry|i'?m sorry|my bad|oops|apologies|excuse me)\b/,
      /^(lo siento|perdon|perdona|disculpa)\b/,
      /^(desole(e)?|pardon|excuse(z)? moi)\b/,
      /^(entschuldigung|entschuldige|tut mir leid|sorry)\b/,
      /^(scusa(mi)?|mi dispiace|perdonami)\b/,
      /^(desculpa|desculpe|foi mal|perdao)\b/,
    ),
  ],
  [
    'compliment',
    any(
      /^(你真棒|你真好|你很厉害|你好聪明|我喜欢你)/,
      /^(you'?re|you are) (so |very |really )?(great|awesome|amazing|funny|smart|clever|nice|kind|cool|helpful|the best|wonderful|brilliant)\b|^i like you\b/,
      /^(eres (muy )?(genial|increible|divertid[oa]|list[oa]|amable|simpatic[oa])|me caes bien)\b/,
      /^(tu es (trop |tres |vraiment )?(genial|geniale|super|drole|gentil|gentille|intelligent|intelligente)|je t'aime bien)\b/,
      /^(du bist (so |echt |wirklich )?(toll|super|lustig|klug|nett|cool|klasse)|ich mag dich)\b/,
      /^(sei (molto |davvero )?(fantastic[oa]|brav[oa]|simpatic[oa]|gentile|divertente|intelligente)|mi piaci)\b/,
      /^(voce e (muito )?(otim[oa]|incrivel|legal|engracad[oa]|inteligente|gentil)|gostei de voce)\b/,
    ),
  ],
  [
    'ok',
    any(
      /^(好的|好吧|明白了|知道了|嗯|行|没问题|不错)$/,
      /^(ok|okay|k|cool|great|awesome|nice|perfect|i see|got it|alright|all right|sure|fine|good|wow|interesting|sounds good|makes sense|fair enough|no problem|understood|right|yes|yeah|yep|no|nope)( then| thanks?)?$/,
      /^(vale|genial|perfecto|entiendo|entendido|claro|de acuerdo|bueno|ya veo|si|no|bien|muy bien)$/,
      /^(d'accord|ok|super|parfait|je vois|compris|entendu|bien|tres bien|oui|non|cool)$/,
      /^(ok|okay|alles klar|verstanden|super|toll|prima|gut|sehr gut|ja|nein|aha|ach so|perfekt)$/,
      /^(va bene|ok|capito|ho capito|perfetto|certo|bene|benissimo|si|no|ottimo)$/,
      /^(beleza|ok|entendi|certo|perfeito|otimo|legal|sim|nao|ta bom|show|bem|muito bem)$/,
    ),
  ],
];

/** "And you?" after the user's own "I'm fine": the how-are-you asked back. */
const isAndYou = any(
  /^(你呢|您呢)/,
  /^((and|what about|how about) (you|yourself|u)|you)$/,
  // (" and " cuts a clause: "Et toi ?" reaches here as "toi".)
  /^((y )?(tu|usted)|y a ti)$/,
  /^(et )?(toi|vous)$/,
  /^((und )?(dir|ihnen)|und du|und bei dir)$/,
  /^(e )?(tu|lei|a te)$/,
  /^(e )?(voce|vc)$/,
);

/** A question is being asked: a courtesy word does not make the turn a courtesy. */
const ASKS = (text: string, t: string) =>
  /[?？]/.test(text) ||
  /^(what|where|when|who|why|how|which|que|donde|como|quien|ou|comment|pourquoi|quand|wo|wie|warum|wann|dove|perche|cosa|onde|quando)\b/.test(
    t,
  ) ||
  /\b(can you|could you|would you|do you|are you|tell me|est ce que|kannst du|konnen sie|puoi|pode|puedes|peux tu|pouvez vous)\b/.test(
    t,
  );

const isAskUserName = any(
  /(我叫什么|我的名字是什么)/,
  /\b(what('s| is) my name|do you (know|remember) my name|who am i$|como me llamo|comment je m'appelle|wie heisse ich|come mi chiamo|qual e (o )?meu nome)\b/,
);
const isAbilities = any(
  /(你能做什么|你会做什么|你能帮我什么|你可以做什么|你会什么|你能帮我吗|我可以问你什么|你有什么功能|你擅长什么|你可以帮我什么)/,
  /\b(what can you do|what can i ask( you)?|what do you know|how can you help( me)?|what can you help (me )?with|what are you able to do|what are you good at|what are your (skills|capabilities|abilities)|can you help me|help me|what (kind of )?(questions|things|topics) can (you answer|i ask|we (talk|chat) about|you (talk|chat) about)|what can we (talk|chat) about|what should i ask)\b|^help$/,
  /\b(que puedes hacer|en que (me )?puedes ayudar|como (me )?puedes ayudar|que sabes hacer|que (te )?puedo preguntar(te)?|de que podemos hablar|puedes ayudarme)\b/,
  /\b(que sais tu faire|qu'est ce que tu (sais|peux) faire|que peux tu faire|que pouvez vous faire|comment (peux tu|pouvez vous) m'aider|tu peux m'aider|que puis je te demander|de quoi (peut on|pouvons nous) parler)\b/,
  /\b(was kannst du|was konnen sie|wie kannst du (mir )?helfen|wobei kannst du (mir )?helfen|was kann ich dich fragen|kannst du mir helfen|woruber konnen wir (reden|sprechen))\b/,
  /\b(cosa sai fare|cosa puoi fare|come puoi aiutarmi|in cosa puoi aiutarmi|puoi aiutarmi|cosa posso chiederti|di cosa possiamo parlare)\b/,
  /\b(o que voce (pode|sabe) fazer|como voce pode (me )?ajudar|pode me ajudar|em que voce pode me ajudar|o que posso te perguntar|sobre o que podemos conversar)\b/,
);
const isMemory = any(
  /\b(what do you (remember|know) about me|do you remember me|what did i tell you)\b/,
);

/** Matched on the original text, so the name keeps its capitals and accents. */
const TELL_NAME =
  /(?:^|[^\p{L}])(?:my name is|my name['’]s|call me|me llamo|je m['’]appelle|ich hei(?:ss|ß)e|mi chiamo|meu nome [eé])\s+(\p{L}[\p{L}'’-]*)/iu;

export function classify(text: string): Intent {
  const t = fold(text);
  const n = t ? t.split(' ').length : 0;
  // A courtesy wins over the words around it ("Thank you very much for your help."), unless
  // the turn also asks something ("thanks, and where do you work?" is cut into clauses).
  const courteous = n <= 6 || (n <= 16 && !ASKS(text, t));
  if (isGoodbye(t) && courteous) return { kind: 'goodbye' };
  if (isThanks(t) && courteous) return { kind: 'thanks' };
  const told = TELL_NAME.exec(text);
  if (told)
    return { kind: 'tell_user_name', user: told[1].charAt(0).toUpperCase() + told[1].slice(1) };
  if (isAskUserName(t)) return { kind: 'ask_user_name' };
  if (isMemory(t)) return { kind: 'memory' };
  if (isAskName(t)) return { kind: 'ask_name' };
  if (isJoke(t)) return { kind: 'joke' };
  if (isStory(t)) return { kind: 'story' };
  if (isTale(t)) return { kind: 'tale', subject: taleSubject(text) };
  if (isAboutSelf(t)) return { kind: 'about_self' };
  if (isRole(t)) return { kind: 'role' };
  if (isHowAreYou(t)) return { kind: 'how_are_you' };
  if (isAbilities(t)) return { kind: 'abilities' };
  if (isGreeting(t) && n <= 4) return { kind: 'greeting' };
  if (isAndYou(t)) return { kind: 'how_are_you' };
  if (n <= 8)
    for (const [about, test] of SMALL_TALK) if (test(t)) return { kind: 'small_talk', about };
  return { kind: 'question' };
}

/** What a story is to be about, in the user's words ("a cat"), or null. */
const TALE_SUBJECT = [
  /关于(.{1,12}?)的故事/u,
  /讲(?:一)?个(.{1,10}?)的故事/u,
  /\b(?:story|tale)(?:\s+\p{L}+){0,2}?\s+(?:about|of|with|featuring|involving)\s+(.+)$/iu,
  /\b(?:historia|cuento)(?:\s+\p{L}+){0,2}?\s+(?:sobre|acerca de|de|con)\s+(.+)$/iu,
  /\b(?:histoire|conte)(?:\s+\p{L}+){0,2}?\s+(?:sur|à propos d['’]|avec|d['’]|de)\s*(.+)$/iu,
  /\b(?:geschichte|märchen)(?:\s+\p{L}+){0,2}?\s+(?:über|von|mit)\s+(.+)$/iu,
  /\b(?:storia|favola|racconto)(?:\s+\p{L}+){0,2}?\s+(?:su|sul|sulla|sullo|di|con)\s+(.+)$/iu,
  /\b(?:história|historia|conto)(?:\s+\p{L}+){0,2}?\s+(?:sobre|de|com)\s+(.+)$/iu,
];
function taleSubject(text: string): string | null {
  for (const re of TALE_SUBJECT) {
    const m = re.exec(text.trim());
    if (m) {
      const subject = m[1]!.replace(/[.!?。！？,，]+$/u, '').trim();
      if (subject && subject.length <= 60) return subject;
    }
  }
  return null;
}

/** A clause that only says please. */
const POLITE = /^(please|pls|por favor|s'il (te|vous) plait|bitte|per favore|请|麻烦你)$/;

/** Where one question becomes several: sentence ends, commas, "and" in each language. */
const CLAUSE =
  /[?!.;:。？！；，,]+|\s+(?:and|also|plus|y|et|und|e|ed|und auch)\s+|还有|另外|以及/iu;

/**
 * Every intent of a turn, in the order asked ("What is your name and what do you do?" is
 * ask_name, then role). The turn is cut into clauses and each is classified; a clause that is
 * only a question keeps its text for retrieval. A greeting beside anything else is dropped
 * (the answer is the greeting back). When no clause has an intent of its own, the whole
 * turn is one question (retrieval reads it whole).
 */
export function classifyAll(text: string): Intent[] {
  const whole = classify(text);
  const clauses = text
    .split(CLAUSE)
    .map((c) => c.trim())
    .filter((c) => fold(c));
  if (clauses.length < 2) return [whole];
  const out: Intent[] = [];
  for (const c of clauses) {
    if (POLITE.test(fold(c))) continue;
    const i = classify(c);
    if (i.kind === 'question') out.push({ kind: 'question', text: c });
    else if (!out.some((o) => o.kind === i.kind)) out.push(i);
  }
  // "Sorry, what was your name again?", "Ok, and where do you work?": an aside beside a
  // question is not answered on its own; "I'm fine, thanks, and you?" is not gratitude.
  const aside = (i: Intent) =>
    i.kind === 'greeting' ||
    (i.kind === 'small_talk' && (i.about === 'sorry' || i.about === 'ok')) ||
    // "I'm fine, and you?": the answer is how the persona is (one question back, not two).
    (i.kind === 'small_talk' && i.about === 'fine' && out.some((o) => o.kind === 'how_are_you')) ||
    (i.kind === 'thanks' && out.some((o) => o.kind === 'small_talk' && o.about === 'fine'));
  const own = out.filter((i) => i.kind !== 'question' && !aside(i));
  if (own.length === 0) return [whole.kind === 'question' ? { kind: 'question', text } : whole];
  // Question clauses beside an intent: kept when they have words enough to look something up.
  // (Chinese has no spaces: two characters count as a word.)
  const size = (t: string) =>
    fold(t).split(' ').length + (t.match(/\p{Script=Han}/gu)?.length ?? 0) / 2;
  return out.filter((i) => !aside(i) && (i.kind !== 'question' || size(i.text ?? '') >= 3));
}

/** The name a user gave earlier in the conversation ("my name is Sam"), latest first. */
export function userNameFrom(userTurns: string[]): string | null {
  for (let i = userTurns.length - 1; i >= 0; i--) {
    const c = classify(userTurns[i]);
    if (c.kind === 'tell_user_name') return c.user;
  }
  return null;
}
