// Writes fixtures/asr/conversation-en.txt: the general conversational English the session's
// language model backs off into (docs/turns.md "The session's language model"). Written for
// this project (MIT, like the package): hand-written sentences plus the combinations of the
// templates below, deterministic (no randomness), one sentence a line. The questions of
// bench/edge-mic.bench.js are left out (read from it; see the end).
// `node scripts/make-asr-corpus.js` rewrites it; the file is committed and shipped.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const out = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  'fixtures',
  'asr',
  'conversation-en.txt',
);

const lines = new Set();
const add = (s) => lines.add(s.replace(/\s+/g, ' ').trim());
/** Every combination of the slot lists, `{0}`, `{1}`, ... in the template. */
function expand(template, ...slots) {
  const go = (i, s) => {
    if (i === slots.length) return add(s);
    for (const v of slots[i]) go(i + 1, s.replaceAll(`{${i}}`, v));
  };
  go(0, template);
}

// Greetings, small talk, politeness.
for (const s of [
  'Hello',
  'Hi there',
  'Hey',
  'Good morning',
  'Good afternoon',
  'Good evening',
  'Hello again',
  'Nice to meet you',
  'Nice to meet you too',
  'How are you',
  'How are you doing',
  'How are you today',
  'How is it going',
  'How have you been',
  'What is up',
  'I am fine thank you',
  'I am doing well',
  'Not bad',
  'Pretty good',
  'Thank you',
  'Thanks a lot',
  'Thank you very much',
  'Thanks for your help',
  'You are welcome',
  'No problem',
  'Sorry',
  'I am sorry',
  'Excuse me',
  'Goodbye',
  'Bye',
  'See you later',
  'See you soon',
  'Talk to you later',
  'Have a nice day',
  'Take care',
  'Good night',
  'Yes',
  'No',
  'Yes please',
  'No thank you',
  'Okay',
  'All right',
  'Sure',
  'Of course',
  'Maybe',
  'I think so',
  'I do not think so',
  'I do not know',
  'I am not sure',
  'That is great',
  'That is nice',
  'That sounds good',
  'That makes sense',
  'I see',
  'Got it',
  'Really',
  'Wow',
  'Cool',
  'Great',
  'Can you repeat that',
  'Could you say that again',
  'Sorry I did not catch that',
  'What did you say',
  'I did not understand',
  'Please speak slowly',
  'Wait a moment',
  'Just a second',
  'Let me think',
  'Tell me more',
  'Go on',
  'What do you mean',
  'Can you explain that',
  'Can you give me an example',
  'Who are you',
  'What are you',
  'Are you a robot',
  'Are you a real person',
  'What is your name',
  'My name is Sam',
  'Where are you from',
  'Where do you live',
  'How old are you',
  'What do you do',
  'What do you like',
  'Do you have any hobbies',
  'Tell me about yourself',
  'Tell me a joke',
  'Tell me a story',
  'That was funny',
  'What can you do',
  'What can you help me with',
  'Can you help me',
  'I need some help',
  'I have a question',
  'I have another question',
  'One more question',
  'That is all',
  'That is all for now',
  'Nothing else thanks',
  'You have been very helpful',
  'Do you remember me',
  'What did I ask you before',
  'What is my name',
  'Do you know my name',
])
  add(s);

expand(
  '{0} {1}',
  ['What is', 'Where is', 'How is', 'When is', 'Who is'],
  [
    'the weather today',
    'the best way to learn',
    'your favourite food',
    'your favourite colour',
    'the nearest station',
    'the meeting',
    'the next step',
    'the problem',
    'the answer',
    'the plan',
    'my account',
    'my profile',
    'the settings page',
    'the help page',
    'your job',
    'your team',
  ],
);
expand('Do you like {0}', [
  'music',
  'movies',
  'books',
  'sports',
  'cooking',
  'travel',
  'coffee',
  'tea',
  'dogs',
  'cats',
  'the beach',
  'the mountains',
  'winter',
  'summer',
  'your job',
  'talking to people',
  'games',
]);
expand(
  'I {0} {1}',
  ['like', 'love', 'do not like', 'enjoy', 'hate', 'prefer'],
  [
    'music',
    'reading',
    'cooking',
    'running',
    'swimming',
    'travelling',
    'coffee',
    'tea',
    'rain',
    'the weekend',
    'my job',
    'working from home',
    'long walks',
    'old movies',
    'good food',
  ],
);
expand(
  'What {0} do you {1}',
  ['kind of music', 'food', 'books', 'movies', 'sports', 'games'],
  ['like', 'enjoy', 'recommend'],
);
expand(
  '{0} the weather {1}',
  ['How is', 'What is'],
  ['today', 'tomorrow', 'this weekend', 'like where you are'],
);
expand('It is {0} today', ['cold', 'warm', 'hot', 'sunny', 'raining', 'windy', 'cloudy', 'nice']);
expand('What time is it {0}', ['', 'now', 'there', 'in London']);
expand('I am {0}', [
  'tired',
  'happy',
  'busy',
  'bored',
  'hungry',
  'new here',
  'a teacher',
  'a student',
  'a developer',
  'from London',
  'looking for help',
  'having a problem',
  'trying to log in',
  'back',
  'ready',
]);
expand('Tell me about {0}', [
  'yourself',
  'your family',
  'your work',
  'your day',
  'your home',
  'your hobbies',
  'the product',
  'the app',
  'the settings',
  'the features',
  'the price',
  'the plans',
  'your team',
]);
expand('Where did you {0}', [
  'grow up',
  'go to school',
  'learn that',
  'work before',
  'live before',
]);
expand('Have you ever been to {0}', [
  'Paris',
  'London',
  'New York',
  'Japan',
  'the sea',
  'a concert',
]);

