/**
 * The box's ToolLink over the internal box API: `GET .../sessions/{id}/tools`,
 * `POST .../tool-calls` (the gateway) and `POST .../tool-calls/report` (built-ins run here).
 */
import { boxToolCalls, boxToolCallsReport, boxTools } from '../../contract/operations/boxes.js';
import type { ControlPlaneLink } from '../box/control-plane.js';
import type { ImageShelf } from './builtin-tools.js';
import type { ToolLink } from './session-tools.js';
import type { StageAnswer, StageTool } from './tool-stage.js';

function answer(r: { status: number; body: unknown }): StageAnswer {
  if (r.status === 200 && r.body && typeof r.body === 'object') return r.body as StageAnswer;
  return { ok: false, error: 'tool_error', message: `the gateway answered ${r.status}` };
}

export function boxToolLink(cp: ControlPlaneLink, shelf: ImageShelf): ToolLink {
  return {
    shelf,
    async tools(id) {
      const b = (await cp.getJson(boxTools, { sessionId: id })) as {
        tools?: StageTool[];
        left?: number;
        disabled?: string | null;
      };
      return {
        tools: Array.isArray(b.tools) ? b.tools : [],
        left: typeof b.left === 'number' ? b.left : 0,
        disabled: b.disabled ?? null,
      };
    },
    async call(id, call) {
      return answer(await cp.post(boxToolCalls, { sessionId: id }, call));
    },
    async report(id, report) {
      return answer(await cp.post(boxToolCallsReport, { sessionId: id }, report));
    },
  };
}
