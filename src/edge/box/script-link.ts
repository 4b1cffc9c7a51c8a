/**
 * The box reads a session's conversation script over the internal box API
 * (`GET .../sessions/{id}/script`, answering `{ script: Script | null }`). A control plane
 * that has no such route, fails, or answers something else means "no script": the session
 * runs without one, and the box says so once (not once per session).
 */
import { z } from 'zod';
import { boxScript } from '../../contract/operations/boxes.js';
import { Script } from '../../contract/resources/script.js';
import type { ControlPlaneLink } from './control-plane.js';

const Answer = z.object({ script: Script.nullable() });

export function boxScriptLink(
  cp: ControlPlaneLink,
  log: (line: string) => void,
): (sessionId: string) => Promise<Script | null> {
  let told = false;
  const none = (why: string) => {
    if (!told) log(`conversation scripts unavailable (sessions run without one): ${why}`);
    told = true;
    return null;
  };
  return async (sessionId) => {
    try {
      const got = Answer.safeParse(await cp.getJson(boxScript, { sessionId }));
      return got.success ? got.data.script : none('the control plane answered no script');
    } catch (e) {
      return none((e as Error).message);
    }
  };
}
