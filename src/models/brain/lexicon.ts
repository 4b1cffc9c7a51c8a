/**
 * Two small word lists that make lexical retrieval answer everyday questions about a
 * persona: irregular English verb forms (Porter stemming leaves "grew" and "grow" apart),
 * and groups of words people use for the same personal topic ("what do you like to eat"
 * should find "My favourite food is ..."). Query terms are expanded with their group;
 * passages are indexed as written. English only: other languages match word for word.
 */
import { stemmer } from 'stemmer';
import { own } from '../../contract/own.js';
export const IRREGULAR: Record<string, string> = {
  grew: 'grow',
  grown: 'grow',
  went: 'go',
  gone: 'go',
  ate: 'eat',
  eaten: 'eat',
  made: 'make',
  took: 'take',
  taken: 'take',
  came: 'come',
  saw: 'see',
  seen: 'see',
  knew: 'know',
  known: 'know',
  began: 'begin',
  begun: 'begin',
  wrote: 'write',
  written: 'write',
  spoke: 'speak',
  spoken: 'speak',
  taught: 'teach',
  bought: 'buy',
  thought: 'think',
  found: 'find',
  left: 'leave',
  met: 'meet',
  built: 'build',
  became: 'become',
  won: 'win',
  drove: 'drive',
  driven: 'drive',
  flew: 'fly',
  flown: 'fly',
  swam: 'swim',
  sang: 'sing',
  sung: 'sing',
  ran: 'run',
  rode: 'ride',
  born: 'bear',
  fell: 'fall',
  fallen: 'fall',
  felt: 'feel',
  kept: 'keep',
  slept: 'sleep',
  sold: 'sell',
  told: 'tell',
  brought: 'bring',
  caught: 'catch',
  fought: 'fight',
  held: 'hold',
  lost: 'lose',
  paid: 'pay',
  read: 'read',
  studied: 'study',
  lived: 'live',
  children: 'child',
  men: 'man',
  women: 'woman',
  people: 'person',
  mice: 'mouse',
  feet: 'foot',
  teeth: 'tooth',
};

/** Topic groups (already in base form). */
const GROUPS: string[][] = [
  [
    'eat',
    'food',
    'dish',
    'meal',
    'cook',
    'cuisine',
    'favourite',
    'favorite',
    'restaurant',
    'drink',
  ],
  [
    'live',
    'home',
    'house',
    'grow',
    'born',
    'bear',
    'hometown',
    'city',
    'country',
    'town',
    'from',
    'raise',
  ],
  ['work', 'job', 'career', 'profession', 'occupation', 'employ', 'company', 'living'],
  ['hobby', 'hobbies', 'weekend', 'free', 'fun', 'enjoy', 'like', 'love', 'spare', 'pastime'],
  [
    'family',
    'mother',
    'father',
    'parent',
    'sister',
    'brother',
    'sibling',
    'child',
    'married',
    'wife',
    'husband',
    'partner',
  ],
  ['language', 'speak', 'fluent', 'languages'],
  ['study', 'school', 'university', 'college', 'degree', 'educate', 'education', 'learn'],
  ['age', 'old', 'year', 'birthday'],
  ['pet', 'dog', 'cat', 'animal'],
  ['music', 'song', 'sing', 'band', 'instrument', 'play'],
  ['travel', 'trip', 'visit', 'journey', 'abroad'],
  ['book', 'read', 'novel', 'author', 'write'],
  ['sport', 'team', 'play', 'football', 'soccer', 'tennis', 'run', 'swim'],
  // An app's account and its settings (a product guide's backstory says "settings", users ask
  // for the one they want changed).
  [
    'setting',
    'account',
    'password',
    'profile',
    'login',
    'preference',
    'notification',
    'privacy',
    'security',
    'email',
  ],
];

const groupOf = new Map<string, string[]>();
for (const g of GROUPS) for (const w of g) groupOf.set(w, [...(groupOf.get(w) ?? []), ...g]);
/** The same groups by Porter stem, so "pets" and "animals" find the group of "pet" and "animal". */
const groupOfStem = new Map<string, string[]>();
for (const g of GROUPS)
  for (const w of g) groupOfStem.set(stemmer(w), [...(groupOfStem.get(stemmer(w)) ?? []), ...g]);

/** The base form of an English word before stemming. */
export const baseForm = (w: string): string => own(IRREGULAR, w) ?? w;

/** The word and the other words of its topic groups (base forms). */
export function related(w: string): string[] {
  return [...new Set([w, ...(groupOf.get(w) ?? groupOfStem.get(stemmer(w)) ?? [])])];
}
