import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createWorkbench } from '../../../src/main/api/workbench.ts';
import { WorkbenchError } from '../../../src/main/errors.ts';
import { openDatabase } from '../../../src/main/store/database.ts';
import type { Message } from '../../../src/shared/types/index.ts';
import { createScriptedLlm } from '../../helpers/scripted-llm.ts';

const chat = (n: number): Message[] =>
  Array.from({ length: n }, (_, i) => ({
    role: i % 2 === 0 ? 'user' : 'assistant',
    content: `${i} ${'x'.repeat(16)}`,
  }));

let tmp: string | undefined;
afterEach(() => tmp && rmSync(tmp, { recursive: true, force: true }));

describe('Workbench threads.compact', () => {
  it('stores the summary of a stored thread and keeps its history; an unknown thread is not_found', async () => {
    tmp = realpathSync(mkdtempSync(join(tmpdir(), 'wb-compact-')));
    const seed = openDatabase(join(tmp, 'workbench.db'));
    const threadId = seed.threads.loadOrCreate(undefined, tmp).thread_id;
    seed.threads.appendMessages(threadId, chat(12));
    seed.close();
    const wb = await createWorkbench({
      home: tmp,
      workspace: tmp,
      llm: createScriptedLlm([{ text: 'from cli' }]),
      model: 'm',
    });
    try {
      const r = await wb.threads.compact({ threadId });
      expect(r).toMatchObject({ compacted: true, upto: 10 });
      expect(wb.threads.get({ threadId })!.messages).toHaveLength(12);
      const err = await wb.threads.compact({ threadId: 'th_nope' }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(WorkbenchError);
      expect(err).toMatchObject({ code: 'not_found', message: 'unknown thread th_nope' });
    } finally {
      await wb.close();
    }
    const db = openDatabase(join(tmp, 'workbench.db'));
    expect(db.threads.getCompaction(threadId)).toMatchObject({ upto: 10, content: 'from cli' });
    db.close();
  });
});
