import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { startBox } from '../src/edge/box/box.js';
import type { EdgeParts } from '../src/edge/session/parts.js';

/**
 * Issue 8 review: a box whose registration the control plane refuses must not leave its
 * HTTP server listening (a leaked port and a process that never exits).
 */

let registeredAt: string | null = null;
const cp: Server = createServer((req, res) => {
  let body = '';
  req.on('data', (c: Buffer) => (body += c.toString()));
  req.on('end', () => {
    if (req.url?.endsWith('/register'))
      registeredAt = (JSON.parse(body) as { base_url: string }).base_url;
    res.writeHead(401, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: 'unauthorized', message: 'unknown box credential' }));
  });
});
const cpUrl = await new Promise<string>((res) =>
  cp.listen(0, '127.0.0.1', () => res(`http://127.0.0.1:${(cp.address() as AddressInfo).port}`)),
);
afterAll(() => new Promise<void>((res) => cp.close(() => res())));

describe('box registration', () => {
  it('a refused registration rejects startBox with the reason and closes the box server', async () => {
    // The parts are never reached: the box fails before any session exists.
    const parts = {} as EdgeParts;
    await expect(
      startBox({
        controlPlaneUrl: cpUrl,
        boxId: 'box_x',
        secret: 'nope',
        seats: 1,
        protocols: [1],
        customAvatars: false,
        verified: false,
        parts,
      }),
    ).rejects.toThrow(/401.*register/);
    expect(registeredAt).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    // Nothing listens where the box was: the health route cannot be reached.
    await expect(fetch(`${registeredAt}/health`)).rejects.toThrow();
  });
});
