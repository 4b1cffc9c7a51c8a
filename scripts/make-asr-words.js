// Writes fixtures/asr/general-words-en.txt: the general English vocabulary the session's
// language model keeps within reach (docs/turns.md "The session's language model"): the
// `GENERAL_WORDS` most probable words of the CMU Sphinx US English model that pocketsphinx
// ships (Debian `pocketsphinx-en-us`, /usr/share/pocketsphinx/model/en-us/en-us.lm.bin;
// Copyright 1995-2014 Carnegie Mellon University, 2014-2015 Alpha Cephei Inc., BSD-2-Clause,
// /usr/share/doc/pocketsphinx/copyright), each with its unigram log10 probability, one
// `logprob<TAB>word` a line, most probable first (ties by word). Only words of the
// pronouncing dictionary, lower-case letters and apostrophes. Deterministic.
// `node scripts/make-asr-words.js [en-us.lm.bin]` rewrites it; the file is committed and shipped.
//
// The model's binary form (sphinxbase ngram_model_trie.c, "Trie Language Model"): the
// header string, the order (1 byte), the n-gram counts (uint32 LE each), the quantisation
// (int32 type, then 2^16 float bins for the bigrams' probabilities and back-offs and the
// trigrams' probabilities), then the unigrams: (count + 1) records of {float prob, float
// backoff, uint32 next}, probabilities in log base 1.0001; the words come last, a uint32
// byte length then NUL-separated strings in word-id order.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const GENERAL_WORDS = 5000;
const MODEL = process.argv[2] ?? '/usr/share/pocketsphinx/model/en-us/en-us.lm.bin';
const DICT = join(dirname(MODEL), 'cmudict-en-us.dict');
const out = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  'fixtures',
  'asr',
  'general-words-en.txt',
);

const d = readFileSync(MODEL);
const HEADER = 'Trie Language Model';
if (d.toString('latin1', 0, HEADER.length) !== HEADER) throw new Error(`${MODEL}: not a trie LM`);
let p = HEADER.length;
const order = d.readUInt8(p++);
const counts = Array.from({ length: order }, (_, i) => d.readUInt32LE(p + 4 * i));
p += 4 * order;
p += 4; // quantisation type
p += 4 * (1 << 16) * (2 * (order - 2) + 1); // bins: prob + backoff per middle order, prob for the last
const uniAt = p;
// The words: after the trie, a byte length and the strings; found from "</s>\0<s>\0" (ids 6, 7
// in this model) by walking back over the words before it.
const marker = d.lastIndexOf(Buffer.from('</s>\0<s>\0', 'latin1'));
let start = marker;
for (let n = 0; n < 12 && start > 0; ) {
  start--;
  if (d[start - 1] === 0) n++;
  const len = start >= 4 ? d.readUInt32LE(start - 4) : 0;
  if (len > 0 && start + len <= d.length && d[start + len - 1] === 0) {
    const words = d
      .toString('latin1', start, start + len)
      .split('\0')
      .slice(0, counts[0]);
    if (words.length === counts[0] && words.includes('the')) {
      const dict = new Set(
        readFileSync(DICT, 'utf8')
          .split('\n')
          .map((l) => l.split(' ')[0]),
      );
      const k = Math.log10(1.0001);
      const rows = words
        .map((w, i) => ({ w, lp: d.readFloatLE(uniAt + 12 * i) * k }))
        .filter(({ w }) => /^[a-z][a-z']*$/.test(w) && dict.has(w))
        .sort((a, b) => b.lp - a.lp || (a.w < b.w ? -1 : 1))
        .slice(0, GENERAL_WORDS);
      writeFileSync(out, rows.map(({ w, lp }) => `${lp.toFixed(4)}\t${w}`).join('\n') + '\n');
      console.log(`${out}: ${rows.length} words`);
      process.exit(0);
    }
  }
}
throw new Error(`${MODEL}: word list not found`);
