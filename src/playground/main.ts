/**
 * The emulator's playground page (issue 17), built into dist/ui/playground.js by
 * `npm run build`. It talks to the emulator the way an app does: the public API with a key
 * (gallery, mint with the queue, release, transcripts, workspaces, keys, avatars, voices)
 * and `avatar/browser` for the live session; the emulator's own `/_emulator/*` routes only
 * for what only the emulator knows (sessions list, queue, boxes, webhook deliveries) and the
 * v1 typed-turn relay. Credentials come from the page's HTML, in headers, never in URLs.
 */
import type { z } from 'zod';
import { connect, mintSession, type AvatarSession, type SessionEvent } from '../browser/index.js';
import { callOperation } from '../browser/call.js';
import { fillPath, type AnyOperation, type InputOf, type OutputOf } from '../contract/operation.js';
import { listGallery, listTokens, listWorkspaces } from '../contract/operations/core.js';
import { downloadFaceWs, listAvatarsWs, listVersionsWs } from '../contract/operations/avatars.js';
import { listProfilesWs } from '../contract/operations/profiles.js';
import { listVoicesWs } from '../contract/operations/voices.js';
import { getTranscript, releaseSession } from '../contract/operations/sessions.js';
import { listBuiltinServers, listMcpServers } from '../contract/operations/tools.js';
import {
  boxes as boxesOp,
  jobs as jobsOp,
  queue as queueOp,
  sessionsList,
  uiChat,
  webhookDeliveries,
} from '../contract/operations/operator.js';
import type { MintReadySchema } from '../contract/resources/session.js';

interface Config {
  apiKey: string;
  operatorToken: string;
}
const config = JSON.parse(document.getElementById('config')!.textContent ?? '{}') as Config;
const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;

/** A public API call with the page's key (same origin: the emulator's control plane). */
const api = <O extends AnyOperation>(op: O, input: InputOf<O> = {} as InputOf<O>) =>
  callOperation(op, input, { key: config.apiKey });
/** An operator call (`/_emulator/*`). */
const operator = <O extends AnyOperation>(op: O, input: InputOf<O> = {} as InputOf<O>) =>
  callOperation(op, input, { key: config.operatorToken });

function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Partial<HTMLElementTagNameMap[K]> = {},
  ...kids: (Node | string)[]
) {
  const e = Object.assign(document.createElement(tag), props);
  e.append(...kids);
  return e;
}
const problem = (msg: string) => {
  $('problem').textContent = msg;
};
/** An async DOM handler whose failure is shown on the page, never lost. */
const handle =
  <E extends Event>(fn: (ev: E) => Promise<void>) =>
  (ev: E): void => {
    fn(ev).catch((e: Error) => problem(e.message));
  };
const clock = (s: number) => `${Math.floor(s / 60)}:${String(Math.floor(s % 60)).padStart(2, '0')}`;

// ---- tabs (arrow keys move between them, as the WAI-ARIA tabs pattern says)
const tabs = [$('tab-talk'), $('tab-state')];
function selectTab(t: HTMLElement) {
  for (const x of tabs) {
    const on = x === t;
    x.setAttribute('aria-selected', String(on));
    x.tabIndex = on ? 0 : -1;
    $(x.getAttribute('aria-controls')!).hidden = !on;
  }
  t.focus();
  if (t.id === 'tab-state') void refreshState();
  // Avatars and tool servers made meanwhile (CLI, API) show up without a reload.
  else if (!live && !minting) void loadAvatars();
}
for (const t of tabs) {
  t.addEventListener('click', () => selectTab(t));
  t.addEventListener('keydown', (e) => {
    if (e.key !== 'ArrowRight' && e.key !== 'ArrowLeft') return;
    selectTab(tabs[(tabs.indexOf(t) + 1) % tabs.length]!);
  });
}

// ---- the avatar list: stock personas (gallery) and each workspace's custom avatars
interface Choice {
  label: string;
  body: Record<string, unknown>;
  /** The gallery's face (`poster`, same origin), shown in the video box before a session. */
  poster?: string;
  /** A custom avatar's face: its current version's upload, read with the page's key. */
  face?: string;
}
const choices = new Map<string, Choice>();
/** Tool servers a session can be minted with: each workspace's enabled built-ins and MCP servers. */
const toolChoices = new Map<
  string,
  { workspaceId: string; workspaceName: string; server: string }
