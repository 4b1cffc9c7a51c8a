/**
 * What a user reads in the local brain's replies (issue 8 item 4, the session-3 trial): the
 * persona's name once, one language per reply, a greeting answered with a greeting that is
 * not the opener word for word, and Chinese where the phrase table has it. Personas are the
 * stock fixtures (fixtures/personas/personas.json), as a first try meets them.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { BrainRequest } from '../src/models/brain.js';
import { LocalBrain } from '../src/models/brain/index.js';

const stock = JSON.parse(
  readFileSync(new URL('../fixtures/personas/personas.json', import.meta.url), 'utf8'),
).personas as {
  id: string;
  name: string;
  systemPrompt: string;
  backstory: string;
}[];
const persona = (id: string) => stock.find((p) => p.id === id)!;

function ask(id: string, turns: string[] | string, language?: string): BrainRequest {
  const p = persona(id);
  const list = typeof turns === 'string' ? [turns] : turns;
  return {
    messages: [
      { role: 'system', content: p.systemPrompt },
      ...list.map((content, i) => ({
        role: (i % 2 ? 'assistant' : 'user') as 'user' | 'assistant',
        content,
      })),
    ],
    persona: { name: p.name, backstory: p.backstory },
    language,
  };
}

async function reply(req: BrainRequest) {
  const r = new LocalBrain().reply(req);
  let text = '';
  for await (const d of r.deltas) text += d;
  return { text, language: (await r.usage).language };
}

const count = (text: string, word: string) => text.split(new RegExp(`\\b${word}\\b`)).length - 1;

describe('the local brain as a first user meets it', () => {
  it('"Hello, who are you?" names the persona once', async () => {
    const { text } = await reply(ask('ava', 'Hello, who are you?'));
    expect(count(text, 'Ava')).toBe(1);
    expect(text).toMatch(/new accounts/);
  });

  it('keeps the name line when the backstory sentence does not name the persona', async () => {
    const req = ask('ava', 'Who are you?');
    req.persona = { name: 'Ava', backstory: 'I help with new accounts in apps.' };
    expect((await reply(req)).text).toBe('My name is Ava. I help with new accounts in apps.');
  });

  it('answers in French without English sentences, and says the rest is only known in English', async () => {
    const { text, language } = await reply(ask('ava', 'Hello, who are you?', 'fr'));
    expect(text).toMatch(/Je m'appelle Ava/);
    expect(text).toMatch(/anglais/);
    expect(text).not.toMatch(/I'm Ava|new accounts|\bI\b/);
    expect(language).toBe('fr');
  });

  it('a question answered from an English backstory in a German reply says so in German instead of quoting English', async () => {
    const { text } = await reply(ask('ava', 'Can you explain settings?', 'de'));
    expect(text).toMatch(/Englisch/);
    expect(text).not.toMatch(/settings|explain/i);
  });

  it('"Hello there" gets a short greeting back, not the opener word for word', async () => {
    const opener = (
      await reply({
        ...ask('ava', []),
        messages: [{ role: 'system', content: persona('ava').systemPrompt }],
      })
    ).text;
    const { text } = await reply(ask('ava', 'Hello there'));
    expect(text).not.toBe(opener);
    expect(text).toMatch(/^(Hi|Hello)/);
    // After the opener, the persona does not introduce itself again.
    const again = (await reply(ask('ava', ['Hi', opener, 'Hello there']))).text;
    expect(again).not.toMatch(/Ava/);
    expect(again).not.toBe(opener);
  });

  it('Mei answers "你好，你是谁？" in Chinese and reports zh-CN; the English backstory is not quoted', async () => {
    const { text, language } = await reply(ask('mei', '你好，你是谁？', 'zh-CN'));
    expect(text).toMatch(/我叫Mei/);
    expect(text).toMatch(/英语/);
    expect(text.replaceAll('Mei', '')).not.toMatch(/[A-Za-z]/);
    // Chinese puts no space between sentences.
    expect(text).not.toMatch(/。\s/);
    expect(language).toBe('zh-CN');
  });

  it('greets in Chinese when the session language is zh-CN', async () => {
    const p = persona('mei');
    const { text, language } = await reply({
      messages: [{ role: 'system', content: p.systemPrompt }],
      persona: { name: p.name, backstory: p.backstory },
      language: 'zh-CN',
    });
    expect(text).toBe('你好，我是Mei。你想聊些什么？');
    expect(language).toBe('zh-CN');
  });

  it('reports English when the asked language is not in the phrase table (the reply text is English)', async () => {
    const { text, language } = await reply(ask('ava', 'hello', 'ja'));
    expect(text).toMatch(/^Hi! I'm Ava/);
    expect(language).toBe('en');
  });
});