// Help with apps: accounts, sign in, settings, notifications, teams, invitations, billing.
const things = [
  'account',
  'password',
  'profile',
  'email address',
  'user name',
  'phone number',
  'settings',
  'notifications',
  'language',
  'time zone',
  'photo',
  'subscription',
  'plan',
  'team',
  'workspace',
  'project',
  'payment method',
  'privacy settings',
  'security settings',
  'display name',
];
expand(
  'How do I {0} my {1}',
  ['change', 'update', 'reset', 'find', 'delete', 'check', 'set up', 'edit'],
  things,
);
expand('Where can I {0} my {1}', ['change', 'update', 'find', 'see', 'edit', 'manage'], things);
expand('Where do I find {0}', [
  'the settings',
  'my profile',
  'the account page',
  'the notification settings',
  'the privacy options',
  'the invite button',
  'the team page',
  'the help page',
  'my invoices',
  'the billing page',
  'the menu',
]);
expand('Can you help me {0}', [
  'with my account',
  'with the settings',
  'log in',
  'sign up',
  'reset my password',
  'set up my profile',
  'invite my team',
  'find a setting',
  'change my email',
  'turn off notifications',
  'cancel my plan',
  'understand this',
  'get started',
  'with a problem',
]);
expand('How do I {0}', [
  'sign up',
  'sign in',
  'log in',
  'log out',
  'create an account',
  'open an account',
  'close my account',
  'get started',
  'invite someone',
  'invite people to my team',
  'add a member',
  'remove a member',
  'leave a team',
  'join a team',
  'accept an invitation',
  'resend an invitation',
  'cancel an invitation',
  'turn off notifications',
  'turn on notifications',
  'change the language',
  'switch to dark mode',
  'upgrade my plan',
  'cancel my subscription',
  'contact support',
  'export my data',
  'share a project',
]);
expand(
  'I {0} {1}',
  ['cannot', 'want to', 'need to', 'would like to', 'forgot how to'],
  [
    'log in',
    'sign in',
    'reset my password',
    'change my email',
    'find the settings',
    'invite my colleague',
    'delete my account',
    'add a new member',
    'update my profile',
    'turn off the emails',
  ],
);
expand(
  '{0} an invitation to {1}',
  ['How do I send', 'Can I send', 'I want to send', 'Please send'],
  ['my team', 'a friend', 'a colleague', 'my manager', 'a new member', 'someone by email'],
);
expand(
  '{0} a new {1}',
  ['How do I create', 'How do I open', 'I want to start', 'Can I make', 'I need'],
  ['account', 'project', 'team', 'workspace', 'password', 'profile', 'invitation', 'plan'],
);
expand('Can I {0}', [
  'invite people by email',
  'have more than one account',
  'change my user name',
  'use my phone',
  'get a refund',
  'try it for free',
  'talk to a person',
  'see my history',
  'undo that',
  'share my screen',
  'add a photo',
  'change the settings later',
  'turn this off',
]);
expand('What {0}', [
  'is a workspace',
  'is the difference between the plans',
  'happens if I delete my account',
  'happens when an invitation expires',
  'does this setting do',
  'are the privacy settings',
  'should I do next',
  'do I need to get started',
  'is two factor authentication',
  'can I change in the settings',
  'do you recommend',
  'is new',
]);
expand(
  'My {0} {1}',
  ['password', 'account', 'invitation', 'email', 'app', 'phone'],
  ['does not work', 'is not working', 'was locked', 'expired', 'is wrong', 'disappeared'],
);
expand('I did not get {0}', ['the email', 'the invitation', 'the code', 'a reply', 'the link']);
expand('Why {0}', [
  'can I not log in',
  'did my invitation expire',
  'is this not working',
  'do you ask for my email',
  'is that',
  'not',
  'did that happen',
]);

