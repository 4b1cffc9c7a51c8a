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
  | { kind: 'ask_user_name' }
  | { kind: 'tell_user_name'; user: string }
  | { kind: 'abilities' }
  | { kind: 'memory' }
  | { kind: 'question' };

const fold = (s: string) =>
  s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/[’`]/g, "'").replace(/[^\p{L}\p{N}' ]+/gu, ' ').replace(/\s+/g, ' ').trim();

const any = (...res: RegExp[]) => (t: string) => res.some((r) => r.test(t));

const isGoodbye = any(/(再见|拜拜)/, /\b(good ?bye|bye|farewell|see you( later| soon)?|adios|hasta luego|au revoir|a bientot|tschuss|auf wiedersehen|arrivederci|tchau|ate logo)\b/);
const isThanks = any(/(谢谢|多谢)/, /\b(thanks?( you)?|thank u|cheers|gracias|merci|danke|grazie|obrigad[oa])\b/);
const isGreeting = any(/^(你好|您好|嗨|哈喽|早上好|下午好|晚上好)/, /^(hi|hello|hey|hiya|howdy|greetings|good (morning|afternoon|evening)|hola|buenos dias|buenas( tardes| noches)?|bonjour|bonsoir|salut|hallo|guten (tag|morgen|abend)|servus|ciao|buongiorno|buonasera|ola|oi|bom dia|boa (tarde|noite))\b/);
const isHowAreYou = any(/(你好吗|您好吗|最近怎么样|你怎么样)/, /\bhow are (you|u)\b|\bhow('s| is) it going\b|\bhow do you do\b|\bcomo estas\b|\bque tal\b|\bcomment (ca va|allez vous)\b|\bwie geht('s| es)?\b|\bcome stai\b|\bcomo (vai|voce esta)\b/);
const isAskName = any(/(你叫什么|你的名字|您贵姓)/, /\b(what('s| is) your name|your name|como te llamas|comment (tu t'appelles|vous appelez vous)|wie heisst du|come ti chiami|qual e (o )?seu nome|como (voce )?se chama)\b/);
const isAboutSelf = any(/(你是谁|您是谁|介绍一下你自己|介绍你自己|说说你自己)/, /\b(who are you|tell me about yourself|introduce yourself|quien eres|hablame de ti|qui es tu|parle moi de toi|wer bist du|erzahl (mir )?von dir|chi sei|parlami di te|quem e voce|fale sobre voce)\b/);
const isAskUserName = any(/(我叫什么|我的名字是什么)/, /\b(what('s| is) my name|do you (know|remember) my name|who am i|como me llamo|comment je m'appelle|wie heisse ich|come mi chiamo|qual e (o )?meu nome)\b/);
const isAbilities = any(/(你能做什么|你会做什么|你能帮我什么)/, /\b(what can you do|what can i ask( you)?|what do you know|how can you help|what are you able to do|help me|que puedes hacer|que sais tu faire|was kannst du|cosa sai fare|o que voce pode fazer)\b|^help$/);
const isMemory = any(/\b(what do you (remember|know) about me|do you remember me|what did i tell you)\b/);

/** Matched on the original text, so the name keeps its capitals and accents. */
const TELL_NAME = /(?:^|[^\p{L}])(?:my name is|my name['’]s|call me|me llamo|je m['’]appelle|ich hei(?:ss|ß)e|mi chiamo|meu nome [eé])\s+(\p{L}[\p{L}'’-]*)/iu;

export function classify(text: string): Intent {
  const t = fold(text);
  const n = t ? t.split(' ').length : 0;
  if (isGoodbye(t) && n <= 6) return { kind: 'goodbye' };
  if (isThanks(t) && n <= 6) return { kind: 'thanks' };
  const told = TELL_NAME.exec(text);
  if (told) return { kind: 'tell_user_name', user: told[1].charAt(0).toUpperCase() + told[1].slice(1) };
  if (isAskUserName(t)) return { kind: 'ask_user_name' };
  if (isMemory(t)) return { kind: 'memory' };
  if (isAskName(t)) return { kind: 'ask_name' };
  if (isAboutSelf(t)) return { kind: 'about_self' };
  if (isHowAreYou(t)) return { kind: 'how_are_you' };
  if (isAbilities(t)) return { kind: 'abilities' };
  if (isGreeting(t) && n <= 4) return { kind: 'greeting' };
  return { kind: 'question' };
}

/** The name a user gave earlier in the conversation ("my name is Sam"), latest first. */
export function userNameFrom(userTurns: string[]): string | null {
  for (let i = userTurns.length - 1; i >= 0; i--) {
    const c = classify(userTurns[i]);
    if (c.kind === 'tell_user_name') return c.user;
  }
  return null;
}
