/**
 * Every stock persona's generated lines, in each phrase-table language (issue 32 item 10:
 * Leo said "ask me about support, subscriptions, or problem"). The topics a persona offers
 * ("You could ask me about ...") are bare nouns its backstory says that way: a list item or a
 * plural or a name, never a noun the backstory says with "a"/"the" ("the problem") and never
 * a verb; in a language the backstory is not written in, no English topic is offered at all.
 * Every line is clean: no "null", no empty slot, no doubled spaces or punctuation.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isVerbForm } from '../src/models/brain/backstory.js';
import { PHRASE_LANGUAGES, type PhraseLanguage } from '../src/models/brain/language.js';
import { composeReply } from '../src/models/brain/local.js';
import { PHRASES } from '../src/models/brain/phrases.js';
import type { BrainMessage } from '../src/models/brain.js';
import { OUTSIDE } from './helpers/brain-fixtures.js';

interface Persona {
  id: string;
  name: string;
  systemPrompt: string;
  backstory: string;
}
const PERSONAS = (
  JSON.parse(
    readFileSync(new URL('../fixtures/personas/personas.json', import.meta.url), 'utf8'),
  ) as {
    personas: Persona[];
  }
).personas;

/** What people say to a persona first; each line the persona answers with is checked. */
const TURNS: Record<PhraseLanguage, string[]> = {
  en: [
    'Hello',
    'What can you do?',
    'What do you do?',
    'Tell me a joke',
    'Tell me a story',
    'Thanks',
    'Bye',
  ],
  es: [
    'Hola',
    '¿Qué puedes hacer?',
    '¿A qué te dedicas?',
    'Cuéntame un chiste',
    'Cuéntame una historia',
    'Gracias',
    'Adiós',
  ],
  fr: [
    'Bonjour',
    'Que sais-tu faire ?',
    'Tu fais quoi ?',
    'Raconte-moi une blague',
    'Raconte-moi une histoire',
    'Merci',
    'Au revoir',
  ],
  de: [
    'Hallo',
    'Was kannst du?',
    'Was machst du?',
    'Erzähl mir einen Witz',
    'Erzähl mir eine Geschichte',
    'Danke',
    'Tschüss',
  ],
  it: [
    'Ciao',
    'Cosa sai fare?',
    'Che lavoro fai?',
    'Raccontami una barzelletta',
    'Raccontami una storia',
    'Grazie',
    'Arrivederci',
  ],
  pt: [
    'Olá',
    'O que você pode fazer?',
    'O que você faz?',
    'Me conta uma piada',
    'Me conta uma história',
    'Obrigado',
    'Tchau',
  ],
  zh: ['你好', '你能做什么？', '你是做什么的？', '讲个笑话', '讲个故事', '谢谢', '再见'],
};

function conversation(p: Persona, lang: PhraseLanguage, turns: string[]): string[] {
  const messages: BrainMessage[] = [{ role: 'system', content: p.systemPrompt }];
  const req = () => ({
    messages: [...messages],
    persona: { name: p.name, backstory: p.backstory },
    language: lang,
  });
  const out = [composeReply(req())]; // the opener
  for (const t of turns) {
    messages.push({ role: 'user', content: t });
    const r = composeReply(req());
    out.push(r);
    messages.push({ role: 'assistant', content: r });
  }
  return out;
}

/** The list after "ask me about" in the English unknown line. */
function offered(line: string): string[] {
  const m = /You could ask me about (.+)\.$/.exec(line);
  if (!m) return [];
  return m[1]!.split(/, or |, | or /).map((t) => t.trim());
}

describe('stock personas: every generated line, every language', () => {
  for (const p of PERSONAS)
    for (const lang of PHRASE_LANGUAGES) {
      it(`${p.id} (${lang}): clean lines`, () => {
        // (French puts a space before ? ! : and ;.)
        const space = lang === 'fr' ? /\s[,.]/ : /\s[,.!?:;]/;
        for (const line of conversation(p, lang, [...TURNS[lang], OUTSIDE[lang]])) {
          expect(line).not.toMatch(/\b(null|undefined|NaN)\b|\s{2}|,,|\.\.|\{|\}/);
          expect(line).not.toMatch(space);
          expect(line.length).toBeGreaterThan(1);
        }
      });
    }

  for (const p of PERSONAS) {
    it(`${p.id}: the topics it offers read well after "about" (issue 32 item 10)`, () => {
      const [line] = conversation(p, 'en', [OUTSIDE.en]).slice(1);
      const topics = offered(line!);
      expect(topics.length, line).toBeGreaterThanOrEqual(2);
      // Formatted as a list in English.
      expect(line).toContain(new Intl.ListFormat('en', { type: 'disjunction' }).format(topics));
      const text = p.backstory;
      for (const t of topics) {
        // Said in the backstory, as a whole word or words.
        expect(text, t).toMatch(new RegExp(`\\b${t}\\b`, 'i'));
        // An item of a list the backstory gives ("food, travel and everyday life"), or else
        // not a verb and not a singular noun said with an article ("the problem").
        const listed = new RegExp(`(,\\s*${t}\\b|\\b${t},|\\b(and|or) ${t}\\b)`, 'i').test(text);
        if (listed) continue;
        for (const w of t.split(' '))
          expect(isVerbForm(w.toLowerCase()), `${t} in ${line}`).toBe(false);
        const plural = /[^s]s$/.test(t);
        const name = /^\p{Lu}/u.test(t);
        if (!plural && !name)
          expect(text, `${t} in ${line}`).not.toMatch(
            new RegExp(`\\b(a|an|the|one|this|that|your|my)\\s+(\\w+\\s+)?${t}\\b`, 'i'),
          );
      }
    });

    it(`${p.id}: in a language its backstory is not written in, no English topic is offered`, () => {
      for (const lang of PHRASE_LANGUAGES.filter((l) => l !== 'en')) {
        const [line] = conversation(p, lang, [OUTSIDE[lang]]).slice(1);
        const P = PHRASES[lang];
        const english = new Intl.DisplayNames([lang], { type: 'language' }).of('en')!;
        expect(line, lang).toContain(P.onlyIn(english));
        for (const t of offered(conversation(p, 'en', [OUTSIDE.en])[1]!))
          expect(line, lang).not.toContain(t);
      }
    });
  }
});
