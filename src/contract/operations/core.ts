/**
 * Operations of issue 2: workspaces, tokens, devices, trusted issuers, gallery, JWKS,
 * OpenAPI. Routes the spec leaves "not shown" are ours; each is a row of docs/fidelity.md.
 */
import { z } from 'zod';
import { defineOperation } from '../operation.js';
import { listOf, Uuid, WsParams } from '../resources/common.js';
import {
  CreateWorkspaceBody,
  UpdateWorkspaceBody,
  WorkspaceSchema,
} from '../resources/workspace.js';
import {
  CreatedTokenSchema,
  CreateTokenBody,
  RevokedSchema,
  TokenSchema,
} from '../resources/token.js';
import {
  CreateDeviceBody,
  CreatedDeviceSchema,
  DeviceSchema,
  RotatedDeviceTokenSchema,
} from '../resources/device.js';
import { CreateIssuerBody, TrustedIssuerSchema } from '../resources/issuer.js';
import { GalleryListSchema, IntroLang } from '../resources/gallery.js';

const read = { anyOf: ['user:read', 'workspaces:write'] } as const;
const wsWrite = { anyOf: ['workspaces:write', 'user:write'] } as const;
const keysRead = { anyOf: ['admin:read', 'user:read'] } as const;
const keysWrite = { anyOf: ['admin:write', 'user:write'] } as const;

export const listWorkspaces = defineOperation({
  id: 'workspaces.list',
  method: 'get',
  path: '/api/v1/workspaces',
  summary: 'List the workspaces the key can see',
  auth: read,
  responses: { 200: { description: 'Workspaces', schema: listOf(WorkspaceSchema) } },
  cli: { group: 'workspaces', verb: 'list' },
});

export const createWorkspace = defineOperation({
  id: 'workspaces.create',
  method: 'post',
  path: '/api/v1/workspaces',
  summary: 'Create a workspace (plan defaults to free)',
  auth: wsWrite,
  body: CreateWorkspaceBody,
  responses: { 201: { description: 'The new workspace', schema: WorkspaceSchema } },
  cli: { group: 'workspaces', verb: 'create' },
});

export const getWorkspace = defineOperation({
  id: 'workspaces.get',
  method: 'get',
  path: '/api/v1/workspaces/{wsId}',
  summary: 'Get one workspace',
  auth: read,
  params: WsParams,
  responses: { 200: { description: 'The workspace', schema: WorkspaceSchema } },
  cli: { group: 'workspaces', verb: 'get' },
});

export const updateWorkspace = defineOperation({
  id: 'workspaces.update',
  method: 'patch',
  path: '/api/v1/workspaces/{wsId}',
  summary: 'Rename a workspace',
  auth: wsWrite,
  params: WsParams,
  body: UpdateWorkspaceBody,
  responses: { 200: { description: 'The updated workspace', schema: WorkspaceSchema } },
  cli: { group: 'workspaces', verb: 'update' },
});

export const listTokens = defineOperation({
  id: 'tokens.list',
  method: 'get',
  path: '/api/v1/tokens',
  summary: 'List API keys (prefix only, never the secret)',
  auth: keysRead,
  responses: { 200: { description: 'Keys', schema: listOf(TokenSchema) } },
  cli: { group: 'tokens', verb: 'list' },
});

export const createToken = defineOperation({
  id: 'tokens.create',
  method: 'post',
  path: '/api/v1/tokens',
  summary: 'Create an API key; the full token is returned once',
  auth: keysWrite,
  body: CreateTokenBody,
  responses: { 201: { description: 'The key, with its full token', schema: CreatedTokenSchema } },
  cli: { group: 'tokens', verb: 'create' },
});

export const revokeToken = defineOperation({
  id: 'tokens.revoke',
  method: 'post',
  path: '/api/v1/tokens/{tokenId}/revoke',
  summary: 'Revoke an API key',
  auth: keysWrite,
  params: z.object({ tokenId: Uuid }),
  responses: { 200: { description: 'Revoked', schema: RevokedSchema } },
  cli: { group: 'tokens', verb: 'revoke' },
});

const DeviceParams = z.object({ wsId: Uuid, deviceId: Uuid });

export const listDevices = defineOperation({
  id: 'devices.list',
  method: 'get',
  path: '/api/v1/workspaces/{wsId}/devices',
  summary: 'List devices of a workspace',
  auth: read,
  params: WsParams,
  responses: { 200: { description: 'Devices', schema: listOf(DeviceSchema) } },
  cli: { group: 'devices', verb: 'list' },
});

export const createDevice = defineOperation({
  id: 'devices.create',
  method: 'post',
  path: '/api/v1/workspaces/{wsId}/devices',
  summary: 'Register a device; its dt_ credential is returned once',
  auth: wsWrite,
  params: WsParams,
  body: CreateDeviceBody,
  responses: { 201: { description: 'Device and credential', schema: CreatedDeviceSchema } },
  cli: { group: 'devices', verb: 'create' },
});

export const rotateDevice = defineOperation({
  id: 'devices.rotate',
  method: 'post',
  path: '/api/v1/workspaces/{wsId}/devices/{deviceId}/rotate',
  summary: 'Rotate a device credential (the old one stops working at once)',
  auth: wsWrite,
  params: DeviceParams,
  responses: { 200: { description: 'New credential', schema: RotatedDeviceTokenSchema } },
  cli: { group: 'devices', verb: 'rotate' },
});

