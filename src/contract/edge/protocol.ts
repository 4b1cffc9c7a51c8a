/**
 * The edge protocol's constants, with no imports at all (the browser bundle takes them as
 * they are; the message schemas of messages.ts re-export them).
 */
/** Spec 4.6: the v2 socket's subprotocol. */
export const V2_SUBPROTOCOL = 'svc.avatar.v2';
/** v2 binary frames start with a one-byte tag: fMP4 media (box to client). */
export const TAG_MEDIA = 0x01;
/** v2 binary frames start with a one-byte tag: one PCM16 mic frame (client to box). */
export const TAG_MIC = 0x02;
/** Characters of a typed turn (v1 `POST /chat`, v2 `chat`) at most (spec 4.6). */
export const CHAT_TEXT_MAX = 4096;