>();
async function loadAvatars() {
  const sel = $<HTMLSelectElement>('avatar');
  const stock = el('optgroup', { label: 'Stock personas' });
  const custom = el('optgroup', { label: 'Custom avatars' });
  choices.clear();
  forgetFaces();
  try {
    const g = await api(listGallery);
    for (const p of g.avatars) {
      choices.set(`persona:${p.id}`, {
        label: p.name ?? p.id,
        body: { persona: p.id },
        poster: p.poster,
      });
      stock.append(
        el('option', { value: `persona:${p.id}`, textContent: `${p.name ?? p.id} (${p.id})` }),
      );
    }
    const ws = await api(listWorkspaces);
    await loadToolServers(ws.data);
    for (const w of ws.data) {
      const av = await api(listAvatarsWs, { params: { wsId: w.id } }).catch(() => ({
        data: [],
      }));
      for (const a of av.data) {
        choices.set(`avatar:${a.id}`, {
          label: a.name,
          body: { avatar_id: a.id, workspace_id: w.id },
          face: a.current_version_id
            ? fillPath(downloadFaceWs.path, {
                wsId: w.id,
                avatarId: a.id,
                versionId: a.current_version_id,
              })
            : undefined,
        });
        custom.append(
          el('option', {
            value: `avatar:${a.id}`,
            // A mint refuses it (avatar_not_published) until a face is uploaded: say so here.
            textContent: `${a.name} (${w.name})${a.current_version_id ? '' : ', not published'}`,
          }),
        );
      }
    }
  } catch (e) {
    problem((e as Error).message);
  }
  const keep = sel.value;
  sel.replaceChildren(stock, ...(custom.children.length ? [custom] : []));
  if (keep && choices.has(keep)) sel.value = keep;
  showPoster();
}

/**
 * Before a session the video box shows the picked avatar's face: a persona's gallery poster,
 * or a custom avatar's uploaded face (fetched with the page's key: a poster URL cannot send
 * one), none when it has no face yet. Faces fetched are kept until the list reloads (the
 * Talk tab), when their blob URLs are let go; a fetch that failed is not kept.
 */
const faces = new Map<string, Promise<string | undefined>>();
function forgetFaces() {
  for (const url of faces.values()) void url.then((u) => u && URL.revokeObjectURL(u));
  faces.clear();
}
function showPoster() {
  const value = $<HTMLSelectElement>('avatar').value;
  const choice = choices.get(value);
  const face = choice?.face;
  let poster: Promise<string | undefined> = Promise.resolve(choice?.poster);
  if (face) {
    if (!faces.has(face)) {
      const url = fetch(face, { headers: { authorization: `Bearer ${config.apiKey}` } })
        .then(async (r) => (r.ok ? URL.createObjectURL(await r.blob()) : undefined))
        .catch(() => undefined)
        .then((u) => {
          if (u === undefined && faces.get(face) === url) faces.delete(face);
          return u;
        });
      faces.set(face, url);
    }
    poster = faces.get(face)!;
  }
  void poster.then((url) => {
    const video = $<HTMLVideoElement>('video');
    if (live || $<HTMLSelectElement>('avatar').value !== value) return;
    if (url) video.poster = url;
    else video.removeAttribute('poster');
  });
}
$('avatar').addEventListener('change', showPoster);

