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
  | { kind: 'ask_user_name' }
  | { kind: 'tell_user_name'; user: string }
  | { kind: 'abilities' }
  | { kind: 'memory' }
  | { kind: 'question'; text?: string };

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
  /\b(tschuss|auf wiedersehen|bis (bald|spater|morgen|dann)|mach'?s gut|gute nacht|schonen tag( noch)?|ich muss los)\b/,
  /\b(arrivederci|ciao ciao|a presto|a dopo|ci vediamo|buona ?notte|buona (giornata|serata)|devo andare|addio)\b/,
  /\b(tchau|ate (logo|mais|breve|amanha)|adeus|boa noite|tenho que ir|falou)\b/,
);
const isThanks = any(
  /(谢谢|多谢|感谢|谢啦|辛苦了)/,
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
  /\b(wie geht'?s|wie geht es (dir|ihnen)|wie gehts|alles (gut|klar)|wie lauft'?s|was gibt'?s neues|geht'?s dir gut)\b/,
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
  /(讲个故事|讲一个故事|给我讲个故事|讲讲你的故事|说说你的故事|长故事|你的故事|讲讲你的经历|说说你的过去|讲个长一点的故事)/,
  /\b(tell (me |us )?(a |an |another )?((long|short|little|good|nice|interesting) )*story|tell me (more|everything) about (you|yourself|your life)|tell me (about )?your (life )?story|what'?s your (back)?story|tell me about your (life|past|background|history|childhood)|tell me more)\b/,
  /\b(cuentame (una|un) (historia|cuento)|cuentame tu historia|cuentame (mas|todo) (sobre|de) ti|cual es tu historia|cuentame (de|sobre) tu (vida|pasado)|cuenta(me)? una historia)\b/,
  /\b(raconte(z)? (moi )?une (longue |petite )?histoire|raconte (moi )?ton histoire|raconte moi (ta vie|tout)|quelle est ton histoire|parle moi de ton passe)\b/,
  /\b(erzahl (mir )?eine (lange |kurze )?geschichte|erzahl (mir )?deine geschichte|was ist deine geschichte|erzahl mir (mehr|alles) (von|uber) dich|erzahl mir von deinem leben)\b/,
  /\b(raccontami una storia|racconta(mi)? una storia|raccontami la tua storia|qual e la tua storia|raccontami (di piu|tutto) (su di te|di te)|raccontami della tua vita)\b/,
  /\b((me )?conta uma historia|conte me uma historia|me conte uma historia|qual e a sua historia|me conta (mais|tudo) sobre voce|conte (a )?sua historia|me fala da sua vida)\b/,
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
  if (isGoodbye(t) && n <= 6) return { kind: 'goodbye' };
  if (isThanks(t) && n <= 6) return { kind: 'thanks' };
  const told = TELL_NAME.exec(text);
  if (told)
    return { kind: 'tell_user_name', user: told[1].charAt(0).toUpperCase() + told[1].slice(1) };
  if (isAskUserName(t)) return { kind: 'ask_user_name' };
  if (isMemory(t)) return { kind: 'memory' };
  if (isAskName(t)) return { kind: 'ask_name' };
  if (isStory(t)) return { kind: 'story' };
  if (isAboutSelf(t)) return { kind: 'about_self' };
  if (isRole(t)) return { kind: 'role' };
  if (isHowAreYou(t)) return { kind: 'how_are_you' };
  if (isAbilities(t)) return { kind: 'abilities' };
  if (isGreeting(t) && n <= 4) return { kind: 'greeting' };
  return { kind: 'question' };
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
  const own = out.filter((i) => i.kind !== 'question' && i.kind !== 'greeting');
  if (own.length === 0) return [whole.kind === 'question' ? { kind: 'question', text } : whole];
  // Question clauses beside an intent: kept when they have words enough to look something up.
  // (Chinese has no spaces: two characters count as a word.)
  const size = (t: string) =>
    fold(t).split(' ').length + (t.match(/\p{Script=Han}/gu)?.length ?? 0) / 2;
  return out.filter(
    (i) => i.kind !== 'greeting' && (i.kind !== 'question' || size(i.text ?? '') >= 3),
  );
}

/** The name a user gave earlier in the conversation ("my name is Sam"), latest first. */
export function userNameFrom(userTurns: string[]): string | null {
  for (let i = userTurns.length - 1; i >= 0; i--) {
    const c = classify(userTurns[i]);
    if (c.kind === 'tell_user_name') return c.user;
  }
  return null;
}
