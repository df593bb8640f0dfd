import { describe, expect, it } from 'vitest';
import { applyEvents } from '../../../src/renderer/stores/apply-event.ts';
import {
  appendLive,
  type LiveChunk,
  LIVE_KEEP_CHARS,
  type ChatData,
} from '../../../src/renderer/stores/chat-types.ts';
import { buildRows } from '../../../src/renderer/features/chat/rows.ts';
import { completeMention, mentionAt } from '../../../src/renderer/features/composer/mention.ts';
import {
  matchCommands,
  parseCommand,
  registerComposerCommand,
} from '../../../src/renderer/features/composer/composer-commands.ts';
import { isConfigError } from '../../../src/renderer/features/composer/SendFailure.tsx';
import type { AgentEventEnvelope } from '../../../src/shared/ipc/contract.ts';
import type { RunEvent } from '../../../src/shared/types/index.ts';

const T = 'th1';
let seq = 0;
const env = (event: RunEvent): AgentEventEnvelope => ({
  seq: ++seq,
  event: { ...event, run_id: 'r1', thread_id: T },
});
const run = (events: AgentEventEnvelope[], start: ChatData = { threads: {}, lastSeq: 0 }) =>
  applyEvents(start, events);
const out = (stream: 'stdout' | 'stderr', chunk: string) =>
  env({ event: 'on_tool_output', data: { tool_call_id: 'c1', stream, chunk } });

describe('live command output in the store', () => {
  it('keeps stdout and stderr apart in arrival order, merging runs of one stream', () => {
    const d = run([
      out('stdout', 'a\n'),
      out('stdout', 'b\n'),
      out('stderr', 'oops\n'),
      out('stdout', 'c\n'),
    ]);
    expect(d.threads[T]!.tools.c1!.live).toEqual([
      { stream: 'stdout', text: 'a\nb\n' },
      { stream: 'stderr', text: 'oops\n' },
      { stream: 'stdout', text: 'c\n' },
    ]);
  });

  it('lets a carriage return start its line over, as a terminal does, within and across chunks', () => {
    const feed = (chunks: Array<['stdout' | 'stderr', string]>) =>
      chunks.reduce<LiveChunk[]>((live, [stream, text]) => appendLive(live, { stream, text }), []);
    // A meter that ends each state with CR: the last state stays, the line is never blank between.
    expect(
      feed([
        ['stderr', '  0%\r'],
        ['stderr', ' 50%\r'],
      ]),
    ).toEqual([{ stream: 'stderr', text: ' 50%\r' }]);
    expect(
      feed([
        ['stderr', '  0%\r'],
        ['stderr', ' 50%\r'],
        ['stderr', '100%\n'],
        ['stdout', 'done\n'],
      ]),
    ).toEqual([
      { stream: 'stderr', text: '100%\n' },
      { stream: 'stdout', text: 'done\n' },
    ]);
    // A meter that starts each state with CR, several in one chunk, after earlier lines.
    expect(feed([['stdout', 'Downloading\n 10%\r 20%\r 30%']])).toEqual([
      { stream: 'stdout', text: 'Downloading\n 30%' },
    ]);
    // CRLF is a line end, also when its two halves arrive apart.
    expect(
      feed([
        ['stdout', 'a\r\nb\r'],
        ['stdout', '\nc'],
      ]),
    ).toEqual([{ stream: 'stdout', text: 'a\r\nb\r\nc' }]);
    // The line started over may span both streams.
    expect(
      feed([
        ['stdout', 'kept\nhalf '],
        ['stderr', 'line\rnew'],
      ]),
    ).toEqual([
      { stream: 'stdout', text: 'kept\n' },
      { stream: 'stderr', text: 'new' },
    ]);
  });

  it('drops the oldest output past the bound', () => {
    let live = appendLive([], { stream: 'stderr', text: 'first' });
    live = appendLive(live, { stream: 'stdout', text: 'x'.repeat(LIVE_KEEP_CHARS) });
    expect(live).toEqual([{ stream: 'stdout', text: 'x'.repeat(LIVE_KEEP_CHARS) }]);
  });
});