async function loadToolServers(workspaces: { id: string; name: string }[]) {
  const sel = $<HTMLSelectElement>('tool-server');
  const keep = sel.value;
  toolChoices.clear();
  const options: HTMLOptionElement[] = [el('option', { value: '', textContent: 'no tools' })];
  for (const w of workspaces) {
    const params = { wsId: w.id };
    const builtins = await api(listBuiltinServers, { params }).catch(() => ({ data: [] }));
    const mcp = await api(listMcpServers, { params }).catch(() => ({ data: [] }));
    const servers = [
      ...builtins.data.filter((b) => b.enabled).map((b) => ({ id: b.key, label: b.key })),
      ...mcp.data
        .filter((m) => m.status === 'active')
        .map((m) => ({ id: m.id, label: `${m.name} (MCP)` })),
    ];
    for (const s of servers) {
      const value = `${w.id}|${s.id}`;
      toolChoices.set(value, { workspaceId: w.id, workspaceName: w.name, server: s.id });
      options.push(el('option', { value, textContent: `${s.label} (${w.name})` }));
    }
  }
  sel.replaceChildren(...options);
  if (keep && toolChoices.has(keep)) sel.value = keep;
  $('tools-hint').textContent =
    toolChoices.size === 0
      ? 'No tool server is enabled yet: run `avatar builtins enable svc.image` and reload the page to let the avatar draw pictures.'
      : '';
}

// ---- one live session
/** A mint's 201 (`mintSession` waits out the queue's 202s). */
type Minted = z.output<typeof MintReadySchema>;
let live:
  | {
      session: AvatarSession;
      mint: Minted;
      capSeconds: number;
    }
  | undefined;
let minting: AbortController | undefined;

function setLiveControls(on: boolean) {
  $<HTMLButtonElement>('start-btn').disabled = on || minting !== undefined;
  $<HTMLButtonElement>('release').disabled = !on && minting === undefined;
  $<HTMLButtonElement>('mic').disabled = !on;
  $<HTMLInputElement>('text').disabled = !on;
  $<HTMLButtonElement>('send').disabled = !on;
}

function addLine(list: string, who: string, text: string, kind: string) {
  const li = el('li', {}, el('span', { className: 'who', textContent: `${who}:` }), ' ', text);
  li.dataset.kind = kind;
  $(list).append(li);
  li.scrollIntoView({ block: 'nearest' });
  return li;
}

/**
 * A reply (or the greeting) cut by barge-in: its line shows what was actually heard, the
 * edge's `said`, not the whole text of the `turn` message. Over v1 the `speech` event
 * (/events) can overtake its `turn` (/mic_stream): the cut waits for the line.
 */
const cuts = new Map<string, string>();
function markCut(li: HTMLElement, said: string) {
  li.dataset.cut = 'true';
  li.replaceChildren(
    li.querySelector('.who')!,
    ' ',
    ...(said ? [said, ' '] : []),
    el('span', {
      className: 'cut-note',
      textContent: said ? '(cut off)' : '(cut off before its first word)',
    }),
  );
}
const lineOf = (speechId: string) =>
  Array.from($('transcript').querySelectorAll<HTMLElement>('li[data-speech-id]')).find(
    (li) => li.dataset.speechId === speechId,
  );

function onEvent(e: SessionEvent) {
  switch (e.type) {
    case 'partial':
      $('partial').textContent = e.text ? `You (speaking): ${e.text}` : '';
      break;
    case 'turn':
      $('partial').textContent = '';
      if (e.text) addLine('transcript', 'You', e.text, 'user');
      if (live) {
        // No user words and not the greeting: a line the avatar says by itself (a tool's
        // follow-up or its cover line, docs/tools.md).
        const li = addLine(
          'transcript',
          'Avatar',
          e.reply,
          e.greeting ? 'greeting' : e.text ? 'reply' : 'follow-up',
        );
        li.dataset.speechId = e.speech_id ?? '';
        const said = e.speech_id === undefined ? undefined : cuts.get(e.speech_id);
        if (said !== undefined) markCut(li, said);
      }
      break;
    case 'speech':
      if (e.status === 'interrupted' && e.speech_id) {
        const li = lineOf(e.speech_id);
        if (li) markCut(li, e.said ?? '');
        else cuts.set(e.speech_id, e.said ?? '');
      }
      break;
    case 'agent_event': {
      const li = addLine(
        'tools',
        e.kind,
        [e.tool, e.caption, e.kind === 'image' ? '' : e.url].filter(Boolean).join(' · '),
        e.kind,
      );
      if (e.kind === 'image' && e.url)
        li.append(
          el('img', { src: e.url, alt: e.caption ?? `picture from ${e.tool ?? 'a tool'}` }),
        );
      break;
    }
    case 'telemetry': {
      const f = e.frame;
      if (f.type === 'status' && live) {
        $('state-badge').textContent = String(f.state ?? '');
        if (typeof f.cap_seconds === 'number') live.capSeconds = f.cap_seconds;
        if (typeof f.session_ms === 'number')
          $('clock').textContent = `${clock(f.session_ms / 1000)} / ${clock(live.capSeconds)}`;
      }
      break;
    }
    case 'level':
      $<HTMLMeterElement>('level').value = Math.min(1, e.level * 4);
      break;
    case 'mic':
      $('mic').setAttribute('aria-pressed', String(e.on));
      $('mic').textContent = e.on ? 'Microphone on' : 'Microphone off';
      if (!e.on) $<HTMLMeterElement>('level').value = 0;
      break;
    case 'error':
      problem(`edge: ${e.error}`);
      break;
    case 'player_problem':
      problem(`video: ${e.detail}`);
      break;
    case 'closed':
      $('state-badge').textContent = `ended (${e.reason}${e.detail ? `: ${e.detail}` : ''})`;
      live = undefined;
      setLiveControls(false);
      break;
    case 'media':
    case 'media_init':
    case 'status':
      // the client's own player takes the media; connecting/connected is shown around
      // session.ready in the start handler
      break;
  }
}

