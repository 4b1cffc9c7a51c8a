/** The SQL of compat-a: named statements, prepared once per database (docs/architecture.md "Stores and statement tables"). */
import { statementTable } from '../../db/database.js';

export const batchSql = statementTable((db) => ({
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
