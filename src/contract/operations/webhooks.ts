/**
 * Workspace webhook endpoints (spec 4.11, 6.3). Only the create route is in the spec;
 * list and delete and every shape are ours (docs/fidelity.md).
 */
import { defineOperation } from '../operation.js';
import { listOf, WsParams } from '../resources/common.js';
import {
  CreatedWebhookSchema,
  CreateWebhookBody,
  WebhookParams,
  WebhookSchema,
} from '../resources/webhook.js';

const auth = { anyOf: ['webhooks:write'] } as const;

export const createWebhook = defineOperation({
  id: 'webhooks.create',
  method: 'post',
  path: '/api/v1/workspaces/{wsId}/webhooks',
  summary: 'Subscribe an endpoint to events (queue.* or single names); the secret is shown once',
  auth,
  params: WsParams,
  body: CreateWebhookBody,
  responses: {
    201: { description: 'The endpoint and its signing secret', schema: CreatedWebhookSchema },
  },
  cli: { group: 'webhooks', verb: 'create' },
});

export const listWebhooks = defineOperation({
  id: 'webhooks.list',
  method: 'get',
  path: '/api/v1/workspaces/{wsId}/webhooks',
  summary: 'List webhook endpoints (never their secrets)',
  auth,
  params: WsParams,
  responses: { 200: { description: 'Endpoints', schema: listOf(WebhookSchema) } },
  cli: { group: 'webhooks', verb: 'list' },
});

export const deleteWebhook = defineOperation({
  id: 'webhooks.delete',
  method: 'delete',
  path: '/api/v1/workspaces/{wsId}/webhooks/{webhookId}',
  summary: 'Remove a webhook endpoint (204, also when already gone)',
  auth,
  params: WebhookParams,
  responses: { 204: { description: 'Removed' } },
  cli: { group: 'webhooks', verb: 'delete' },
});

export const webhookOperations = [createWebhook, listWebhooks, deleteWebhook];