for (const s of [
  'I forgot my password',
  'I lost my phone',
  'I think there is a bug',
  'The page does not load',
  'It says my email is already used',
  'How long does it take',
  'Is it free',
  'How much does it cost',
  'Is my data safe',
  'Who can see my profile',
  'Can you walk me through it',
  'One step at a time please',
  'What is the first step',
  'What should I click',
  'Where is the button',
  'I found it',
  'It worked',
  'It did not work',
  'Let me try again',
  'I will try that',
  'That helped',
  'That did not help',
  'Can you show me',
  'Please explain the settings',
  'Please explain it again',
  'Explain it simply',
])
  add(s);

// Everyday conversation, to reach a few thousand sentences (issue 30): plans, people,
// places, times, likes and feelings; none of it about accounts or settings.
const people = [
  'my mother',
  'my father',
  'my sister',
  'my brother',
  'my friend',
  'my neighbour',
  'my boss',
  'my partner',
];
const places = [
  'the park',
  'the beach',
  'the market',
  'the station',
  'the library',
  'the office',
  'the cinema',
  'the river',
  'the old town',
  'the shop',
];
const times = [
  'today',
  'tomorrow',
  'tonight',
  'this morning',
  'this weekend',
  'next week',
  'on Monday',
  'on Friday',
  'after work',
  'later',
];
expand('I am going to {0} {1}', places, times);
expand('We could meet at {0} {1}', places, times);
expand('{0} is coming with me {1}', people, times);
expand('Have you talked to {0} {1}', people, [
  'today',
  'this week',
  'recently',
  'lately',
  'since then',
]);
expand('{0} {1}', people, [
  'lives near here',
  'works from home',
  'likes to cook',
  'is on holiday',
  'called me yesterday',
  'is learning to drive',
  'has a new job',
  'plays the guitar',
  'is very busy',
  'sends you greetings',
]);
expand(
  'I {0} {1}',
  ['really like', 'do not like', 'love', 'would rather not have', 'never tried', 'could eat'],
  [
    'pizza',
    'fresh fruit',
    'spicy food',
    'chocolate',
    'soup',
    'fish',
    'rice',
    'salad',
    'cake',
    'tea',
  ],
);
expand(
  'Would you like to {0} {1}',
  ['go for a walk', 'have lunch', 'watch a film', 'get a coffee', 'play a game', 'talk about it'],
  times,
);
expand(
  'I feel {0} {1}',
  ['tired', 'happy', 'a bit sad', 'excited', 'nervous', 'much better', 'bored', 'calm'],
  times,
);
expand('What are you doing {0}', times);
expand('How was your {0}', [
  'day',
  'weekend',
  'trip',
  'holiday',
  'morning',
  'week',
  'lunch',
  'evening',
]);
expand(
  'The {0} was {1}',
  ['film', 'book', 'trip', 'meal', 'concert', 'game', 'party', 'weather'],
  ['great', 'too long', 'better than I thought', 'a bit boring', 'really good', 'not bad'],
);
expand('Do you know where {0} is', places);
const tasks = [
  'buy some milk',
  'call the doctor',
  'tidy the house',
  'pay the bills',
  'walk the dog',
  'water the plants',
  'pick up the kids',
  'cook dinner',
  'finish my work',
  'answer some emails',
];
expand('I need to {0} {1}', tasks, times);
expand('I have to {0} {1}', tasks, times);
expand('Did you remember to {0}', tasks);
expand('Is {0} open {1}', places, times);
expand(
  'It will be {0} {1}',
  ['cold', 'warm', 'sunny', 'rainy', 'windy', 'cloudy', 'hot', 'nice'],
  times,
);
expand('Does {0} want to {1}', people, [
  'come along',
  'join us',
  'stay for dinner',
  'watch the game',
  'go shopping',
  'take a break',
]);
expand(
  'It takes about {0} to get to {1}',
  ['ten minutes', 'half an hour', 'an hour', 'two hours'],
  places,
);

// The bench's questions (bench/edge-mic.bench.js QUESTIONS) are measured against this model:
// the corpus must not hold them. They are read from the bench's source and every sentence
// equal to one (case and punctuation aside) is left out.
const bench = readFileSync(join(dirname(out), '..', '..', 'bench', 'edge-mic.bench.js'), 'utf8');
const held = /export const QUESTIONS = \[([\s\S]*?)\];/.exec(bench)?.[1] ?? '';
const norm = (t) =>
  t
    .toLowerCase()
    .replace(/[^a-z' ]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
const benchQuestions = new Set([...held.matchAll(/'([^']+)'/g)].map((m) => norm(m[1])));
if (benchQuestions.size === 0) throw new Error('bench/edge-mic.bench.js: QUESTIONS not found');
for (const l of [...lines]) if (benchQuestions.has(norm(l))) lines.delete(l);

mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, [...lines].map((l) => `${l}.`).join('\n') + '\n');
console.log(`${lines.size} sentences -> ${out}`);
