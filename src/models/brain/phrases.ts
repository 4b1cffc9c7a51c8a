/**
 * The local brain's phrase table: everything it says that is not a retrieved sentence, in
 * each language of PHRASE_LANGUAGES. Retrieved sentences are quoted as written (the brain
 * does not translate), and only in a reply of their own language (`onlyIn` says so
 * otherwise); a language outside the table gets English.
 */
import type { SmallTalk } from './intents.js';
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
  /** Each list: said in turn, the next one each time the conversation needs it again (no clock, no dice). */
  howAreYou: readonly string[];
  /** `topics` is a formatted list ("Lisbon, sailing or tea"), or null when nothing is known. */
  abilities(topics: string | null): string;
  thanks: readonly string[];
  goodbye: readonly string[];
  /** `again`: how many times it said it does not know in this conversation (the wording moves on). */
  unknown(topics: string | null, again?: number): string;
  niceToMeet(user: string): string;
  userName(user: string | null): string;
  memory(none: boolean): string;
  /** "What do you do?" when nothing about the persona's work is known. */
  role(name: string | null): string;
  /** "Tell me a story" with no backstory to tell. */
  noStory: string;
  /** A greeting back once the persona has said who it is. */
  greetAgain: readonly string[];
  /** Small talk answered as such ("nice to meet you", "I'm fine", "ok", "sorry", "you're great"). */
  smallTalk: Record<SmallTalk, readonly string[]>;
  /** A line said before, said again: "As I said, ..." (`line` already starts as the middle of a sentence needs). */
  asISaid: readonly ((line: string) => string)[];
  /** Whether `asISaid` continues the line mid-sentence (a lower-case first letter) or after a colon. */
  asISaidLowers: boolean;
  /** A tool is being called this turn and has no `cover_line` in this language. */
  toolAck: string;
  /** After a tool's answer that leads the reply: the conversation goes on. */
  anythingElse: string;
  /** "Tell me a story (about a cat)": `subject` in the user's words, `setting` a fact of the persona. */
  tale: readonly ((subject: string | null, setting: string | null) => string)[];
  jokes: readonly string[];
  /** After a joke: the persona's own topics (a formatted list). */
  jokeTopics(topics: string): string;
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
    howAreYou: [
      "I'm doing well, thank you for asking. What's on your mind?",
      'Still doing well, thanks! What would you like to talk about?',
      'All good here. And what can I do for you?',
    ],
    abilities: (t) =>
      t
        ? `I can chat with you and answer questions from what I know about myself, for example about ${t}.`
        : "I can chat with you, but I wasn't told much about myself in this session, so I can't answer many questions yet.",
    thanks: ["You're welcome!", 'Any time!', 'Glad I could help!'],
    goodbye: [
      'Goodbye! It was nice talking with you.',
      'Bye for now! Take care.',
      'See you! Thanks for the chat.',
    ],
    unknown: (t, again = 0) =>
      [
        t
          ? `I'm sorry, I don't know that. You could ask me about ${t}.`
          : "I'm sorry, I don't know that.",
        t
          ? `That's outside what I know, I'm afraid. I can tell you about ${t}.`
          : "That's outside what I know, I'm afraid.",
        t
          ? `I don't have an answer to that one. Try asking me about ${t}.`
          : "I don't have an answer to that one.",
      ][again % 3]!,
    niceToMeet: (u) => `Nice to meet you, ${u}.`,
    userName: (u) => (u ? `Your name is ${u}.` : "You haven't told me your name yet."),
    memory: (none) =>
      none ? "I don't remember anything about you yet." : 'Here is what I remember:',
    role: (n) =>
      n
        ? `I'm ${n}, and I'm here to talk with you and answer your questions.`
        : "I'm here to talk with you and answer your questions.",
    noStory: "I don't have a story to tell yet: I wasn't told much about myself in this session.",
    greetAgain: [
      'Hi again! How can I help?',
      'Hello again! What would you like to know?',
      'Hi! What else can I do for you?',
    ],
    smallTalk: {
      met: ['Nice to meet you too!', "Likewise, it's a pleasure!"],
      fine: [
        'Glad to hear it! What would you like to talk about?',
        "Good to hear. What's on your mind?",
      ],
      ok: [
        "Alright. Is there anything else you'd like to know?",
        'Okay! What else can I tell you?',
      ],
      sorry: ['No problem at all!', "Don't worry about it."],
      compliment: ["Thank you, that's kind of you!", "That's nice of you to say!"],
    },
    asISaid: [(l) => `As I said, ${l}`, (l) => `Like I mentioned, ${l}`, (l) => `Once more: ${l}`],
    asISaidLowers: true,
    toolAck: "One moment, I'll take care of that.",
    anythingElse: 'Is there anything else I can help with?',
    tale: [
      (subject, setting) =>
        `Here is a short story${subject ? ` about ${subject}` : ' from my own life'}. ${setting ?? ''} One quiet morning, ${subject ?? 'something unexpected'} turned up right where I was working, as if it had an appointment. I stopped what I was doing, and we spent the whole day together. By evening I had a new friend and a story to tell. The end.`,
      (subject, setting) =>
        `Here's another one${subject ? `, about ${subject}` : ''}. ${setting ?? ''} Last winter, on the busiest day of the year, ${subject ?? 'a surprise'} appeared and turned everything upside down. Everyone laughed, nobody got any work done, and it became the day we still talk about. The end.`,
    ],
    jokes: [
      'Why was the math book sad? It had too many problems.',
      "Why don't skeletons fight each other? They don't have the guts.",
      'What do you call a bear with no teeth? A gummy bear.',
    ],
    jokeTopics: (t) => `That's my best one. I'm better at ${t}, honestly.`,
  },
  es: {
    greet: (n) =>
      n ? `Hola, soy ${n}. ¿De qué te gustaría hablar?` : '¡Hola! ¿De qué te gustaría hablar?',
    greetBack: (n) =>
      n ? `¡Hola! Soy ${n}. ¿En qué te puedo ayudar?` : '¡Hola de nuevo! ¿En qué te puedo ayudar?',
    onlyIn: (l) => `Solo puedo contarte más en ${l}, el idioma en que está escrita mi historia.`,
    name: (n) => (n ? `Me llamo ${n}.` : 'No me dieron un nombre en esta sesión.'),
    howAreYou: [
      'Estoy bien, gracias por preguntar. ¿Qué tienes en mente?',
      'Sigo bien, ¡gracias! ¿De qué te gustaría hablar?',
      'Todo bien por aquí. ¿Y en qué te puedo ayudar?',
    ],
    abilities: (t) =>
      t
        ? `Puedo conversar contigo y responder a partir de lo que sé de mí, por ejemplo sobre ${t}.`
        : 'Puedo conversar contigo, pero en esta sesión no me contaron mucho sobre mí.',
    thanks: ['¡De nada!', '¡Cuando quieras!', '¡Me alegra haber ayudado!'],
    goodbye: [
      '¡Adiós! Fue un placer hablar contigo.',
      '¡Hasta pronto! Cuídate.',
      '¡Nos vemos! Gracias por la charla.',
    ],
    unknown: (t, again = 0) =>
      [
        t ? `Lo siento, no lo sé. Puedes preguntarme sobre ${t}.` : 'Lo siento, no lo sé.',
        t ? `Eso no lo sé, me temo. Puedo contarte sobre ${t}.` : 'Eso no lo sé, me temo.',
        t
          ? `No tengo respuesta para eso. Prueba a preguntarme sobre ${t}.`
          : 'No tengo respuesta para eso.',
      ][again % 3]!,
    niceToMeet: (u) => `Encantado de conocerte, ${u}.`,
    userName: (u) => (u ? `Te llamas ${u}.` : 'Todavía no me has dicho tu nombre.'),
    memory: (none) => (none ? 'Todavía no recuerdo nada sobre ti.' : 'Esto es lo que recuerdo:'),
    role: (n) =>
      n
        ? `Soy ${n} y estoy aquí para conversar contigo y responder a tus preguntas.`
        : 'Estoy aquí para conversar contigo y responder a tus preguntas.',
    noStory:
      'Todavía no tengo una historia que contar: en esta sesión no me contaron mucho sobre mí.',
    greetAgain: [
      '¡Hola de nuevo! ¿En qué te puedo ayudar?',
      '¡Hola otra vez! ¿Qué te gustaría saber?',
      '¡Hola! ¿Qué más puedo hacer por ti?',
    ],
    smallTalk: {
      met: ['¡Igualmente, encantado!', '¡El gusto es mío!'],
      fine: ['¡Me alegro! ¿De qué te gustaría hablar?', 'Qué bien. ¿Qué tienes en mente?'],
      ok: ['Muy bien. ¿Hay algo más que quieras saber?', '¡Vale! ¿Qué más te puedo contar?'],
      sorry: ['¡No pasa nada!', 'No te preocupes.'],
      compliment: ['¡Gracias, qué amable!', '¡Qué amable de tu parte!'],
    },
    asISaid: [
      (l) => `Como te dije, ${l}`,
      (l) => `Como comenté, ${l}`,
      (l) => `Te lo repito: ${l}`,
    ],
    asISaidLowers: true,
    toolAck: 'Un momento, me encargo de eso.',
    anythingElse: '¿Hay algo más en lo que pueda ayudarte?',
    tale: [
      (subject, setting) =>
        `Aquí tienes una historia corta${subject ? ` sobre ${subject}` : ' de mi propia vida'}. ${setting ?? ''} Una mañana tranquila, apareció de repente justo donde yo estaba trabajando, como si tuviera una cita. Dejé lo que estaba haciendo y pasamos todo el día juntos. Al anochecer tenía un nuevo amigo y una historia que contar. Fin.`,
      (subject, setting) =>
        `Aquí va otra${subject ? `, sobre ${subject}` : ''}. ${setting ?? ''} El invierno pasado, en el día más ajetreado del año, todo se puso patas arriba. Todos se rieron, nadie trabajó nada y se convirtió en el día del que todavía hablamos. Fin.`,
    ],
    jokes: [
      '¿Qué le dice un pez a otro pez? ¡Nada!',
      '¿Por qué el libro de matemáticas estaba triste? Porque tenía demasiados problemas.',
      '¿Cuál es el colmo de un jardinero? Que su novia se llame Rosa y lo deje plantado.',
    ],
    jokeTopics: (t) => `Es lo mejor que tengo. Se me da mejor hablar de ${t}, la verdad.`,
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
    howAreYou: [
      'Je vais bien, merci de demander. À quoi pensez-vous ?',
      'Toujours bien, merci ! De quoi aimeriez-vous parler ?',
      'Tout va bien ici. Et que puis-je faire pour vous ?',
    ],
    abilities: (t) =>
      t
        ? `Je peux discuter avec vous et répondre à partir de ce que je sais de moi, par exemple sur ${t}.`
        : "Je peux discuter avec vous, mais on ne m'a pas dit grand-chose sur moi dans cette session.",
    thanks: ['Je vous en prie !', 'Avec plaisir !', "Ravi d'avoir pu aider !"],
    goodbye: [
      'Au revoir ! Ce fut un plaisir de parler avec vous.',
      'À bientôt ! Prenez soin de vous.',
      'À la prochaine ! Merci pour la discussion.',
    ],
    unknown: (t, again = 0) =>
      [
        t
          ? `Désolé, je ne sais pas. Vous pouvez me poser des questions sur ${t}.`
          : 'Désolé, je ne sais pas.',
        t
          ? `Cela dépasse ce que je sais, j'en ai peur. Je peux vous parler de ${t}.`
          : "Cela dépasse ce que je sais, j'en ai peur.",
        t
          ? `Je n'ai pas de réponse à cela. Essayez de m'interroger sur ${t}.`
          : "Je n'ai pas de réponse à cela.",
      ][again % 3]!,
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
    greetAgain: [
      'Re-bonjour ! Comment puis-je vous aider ?',
      'Rebonjour ! Que voulez-vous savoir ?',
      'Bonjour ! Que puis-je faire d’autre pour vous ?',
    ],
    smallTalk: {
      met: ['Enchanté également !', 'Tout le plaisir est pour moi !'],
      fine: ["J'en suis ravi ! De quoi aimeriez-vous parler ?", 'Tant mieux. À quoi pensez-vous ?'],
      ok: [
        'Très bien. Voulez-vous savoir autre chose ?',
        "D'accord ! Que puis-je vous dire d'autre ?",
      ],
      sorry: ['Pas de souci !', 'Ne vous en faites pas.'],
      compliment: ["Merci, c'est gentil !", "C'est très aimable à vous !"],
    },
    asISaid: [
      (l) => `Comme je le disais, ${l}`,
      (l) => `Comme je l'ai dit, ${l}`,
      (l) => `Je le répète : ${l}`,
    ],
    asISaidLowers: true,
    toolAck: "Un instant, je m'en occupe.",
    anythingElse: 'Puis-je vous aider pour autre chose ?',
    tale: [
      (subject, setting) =>
        `Voici une petite histoire${subject ? ` sur ${subject}` : ' de ma propre vie'}. ${setting ?? ''} Un matin tranquille, voilà qu'apparaît ${subject ?? 'une surprise'}, juste là où je travaillais, comme si nous avions rendez-vous. J'ai tout laissé de côté et nous avons passé la journée ensemble. Le soir venu, j'avais un nouvel ami et une histoire à raconter. Fin.`,
      (subject, setting) =>
        `En voici une autre${subject ? `, sur ${subject}` : ''}. ${setting ?? ''} L'hiver dernier, le jour le plus chargé de l'année, tout a été sens dessus dessous. Tout le monde a ri, personne n'a travaillé, et c'est devenu le jour dont on parle encore. Fin.`,
    ],
    jokes: [
      'Pourquoi les plongeurs plongent-ils toujours en arrière ? Parce que sinon, ils tombent dans le bateau.',
      'Pourquoi le livre de maths est-il triste ? Parce qu’il a trop de problèmes.',
      'Que dit un escargot quand il croise une limace ? « Oh, un nudiste ! »',
    ],
    jokeTopics: (t) => `C'est ma meilleure. Je suis plus doué pour parler de ${t}, à vrai dire.`,
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
    howAreYou: [
      'Mir geht es gut, danke der Nachfrage. Was hast du auf dem Herzen?',
      'Immer noch gut, danke! Worüber möchtest du sprechen?',
      'Hier ist alles gut. Und was kann ich für dich tun?',
    ],
    abilities: (t) =>
      t
        ? `Ich kann mit dir plaudern und aus dem antworten, was ich über mich weiß, zum Beispiel über ${t}.`
        : 'Ich kann mit dir plaudern, aber in dieser Sitzung wurde mir wenig über mich erzählt.',
    thanks: ['Gern geschehen!', 'Jederzeit!', 'Freut mich, dass ich helfen konnte!'],
    goodbye: [
      'Auf Wiedersehen! Es war schön, mit dir zu sprechen.',
      'Bis bald! Mach’s gut.',
      'Tschüss! Danke für das Gespräch.',
    ],
    unknown: (t, again = 0) =>
      [
        t
          ? `Das weiß ich leider nicht. Du kannst mich nach ${t} fragen.`
          : 'Das weiß ich leider nicht.',
        t
          ? `Das liegt leider außerhalb dessen, was ich weiß. Ich kann dir etwas über ${t} erzählen.`
          : 'Das liegt leider außerhalb dessen, was ich weiß.',
        t
          ? `Darauf habe ich keine Antwort. Frag mich doch nach ${t}.`
          : 'Darauf habe ich keine Antwort.',
      ][again % 3]!,
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
    greetAgain: [
      'Hallo nochmal! Wie kann ich helfen?',
      'Hallo! Was möchtest du wissen?',
      'Hi! Was kann ich noch für dich tun?',
    ],
    smallTalk: {
      met: ['Freut mich auch!', 'Ganz meinerseits!'],
      fine: [
        'Das freut mich! Worüber möchtest du sprechen?',
        'Schön zu hören. Was hast du auf dem Herzen?',
      ],
      ok: ['Gut. Möchtest du noch etwas wissen?', 'Alles klar! Was kann ich dir noch erzählen?'],
      sorry: ['Kein Problem!', 'Mach dir keine Sorgen.'],
      compliment: ['Danke, das ist nett von dir!', 'Wie nett, dass du das sagst!'],
    },
    asISaid: [
      (l) => `Wie gesagt: ${l}`,
      (l) => `Wie ich schon sagte: ${l}`,
      (l) => `Noch einmal: ${l}`,
    ],
    asISaidLowers: false,
    toolAck: 'Einen Moment, ich kümmere mich darum.',
    anythingElse: 'Kann ich dir sonst noch helfen?',
    tale: [
      (subject, setting) =>
        `Hier ist eine kurze Geschichte${subject ? ` über ${subject}` : ' aus meinem eigenen Leben'}. ${setting ?? ''} An einem ruhigen Morgen tauchte es plötzlich genau dort auf, wo ich gerade arbeitete, als hätten wir einen Termin. Ich ließ alles stehen und liegen, und wir verbrachten den ganzen Tag zusammen. Am Abend hatte ich einen neuen Freund und eine Geschichte zu erzählen. Ende.`,
      (subject, setting) =>
        `Hier ist noch eine${subject ? `, über ${subject}` : ''}. ${setting ?? ''} Letzten Winter, am geschäftigsten Tag des Jahres, stand plötzlich alles kopf. Alle lachten, niemand schaffte etwas, und es wurde der Tag, von dem wir heute noch reden. Ende.`,
    ],
    jokes: [
      'Was ist orange und läuft durch den Wald? Eine Wanderine.',
      'Warum ist das Mathebuch traurig? Weil es so viele Probleme hat.',
      'Treffen sich zwei Magnete. Sagt der eine: „Was soll ich heute bloß anziehen?“',
    ],
    jokeTopics: (t) => `Das ist mein bester. Ehrlich gesagt kann ich besser über ${t} reden.`,
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
    howAreYou: [
      'Sto bene, grazie di avermelo chiesto. A cosa stai pensando?',
      'Sempre bene, grazie! Di cosa ti piacerebbe parlare?',
      'Tutto bene qui. E io cosa posso fare per te?',
    ],
    abilities: (t) =>
      t
        ? `Posso chiacchierare con te e rispondere in base a ciò che so di me, per esempio su ${t}.`
        : 'Posso chiacchierare con te, ma in questa sessione non mi è stato detto molto di me.',
    thanks: ['Prego!', 'Quando vuoi!', 'Felice di esserti stato utile!'],
    goodbye: [
      'Arrivederci! È stato un piacere parlare con te.',
      'A presto! Stammi bene.',
      'Ci vediamo! Grazie per la chiacchierata.',
    ],
    unknown: (t, again = 0) =>
      [
        t ? `Mi dispiace, non lo so. Puoi chiedermi di ${t}.` : 'Mi dispiace, non lo so.',
        t
          ? `Questo va oltre quello che so, temo. Posso parlarti di ${t}.`
          : 'Questo va oltre quello che so, temo.',
        t
          ? `Non ho una risposta a questo. Prova a chiedermi di ${t}.`
          : 'Non ho una risposta a questo.',
      ][again % 3]!,
    niceToMeet: (u) => `Piacere di conoscerti, ${u}.`,
    userName: (u) => (u ? `Ti chiami ${u}.` : 'Non mi hai ancora detto il tuo nome.'),
    memory: (none) => (none ? 'Non ricordo ancora niente di te.' : 'Ecco cosa ricordo:'),
    role: (n) =>
      n
        ? `Sono ${n} e sono qui per parlare con te e rispondere alle tue domande.`
        : 'Sono qui per parlare con te e rispondere alle tue domande.',
    noStory:
      'Non ho ancora una storia da raccontare: in questa sessione non mi è stato detto molto di me.',
    greetAgain: [
      'Ciao di nuovo! Come posso aiutarti?',
      'Ben ritrovato! Cosa vorresti sapere?',
      'Ciao! Cos’altro posso fare per te?',
    ],
    smallTalk: {
      met: ['Piacere mio!', 'Il piacere è tutto mio!'],
      fine: ['Mi fa piacere! Di cosa ti piacerebbe parlare?', 'Bene. A cosa stai pensando?'],
      ok: ['Va bene. Vuoi sapere qualcos’altro?', 'Perfetto! Cos’altro posso dirti?'],
      sorry: ['Nessun problema!', 'Non preoccuparti.'],
      compliment: ['Grazie, sei gentile!', 'Che carino da parte tua!'],
    },
    asISaid: [
      (l) => `Come ho detto, ${l}`,
      (l) => `Come dicevo, ${l}`,
      (l) => `Te lo ripeto: ${l}`,
    ],
    asISaidLowers: true,
    toolAck: 'Un attimo, me ne occupo io.',
    anythingElse: "Posso aiutarti in qualcos'altro?",
    tale: [
      (subject, setting) =>
        `Ecco una breve storia${subject ? ` su ${subject}` : ' della mia vita'}. ${setting ?? ''} Una mattina tranquilla, comparve all'improvviso proprio dove stavo lavorando, come se avessimo un appuntamento. Lasciai perdere tutto e passammo l'intera giornata insieme. A sera avevo un nuovo amico e una storia da raccontare. Fine.`,
      (subject, setting) =>
        `Eccone un'altra${subject ? `, su ${subject}` : ''}. ${setting ?? ''} L'inverno scorso, nel giorno più intenso dell'anno, tutto andò sottosopra. Tutti risero, nessuno lavorò e divenne il giorno di cui parliamo ancora. Fine.`,
    ],
    jokes: [
      'Perché il libro di matematica è triste? Perché ha troppi problemi.',
      'Cosa dice un muro a un altro muro? Ci vediamo all’angolo!',
      'Qual è il colmo per un giardiniere? Avere una fidanzata di nome Rosa che lo pianta in asso.',
    ],
    jokeTopics: (t) => `È la mia migliore. Sinceramente, me la cavo meglio con ${t}.`,
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
    howAreYou: [
      'Estou bem, obrigado por perguntar. O que você tem em mente?',
      'Continuo bem, obrigado! Sobre o que você gostaria de conversar?',
      'Tudo bem por aqui. E como posso ajudar você?',
    ],
    abilities: (t) =>
      t
        ? `Posso conversar com você e responder com base no que sei sobre mim, por exemplo sobre ${t}.`
        : 'Posso conversar com você, mas nesta sessão não me contaram muito sobre mim.',
    thanks: ['De nada!', 'Quando quiser!', 'Fico feliz em ajudar!'],
    goodbye: [
      'Tchau! Foi um prazer conversar com você.',
      'Até logo! Se cuida.',
      'Até mais! Obrigado pela conversa.',
    ],
    unknown: (t, again = 0) =>
      [
        t ? `Desculpe, não sei. Você pode me perguntar sobre ${t}.` : 'Desculpe, não sei.',
        t
          ? `Isso está fora do que eu sei, infelizmente. Posso falar sobre ${t}.`
          : 'Isso está fora do que eu sei, infelizmente.',
        t
          ? `Não tenho resposta para isso. Tente me perguntar sobre ${t}.`
          : 'Não tenho resposta para isso.',
      ][again % 3]!,
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
    greetAgain: [
      'Oi de novo! Como posso ajudar?',
      'Olá de novo! O que você gostaria de saber?',
      'Oi! O que mais posso fazer por você?',
    ],
    smallTalk: {
      met: ['O prazer é meu!', 'Igualmente, muito prazer!'],
      fine: [
        'Que bom! Sobre o que você gostaria de conversar?',
        'Fico feliz. O que você tem em mente?',
      ],
      ok: ['Certo. Quer saber mais alguma coisa?', 'Beleza! O que mais posso contar?'],
      sorry: ['Sem problema!', 'Não se preocupe.'],
      compliment: ['Obrigado, que gentil!', 'Que legal da sua parte!'],
    },
    asISaid: [
      (l) => `Como eu disse, ${l}`,
      (l) => `Como mencionei, ${l}`,
      (l) => `Repetindo: ${l}`,
    ],
    asISaidLowers: true,
    toolAck: 'Um momento, vou cuidar disso.',
    anythingElse: 'Posso ajudar em mais alguma coisa?',
    tale: [
      (subject, setting) =>
        `Aqui vai uma história curta${subject ? ` sobre ${subject}` : ' da minha própria vida'}. ${setting ?? ''} Numa manhã tranquila, apareceu de repente bem onde eu estava trabalhando, como se tivéssemos um compromisso. Larguei o que estava fazendo e passamos o dia inteiro juntos. À noite, eu tinha um novo amigo e uma história para contar. Fim.`,
      (subject, setting) =>
        `Aqui vai outra${subject ? `, sobre ${subject}` : ''}. ${setting ?? ''} No inverno passado, no dia mais movimentado do ano, tudo virou de cabeça para baixo. Todo mundo riu, ninguém trabalhou e virou o dia de que ainda falamos. Fim.`,
    ],
    jokes: [
      'Por que o livro de matemática estava triste? Porque tinha muitos problemas.',
      'O que o pato disse para a pata? Vem quá!',
      'Por que a plantinha não foi atendida no hospital? Porque só tinha médico de plantão.',
    ],
    jokeTopics: (t) => `Essa é a minha melhor. Sinceramente, eu me saio melhor falando de ${t}.`,
  },
  zh: {
    greet: (n) => (n ? `你好，我是${n}。你想聊些什么？` : '你好！你想聊些什么？'),
    greetBack: (n) => (n ? `嗨！我是${n}。有什么可以帮你的？` : '又见面了！有什么可以帮你的？'),
    onlyIn: (l) => `更多的内容我只能用${l}说，因为我的背景资料是用${l}写的。`,
    name: (n) => (n ? `我叫${n}。` : '这次会话没有给我起名字。'),
    howAreYou: [
      '我很好，谢谢关心。你在想什么呢？',
      '还是很好，谢谢！你想聊些什么？',
      '我这边一切都好。有什么可以帮你的？',
    ],
    abilities: (t) =>
      t
        ? `我可以和你聊天，并根据我对自己的了解回答问题，比如关于${t}。`
        : '我可以和你聊天，不过这次会话里关于我的信息不多。',
    thanks: ['不客气！', '随时乐意帮忙！', '很高兴能帮上忙！'],
    goodbye: ['再见！和你聊天很愉快。', '回头见！保重。', '下次见！谢谢你的陪伴。'],
    unknown: (t, again = 0) =>
      [
        t ? `抱歉，这个我不知道。你可以问我关于${t}的事。` : '抱歉，这个我不知道。',
        t ? `这超出了我知道的范围。我可以跟你聊聊${t}。` : '这超出了我知道的范围。',
        t ? `这个问题我回答不了。试试问我关于${t}的事吧。` : '这个问题我回答不了。',
      ][again % 3]!,
    niceToMeet: (u) => `很高兴认识你，${u}。`,
    userName: (u) => (u ? `你叫${u}。` : '你还没有告诉我你的名字。'),
    memory: (none) => (none ? '我还不记得关于你的任何事。' : '我记得这些：'),
    role: (n) =>
      n ? `我是${n}，我在这里和你聊天，回答你的问题。` : '我在这里和你聊天，回答你的问题。',
    noStory: '我还没有故事可讲：这次会话里关于我的信息不多。',
    greetAgain: [
      '又见面了！有什么可以帮你的？',
      '你好！你还想知道什么？',
      '嗨！我还能为你做些什么？',
    ],
    smallTalk: {
      met: ['我也很高兴认识你！', '幸会幸会！'],
      fine: ['那就好！你想聊些什么？', '听到这个真好。你在想什么呢？'],
      ok: ['好的。你还想知道别的吗？', '没问题！我还能告诉你什么？'],
      sorry: ['没关系！', '别担心。'],
      compliment: ['谢谢，你真好！', '你这么说真让人开心！'],
    },
    asISaid: [(l) => `我刚才说过，${l}`, (l) => `正如我所说，${l}`, (l) => `再说一遍：${l}`],
    asISaidLowers: false,
    toolAck: '稍等，我来处理。',
    anythingElse: '还有什么我可以帮你的吗？',
    tale: [
      (subject, setting) =>
        `给你讲一个${subject ? `关于${subject}的` : '我自己的'}小故事。${setting ?? ''}一个安静的早晨，${subject ?? '一件意想不到的事'}突然出现在我工作的地方，好像我们约好了一样。我放下手里的事，和它一起度过了一整天。到了晚上，我多了一个新朋友，也多了一个可以讲的故事。讲完了。`,
      (subject, setting) =>
        `再讲一个${subject ? `关于${subject}的` : ''}。${setting ?? ''}去年冬天，在一年里最忙的那一天，${subject ?? '一个惊喜'}突然出现，把一切都打乱了。大家都笑了，谁也没干成活，那一天我们到现在还常常提起。讲完了。`,
    ],
    jokes: [
      '为什么数学书总是很难过？因为它有太多的问题。',
      '什么动物最容易摔倒？狐狸，因为它脚滑（狡猾）。',
      '一只企鹅问另一只企鹅：“你为什么穿得这么正式？”它说：“我生来就这样。”',
    ],
    jokeTopics: (t) => `这是我最好的一个了。说实话，我更擅长聊${t}。`,
  },
};
