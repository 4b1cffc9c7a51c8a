/**
 * A backstory as the persona's own facts, one fact a passage, said in the first person
 * (issue 29 item 2). Backstories come as the persona speaking ("I grew up in Lisbon."), about
 * the persona ("Robin grew up in Lisbon, works at the city map museum, and has a cat called
 * Atlas."; "She ..."), as one long sentence, or as a list of notes ("- Pet: a cat called
 * Atlas"). The local brain answers one fact at a time, so each English sentence is:
 *
 * 1. cut into clauses where a comma or "and"/"but"/"then" is followed by a verb that shares
 *    the sentence's subject ("..., works at the museum, and has a cat") or by a new subject
 *    ("..., and she has a cat"); a leading "When/If/Because ..." part stays with its clause,
 *    and a list of things ("billing, passwords and subscriptions") is never cut;
 * 2. said in the first person when its subject is the persona: the name (or the name with an
 *    appositive: "Robin, 34, ..." gives "I am 34." too) or, right after a sentence about the
 *    persona, the persona's pronoun (he, she or they: the first one the backstory uses for
 *    it); the verb after the subject is put in the first person ("works" -> "work", "is" ->
 *    "am", "has" -> "have"), the name's possessive and the pronoun's forms become "my", "me",
 *    "mine", "myself" in that clause;
 * 3. a note "Label: value" becomes "My label is value." ("Pet: a cat called Atlas" -> "My pet
 *    is a cat called Atlas."), unless the value is a sentence of its own ("Backstory: I ...").
 *
 * A sentence about somebody else ("Her sister Ana is a doctor. She lives in Porto.") is left
 * as written. Other languages are split into sentences and notes only (their verbs are not
 * re-conjugated). Pure and deterministic; run once per session (knowledge.ts caches it).
 */
import { IRREGULAR } from './lexicon.js';
import { splitSentences } from './text.js';
import { textLanguage } from './text-language.js';

export interface BackstoryFacts {
  /** The persona's name as the backstory gives it ("Robin grew up ..."), or null. */
  name: string | null;
  /** The facts, in the backstory's order. */
  facts: string[];
}

/** Common English verbs (base forms), for "is this chunk a verb phrase?" and 3rd -> 1st person. */
const BASE_VERBS = new Set(
  (
    'be have do go work live love like enjoy hate prefer speak play teach run own make write study ' +
    'collect volunteer spend read cook bake paint sing travel walk ride grow help explain listen ' +
    'suggest stay say keep show host know take give get come see find leave meet build become win ' +
    'drive fly swim sell tell bring catch hold lose pay think buy begin use want need try move ' +
    'start open manage lead design develop create fix repair restore draw sail hike climb dance ' +
    'garden knit fish hunt sew brew care look guide support answer handle serve visit spend ' +
    'learn believe hope dream plan wear feel sleep eat drink raise adopt join retire marry ' +
    'graduate train coach mentor chat talk write walk sketch photograph film record compose ' +
    'organise organize run lives call name carry follow wish remember miss spend watch'
  ).split(/\s+/),
);
/** Past forms the backstory may use after a name ("Robin grew up ..."). */
const PAST = new Set([...Object.keys(IRREGULAR), 'was', 'were', 'had', 'did']);
const MODALS = new Set([
  'can',
  'could',
  'will',
  'would',
  'should',
  'may',
  'might',
  'must',
  "can't",
  'cannot',
  "won't",
  "couldn't",
  "wouldn't",
  'used',
]);
const ADVERBS = new Set(
  'also still now currently often always never usually sometimes really just rarely mostly once then later recently even happily proudly'.split(
    ' ',
  ),
);
/** A part that starts so is not a clause of its own: it goes with the next one. */
/** Words for people a possessive brings in ("her sister", "his wife"): a later pronoun may be theirs. */
const PEOPLE =
  /^(?:\w+\s+)?(?:sister|brother|mother|father|mum|mom|dad|parent|parents|wife|husband|partner|son|daughter|child|children|kids?|friend|friends|boss|colleague|colleagues|neighbou?r|cousin|aunt|uncle|grandmother|grandfather|grandparents|girlfriend|boyfriend|fianc[eé]e?|twin|family)\b/i;

const SUBORDINATE =
  /^(when|whenever|if|because|although|though|while|after|before|since|as|once|until|unless|whether)\b/i;
/** Labels that only say what follows is the backstory. */
const GENERIC_LABEL =
  /^(backstory|bio|biography|about|about me|background|persona|summary|profile|notes?|story|description|facts?|details?|info|information|character)$/i;