$('start').addEventListener(
  'submit',
  handle(async (ev) => {
    ev.preventDefault();
    problem('');
    const choice = choices.get($<HTMLSelectElement>('avatar').value);
    if (!choice) return;
    const protocol = Number($<HTMLSelectElement>('protocol').value);
    const tool = toolChoices.get($<HTMLSelectElement>('tool-server').value);
    const avatarWs = choice.body.workspace_id as string | undefined;
    if (tool && avatarWs && avatarWs !== tool.workspaceId) {
      problem(
        `${choice.label} belongs to another workspace than the tool server (${tool.workspaceName}): a session has the tools of its own workspace`,
      );
      return;
    }
    const body = {
      ...choice.body,
      ...(tool ? { workspace_id: tool.workspaceId, tools: { servers: [tool.server] } } : {}),
      ...(protocol === 2 ? { protocol_versions: [2] } : {}),
    };
    minting = new AbortController();
    setLiveControls(false);
    const q = $('queue');
    $('state-badge').textContent = 'minting';
    try {
      const mint = await mintSession<Minted>({
        baseUrl: location.origin,
        key: config.apiKey,
        body,
        signal: minting.signal,
        onQueued: (t) => {
          q.hidden = false;
          q.textContent = `Every seat is taken: queued at position ${t.position}, about ${t.eta_seconds} s (${t.state}).`;
        },
      });
      q.hidden = true;
      minting = undefined;
      $('transcript').replaceChildren();
      $('tools').replaceChildren();
      cuts.clear();
      const session = connect(mint, {
        video: $<HTMLVideoElement>('video'),
        lang: 'en',
        chatRelay: (req) => operator(uiChat, { body: req }).then(() => undefined),
      });
      live = { session, mint, capSeconds: mint.cap_seconds ?? 0 };
      document.body.dataset.sessionId = mint.session_id;
      session.on(onEvent);
      $('clock').textContent = `0:00 / ${clock(live.capSeconds)}`;
      $('clock').hidden = false;
      $('state-badge').textContent = 'connecting';
      await session.ready;
      setLiveControls(true);
      void $<HTMLVideoElement>('video')
        .play()
        .catch(() => undefined);
    } catch (e) {
      minting = undefined;
      q.hidden = true;
      $('state-badge').textContent = 'no session';
      if ((e as Error).name !== 'AbortError')
        problem(`Could not start the session: ${(e as Error).message}`);
      setLiveControls(false);
    }
  }),
);

$('release').addEventListener(
  'click',
  handle(async () => {
    if (minting) {
      minting.abort();
      return;
    }
    const l = live;
    if (!l) return;
    try {
      await api(releaseSession, {
        params: { sessionId: l.mint.session_id },
        body: { seat_token: l.mint.seat_token },
      });
    } catch (e) {
      problem((e as Error).message);
    }
    await l.session.close();
  }),
);

