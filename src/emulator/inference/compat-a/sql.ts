/** The SQL of compat-a: named statements, prepared once per database (docs/architecture.md "Stores and statement tables"). */
import { statementTable } from '../../db/database.js';

const FILE_COLUMNS = 'id, org_id, filename, purpose, size, status, created_at';
const FILES_OF =
  'FROM inference_files WHERE org_id = @org AND (@purpose IS NULL OR purpose = @purpose)';

export const batchSql = statementTable((db) => ({
  listFilesNewestFirst: db.prepare(
    `SELECT ${FILE_COLUMNS} ${FILES_OF} ORDER BY created_at DESC, rowid DESC`,
  ),
  listFilesOldestFirst: db.prepare(
    `SELECT ${FILE_COLUMNS} ${FILES_OF} ORDER BY created_at ASC, rowid ASC`,
  ),
  listInferenceBatchesRecord: db.prepare(
    'SELECT record FROM inference_batches ORDER BY created_at DESC, rowid DESC',
  ),
  getInferenceBatchesRecordById: db.prepare('SELECT record FROM inference_batches WHERE id = ?'),
  upsertInferenceBatches: db.prepare(
    'INSERT INTO inference_batches (id, org_id, record, created_at) VALUES (?, ?, ?, ?) ON CONFLICT(id) DO UPDATE SET record = excluded.record',
  ),
  insertInferenceFiles: db.prepare(
    'INSERT INTO inference_files (id, org_id, filename, purpose, bytes, size, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
  ),
  getInferenceFilesById: db.prepare('SELECT * FROM inference_files WHERE id = ?'),
  deleteInferenceFilesById: db.prepare('DELETE FROM inference_files WHERE id = ?'),
}));
