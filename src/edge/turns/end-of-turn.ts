/**
 * Semantic end of turn (issue 30 item 3): how long the silence after the user's last speech
 * frame must last before the utterance ends, from the words a streaming recogniser heard up
 * to that silence.
 *
 * - `completeness(words, lang)`: a pure judgement of the words so far. `incomplete` when they
 *   end on a conjunction ("and", "because", "so"), a filler ("um", "uh"), an article or a
 *   possessive ("the", "my"), a preposition, or a question word with its verb and nothing
 *   after ("what is"), and in English on what leaves a sentence open (`englishGoesOn`: "can
 *   you", "my name is", "i want", "do you know"); `complete` when they are two words or more otherwise, or one word that stands alone
 *   ("yes", "thanks", "hello"); `unknown` for anything else (one other word, no words, a
 *   language without lists).
 * - `EndOfTurnRule`: the wait the utterance detector asks for at each silent frame. Words
 *   count only when they were heard after the last speech frame (a streaming recogniser's
 *   partial for the whole utterance so far, printed once it heard the pause); words heard
 *   before it may miss what was said since, so they count as none. Complete words end the
 *   turn after `completeMs`; incomplete ones hold it up to `incompleteMs` (a pause to think
 *   mid-sentence does not end it); no fresh words, or unknown ones, wait the plain
 *   `hangoverMs`, as before this rule. So a recogniser without partials (`--asr-url`, the
 *   batch form, none) changes nothing. Times are frame counts of the mic stream
 *   (utterance-detector.ts), never a wall clock.
 * Numbers and why: docs/turns.md "End of turn".
 */
export type Completeness = 'complete' | 'incomplete' | 'unknown';

interface WordLists {
  /** A turn ending on one of these goes on: conjunctions, fillers, articles, possessives. */
  continues: ReadonlySet<string>;
  /** Question words: "what is" with nothing after goes on. */
  question: ReadonlySet<string>;
  /** Verbs that follow a question word ("what is", "where do"). */
  auxiliary: ReadonlySet<string>;
  /** One word that is a whole turn. */
  alone: ReadonlySet<string>;
  /** Two words or more that still go on though no single last word says so (English: `englishGoesOn`). */
  goesOn?: (words: string[], lists: WordLists) => boolean;
}

const set = (words: string) => new Set(words.split(/\s+/).filter(Boolean));

/**
 * English first (the language of the streaming recogniser), then the other languages the
 * brain speaks (src/models/brain/language.ts) with their obvious conjunctions and fillers.
 * Chinese has none: it is written without spaces and no recogniser here streams it, so a
 * Chinese turn always waits the plain hangover.
 */
const LISTS: Record<string, WordLists> = {
  en: {
    continues: set(`and or but so because cause cuz if while although unless until than
      whether nor plus um uh uhm erm er ah hmm mm the a an my your our their to`),
    question: set('what where who when why how which whose whom'),
    auxiliary: set(`is are was were am do does did can could would should will shall may might
      have has had i'm what's where's who's how's`),
    alone: set(`yes yeah yep no nope hello hi hey thanks okay ok bye goodbye sure right great
      fine cool please sorry pardon`),
    goesOn: englishGoesOn,
  },
  es: {
    continues: set(`y e o u pero porque que si cuando aunque pues entonces como eh em este
      bueno el la los las un una mi tu su nuestro de a en con para por muy sobre desde hasta
      sin hacia entre`),
    question: set('qué que dónde donde quién quien cuándo cuando por cómo como cuál cual'),
    auxiliary: set('es son está están era fue puedes puede eres'),
    alone: set('sí si no hola gracias vale adiós claro bueno perdón'),
  },
  fr: {
    continues: set(`et ou mais donc parce car si quand lorsque comme que puis alors euh heu
      ben bah le la les un une des du de mon ma mes ton ta tes son sa ses notre votre à au en
      avec pour par très sur sans chez dans vers entre`),
    question: set('que quoi où qui quand pourquoi comment quel quelle quels quelles'),
    auxiliary: set('est sont était es êtes as avez peux pouvez'),
    alone: set("oui non bonjour salut merci ok daccord d’accord d'accord pardon bien"),
  },
  de: {
    continues: set(`und oder aber also weil denn dass wenn ob als obwohl sondern äh ähm öhm
      hm der die das den dem des ein eine einen einem mein meine dein deine sein seine unser
      zu mit für von auf in an sehr über bei nach aus ohne gegen`),
    question: set('was wo wer wann warum wie welche welcher welches woher wohin'),
    auxiliary: set('ist sind war bist kannst kann hast hat wird'),
    alone: set('ja nein hallo danke okay tschüss genau bitte klar gut'),
  },
  it: {
    continues: set(`e ed o oppure ma però perché quindi allora se quando mentre come che ehm
      eh cioè il lo la i gli le un uno una mio mia tuo tua suo sua di a da in con su per molto
      tra fra senza verso`),
    question: set('che cosa dove chi quando perché come quale quali quanto'),
    auxiliary: set('è sono era sei puoi può hai ha'),
    alone: set('sì si no ciao grazie ok bene prego scusa certo'),
  },
  pt: {
    continues: set(`e ou mas porque porquê que se quando embora como então pois tipo hum
      éé o a os as um uma meu minha teu tua seu sua nosso de do da em no na com para por
      muito sobre sem até desde entre`),
    question: set('que quê onde quem quando porque como qual quais quanto'),
    auxiliary: set('é são era foi está estás pode podes tem tens és'),
    alone: set('sim não olá oi obrigado obrigada ok tchau claro beleza'),
  },
};

