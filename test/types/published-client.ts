/**
 * Type test (issue 31): the answers of the published `avatar/client` are typed from the
 * contract, through the package's own built declarations (`dist/*.d.ts`, the `exports` map;
 * `npm test` builds before `tsc -p tsconfig.test.json` compiles this file). Nothing here
 * runs: a wrong type fails the compile, and each `@ts-expect-error` fails it if the error
 * it expects went away (an `any` answer would make them all vanish).
 */
import { expectTypeOf } from 'vitest';
import { AvatarClient, InferenceClient } from 'avatar/client';
import { inferenceOps, sessionOps } from 'avatar/contract';

const { mintSession } = sessionOps;
const { chatCompletions } = inferenceOps;

declare const client: AvatarClient;

export async function mintIsTyped(): Promise<void> {
  const minted = (await client.call(mintSession, { body: { persona: 'ava' } })).body;
  expectTypeOf(minted).not.toBeAny();
  // 201 is a seat, 202 a queue ticket: the status tells them apart.
  if (minted.status === 'ready') {
    expectTypeOf(minted.session_id).toEqualTypeOf<string>();
    expectTypeOf(minted.session_token).toEqualTypeOf<string>();
  } else {
    expectTypeOf(minted.queue_ticket).toEqualTypeOf<string>();
    // @ts-expect-error a queued answer has no session_id
    void minted.session_id;
  }
  // @ts-expect-error the mint body is the contract's: persona is a string
  await client.call(mintSession, { body: { persona: 42 } });
}

export async function chatCompletionIsTyped(): Promise<void> {
  const completion = (
    await client.call(chatCompletions, {
      body: { model: 'avatar-chat', messages: [{ role: 'user', content: 'hi' }] },
    })
  ).body;
  expectTypeOf(completion).not.toBeAny();
  expectTypeOf(completion.choices[0]!.message.content).toEqualTypeOf<string | null>();
  expectTypeOf(completion.object).toEqualTypeOf<'chat.completion'>();
  expectTypeOf(completion.usage).toMatchTypeOf<{ total_tokens: number } | undefined>();

  const inference = new InferenceClient(client);
  const same = await inference.chat({
    model: 'avatar-chat',
    messages: [{ role: 'user', content: 'hi' }],
  });
  expectTypeOf(same.choices[0]!.message.content).toEqualTypeOf<string | null>();
  const job = await inference.createJob({ model_id: 'avatar-embed', task: 'embedding' });
  expectTypeOf(job.queue_id).toEqualTypeOf<string>();
  // @ts-expect-error a chat message's role is one of the contract's
  await inference.chat({ model: 'm', messages: [{ role: 'robot', content: 'hi' }] });
}

export async function operationIdsAreNotGuessed(): Promise<void> {
  // An operationId string is not typed (the answer is what the server says): no typed fields.
  const r = await client.call('sessions.mint', { body: { persona: 'ava' } });
  expectTypeOf(r.status).toEqualTypeOf<number>();
}
