import type { Migration } from './migration.js';

/**
 * Avatars, immutable versions, append-only profiles, voices and the idle-media state
 * (spec 2, 4.7 to 4.9). Stock personas live in the workspace `ws_stock`, which has no row
 * in `workspaces` (it belongs to no user and is never listed), hence no foreign key there.
 */
export const avatars: Migration = {
  version: 2,
  name: 'avatars, avatar versions, profiles, voices, voice versions, idle media',
  up: `
CREATE TABLE avatars (
  id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL,
  name TEXT NOT NULL,
  kind TEXT NOT NULL DEFAULT 'stock',
  current_version_id TEXT,
  status TEXT NOT NULL DEFAULT 'draft',
  deleted_at INTEGER,
  region_tag TEXT NOT NULL DEFAULT 'local',
  assets_status TEXT NOT NULL DEFAULT 'missing' CHECK (assets_status IN ('missing', 'building', 'ready')),
  default_profile_id TEXT,
  profiles_seeded INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL);
CREATE INDEX avatars_ws ON avatars(workspace_id);

CREATE TABLE avatar_versions (
  id TEXT PRIMARY KEY,
  avatar_id TEXT NOT NULL REFERENCES avatars(id),
  version_number INTEGER NOT NULL,
  image_blob_key TEXT,
  image_type TEXT,
  system_prompt TEXT,
  config_json TEXT,
  description TEXT,
  backstory TEXT,
  native_language TEXT,
  voice_ref_text TEXT,
  voice_blob_key TEXT,
  voice_type TEXT,
  voice_seconds REAL,
  face_blob_keys TEXT NOT NULL DEFAULT '[]',
  source_persona TEXT,
  published_at INTEGER,
  created_by TEXT,
  created_at INTEGER NOT NULL,
  UNIQUE (avatar_id, version_number));

CREATE TABLE avatar_profiles (
  id TEXT PRIMARY KEY,
  avatar_id TEXT NOT NULL REFERENCES avatars(id),
  hash TEXT NOT NULL,
  hash_short TEXT NOT NULL,
  system_prompt TEXT,
  backstory TEXT,
  tools_json TEXT,
  config_json TEXT,
  created_at INTEGER NOT NULL,
  created_by TEXT NOT NULL,
  seq INTEGER NOT NULL,
  deleted_at INTEGER);
CREATE UNIQUE INDEX avatar_profiles_live_hash ON avatar_profiles(avatar_id, hash) WHERE deleted_at IS NULL;

CREATE TABLE idle_media (
  version_id TEXT PRIMARY KEY REFERENCES avatar_versions(id),
  avatar_id TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('missing', 'building', 'ready')),
  blob_key TEXT,
  frames INTEGER,
  error TEXT,
  updated_at INTEGER NOT NULL);

CREATE TABLE voices (
  id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL,
  name TEXT NOT NULL,
  kind TEXT NOT NULL DEFAULT 'stock',
  current_version_id TEXT,
  status TEXT NOT NULL DEFAULT 'draft',
  deleted_at INTEGER,
  region_tag TEXT NOT NULL DEFAULT 'local',
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL);
CREATE INDEX voices_ws ON voices(workspace_id);

CREATE TABLE voice_versions (
  id TEXT PRIMARY KEY,
  voice_id TEXT NOT NULL REFERENCES voices(id),
  version_number INTEGER NOT NULL,
  sample_blob_key TEXT,
  sample_type TEXT,
  sample_seconds REAL,
  ref_text TEXT,
  config_json TEXT,
  external_voice_id TEXT,
  created_by TEXT,
  created_at INTEGER NOT NULL,
  UNIQUE (voice_id, version_number));
`,
};