const LABELLED =
  /^(?!(?:I|I'm|my|we|he|she|they|you)\b)(\p{L}[\p{L}'-]*(?: [\p{L}'-]+){0,2})\s*:\s+(.+)$/iu;
/** A title before a name ("Dr. Priya Nair"). */
const TITLE = '(?:(?:Dr|Mr|Mrs|Ms|Mx|Prof|Sir|Dame|Captain|Capt)\\.?\\s+)?';
/** "Robin's a cartographer" (is), not "Robin's cat" (whose). */
const CONTRACTED_IS =
  /^['’]s\s+(a|an|the|been|got|not|always|never|from|in|at|on|very|so|still|also|currently|now|\p{L}+ing)\b/iu;
const BULLET = /^\s*(?:[-*•–]|\d+[.)])\s+/;

/** The 3rd-person singular form -> base form ("works" -> "work", "teaches" -> "teach", "studies" -> "study"). */
function baseOf3sg(w: string): string | null {
  const l = w.toLowerCase();
  if (l === 'is' || l === 'has' || l === 'does' || l === 'goes') return null;
  if (!l.endsWith('s') || l.endsWith('ss')) return null;
  const candidates = [l.slice(0, -1)];
  if (l.endsWith('ies')) candidates.unshift(`${l.slice(0, -3)}y`);
  if (/(ch|sh|x|z|o)es$/.test(l)) candidates.unshift(l.slice(0, -2));
  return candidates.find((c) => BASE_VERBS.has(c)) ?? null;
}

/** A word that can start a verb phrase: any person's form of a known verb, a past form, a modal. */
function isVerb(w: string | undefined): boolean {
  return isVerbForm(w);
}

/** A form of a known English verb (retrieval.ts leaves verbs out of the topics it offers). */
export function isVerbForm(w: string | undefined): boolean {
  if (!w) return false;
  const l = w.toLowerCase().replace(/[’]/g, "'");
  if (BASE_VERBS.has(l) || PAST.has(l) || MODALS.has(l)) return true;
  if (['is', 'are', 'am', 'has', 'does', 'goes', "isn't", "doesn't", "hasn't"].includes(l))
    return true;
  if (baseOf3sg(l)) return true;
  if (!/^[a-z]{3,}ed$/.test(l)) return false;
  // moved, worked, studied, stopped
  const stems = [l.slice(0, -1), l.slice(0, -2), `${l.slice(0, -3)}y`, l.slice(0, -3)];
  return stems.some((x) => BASE_VERBS.has(x));
}

const words = (s: string) => s.split(/\s+/).filter(Boolean);

/** The first word after the adverbs, and its index. */
function firstVerbAt(ws: string[], from: number): number {
  let i = from;
  while (i < ws.length && ADVERBS.has(ws[i]!.toLowerCase())) i++;
  return i;
}

type Pronoun = 'he' | 'she' | 'they';
const PRONOUN_FORMS: Record<Pronoun, Record<string, string>> = {
  he: { his: 'my', him: 'me', himself: 'myself' },
  she: { her: 'my', hers: 'mine', herself: 'myself' },
  they: { their: 'my', theirs: 'mine', them: 'me', themselves: 'myself', themself: 'myself' },
};

const FIRST_PERSON: Record<string, string> = {
  is: 'am',
  are: 'am',
  were: 'was',
  has: 'have',
  does: 'do',
  goes: 'go',
  "isn't": 'am not',
  "aren't": 'am not',
  "weren't": "wasn't",
  "doesn't": "don't",
  "hasn't": "haven't",
};

/** A verb phrase of the third person (or "they") in the first: the verb after the adverbs. */
function conjugate(phrase: string): string {
  const ws = words(phrase);
  const at = firstVerbAt(ws, 0);
  const verb = ws[at];
  if (verb) {
    const l = verb.toLowerCase().replace(/[’]/g, "'");
    const to = FIRST_PERSON[l] ?? baseOf3sg(l);
    if (to) ws[at] = to;
  }
  return ws.join(' ');
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export class BackstoryReader {
  private pronoun: Pronoun | null = null;
  /** The last sentence's subject was the persona (a pronoun next refers to it). */
  private chain = false;
  private readonly nameRe: RegExp | null;
  /** The full name and the first name, escaped for a regular expression. */
  private readonly names: string[];

  constructor(readonly name: string | null) {
    this.names = name ? [...new Set([name, name.split(' ')[0]!])].map(escapeRe) : [];
    this.nameRe = name
      ? new RegExp(`^${TITLE}(?:${this.names.join('|')})(?:\\s+\\p{Lu}[\\p{L}'-]*)?`, 'u')
      : null;
  }

  /** The subject at the start of `s` when it is the persona: its length, and an appositive. */
  private subject(s: string): { len: number; apposition: string | null } | null {
    const named = this.nameRe?.exec(s);
    if (named) {
      const rest = s.slice(named[0].length);
      const app = /^,\s*([^,]{1,60}),\s*/.exec(rest);
      const after = app ? rest.slice(app[0].length) : rest;
      const ws = words(after);
      if (isVerb(ws[firstVerbAt(ws, 0)]) || CONTRACTED_IS.test(after))
        return {
          len: named[0].length + (app ? app[0].length : 0),
          apposition: app ? app[1]!.trim() : null,
        };
      return null;
    }
    const p = /^(he|she|they)\b/i.exec(s);
    if (p && this.chain) {
      const which = p[1]!.toLowerCase() as Pronoun;
      if (this.pronoun === null) this.pronoun = which;
      if (which === this.pronoun) return { len: p[0].length, apposition: null };
    }
    return null;
  }

  /** One clause about the persona, from its subject on, in the first person. */
  private firstPerson(clause: string, subjectLen: number): string {
    let rest = clause.slice(subjectLen).replace(/^\s+/, '');
    // "Robin's a cartographer" / "Robin's been": the contraction of is/has.
    const contracted = /^['’]s\s+(been|got)\b/i.exec(rest);
    if (contracted) rest = `have ${rest.slice(3)}`;
    else if (CONTRACTED_IS.test(rest)) rest = `am ${rest.slice(3)}`;
    else if (/^['’]re\s/.test(rest)) rest = `am ${rest.slice(4)}`;
    else if (/^['’]ve\s/.test(rest)) rest = `have ${rest.slice(4)}`;
    return this.ownForms(`I ${conjugate(rest)}`, true);
  }

  /** The persona's possessive and object forms, said as "my" / "me" / "myself". */
  private ownForms(s: string, objects = false): string {
    let out = s;
    if (this.name) {
      const n = `(?:${this.names.join('|')})`;
      out = out.replace(new RegExp(`\\b${n}['’]s\\b`, 'gu'), 'my');
      // "everyone knows Robin": only in a clause already about the persona in the third person.
      if (objects) out = out.replace(new RegExp(`(?<=\\s)${n}\\b`, 'gu'), 'me');
    }
    if (this.pronoun)
      for (const [from, to] of Object.entries(PRONOUN_FORMS[this.pronoun])) {
        // "her" before a word is "my" ("her cat"), at the end or before punctuation "me".
        if (from === 'her') {
          out = out.replace(/\bher(?=\s+[\p{L}\d])/giu, 'my').replace(/\bher\b/giu, 'me');
        } else out = out.replace(new RegExp(`\\b${from}\\b`, 'giu'), to);
      }
    return out;
  }

  /** A sentence whose subject is not the persona: only "Robin's cat" -> "My cat". */
  private aside(s: string): string {
    if (!this.name) return s;
    const n = `(?:${this.names.join('|')})`;
    return s
      .replace(new RegExp(`^${n}['’]s\\b`, 'u'), 'My')
      .replace(new RegExp(`\\b${n}['’]s\\b`, 'gu'), 'my');
  }

  /**
   * The parts of one sentence: split where a new verb phrase or subject begins. Each part
   * keeps the separator it was cut at, so a part that is not a clause joins back as written.
   */
  private clauses(sentence: string): string[] {
    const body = sentence.replace(/[.!?]+$/, '');
    const cut = /(,\s*(?:and|but|then|and then|so)?\s*|\s+(?:and|but|and then|then)\s+)/gi;
    const pieces: { sep: string; text: string }[] = [];
    let last = 0;
    for (const m of body.matchAll(cut)) {
      pieces.push({ sep: m[0], text: body.slice(last, m.index) });
      last = m.index! + m[0].length;
    }
    pieces.push({ sep: '', text: body.slice(last) });
    const out: { text: string; hasVerb: boolean; subject: string | null }[] = [];
    let pendingSep = '';
    for (const p of pieces) {
      const ws = words(p.text);
      const startsVerb = isVerb(ws[firstVerbAt(ws, 0)]);
      const startsSubject = /^(I|he|she|they|we)\b/i.test(p.text) || this.subject(p.text) !== null;
      const cur = out[out.length - 1];
      const cleanSep = /,/.test(pendingSep) || /\band\b|\bbut\b|\bthen\b/i.test(pendingSep);
      // "When I don't know something, ...": the leading part is not a clause of its own.
      const leading = cur !== undefined && SUBORDINATE.test(cur.text) && !cur.text.includes(',');
      // "... what a product can and cannot do": a part ending on a modal or "to" is not done.
      const open =
        cur !== undefined && /\b(to|can|could|will|would|should|may|might|must)$/i.test(cur.text);
      if (
        cur &&
        cleanSep &&
        !leading &&
        !open &&
        cur.hasVerb &&
        cur.subject !== null &&
        (startsVerb || startsSubject) &&
        ws.length >= 2
      ) {
        const text = startsSubject ? p.text : `${cur.subject} ${p.text}`;
        out.push({ text, hasVerb: true, subject: startsSubject ? null : cur.subject });
        if (startsSubject) out[out.length - 1]!.subject = this.leadingSubject(p.text);
      } else if (cur) {
        cur.text += pendingSep + p.text;
        cur.hasVerb ||= ws.some((w) => isVerb(w));
        if (cur.subject === null) cur.subject = this.leadingSubject(cur.text);
      } else {
        out.push({
          text: p.text,
          hasVerb: ws.some((w) => isVerb(w)),
          subject: this.leadingSubject(p.text),
        });
      }
      pendingSep = p.sep;
    }
    return out.map((c) => c.text.trim()).filter(Boolean);
  }

  /** The subject a verb-initial part shares: "I", or the persona's name / pronoun. */
  private leadingSubject(s: string): string | null {
    const m = /^(I|he|she|they|we)\b/i.exec(s);
    if (m) return m[1]!;
    if (SUBORDINATE.test(s)) {
      // "When I don't know something, I say so": the subject comes after the comma.
      const after = /,\s*(I|he|she|they|we)\b/i.exec(s);
      return after ? after[1]! : null;
    }
    const named = this.nameRe?.exec(s);
    return named ? named[0] : null;
  }

  /** The facts of one English sentence (a list note included). */
  read(raw: string): string[] {
    let s = raw.replace(BULLET, '').trim();
    if (!s) return [];
    const lab = LABELLED.exec(s);
    if (lab) {
      const [, label, value] = lab as unknown as [string, string, string];
      if (GENERIC_LABEL.test(label.trim()) || /^(I|I'm|my|he|she|they|we)\b/i.test(value))
        s = value;
      else if (/^name$/i.test(label.trim())) s = `My name is ${value}`;
      else {
        const l = label.trim().toLowerCase();
        s = `My ${l} ${/[^s]s$/.test(l) ? 'are' : 'is'} ${value}`;
      }
    }
    // A note that starts with its verb ("Grew up in Lisbon", "Works at the museum") is about the persona.
    const ws0 = words(s);
    const bare =
      ws0.length > 1 &&
      /^\p{Lu}/u.test(s) &&
      !BASE_VERBS.has(ws0[0]!.toLowerCase()) &&
      !MODALS.has(ws0[0]!.toLowerCase()) &&
      isVerb(ws0[0]);
    if (bare) s = `I ${conjugate(`${s.charAt(0).toLowerCase()}${s.slice(1)}`)}`;
    // "His wife Sara ..." right after a sentence about the persona: his is the persona's.
    const possessive = /^(his|her|their)\s/i.exec(s);
    const owner = possessive
      ? ({ his: 'he', her: 'she', their: 'they' } as const)[
          possessive[1]!.toLowerCase() as 'his' | 'her' | 'their'
        ]
      : null;
    if (owner && this.chain && this.pronoun === null) this.pronoun = owner;
    // "Her favourite pastry is ..." is still about the persona: the sentence after it goes on
    // the chain; "Her sister Ana is ..." brings in someone a later "she" may mean, so it ends it.
    const persona =
      owner !== null &&
      this.chain &&
      this.pronoun === owner &&
      !PEOPLE.test(s.slice(possessive![0].length));
    const facts: string[] = [];
    let third = false;
    for (const clause of this.clauses(s)) {
      const subj = this.subject(clause);
      // "In 2010, Robin moved to Porto": the subject after a short opening.
      const opening = subj ? null : /^([^,]{1,40},\s*)(.*)$/su.exec(clause);
      const later = opening ? this.subject(opening[2]!) : null;
      if (subj) {
        third = true;
        if (subj.apposition) facts.push(`I am ${subj.apposition}`);
        facts.push(this.firstPerson(clause, subj.len));
      } else if (opening && later) {
        third = true;
        if (later.apposition) facts.push(`I am ${later.apposition}`);
        facts.push(opening[1]! + this.firstPerson(opening[2]!, later.len));
      } else {
        facts.push(this.chain || third ? this.ownForms(this.aside(clause)) : this.aside(clause));
      }
    }
    this.chain = third || persona;
    return facts.map(finish);
  }
}

/** Capital first letter, an end mark. */
function finish(s: string): string {
  const t = s.trim().replace(/\s+([,.;!?])/g, '$1');
  const cap = t.charAt(0).toUpperCase() + t.slice(1);
  return /[.!?…]$/.test(cap) ? cap : `${cap}.`;
}

/** Sentences and notes: a line break ends one when the line is a note or the next is a bullet or label. */
function units(text: string): string[] {
  const lines = text.split(/\r?\n/);
  const joined: string[] = [];
  for (const line of lines) {
    const prev = joined[joined.length - 1];
    const starts = BULLET.test(line) || LABELLED.test(line.trim()) || !line.trim();
    if (prev === undefined || starts || /[.!?:]\s*$/.test(prev) || LABELLED.test(prev.trim()))
      joined.push(line);
    else joined[joined.length - 1] = `${prev} ${line.trim()}`;
  }
  const out: string[] = [];
  for (const l of joined)
    for (const part of l.trim() ? splitSentences(l) : []) {
      const prev = out[out.length - 1];
      // "Dr. Priya Nair ...": a title is not a sentence.
      if (prev !== undefined && /(^|\s)(Dr|Mr|Mrs|Ms|Mx|Prof|St|Capt)\.$/.test(prev))
        out[out.length - 1] = `${prev} ${part}`;
      else out.push(part);
    }
  return out;
}

/** "Robin grew up ..." / "Robin Silva is ...": the name a third-person backstory opens with. */
const OPENING_NAME =
  /^(?:(?:Dr|Mr|Mrs|Ms|Mx|Prof|Sir|Dame|Captain|Capt)\.?\s+)?(\p{Lu}[\p{L}'-]+(?:\s\p{Lu}[\p{L}'-]+)?)(?:,[^,]{1,60},)?\s+(\S+)/u;
const NOT_NAMES =
  /^(I|I'm|My|The|A|An|This|That|He|She|They|We|It|In|On|At|As|When|If|After|Before|Since|Her|His|Their|Our|Every|Each|Growing|Born|Today|Now)$/;

function openingName(first: string): string | null {
  const s = first.replace(BULLET, '');
  const m = OPENING_NAME.exec(s);
  if (!m) return null;
  const name = m[1]!;
  const head = name.split(' ')[0]!;
  if (NOT_NAMES.test(head)) return null;
  const next = m[2]!.replace(/[.,;:!?]$/, '');
  if (!isVerb(next)) return null;
  // "Robin is a nurse", not "Lisbon is where I grew up" or "Music is my life".
  if (/^(is|was)$/i.test(next)) {
    const after =
      s
        .slice(m.index + m[0].length)
        .trim()
        .split(/\s+/)[0] ?? '';
    if (
      !/^(a|an|the|from|born|originally|currently|now|still|also|\d+|\p{L}+(ing|ed))$/iu.test(after)
    )
      return null;
  }
  return name;
}

/** The persona speaks for itself somewhere ("I", "my"): the backstory is not about a third person. */
const FIRST_PERSON_WORD = /(^|[^\p{L}'’])(I|I'm|I've|I'd|I'll|my|me|myself)(?=$|[^\p{L}'’])/u;

/** The backstory's facts, one clause each, in the first person where they are about the persona. */
export function backstoryFacts(text: string, givenName: string | null): BackstoryFacts {
  const sentences = units(text);
  // English as a whole (one pass over the words; a sentence each would cost as much again).
  if (sentences.length === 0 || textLanguage(text) !== 'en')
    return { name: null, facts: sentences.map((s) => s.replace(BULLET, '').trim()) };
  const noted = sentences
    .map((x) =>
      /^(?:name|full name)\s*:\s*(\p{Lu}[\p{L}'-]*(?:\s\p{Lu}[\p{L}'-]*)?)\s*\.?$/iu.exec(
        x.replace(BULLET, ''),
      ),
    )
    .find(Boolean);
  const found = noted
    ? noted[1]!
    : FIRST_PERSON_WORD.test(text)
      ? null
      : openingName(sentences[0]!);
  const named = givenName && sentences.some((s) => s.includes(givenName)) ? givenName : null;
  const reader = new BackstoryReader(named ?? found);
  const facts: string[] = [];
  for (const s of sentences) facts.push(...reader.read(s));
  return { name: found, facts };
}
