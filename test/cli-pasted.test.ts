import { describe, expect, it } from 'vitest';
import { cli, isolatedEnv } from './helpers/cli.js';

/**
 * Issue 24: what a reader meets when they paste the docs' commands (the product half; the
 * docs half is test/docs-examples.test.ts).
 */
const flat = (s: string) => s.replace(/\s+/g, ' ');

describe('cannot reach the service: the error says what chose the URL and how to go back', () => {
  it('a default profile: names it, and avatar config remove / use', async () => {
    const env = isolatedEnv();
    expect((await cli(['--base-url', 'http://127.0.0.1:1', '--api-key', 'avatar_x.y', 'config', 'set', 'prod', '--default'], env)).code).toBe(0);
    const r = await cli(['gallery', 'list'], env);
    expect(r.code).toBe(5);
    expect(flat(r.stderr)).toMatch(/cannot reach http:\/\/127\.0\.0\.1:1 \(ECONNREFUSED\)/);
    expect(flat(r.stderr)).toMatch(/the default profile prod chose this URL/);
    expect(flat(r.stderr)).toContain('config remove prod');
    expect(flat(r.stderr)).toContain('config use NAME');
  });

  it('a named profile, the environment and the flag are each named', async () => {
    const env = isolatedEnv();
    await cli(['--base-url', 'http://127.0.0.1:1', 'config', 'set', 'stage'], env);
    expect(flat((await cli(['--profile', 'stage', 'gallery', 'list'], env)).stderr)).toMatch(/the profile stage \(--profile\) chose this URL/);
    expect(flat((await cli(['gallery', 'list'], { ...isolatedEnv(), AVATAR_BASE_URL: 'http://127.0.0.1:1' })).stderr)).toMatch(/AVATAR_BASE_URL chose this URL; unset it/);
    expect(flat((await cli(['--base-url', 'http://127.0.0.1:1', 'gallery', 'list'], isolatedEnv())).stderr)).toMatch(/the --base-url flag chose this URL/);
  });
});

describe('a missing required flag', () => {
  it('says "--name is required", not the validator text', async () => {
    const r = await cli(['--base-url', 'http://127.0.0.1:1', '--workspace', 'ws', 'tokens', 'create'], isolatedEnv());
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: --name is required/);
    expect(r.stderr).not.toMatch(/Invalid input|received undefined/);
  });
});