/** English words that leave a sentence open (`englishGoesOn`). */
const EN = {
  prepositions: set('about with for of in on at from to into by'),
  /** Auxiliaries and modals that take a subject after them ("can you", "do i"). */
  modals: set('do does did can could would should will shall may might must'),
  copulas: set('is are am was were be been have has had'),
  subjects: set('i you we they he she it'),
  /** Verbs that want more after them ("i want", "i was wondering"). */
  wants: set('want wants wanted need needs like wonder wondering think hope hoping'),
  /** Verbs of an opener that take an object ("do you know", "can you tell me"). */
  objectVerbs: set('know tell show explain find get give help'),
  /** Of those, the ones that want more after "me"/"us" ("can you tell me", but "can you help me" is whole). */
  tellVerbs: set('tell show explain find get give'),
  objects: set('me us'),
};

/**
 * Whether two or more English words go on though their last word is not a conjunction: a
 * dangling preposition ("tell me about"; not in a question, "what are you talking about"), a
 * subject after an auxiliary ("can you", "where do you"), an auxiliary or copula at the end
 * ("my name is", "it was"; not "yes it is", "what do you do"), a verb that wants more ("i
 * want", "i would like"; not "what do you think"), or an opener on a verb that takes an
 * object ("do you know", "can you tell me"; not "can you help me").
 */
function englishGoesOn(words: string[], lists: WordLists): boolean {
  const last = words.at(-1)!;
  const before = words.at(-2)!;
  const first = words[0]!;
  const asks = lists.question.has(first);
  if (EN.prepositions.has(last) && !asks) return true;
  if (EN.subjects.has(last) && EN.modals.has(before)) return true;
  if (EN.modals.has(last) || EN.copulas.has(last))
    return !(EN.subjects.has(before) && (asks || lists.alone.has(first)));
  if (EN.wants.has(last) && !asks) return true;
  const opener = EN.modals.has(first) || first === 'please' || EN.tellVerbs.has(first);
  return opener && (EN.objectVerbs.has(last) || (EN.objects.has(last) && EN.tellVerbs.has(before)));
}

/** The words of a partial, lower-cased, without punctuation (pocketsphinx gives none; an upstream may). */
function wordsOf(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}'’\s-]/gu, ' ')
    .split(/\s+/)
    .filter(Boolean);
}

/** Whether the words heard so far end a turn (see the file's comment). `lang`: a BCP-47 tag or null (English). */
export function completeness(text: string, lang?: string | null): Completeness {
  const lists = LISTS[(lang ?? 'en').toLowerCase().split(/[-_]/)[0]!];
  if (!lists) return 'unknown';
  const words = wordsOf(text);
  const last = words.at(-1);
  if (!last) return 'unknown';
  if (lists.continues.has(last)) return 'incomplete';
  const before = words.at(-2);
  if (lists.auxiliary.has(last) && (before === undefined || lists.question.has(before)))
    return 'incomplete';
  if (words.length === 1) return lists.alone.has(last) ? 'complete' : 'unknown';
  return lists.goesOn?.(words, lists) ? 'incomplete' : 'complete';
}

export interface EndOfTurnTunables {
  /** Silence that ends a turn whose words are complete. */
  completeMs: number;
  /** Silence that ends a turn whose words end on "and", "um", ... (the longer bound). */
  incompleteMs: number;
}

export const END_OF_TURN_DEFAULTS: EndOfTurnTunables = {
  completeMs: 300,
  incompleteMs: 1_200,
};

/** What the utterance detector asks at each silent frame (utterance-detector.ts). */
export interface EndOfTurnPolicy {
  /** The silence, in ms, that ends the utterance now; `hangoverMs` is the plain VAD hangover. */
  waitMs(hangoverMs: number): number;
  /** A speech frame: words heard before it may miss what was just said. */
  speech(): void;
  /** An utterance starts or ends: its words are forgotten. */
  reset(): void;
}

/** The plain VAD hangover: the wait before this rule, and the rule without words. */
export const HANGOVER_ONLY: EndOfTurnPolicy = {
  waitMs: (hangoverMs) => hangoverMs,
  speech: () => undefined,
  reset: () => undefined,
};

export class EndOfTurnRule implements EndOfTurnPolicy {
  readonly tunables: EndOfTurnTunables;
  private judged: Completeness = 'unknown';
  private lang: string | null = null;

  constructor(tunables: Partial<EndOfTurnTunables> = {}) {
    this.tunables = { ...END_OF_TURN_DEFAULTS, ...tunables };
  }

  /** The session's language (the mic `hello`); null is English. */
  setLang(lang: string | null): void {
    this.lang = lang;
  }

  /** The words of the utterance so far, from a streaming recogniser. */
  heard(text: string): void {
    this.judged = completeness(text, this.lang);
  }

  speech(): void {
    this.judged = 'unknown';
  }

  reset(): void {
    this.judged = 'unknown';
  }

  waitMs(hangoverMs: number): number {
    if (this.judged === 'complete') return Math.min(this.tunables.completeMs, hangoverMs);
    if (this.judged === 'incomplete') return Math.max(this.tunables.incompleteMs, hangoverMs);
    return hangoverMs;
  }
}
