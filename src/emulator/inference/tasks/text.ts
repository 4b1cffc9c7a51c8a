/**
 * Text helpers of the local inference models: the brains' token count (for `usage`) and
 * their tokeniser and stemmer (for embeddings); one copy of each, in src/models/brain.
 */
export { countTokens } from '../../../models/brain/text.js';
export { stemmedWords as terms } from '../../../models/brain/retrieval.js';
