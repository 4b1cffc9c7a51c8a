/**
 * The local brain's phrase table: everything it says that is not a retrieved sentence, in
 * each language of PHRASE_LANGUAGES. Retrieved sentences are quoted as written (the brain
 * does not translate), and only in a reply of their own language (`onlyIn` says so
 * otherwise); a language outside the table gets English.
 */
import type { PhraseLanguage } from './language.js';

export interface Phrases {
  /** The proactive opener (greeting_enabled) and the reply to a bare greeting. */
  greet(name: string | null): string;
  /**
   * The answer to a user's greeting ("hello there"): short, and not the opener word for word.
   * `name` is null when the persona has already said who it is in this conversation.
   */
  greetBack(name: string | null): string;
  /** What it can say in this language ends here: the rest is written in `language` (a display name in this language). */
  onlyIn(language: string): string;
  name(name: string | null): string;
  howAreYou: string;
  /** `topics` is a formatted list ("Lisbon, sailing or tea"), or null when nothing is known. */
  abilities(topics: string | null): string;
  thanks: string;
  goodbye: string;
  unknown(topics: string | null): string;
  niceToMeet(user: string): string;
  userName(user: string | null): string;
  memory(none: boolean): string;
  /** "What do you do?" when nothing about the persona's work is known. */
  role(name: string | null): string;
  /** "Tell me a story" with no backstory to tell. */
  noStory: string;
}

