/** `avatar chat MESSAGE...`: compat-a chat completions, streamed token by token (spec 4.12). */
import type { ChatMessage } from '../../client/inference.js';
import { defineCommand } from '../define.js';
import { CliError, ExitCode } from '../exit-codes.js';
import { StreamWrap } from '../wrap.js';
import { inference, positiveInt, readFileArg, termWidth } from './inference-common.js';

export const chatCommand = defineCommand({
  name: 'chat',
  summary:
    'Ask the chat model; the reply streams as it is written  [POST /compat-a/v1/chat/completions]',
  args: {
    words: { usage: '[message...]', description: 'the user message (or - to read it from stdin)' },
  },
  options: {
    model: { flags: '--model <id>', description: 'model id', default: 'avatar-chat' },
    system: { flags: '--system <text>', description: 'system prompt' },
    maxTokens: { flags: '--max-tokens <n>', description: 'reply length cap' },
    stream: { flags: '--no-stream', description: 'wait for the whole reply' },
  },
  async run({ args: { words }, options: o, cli }) {
    const text =
      words.length === 1 && words[0] === '-'
        ? readFileArg(cli, '-').toString('utf8')
        : words.join(' ');
    if (!text.trim())
      throw new CliError('say something: avatar chat "Hello there"', ExitCode.usage);
    const messages: ChatMessage[] = [
      ...(o.system ? [{ role: 'system' as const, content: o.system }] : []),
      { role: 'user', content: text },
    ];
    const body = {
      model: o.model,
      messages,
      ...(o.maxTokens ? { max_tokens: positiveInt(o.maxTokens, '--max-tokens') } : {}),
    };
    const client = inference(cli);
    if (!o.stream || cli.globals().json) {
      const r = await client.chat(body);
      cli.print(r, () => String(r.choices?.[0]?.message?.content ?? ''));
      return;
    }
    const ac = new AbortController();
    const off = cli.onInterrupt(() => ac.abort());
    try {
      // On a terminal the reply wraps at word boundaries as it streams; a pipe gets it as sent.
      const width = termWidth(cli);
      const wrap = width ? new StreamWrap(width - 1) : undefined;
      const end = await client.chatStream(
        body,
        (d) => cli.io.stdout.write(wrap ? wrap.push(d) : d),
        ac.signal,
      );
      cli.io.stdout.write(`${wrap?.end() ?? ''}\n`);
      if (end.usage)
        cli.note(
          `(${end.usage.prompt_tokens} prompt + ${end.usage.completion_tokens} completion tokens, ${end.finish_reason ?? 'stop'})`,
        );
    } finally {
      off();
    }
  },
});
