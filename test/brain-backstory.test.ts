/**
 * Backstories as people write them (issue 29 item 2): in the first person, in the third
 * person (he, she, they, a name with a title or an age), as one long sentence, as a list of
 * notes. The local brain answers the fact asked for, in the first person, without the name
 * or the rest of the sentence: the backstory is cut into clauses and said in the first
 * person once, when the session's index is built (src/models/brain/backstory.ts).
 */
import { describe, expect, it } from 'vitest';
import { backstoryFacts } from '../src/models/brain/backstory.js';
import { composeReply } from '../src/models/brain/local.js';

/** Backstory, the name the session gives (null: a custom avatar with none), the facts. */
/** `named`: the name the backstory itself gives (none: null). */
const TABLE: { backstory: string; name: string | null; facts: string[]; named?: string }[] = [
  {
    // Issue 29's own: third person, one long sentence.
    backstory: 'Robin grew up in Lisbon, works at the city map museum, and has a cat called Atlas.',
    name: null,
    named: 'Robin',
    facts: ['I grew up in Lisbon.', 'I work at the city map museum.', 'I have a cat called Atlas.'],
  },
  {
    // The same in the first person.
    backstory: 'I grew up in Lisbon, work at the museum, and have a cat called Atlas.',
    name: 'Robin',
    facts: ['I grew up in Lisbon.', 'I work at the museum.', 'I have a cat called Atlas.'],
  },
  {
    // She, and somebody else who is a she too: only the persona's sentences change.
    backstory:
      'Maria is a nurse from Manila. She loves karaoke and her dog Bruno. Her sister Ana is a doctor. She lives in Porto.',
    name: null,
    named: 'Maria',
    facts: [
      'I am a nurse from Manila.',
      'I love karaoke and my dog Bruno.',
      'My sister Ana is a doctor.',
      'She lives in Porto.',
    ],
  },
  {
    // He, a sentence that starts with his.
    backstory:
      'Tom runs a bakery in Leeds. His wife Sara makes the cakes. She also paints. He has two sons.',
    name: 'Tom',
    named: 'Tom',
    facts: [
      'I run a bakery in Leeds.',
      'My wife Sara makes the cakes.',
      'She also paints.',
      'He has two sons.',
    ],
  },
  {
    // They, their, a new subject after "and".
    backstory:
      'Alex is a software engineer. They live in Berlin with their partner, and they play the cello on weekends.',
    name: 'Alex',
    named: 'Alex',
    facts: [
      'I am a software engineer.',
      'I live in Berlin with my partner.',
      'I play the cello on weekends.',
    ],
  },
  {
    // A bulleted list of notes: a label, verbs without a subject.
    backstory:
      '- Name: Robin\n- Grew up in Lisbon\n- Works at the city map museum\n- Pet: a cat called Atlas\n- Hobbies: sailing and chess',
    name: null,
    named: 'Robin',
    facts: [
      'My name is Robin.',
      'I grew up in Lisbon.',
      'I work at the city map museum.',
      'My pet is a cat called Atlas.',
      'My hobbies are sailing and chess.',
    ],
  },
  {
    // A title and an age, the name later in a sentence, the name's possessive.
    backstory:
      "Dr. Priya Nair, 41, is a cardiologist in Pune. In 2015, Priya moved to Mumbai. Priya's favourite food is dosa.",
    name: null,
    named: 'Priya Nair',
    facts: [
      'I am 41.',
      'I am a cardiologist in Pune.',
      'In 2015, I moved to Mumbai.',
      'My favourite food is dosa.',
    ],
  },
  {
    // A full name, "he's", a new subject after "and".
    backstory:
      "Jack Sparrow is a pirate captain. He sails the Caribbean on a ship called the Black Pearl and he's always looking for treasure.",
    name: null,
    named: 'Jack Sparrow',
    facts: [
      'I am a pirate captain.',
      'I sail the Caribbean on a ship called the Black Pearl.',
      'I am always looking for treasure.',
    ],
  },
  {
    // A stock persona (fixtures/personas): lists and "When ..., I ..." are not cut.
    backstory:
      "I'm Leo, a support agent. I help with billing, passwords and subscriptions. I listen to the problem first, then suggest one next step. If a problem needs a person with access to your account, I say so.",
    name: 'Leo',
    facts: [
      "I'm Leo, a support agent.",
      'I help with billing, passwords and subscriptions.',
      'I listen to the problem first.',
      'I suggest one next step.',
      'If a problem needs a person with access to your account, I say so.',
    ],
  },
  {
    // "can and cannot": a modal with its verb later is one clause.
    backstory: 'I keep things upbeat and honest about what a product can and cannot do.',
    name: 'Sam',
    facts: ['I keep things upbeat and honest about what a product can and cannot do.'],
  },
  {
    // A first sentence that opens with a place or a thing is not a name.
    backstory: 'Lisbon is where I grew up. Music is my life.',
    name: null,
    facts: ['Lisbon is where I grew up.', 'Music is my life.'],
  },
  {
    backstory: 'Sailing is what Robin loves most.',
    name: null,
    facts: ['Sailing is what Robin loves most.'],
  },
  {
    // Another language: sentences as written (no re-conjugation).
    backstory: 'Soy Ava, guía del museo. Crecí junto al mar en Oporto.',
    name: 'Ava',
    facts: ['Soy Ava, guía del museo.', 'Crecí junto al mar en Oporto.'],
  },
];

