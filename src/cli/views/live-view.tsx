/**
 * The `sessions live` terminal view (ink): header with the session clock against
 * `cap_seconds`, the transcript (the user's final words, the avatar's replies, tool events),
 * the user's partial transcript as it forms, a mic level meter, and a text input whose
 * lines go to POST /chat.
 */
import { Box, Text, useInput } from 'ink';
import TextInput from 'ink-text-input';
import { useState, useSyncExternalStore } from 'react';
import { endSentence, recordedText } from '../live/live-log.js';
import type { LiveLine, LiveState, LiveStore } from '../live/live-state.js';

export interface LiveViewProps {
  store: LiveStore;
  onSubmit(text: string): void;
  onQuit(): void;
  /** Colours off (NO_COLOR). */
  noColor?: boolean;
  /** Transcript lines shown (the newest). */
  rows?: number;
}

export function clock(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  return `${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
}

/** 20 cells from -60 dBFS (empty) to 0 dBFS (full). */
export function meter(levelDb: number, cells = 20): string {
  const frac = Number.isFinite(levelDb) ? Math.min(1, Math.max(0, (levelDb + 60) / 60)) : 0;
  const n = Math.round(frac * cells);
  return '█'.repeat(n) + '░'.repeat(cells - n);
}

const WHO: Record<LiveLine['kind'], string> = {
  user: 'you',
  avatar: 'avatar',
  tool: 'tool',
  info: 'note',
  error: 'error',
};
const COLOR: Record<LiveLine['kind'], string> = {
  user: 'cyan',
  avatar: 'green',
  tool: 'magenta',
  info: 'yellow',
  error: 'red',
};

export function LiveView({ store, onSubmit, onQuit, noColor, rows = 14 }: LiveViewProps) {
  const s: LiveState = useSyncExternalStore(store.subscribe, store.getSnapshot);
  const [text, setText] = useState('');
  useInput((input, key) => {
    if (key.ctrl && input === 'c') onQuit();
  });
  const c = (color: string) => (noColor ? undefined : color);
  const over = s.elapsedS >= s.capSeconds * 0.9;
  const level = Number.isFinite(s.mic.levelDb) ? `${Math.round(s.mic.levelDb)} dB` : 'silent';
  return (
    <Box flexDirection="column">
      <Box justifyContent="space-between">
        <Text bold>
          {s.label} · session {s.sessionId.slice(0, 8)} · protocol {s.protocol}
          {s.connected ? '' : ' · connecting…'}
        </Text>
        <Text color={c(over ? 'red' : 'gray')}>
          {clock(s.elapsedS)} / {clock(s.capSeconds)}
        </Text>
      </Box>
      <Box flexDirection="column" marginY={1}>
        {s.lines.slice(-rows).map((l) => (
          <Text key={l.id} wrap="wrap">
            <Text color={c(COLOR[l.kind])} bold>
              {WHO[l.kind]}:
            </Text>{' '}
            {l.text}
          </Text>
        ))}
        {s.partial ? <Text dimColor>you (speaking): {s.partial}…</Text> : null}
        {s.speaking ? <Text color={c('green')}>avatar is speaking…</Text> : null}
      </Box>
      <Text>
        mic {s.mic.label ? `${meter(s.mic.levelDb)} ${level}` : '(none: type below)'}
        {s.mic.gated ? ' · gated while the avatar speaks' : ''} · out {s.output ?? 'none'} · media{' '}
        {(s.media.bytes / 1024).toFixed(0)} KB
      </Text>
      {s.recorded ? <Text>{recordedText(s.recorded)}</Text> : null}
      {s.ended ? (
        <Text color={c('yellow')}>ended: {endSentence(s.ended.reason, s.ended.detail)}</Text>
      ) : (
        <Box>
          <Text color={c('cyan')}>› </Text>
          <TextInput
            value={text}
            onChange={(v) => {
              // A paste arrives as one chunk with its newlines (no Enter key event): each
              // finished line is sent, the unfinished rest stays in the input.
              const lines = v.split(/\r\n|\r|\n/);
              const rest = lines.pop()!;
              for (const l of lines) if (l.trim()) onSubmit(l);
              setText(rest);
            }}
            placeholder="type a message, Enter sends · Ctrl-C ends the session"
            onSubmit={(v) => {
              setText('');
              if (v.trim()) onSubmit(v);
            }}
          />
        </Box>
      )}
    </Box>
  );
}
