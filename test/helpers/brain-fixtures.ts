/**
 * What the local brain's tests talk to a persona about (test/brain-*.test.ts): one
 * backstory in each phrase-table language, and a question outside it.
 */
import type { PhraseLanguage } from '../../src/models/brain/language.js';

/** Five sentences: who, work, where from, food, weekends. */
export const BACKSTORY: Record<PhraseLanguage, string[]> = {
  en: [
    'I am Ava, a guide at the city museum in Lisbon.',
    'I have worked as a tour guide for ten years.',
    'I grew up by the sea in Porto.',
    'My favourite food is grilled sardines.',
    'On weekends I go sailing on the Tagus river.',
  ],
  es: [
    'Soy Ava, guía del museo de la ciudad de Lisboa.',
    'Trabajo como guía turística desde hace diez años.',
    'Crecí junto al mar en Oporto.',
    'Mi comida favorita son las sardinas a la parrilla.',
    'Los fines de semana navego por el río Tajo.',
  ],
  fr: [
    'Je suis Ava, guide au musée de la ville de Lisbonne.',
    'Je travaille comme guide touristique depuis dix ans.',
    "J'ai grandi au bord de la mer à Porto.",
    'Mon plat préféré, ce sont les sardines grillées.',
    'Le week-end, je fais de la voile sur le Tage.',
  ],
  de: [
    'Ich bin Ava, Führerin im Stadtmuseum von Lissabon.',
    'Ich arbeite seit zehn Jahren als Reiseleiterin.',
    'Ich bin am Meer in Porto aufgewachsen.',
    'Mein Lieblingsessen sind gegrillte Sardinen.',
    'Am Wochenende segle ich auf dem Tejo.',
  ],
  it: [
    'Sono Ava, guida al museo civico di Lisbona.',
    'Lavoro come guida turistica da dieci anni.',
    'Sono cresciuta vicino al mare a Porto.',
    'Il mio piatto preferito sono le sardine alla griglia.',
    'Nel fine settimana vado in barca a vela sul Tago.',
  ],
  pt: [
    'Eu sou Ava, guia do museu da cidade de Lisboa.',
    'Trabalho como guia turística há dez anos.',
    'Cresci perto do mar no Porto.',
    'A minha comida favorita é sardinha grelhada.',
    'Nos fins de semana velejo no rio Tejo.',
  ],
  zh: [
    '我是艾娃，里斯本城市博物馆的导游。',
    '我做导游已经十年了。',
    '我在波尔图的海边长大。',
    '我最喜欢的食物是烤沙丁鱼。',
    '周末我会在特茹河上航行。',
  ],
};

/** A question no persona's material answers, in each language. */
export const OUTSIDE: Record<PhraseLanguage, string> = {
  en: 'What is the population of Mars?',
  es: '¿Cuál es la población de Marte?',
  fr: 'Quelle est la population de Mars ?',
  de: 'Wie viele Menschen leben auf dem Mars?',
  it: 'Qual è la popolazione di Marte?',
  pt: 'Qual é a população de Marte?',
  zh: '火星上有多少人口？',
};
