import { z } from 'zod';
import { edgeMessages, edgeSockets, type EdgeMessageName } from './edge/messages.js';

type Json = Record<string, unknown>;

const BINARY = new Set<EdgeMessageName>(['MicFrame', 'MediaSegment', 'V2MicFrame', 'V2MediaFrame']);

function payload(name: EdgeMessageName): Json {
  const schema = edgeMessages[name] as z.ZodType;
  if (BINARY.has(name))
    return { type: 'string', format: 'binary', description: schema.description };
  const out = z.toJSONSchema(schema, {
    target: 'draft-7',
    io: 'output',
    unrepresentable: 'any',
  }) as Json;
  delete out.$schema;
  return out;
}

const channelId = (path: string) => path.replace(/^\//, '').replace(/\//g, '_');

/**
 * The AsyncAPI 3.0 document of the edge's WebSockets (served at /api/v1/asyncapi.json):
 * one channel per socket, the edge as the application (`send`: it sends, `receive`: it
 * accepts), every message of `src/contract/edge/messages.ts` in `components.messages`.
 */
export function buildAsyncApiDocument(info: { version: string }): Json {
  const messages: Json = {};
  for (const name of Object.keys(edgeMessages) as EdgeMessageName[]) {
    const schema = edgeMessages[name] as z.ZodType;
    messages[name] = {
      name,
      title: name,
      summary: schema.description ?? name,
      contentType: BINARY.has(name) ? 'application/octet-stream' : 'application/json',
      payload: payload(name),
    };
  }
  const channels: Json = {};
  const operations: Json = {};
  for (const s of edgeSockets) {
    const id = channelId(s.path);
    const names = [...new Set([...s.sends, ...s.accepts])];
    channels[id] = {
      address: s.path,
      title: s.path,
      summary: s.summary,
      description: `Protocol v${s.protocol}${s.subprotocol ? `, subprotocol \`${s.subprotocol}\`` : ''}. Authenticate with ?token=<session_token> (spec 4.6).`,
      messages: Object.fromEntries(names.map((n) => [n, { $ref: `#/components/messages/${n}` }])),
      bindings: {
        ws: {
          method: 'GET',
          query: {
            type: 'object',
            properties: { token: { type: 'string', description: 'the session token' } },
            required: ['token'],
          },
          ...(s.subprotocol
            ? {
                headers: {
                  type: 'object',
                  properties: {
                    'Sec-WebSocket-Protocol': { type: 'string', const: s.subprotocol },
                  },
                },
              }
            : {}),
          bindingVersion: '0.1.0',
        },
      },
    };
    const op = (action: 'send' | 'receive', list: readonly EdgeMessageName[]) => ({
      action,
      channel: { $ref: `#/channels/${id}` },
      summary:
        action === 'send'
          ? `what the edge sends on ${s.path}`
          : `what the edge accepts on ${s.path}`,
      messages: list.map((n) => ({ $ref: `#/channels/${id}/messages/${n}` })),
    });
    if (s.sends.length) operations[`${id}.send`] = op('send', s.sends);
    if (s.accepts.length) operations[`${id}.receive`] = op('receive', s.accepts);
  }
  return {
    asyncapi: '3.0.0',
    info: {
      title: 'Live Avatar edge sockets (emulator)',
      version: info.version,
      description:
        "The edge box's WebSockets: v1 (/mse, /mic_stream, /events) and v2 (/v2/session). The box's host is the session's ws_url (spec 4.6).",
    },
    servers: {
      edge: {
        host: '{box}',
        protocol: 'ws',
        description: "an edge box: the host of the session's ws_url",
        variables: { box: { default: '127.0.0.1:4781' } },
      },
    },
    defaultContentType: 'application/json',
    channels,
    operations,
    components: { messages },
  };
}
