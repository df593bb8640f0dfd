/** A script hook's chat output and Next's data as the chat shows them. */
import { describe, expect, it } from 'vitest';
import { applyEvents } from '../../../src/renderer/stores/apply-event.ts';
import { streamText } from '../../../src/renderer/stores/stream-text.ts';
import type { AgentEventEnvelope } from '../../../src/shared/ipc/contract.ts';
import type { RunEvent } from '../../../src/shared/types/index.ts';

const T = 'th1';
let seq = 0;
const env = (event: RunEvent): AgentEventEnvelope => ({
  seq: ++seq,
  event: { ...event, run_id: 'r1', thread_id: T },
});

describe('script notices', () => {
  it('streamed script text stays as a notice once whole, and Next’s data is shown', () => {
    const d = applyEvents({ threads: {}, lastSeq: 0 }, [
      env({ event: 'on_message', data: { index: 0, message: { role: 'user', content: 'go' } } }),
      env({ event: 'on_chat_model_stream', data: { delta: '## Results' } }),
      env({ event: 'on_chat_model_stream', data: { delta: ' one' } }),
      env({ event: 'on_script_message', data: { hook: 'script:main', text: '## Results one' } }),
      env({ event: 'on_script_data', data: { hook: 'script:main', data: { status: 'success' } } }),
    ]);
    const t = d.threads[T]!;
    expect(streamText(t.streaming)).toBe('');
    expect(t.notices.map((n) => [n.kind, n.text, n.by])).toEqual([
      ['script', '## Results one', 'script:main'],
      ['script', 'script:main: {"status":"success"}', 'script:main'],
    ]);
  });
});