describe("a backstory becomes the persona's own facts, one clause each, in the first person", () => {
  for (const row of TABLE) {
    it(row.backstory.slice(0, 70), () => {
      const got = backstoryFacts(row.backstory, row.name);
      expect(got.facts).toEqual(row.facts);
      expect(got.name).toBe(row.named ?? null);
    });
  }
});

function ask(backstory: string, questions: string[], name: string | null = null): string[] {
  return questions.map((q) =>
    composeReply({
      messages: [{ role: 'user', content: q }],
      persona: { name: name ?? undefined, backstory },
    }),
  );
}

describe('the fact asked for, in the first person, without the name or the rest', () => {
  it('issue 29: "Robin grew up in Lisbon, works at ..., and has a cat called Atlas."', () => {
    const robin =
      'Robin grew up in Lisbon, works at the city map museum, and has a cat called Atlas.';
    expect(
      ask(robin, [
        'Do you have a pet?',
        'Where do you work?',
        'Where did you grow up?',
        "What's your name?",
      ]),
    ).toEqual([
      'I have a cat called Atlas.',
      'I work at the city map museum.',
      'I grew up in Lisbon.',
      'My name is Robin.',
    ]);
  });

  it("a sentence that opens with her possessive keeps the chain: the fact after it is the persona's; plurals find their topic", () => {
    const rosa =
      'Rosa runs a small bakery by the harbour in Porto. She opens at seven every morning except Mondays. Her favourite pastry is the pastel de nata. She has a cat called Miso who sleeps in the window.';
    expect(
      ask(rosa, ['What is your favourite pastry?', 'Do you have any pets?', 'Where do you work?']),
    ).toEqual([
      'My favourite pastry is the pastel de nata.',
      'I have a cat called Miso who sleeps in the window.',
      'I run a small bakery by the harbour in Porto.',
    ]);
  });

  it('a list of notes answers the same questions the same way', () => {
    const notes =
      '- Name: Robin\n- Grew up in Lisbon\n- Works at the city map museum\n- Pet: a cat called Atlas';
    expect(ask(notes, ['Do you have a pet?', 'Where do you work?'])).toEqual([
      'My pet is a cat called Atlas.',
      'I work at the city map museum.',
    ]);
  });

  it('she: "Do you have a dog?" is hers; her sister stays her sister', () => {
    const maria =
      'Maria is a nurse from Manila. She loves karaoke and her dog Bruno. Her sister Ana is a doctor. She lives in Porto.';
    const [dog, job] = ask(maria, ['Do you have a dog?', 'What is your job?']);
    expect(dog).toBe('I love karaoke and my dog Bruno.');
    expect(job).toBe('I am a nurse from Manila.');
  });

  it('"Tell me about yourself" on a third-person backstory: the name once, then a first-person fact', () => {
    const [me] = ask('Alex is a software engineer. They live in Berlin with their partner.', [
      'Tell me about yourself',
    ]);
    expect(me).toBe('My name is Alex. I am a software engineer.');
  });
});