$('mic').addEventListener(
  'click',
  handle(async () => {
    if (!live) return;
    try {
      if (live.session.micOn) await live.session.stopMic();
      else await live.session.startMic();
    } catch (e) {
      problem(`microphone: ${(e as Error).message}`);
    }
  }),
);

$('say').addEventListener(
  'submit',
  handle(async (ev) => {
    ev.preventDefault();
    const input = $<HTMLInputElement>('text');
    const text = input.value.trim();
    if (!text || !live) return;
    try {
      await live.session.chat(text);
      input.value = '';
    } catch (e) {
      problem((e as Error).message);
    }
  }),
);

// ---- the state view
/** A table of `rows`; with none, `empty` says what would fill it. */
function table(rows: Record<string, unknown>[], columns: string[], empty = 'none') {
  if (rows.length === 0) return el('p', { className: 'empty', textContent: empty });
  const cell = (v: unknown, key: string) =>
    v === null || v === undefined
      ? ''
      : typeof v === 'object'
        ? JSON.stringify(v)
        : key.endsWith('_at') && typeof v === 'number'
          ? new Date(v * 1000).toLocaleString()
          : String(v);
  return el(
    'table',
    {},
    el(
      'thead',
      {},
      el('tr', {}, ...columns.map((c) => el('th', { scope: 'col', textContent: c }))),
    ),
    el(
      'tbody',
      {},
      ...rows.map((r) =>
        el('tr', {}, ...columns.map((c) => labelled(el('td', { textContent: cell(r[c], c) }), c))),
      ),
    ),
  );
}
function labelled(td: HTMLElement, label: string) {
  td.dataset.label = label;
  return td;
}
function card(title: string, ...kids: (Node | string)[]) {
  return el('section', { className: 'card' }, el('h2', { textContent: title }), ...kids);
}
const safe = async <T>(p: Promise<T>, fallback: T): Promise<T> =>
  p.catch((e: Error) => {
    problem(e.message);
    return fallback;
  });

