/** The SQL of shared: named statements, prepared once per database (docs/architecture.md "Stores and statement tables"). */
import { statementTable } from '../../db/database.js';

/** Usage aggregates (spec 4.12): every column summed over an org's requests in [start, end). */
const USAGE_COLUMNS = `COUNT(*) AS requests,
  SUM(kind = 'api') AS api_requests, SUM(kind = 'jobs') AS job_submissions,
  SUM(status >= 400) AS errors,
  SUM(prompt_tokens) AS prompt_tokens, SUM(completion_tokens) AS completion_tokens,
  SUM(audio_seconds) AS audio_seconds, SUM(images) AS images`;
const USAGE_OF = 'FROM inference_usage WHERE org_id = ? AND at >= ? AND at < ?';

/** Built-in tool calls the boxes reported (spec 6.3 "usage records"), summed the same way. */
const TOOL_USAGE_COLUMNS = `COUNT(*) AS calls, SUM(ok) AS succeeded, SUM(1 - ok) AS failed,
  SUM(images) AS images, SUM(ms) AS total_ms`;
const TOOL_USAGE_OF = 'FROM tool_usage WHERE org_id = ? AND at >= ? AND at < ?';

export const inferenceSql = statementTable((db) => ({
  usageTotals: db.prepare(`SELECT ${USAGE_COLUMNS} ${USAGE_OF}`),
  usageByModel: db.prepare(
    `SELECT model_id, ${USAGE_COLUMNS} ${USAGE_OF} AND model_id IS NOT NULL GROUP BY model_id ORDER BY model_id`,
  ),
  usageByDay: db.prepare(
    `SELECT (at / 86400) * 86400 AS day, ${USAGE_COLUMNS} ${USAGE_OF} GROUP BY day ORDER BY day`,
  ),
  toolUsageTotals: db.prepare(`SELECT ${TOOL_USAGE_COLUMNS} ${TOOL_USAGE_OF}`),
  toolUsageByTool: db.prepare(
    `SELECT server, tool, ${TOOL_USAGE_COLUMNS} ${TOOL_USAGE_OF} GROUP BY server, tool ORDER BY server, tool`,
  ),
  toolUsageByDay: db.prepare(
    `SELECT (at / 86400) * 86400 AS day, ${TOOL_USAGE_COLUMNS} ${TOOL_USAGE_OF} GROUP BY day ORDER BY day`,
  ),
  insertInferenceMedia: db.prepare(
    'INSERT INTO inference_media (id, org_id, content_type, bytes, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)',
  ),
  getInferenceMediaById: db.prepare('SELECT bytes, expires_at FROM inference_media WHERE id = ?'),
  getInferenceMediaWithTypeById: db.prepare(
    'SELECT content_type, bytes, expires_at FROM inference_media WHERE id = ?',
  ),
  insertInferenceUsage:
    db.prepare(`INSERT INTO inference_usage (org_id, key_id, at, kind, route, model_id, status, prompt_tokens, completion_tokens, audio_seconds, images)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
}));
