/** `avatar models`: the models of compat-a with their compat-b slugs and tasks (spec 4.12). */
import { defineCommand } from '../define.js';
import { renderTable } from '../output.js';
import { inference } from './inference-common.js';

export const modelsCommand = defineCommand({
  name: 'models',
  summary:
    'List the models, their slugs (avatar run SLUG) and tasks, and upstream ids  [GET /api/model-status, /compat-a/v1/models]',
  async run({ cli }) {
    const api = inference(cli);
    const [r, listed] = await Promise.all([api.modelStatus(), api.models()]);
    const models = r.models as {
      model_id: string;
      spec_id: string;
      enabled: boolean;
      tasks: string[];
    }[];
    // Ids /compat-a/v1/models lists that model-status does not: --inference-upstream
    // models, served on compat-a only (issue 24 item 12). --json adds them as `upstream`.
    const upstream = ((listed as { data?: { id: string }[] }).data ?? [])
      .map((m) => m.id)
      .filter((id) => !models.some((m) => m.model_id === id));
    cli.print(upstream.length > 0 ? { ...r, upstream } : r, () =>
      renderTable([
        ...models.map((m) => ({
          model: m.model_id,
          slug: m.spec_id,
          enabled: m.enabled ? 'yes' : 'no',
          tasks: m.tasks.join(', '),
        })),
        ...upstream.map((id) => ({
          model: id,
          slug: '',
          enabled: 'yes',
          tasks: 'compat-a only (an upstream)',
        })),
      ]),
    );
  },
});
