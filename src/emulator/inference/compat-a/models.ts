import { catalog, CATALOG_CREATED } from '../catalog.js';
import type { InferenceServices } from '../services.js';
import * as inference from '../../../contract/operations/inference.js';
import type { App } from '../../context.js';
import { implementInference } from '../shared/route.js';
import { notFound } from '../shared/errors.js';

/** Spec 4.12 GET /compat-a/v1/models: every model of the catalog (and each upstream stand-in). */
export function registerModels(app: App, svc: InferenceServices): void {
  const view = (id: string) => ({
    id,
    object: 'model' as const,
    created: CATALOG_CREATED,
    owned_by: 'avatar-emulator',
  });
  const ids = () => [...new Set([...catalog.map((m) => m.id), ...Object.keys(svc.upstreams)])];
  implementInference(app, svc, inference.models, () => ({
    object: 'list' as const,
    data: ids().map(view),
  }));
  implementInference(app, svc, inference.model, ({ params }) => {
    const id = params.model;
    if (!ids().includes(id)) throw notFound(`model ${id}`);
    return view(id);
  });
}