async function refreshState() {
  const out: HTMLElement[] = [];
  const ws = await safe(api(listWorkspaces), { data: [] });
  out.push(card('Workspaces', table(ws.data, ['id', 'name', 'plan', 'created_at'])));
  const keys = await safe(api(listTokens), { data: [] });
  out.push(
    card(
      'Keys (prefixes only)',
      table(keys.data, [
        'id',
        'name',
        'token_prefix',
        'kind',
        'scopes',
        'status',
        'workspace_id',
        'allowed_origins',
      ]),
    ),
  );
  for (const w of ws.data) {
    const avatars = await safe(api(listAvatarsWs, { params: { wsId: w.id } }), { data: [] });
    // One row per avatar: `status` and `assets_status` (its current version's idle media)
    // are the avatar's own fields (spec 2 "Avatar"); a version has neither.
    const rows: Record<string, unknown>[] = [];
    for (const a of avatars.data) {
      const params = { wsId: w.id, avatarId: a.id };
      const versions = await safe(api(listVersionsWs, { params }), { data: [] });
      const profiles = await safe(api(listProfilesWs, { params }), {
        data: [],
        default_profile_id: null,
      });
      rows.push({
        avatar: `${a.name} (${a.id})`,
        status: a.status,
        assets_status: a.assets_status,
        current_version: a.current_version_id,
        versions: [...versions.data]
          .sort((x, y) => x.version_number - y.version_number)
          .map(
            (v) =>
              `v${v.version_number} ${v.id}${v.published_at == null ? ' (not published)' : ''}`,
          )
          .join(', '),
        profiles: profiles.data.map((p) => `${p.id}${p.is_default ? ' (default)' : ''}`).join(', '),
      });
    }
    out.push(
      card(
        `Avatars · ${w.name}`,
        table(
          rows,
          ['avatar', 'status', 'assets_status', 'current_version', 'versions', 'profiles'],
          'No custom avatars yet: `avatar avatars create-custom --name N --face face.jpg --voice sample.wav --prompt prompt.txt` makes one (stock personas are always there).',
        ),
      ),
    );
    const voices = await safe(api(listVoicesWs, { params: { wsId: w.id } }), { data: [] });
    out.push(
      card(
        `Voices · ${w.name}`,
        table(
          voices.data,
          ['id', 'name', 'current_version_id', 'created_at'],
          'No voices yet: `avatar voices create` and `avatar voices upload-sample`.',
        ),
      ),
    );
  }
  const sessions = await safe(operator(sessionsList, { query: { all: 'true', limit: 200 } }), {
    data: [],
  });
  const sTable = table(
    sessions.data,
    ['id', 'status', 'persona', 'avatar_ref', 'cap_seconds', 'end_reason', 'created_at'],
    'No sessions yet: start one on the Talk tab.',
  );
  out.push(card('Sessions', sTable));
  sTable.querySelectorAll('tbody tr').forEach((tr, i) => {
    const s = sessions.data[i]!;
    const b = el('button', { type: 'button', textContent: 'transcript' });
    b.setAttribute('aria-label', `transcript of session ${s.id}`);
    b.addEventListener(
      'click',
      handle(async () => {
        const t = await safe(api(getTranscript, { params: { sessionId: s.id } }), null);
        const turns = t?.turns ?? [];
        tr.after(
          el(
            'tr',
            {},
            el(
              'td',
              { colSpan: 7 },
              el('pre', {
                textContent: turns.length
                  ? turns.map((x) => `You: ${x.user_text}\nAvatar: ${x.reply_text}`).join('\n')
                  : JSON.stringify(t, null, 1),
              }),
            ),
          ),
        );
      }),
    );
    tr.firstElementChild?.append(' ', b);
  });
  const queue = await safe<Partial<OutputOf<typeof queueOp>>>(operator(queueOp), {});
  out.push(
    card(
      'Queue',
      el('p', {
        textContent:
          queue.waiting === undefined
            ? ''
            : queue.waiting === 0
              ? `Nobody is waiting for a seat${queue.tickets ? ` (${queue.tickets} tickets can claim theirs)` : ''}.`
              : `${queue.waiting} waiting for a seat, ${queue.tickets ?? queue.waiting} tickets in all.`,
      }),
    ),
  );
  const boxes = await safe(operator(boxesOp), { data: [] });
  out.push(
    card(
      'Boxes',
      table(boxes.data, ['id', 'base_url', 'live', 'seats', 'held', 'free', 'protocols']),
    ),
  );
  const hooks = await safe(operator(webhookDeliveries), { data: [] });
  out.push(
    card(
      'Webhook deliveries',
      table(
        hooks.data,
        Object.keys(hooks.data[0] ?? { url: 1, event: 1, status: 1 }),
        'No deliveries yet: subscribe an endpoint with `avatar webhooks create --url URL --events "queue.*"` (`avatar webhooks listen` is one on this machine).',
      ),
    ),
  );
  const jobs = await safe(operator(jobsOp), { jobs: [], executions: [] });
  out.push(
    card(
      'Inference jobs',
      table(
        jobs.jobs,
        ['id', 'task', 'model_id', 'status', 'source', 'created_at', 'completed_at'],
        'No inference jobs yet: `avatar jobs submit` or `avatar run MODEL --input JSON` makes one.',
      ),
    ),
  );
  const nodes = jobs.executions.flatMap((x) =>
    Object.entries(x.nodes ?? {}).map(([node, n]) => ({
      execution: x.id,
      workflow: x.workflow_id,
      execution_status: x.status,
      node,
      status: n.status,
      progress: n.progress
        ? `${n.progress.completed}/${n.progress.total} (${n.progress.failed} failed)`
        : '',
      error: n.error?.message ?? '',
    })),
  );
  out.push(
    card(
      'Workflow executions, node by node',
      table(
        nodes,
        ['execution', 'workflow', 'execution_status', 'node', 'status', 'progress', 'error'],
        'No workflow executions yet.',
      ),
    ),
  );
  $('state-body').replaceChildren(...out);
  $('state-when').textContent = `updated ${new Date().toLocaleTimeString()}`;
}
$('refresh').addEventListener('click', () => void refreshState());

void loadAvatars();