export const revokeDevice = defineOperation({
  id: 'devices.revoke',
  method: 'post',
  path: '/api/v1/workspaces/{wsId}/devices/{deviceId}/revoke',
  summary: 'Revoke a device',
  auth: wsWrite,
  params: DeviceParams,
  responses: { 200: { description: 'Revoked', schema: RevokedSchema } },
  cli: { group: 'devices', verb: 'revoke' },
});

export const listIssuers = defineOperation({
  id: 'issuers.list',
  method: 'get',
  path: '/api/v1/workspaces/{wsId}/trusted-issuers',
  summary: 'List trusted identity issuers',
  auth: read,
  params: WsParams,
  responses: { 200: { description: 'Issuers', schema: listOf(TrustedIssuerSchema) } },
  cli: { group: 'issuers', verb: 'list' },
});

export const createIssuer = defineOperation({
  id: 'issuers.create',
  method: 'post',
  path: '/api/v1/workspaces/{wsId}/trusted-issuers',
  summary: 'Register a trusted identity issuer (algs default [RS256])',
  auth: wsWrite,
  params: WsParams,
  body: CreateIssuerBody,
  responses: { 201: { description: 'The issuer', schema: TrustedIssuerSchema } },
  cli: { group: 'issuers', verb: 'create' },
});

export const deleteIssuer = defineOperation({
  id: 'issuers.delete',
  method: 'delete',
  path: '/api/v1/workspaces/{wsId}/trusted-issuers/{issuerId}',
  summary: 'Remove a trusted issuer (204, also when already gone)',
  auth: wsWrite,
  params: z.object({ wsId: Uuid, issuerId: Uuid }),
  responses: { 204: { description: 'Removed' } },
  cli: { group: 'issuers', verb: 'delete' },
});

const PersonaParams = z.object({ id: z.string().min(1).describe('persona key') });

export const listGallery = defineOperation({
  id: 'gallery.list',
  method: 'get',
  path: '/api/gallery',
  summary: 'Stock persona gallery (public)',
  auth: 'public',
  responses: { 200: { description: 'Personas', schema: GalleryListSchema } },
  cli: { group: 'gallery', verb: 'list' },
});

export const galleryFace = defineOperation({
  id: 'gallery.face',
  method: 'get',
  path: '/api/gallery/{id}/face',
  summary: 'Poster face image of a persona (public)',
  auth: 'public',
  params: PersonaParams,
  responses: {
    200: { description: 'PNG image', contentType: 'image/png' },
    206: { description: 'Requested byte range', contentType: 'image/png' },
    416: { description: 'Range not satisfiable' },
  },
  cli: { group: 'gallery', verb: 'face' },
});

export const galleryIntro = defineOperation({
  id: 'gallery.intro',
  method: 'get',
  path: '/api/gallery/{id}/intro',
  summary: 'Muted looping portrait intro clip (public, supports Range)',
  auth: 'public',
  params: PersonaParams,
  query: z.object({ lang: IntroLang }),
  responses: {
    200: { description: 'Whole clip', contentType: 'video/mp4' },
    206: { description: 'Requested byte range', contentType: 'video/mp4' },
    416: { description: 'Range not satisfiable' },
  },
  cli: { group: 'gallery', verb: 'intro' },
});

export const jwks = defineOperation({
  id: 'jwks.get',
  method: 'get',
  path: '/.well-known/jwks.json',
  summary: 'Public Ed25519 key(s) that verify session tokens (spec 5.4)',
  auth: 'public',
  responses: {
    200: {
      description: 'JWK set',
      schema: z.object({
        keys: z.array(
          z.object({
            kty: z.string(),
            crv: z.string(),
            x: z.string(),
            kid: z.string(),
            alg: z.string(),
            use: z.string(),
          }),
        ),
      }),
    },
  },
  cli: { group: 'jwks', verb: 'get' },
});

export const openapi = defineOperation({
  id: 'openapi.get',
  method: 'get',
  path: '/api/v1/openapi.json',
  summary: 'This OpenAPI 3.1 document (spec 9)',
  auth: 'public',
  responses: {
    200: { description: 'OpenAPI 3.1 document', schema: z.record(z.string(), z.unknown()) },
  },
  cli: false,
});

export const asyncapi = defineOperation({
  id: 'asyncapi.get',
  method: 'get',
  path: '/api/v1/asyncapi.json',
  summary: "AsyncAPI 3 document of the edge's WebSocket endpoints and messages (v1 and v2)",
  auth: 'public',
  responses: {
    200: { description: 'AsyncAPI 3.0 document', schema: z.record(z.string(), z.unknown()) },
  },
  cli: false,
});

export const coreOperations = [
  listWorkspaces,
  createWorkspace,
  getWorkspace,
  updateWorkspace,
  listTokens,
  createToken,
  revokeToken,
  listDevices,
  createDevice,
  rotateDevice,
  revokeDevice,
  listIssuers,
  createIssuer,
  deleteIssuer,
  listGallery,
  galleryFace,
  galleryIntro,
  jwks,
  openapi,
  asyncapi,
];