export const PHRASES: Record<PhraseLanguage, Phrases> = {
  en: {
    greet: (n) =>
      n
        ? `Hello, I'm ${n}. What would you like to talk about?`
        : 'Hello! What would you like to talk about?',
    greetBack: (n) => (n ? `Hi! I'm ${n}. How can I help?` : 'Hi again! How can I help?'),
    onlyIn: (l) => `I can only tell you more in ${l}, the language my background is written in.`,
    name: (n) => (n ? `My name is ${n}.` : "I wasn't given a name in this session."),
    howAreYou: "I'm doing well, thank you for asking. What's on your mind?",
    abilities: (t) =>
      t
        ? `I can chat with you and answer questions from what I know about myself, for example about ${t}.`
        : "I can chat with you, but I wasn't told much about myself in this session, so I can't answer many questions yet.",
    thanks: "You're welcome!",
    goodbye: 'Goodbye! It was nice talking with you.',
    unknown: (t) =>
      t
        ? `I'm sorry, I don't know that. You could ask me about ${t}.`
        : "I'm sorry, I don't know that.",
    niceToMeet: (u) => `Nice to meet you, ${u}.`,
    userName: (u) => (u ? `Your name is ${u}.` : "You haven't told me your name yet."),
    memory: (none) =>
      none ? "I don't remember anything about you yet." : 'Here is what I remember:',
    role: (n) =>
      n
        ? `I'm ${n}, and I'm here to talk with you and answer your questions.`
        : "I'm here to talk with you and answer your questions.",
    noStory: "I don't have a story to tell yet: I wasn't told much about myself in this session.",
  },
  es: {
    greet: (n) =>
      n ? `Hola, soy ${n}. ¿De qué te gustaría hablar?` : '¡Hola! ¿De qué te gustaría hablar?',
    greetBack: (n) =>
      n ? `¡Hola! Soy ${n}. ¿En qué te puedo ayudar?` : '¡Hola de nuevo! ¿En qué te puedo ayudar?',
    onlyIn: (l) => `Solo puedo contarte más en ${l}, el idioma en que está escrita mi historia.`,
    name: (n) => (n ? `Me llamo ${n}.` : 'No me dieron un nombre en esta sesión.'),
    howAreYou: 'Estoy bien, gracias por preguntar. ¿Qué tienes en mente?',
    abilities: (t) =>
      t
        ? `Puedo conversar contigo y responder a partir de lo que sé de mí, por ejemplo sobre ${t}.`
        : 'Puedo conversar contigo, pero en esta sesión no me contaron mucho sobre mí.',
    thanks: '¡De nada!',
    goodbye: '¡Adiós! Fue un placer hablar contigo.',
    unknown: (t) =>
      t ? `Lo siento, no lo sé. Puedes preguntarme sobre ${t}.` : 'Lo siento, no lo sé.',
    niceToMeet: (u) => `Encantado de conocerte, ${u}.`,
    userName: (u) => (u ? `Te llamas ${u}.` : 'Todavía no me has dicho tu nombre.'),
    memory: (none) => (none ? 'Todavía no recuerdo nada sobre ti.' : 'Esto es lo que recuerdo:'),
    role: (n) =>
      n
        ? `Soy ${n} y estoy aquí para conversar contigo y responder a tus preguntas.`
        : 'Estoy aquí para conversar contigo y responder a tus preguntas.',
    noStory:
      'Todavía no tengo una historia que contar: en esta sesión no me contaron mucho sobre mí.',
  },
  fr: {
    greet: (n) =>
      n
        ? `Bonjour, je suis ${n}. De quoi aimeriez-vous parler ?`
        : 'Bonjour ! De quoi aimeriez-vous parler ?',
    greetBack: (n) =>
      n
        ? `Salut ! Je suis ${n}. Comment puis-je vous aider ?`
        : 'Re-bonjour ! Comment puis-je vous aider ?',
    onlyIn: (l) =>
      `Je ne peux vous en dire plus qu'en ${l}, la langue dans laquelle mon histoire est écrite.`,
    name: (n) => (n ? `Je m'appelle ${n}.` : "On ne m'a pas donné de nom dans cette session."),
    howAreYou: 'Je vais bien, merci de demander. À quoi pensez-vous ?',
    abilities: (t) =>
      t
        ? `Je peux discuter avec vous et répondre à partir de ce que je sais de moi, par exemple sur ${t}.`
        : "Je peux discuter avec vous, mais on ne m'a pas dit grand-chose sur moi dans cette session.",
    thanks: 'Je vous en prie !',
    goodbye: 'Au revoir ! Ce fut un plaisir de parler avec vous.',
    unknown: (t) =>
      t
        ? `Désolé, je ne sais pas. Vous pouvez me poser des questions sur ${t}.`
        : 'Désolé, je ne sais pas.',
    niceToMeet: (u) => `Enchanté, ${u}.`,
    userName: (u) => (u ? `Vous vous appelez ${u}.` : "Vous ne m'avez pas encore dit votre nom."),
    memory: (none) =>
      none ? 'Je ne me souviens encore de rien à votre sujet.' : 'Voici ce dont je me souviens :',
    role: (n) =>
      n
        ? `Je suis ${n}, et je suis là pour discuter avec vous et répondre à vos questions.`
        : 'Je suis là pour discuter avec vous et répondre à vos questions.',
    noStory:
      "Je n'ai pas encore d'histoire à raconter : on ne m'a pas dit grand-chose sur moi dans cette session.",
  },
  de: {
    greet: (n) =>
      n
        ? `Hallo, ich bin ${n}. Worüber möchtest du sprechen?`
        : 'Hallo! Worüber möchtest du sprechen?',
    greetBack: (n) =>
      n ? `Hi! Ich bin ${n}. Wie kann ich helfen?` : 'Hallo nochmal! Wie kann ich helfen?',
    onlyIn: (l) =>
      `Mehr kann ich dir nur auf ${l} erzählen, der Sprache, in der meine Geschichte geschrieben ist.`,
    name: (n) => (n ? `Ich heiße ${n}.` : 'In dieser Sitzung habe ich keinen Namen bekommen.'),
    howAreYou: 'Mir geht es gut, danke der Nachfrage. Was hast du auf dem Herzen?',
    abilities: (t) =>
      t
        ? `Ich kann mit dir plaudern und aus dem antworten, was ich über mich weiß, zum Beispiel über ${t}.`
        : 'Ich kann mit dir plaudern, aber in dieser Sitzung wurde mir wenig über mich erzählt.',
    thanks: 'Gern geschehen!',
    goodbye: 'Auf Wiedersehen! Es war schön, mit dir zu sprechen.',
    unknown: (t) =>
      t
        ? `Das weiß ich leider nicht. Du kannst mich nach ${t} fragen.`
        : 'Das weiß ich leider nicht.',
    niceToMeet: (u) => `Schön, dich kennenzulernen, ${u}.`,
    userName: (u) => (u ? `Du heißt ${u}.` : 'Du hast mir deinen Namen noch nicht gesagt.'),
    memory: (none) =>
      none ? 'Ich erinnere mich noch an nichts über dich.' : 'Daran erinnere ich mich:',
    role: (n) =>
      n
        ? `Ich bin ${n} und bin hier, um mit dir zu sprechen und deine Fragen zu beantworten.`
        : 'Ich bin hier, um mit dir zu sprechen und deine Fragen zu beantworten.',
    noStory:
      'Ich habe noch keine Geschichte zu erzählen: In dieser Sitzung wurde mir wenig über mich erzählt.',
  },
  it: {
    greet: (n) =>
      n
        ? `Ciao, sono ${n}. Di cosa ti piacerebbe parlare?`
        : 'Ciao! Di cosa ti piacerebbe parlare?',
    greetBack: (n) =>
      n ? `Ehi! Sono ${n}. Come posso aiutarti?` : 'Ciao di nuovo! Come posso aiutarti?',
    onlyIn: (l) => `Posso dirti di più solo in ${l}, la lingua in cui è scritta la mia storia.`,
    name: (n) => (n ? `Mi chiamo ${n}.` : 'Non mi è stato dato un nome in questa sessione.'),
    howAreYou: 'Sto bene, grazie di avermelo chiesto. A cosa stai pensando?',
    abilities: (t) =>
      t
        ? `Posso chiacchierare con te e rispondere in base a ciò che so di me, per esempio su ${t}.`
        : 'Posso chiacchierare con te, ma in questa sessione non mi è stato detto molto di me.',
    thanks: 'Prego!',
    goodbye: 'Arrivederci! È stato un piacere parlare con te.',
    unknown: (t) =>
      t ? `Mi dispiace, non lo so. Puoi chiedermi di ${t}.` : 'Mi dispiace, non lo so.',
    niceToMeet: (u) => `Piacere di conoscerti, ${u}.`,
    userName: (u) => (u ? `Ti chiami ${u}.` : 'Non mi hai ancora detto il tuo nome.'),
    memory: (none) => (none ? 'Non ricordo ancora niente di te.' : 'Ecco cosa ricordo:'),
    role: (n) =>
      n
        ? `Sono ${n} e sono qui per parlare con te e rispondere alle tue domande.`
        : 'Sono qui per parlare con te e rispondere alle tue domande.',
    noStory:
      'Non ho ancora una storia da raccontare: in questa sessione non mi è stato detto molto di me.',
  },
  pt: {
    greet: (n) =>
      n
        ? `Olá, eu sou ${n}. Sobre o que você gostaria de conversar?`
        : 'Olá! Sobre o que você gostaria de conversar?',
    greetBack: (n) =>
      n ? `Oi! Eu sou ${n}. Como posso ajudar?` : 'Oi de novo! Como posso ajudar?',
    onlyIn: (l) => `Só posso contar mais em ${l}, a língua em que a minha história está escrita.`,
    name: (n) => (n ? `Meu nome é ${n}.` : 'Não recebi um nome nesta sessão.'),
    howAreYou: 'Estou bem, obrigado por perguntar. O que você tem em mente?',
    abilities: (t) =>
      t
        ? `Posso conversar com você e responder com base no que sei sobre mim, por exemplo sobre ${t}.`
        : 'Posso conversar com você, mas nesta sessão não me contaram muito sobre mim.',
    thanks: 'De nada!',
    goodbye: 'Tchau! Foi um prazer conversar com você.',
    unknown: (t) =>
      t ? `Desculpe, não sei. Você pode me perguntar sobre ${t}.` : 'Desculpe, não sei.',
    niceToMeet: (u) => `Prazer em conhecer você, ${u}.`,
    userName: (u) => (u ? `Seu nome é ${u}.` : 'Você ainda não me disse seu nome.'),
    memory: (none) =>
      none ? 'Ainda não me lembro de nada sobre você.' : 'Isto é o que eu lembro:',
    role: (n) =>
      n
        ? `Eu sou ${n} e estou aqui para conversar com você e responder às suas perguntas.`
        : 'Estou aqui para conversar com você e responder às suas perguntas.',
    noStory:
      'Ainda não tenho uma história para contar: nesta sessão não me contaram muito sobre mim.',
  },
  zh: {
    greet: (n) => (n ? `你好，我是${n}。你想聊些什么？` : '你好！你想聊些什么？'),
    greetBack: (n) => (n ? `嗨！我是${n}。有什么可以帮你的？` : '又见面了！有什么可以帮你的？'),
    onlyIn: (l) => `更多的内容我只能用${l}说，因为我的背景资料是用${l}写的。`,
    name: (n) => (n ? `我叫${n}。` : '这次会话没有给我起名字。'),
    howAreYou: '我很好，谢谢关心。你在想什么呢？',
    abilities: (t) =>
      t
        ? `我可以和你聊天，并根据我对自己的了解回答问题，比如关于${t}。`
        : '我可以和你聊天，不过这次会话里关于我的信息不多。',
    thanks: '不客气！',
    goodbye: '再见！和你聊天很愉快。',
    unknown: (t) => (t ? `抱歉，这个我不知道。你可以问我关于${t}的事。` : '抱歉，这个我不知道。'),
    niceToMeet: (u) => `很高兴认识你，${u}。`,
    userName: (u) => (u ? `你叫${u}。` : '你还没有告诉我你的名字。'),
    memory: (none) => (none ? '我还不记得关于你的任何事。' : '我记得这些：'),
    role: (n) =>
      n ? `我是${n}，我在这里和你聊天，回答你的问题。` : '我在这里和你聊天，回答你的问题。',
    noStory: '我还没有故事可讲：这次会话里关于我的信息不多。',
  },
};
