/** Groups whose commands are all generated from the contract (`cli: { group, verb }`). */
import { defineGroup } from '../define.js';
import { SECTION } from '../groups.js';

export const groups = [
  defineGroup({
    name: 'profiles',
    section: SECTION.control,
    rank: 8,
    description: 'avatar profiles (/api/v1/avatars/{avatarId}/profiles...)',
  }),
  defineGroup({
    name: 'tokens',
    section: SECTION.control,
    rank: 11,
    description: 'API keys (/api/v1/tokens...)',
  }),
  defineGroup({
    name: 'workspaces',
    section: SECTION.control,
    rank: 12,
    description: 'workspaces (/api/v1/workspaces...)',
  }),
  defineGroup({
    name: 'devices',
    section: SECTION.control,
    rank: 13,
    description: 'devices (/api/v1/workspaces/{wsId}/devices...)',
  }),
  defineGroup({
    name: 'issuers',
    section: SECTION.control,
    rank: 14,
    description: 'trusted issuers (/api/v1/workspaces/{wsId}/issuers...)',
  }),
  defineGroup({
    name: 'gallery',
    section: SECTION.control,
    rank: 15,
    description: 'stock personas, public (/api/gallery...)',
  }),
  defineGroup({
    name: 'jwks',
    section: SECTION.control,
    rank: 16,
    description: 'the session-token signing keys (/.well-known/jwks.json)',
  }),
];