describe('nothing lost on failure', () => {
  it('a model error before any answer gives the text back with its code', () => {
    const d = run([
      env({ event: 'on_run_start', data: { workspace: '/w', model: 'm' } }),
      env({
        event: 'on_message',
        data: {
          index: 0,
          message: { role: 'user', content: 'do it\n\n<hook_context>\nx\n</hook_context>' },
        },
      }),
      env({ event: 'error', data: { message: 'the API key was rejected', code: 'unauthorized' } }),
      env({ event: 'done', data: { stop_reason: 'error', iterations: 1 } }),
    ]);
    expect(d.threads[T]!.failedSend).toEqual({
      text: 'do it',
      error: 'the API key was rejected',
      code: 'unauthorized',
    });
    expect(isConfigError(d.threads[T]!.failedSend!)).toBe(true);
  });

  it('an error after the model answered is not a failed send', () => {
    const d = run([
      env({ event: 'on_message', data: { index: 0, message: { role: 'user', content: 'q' } } }),
      env({
        event: 'on_message',
        data: { index: 1, message: { role: 'assistant', content: 'a' } },
      }),
      env({ event: 'error', data: { message: 'later failure' } }),
    ]);
    expect(d.threads[T]!.failedSend).toBeUndefined();
  });

  it('a prompt blocked by a hook keeps the text being sent and names the hook', () => {
    const base = run([env({ event: 'on_todos', data: { todos: [] } })]);
    base.threads[T] = { ...base.threads[T]!, pendingText: 'rm everything' };
    const d = run(
      [env({ event: 'on_blocked', data: { by: 'guard.sh', reason: 'no', target: 'message' } })],
      base,
    );
    expect(d.threads[T]!.failedSend).toEqual({
      text: 'rm everything',
      error: 'no',
      by: 'guard.sh',
    });
  });

  it('the iteration cap leaves a notice the chat shows with Continue', () => {
    const d = run([
      env({ event: 'on_message', data: { index: 0, message: { role: 'user', content: 'q' } } }),
      env({ event: 'done', data: { stop_reason: 'max_iterations', iterations: 25 } }),
    ]);
    const rows = buildRows(d.threads[T]!);
    const notice = rows.find((r) => r.kind === 'notice');
    expect(notice).toMatchObject({ notice: { kind: 'iteration_cap' } });
    expect(notice?.kind === 'notice' && notice.notice.text).toContain('25 steps');
  });

  it('the last answer can be regenerated from the user message it answers', () => {
    const d = run([
      env({ event: 'on_message', data: { index: 0, message: { role: 'user', content: 'first' } } }),
      env({
        event: 'on_message',
        data: { index: 1, message: { role: 'assistant', content: 'one' } },
      }),
      env({
        event: 'on_message',
        data: { index: 2, message: { role: 'user', content: 'second' } },
      }),
      env({
        event: 'on_message',
        data: { index: 3, message: { role: 'assistant', content: 'two' } },
      }),
    ]);
    const rows = buildRows(d.threads[T]!);
    expect(
      rows.filter((r) => r.kind === 'assistant').map((r) => r.kind === 'assistant' && r.regenerate),
    ).toEqual([undefined, { index: 2, text: 'second' }]);
  });
});

describe('composer completion', () => {
  it('finds the @mention under the caret and completes it', () => {
    const text = 'look at @src/ma and more';
    const caret = 'look at @src/ma'.length;
    const m = mentionAt(text, caret)!;
    expect(m).toEqual({ start: 8, query: 'src/ma' });
    expect(completeMention(text, caret, m, 'src/main.ts')).toEqual({
      text: 'look at @src/main.ts and more',
      caret: 'look at @src/main.ts '.length,
    });
    expect(mentionAt('mail me@example', 15)).toBeUndefined();
    // A folder leaves the caret inside it; a name with spaces is quoted, as the run reads it.
    expect(completeMention(text, caret, m, 'src/')).toEqual({
      text: 'look at @src/ and more',
      caret: 'look at @src/'.length,
    });
    expect(completeMention(text, caret, m, 'src/my notes.md')).toEqual({
      text: 'look at @"src/my notes.md" and more',
      caret: 'look at @"src/my notes.md" '.length,
    });
  });

  it('lists built-in and registered / commands and parses a command line', () => {
    expect(matchCommands('', null).map((c) => c.name)).toEqual(['clear', 'new']);
    expect(matchCommands('c', 'th1').map((c) => c.name)).toEqual(['clear', 'compact']);
    const remove = registerComposerCommand({
      name: 'recipe-x',
      description: 'a recipe',
      run: () => undefined,
    });
    expect(matchCommands('rec', null).map((c) => c.name)).toEqual(['recipe-x']);
    remove();
    expect(matchCommands('rec', null)).toEqual([]);
    expect(parseCommand('/compact')).toEqual({ name: 'compact', args: '' });
    expect(parseCommand('/new  my title')).toEqual({ name: 'new', args: 'my title' });
    expect(parseCommand('not /a command')).toBeUndefined();
  });
});
