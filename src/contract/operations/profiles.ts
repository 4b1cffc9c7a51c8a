/**
 * Profiles (spec 4.9), in both route shapes. Writes need `avatars:write` (or `user:write`)
 * plus the workspace feature `custom_avatars`; reads `avatars:read` (or `user:read`).
 */
import { Uuid } from '../resources/common.js';
import {
  CreatedProfileSchema,
  CreateProfileBody,
  ProfileDefaultSchema,
  ProfileListSchema,
  ProfileSchema,
} from '../resources/profile.js';
import { avatarsRead, avatarsWrite } from './avatars.js';
import { twoShapes } from './two-shapes.js';

const A = { avatarId: Uuid };
const AP = { avatarId: Uuid, profileId: Uuid };

export const [createProfile, createProfileWs] = twoShapes({
  id: 'profiles.create',
  method: 'post',
  rel: '/avatars/{avatarId}/profiles',
  summary:
    'Append a profile: 201 created: true for new content, 200 created: false for identical content',
  auth: avatarsWrite,
  params: A,
  body: CreateProfileBody,
  responses: {
    201: { description: 'New profile', schema: CreatedProfileSchema },
    200: { description: 'Identical content existed; that row', schema: CreatedProfileSchema },
  },
  cli: { group: 'profiles', verb: 'create' },
});

export const [listProfiles, listProfilesWs] = twoShapes({
  id: 'profiles.list',
  method: 'get',
  rel: '/avatars/{avatarId}/profiles',
  summary: 'List profiles (no bodies), newest first, with the default',
  auth: avatarsRead,
  params: A,
  responses: { 200: { description: 'Profiles', schema: ProfileListSchema } },
  cli: { group: 'profiles', verb: 'list' },
});

export const [getProfile, getProfileWs] = twoShapes({
  id: 'profiles.show',
  method: 'get',
  rel: '/avatars/{avatarId}/profiles/{profileId}',
  summary: 'One profile with its bodies',
  auth: avatarsRead,
  params: AP,
  responses: { 200: { description: 'The profile', schema: ProfileSchema } },
  cli: { group: 'profiles', verb: 'show' },
});

export const [setDefaultProfile, setDefaultProfileWs] = twoShapes({
  id: 'profiles.default',
  method: 'post',
  rel: '/avatars/{avatarId}/profiles/{profileId}/default',
  summary: 'Make a profile the default (also rollback)',
  auth: avatarsWrite,
  params: AP,
  responses: { 200: { description: 'The new default', schema: ProfileDefaultSchema } },
  cli: { group: 'profiles', verb: 'default' },
});

export const [deleteProfile, deleteProfileWs] = twoShapes({
  id: 'profiles.delete',
  method: 'delete',
  rel: '/avatars/{avatarId}/profiles/{profileId}',
  summary: 'Delete a profile (204); the default is refused with 409 profile_is_default',
  auth: avatarsWrite,
  params: AP,
  responses: { 204: { description: 'Deleted' } },
  cli: { group: 'profiles', verb: 'delete' },
});

export const profileOperations = [
  createProfile,
  createProfileWs,
  listProfiles,
  listProfilesWs,
  getProfile,
  getProfileWs,
  setDefaultProfile,
  setDefaultProfileWs,
  deleteProfile,
  deleteProfileWs,
];
