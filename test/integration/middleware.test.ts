/**
 * Memory, skills and compaction as a user meets them: memory and skills reach the model, a long thread compacts and keeps
 * answering, and the exported trace forms one span tree per run.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createWorkbench } from '../../src/main/api/workbench.ts';
import type { Workbench } from '../../src/main/api/types.ts';
import { fromOtlpJson, validateSpanTree } from '../../src/main/tracing/index.ts';
import type { StreamEvent } from '../../src/shared/types/index.ts';
import { startFakeOpenAi, type FakeOpenAi } from '../helpers/fake-openai-server.ts';
import { runCli, sandbox } from '../helpers/run-cli.ts';

let fake: FakeOpenAi | undefined;
let wb: Workbench | undefined;
afterEach(async () => {
  await wb?.close();
  await fake?.close();
  wb = fake = undefined;
});

async function skill(dir: string, name: string, description: string) {
  await mkdir(join(dir, name), { recursive: true });
  await writeFile(join(dir, name, 'SKILL.md'), `---\nname: ${name}\ndescription: ${description}\n---\n\n# ${name}\nSteps…\n`);
}

const systemText = (req: { messages: Array<{ role: string; content?: unknown }> }) =>
  req.messages.filter((m) => m.role === 'system').map((m) => String(m.content)).join('\n');

describe('memory, skills, compaction and traces', () => {
  it('the first model request carries both AGENTS.md files and the skills catalog', async () => {
    const { home, workspace } = await sandbox();
    await writeFile(join(home, 'AGENTS.md'), '- I prefer tabs');
    await writeFile(join(workspace, 'AGENTS.md'), '# Project notes\n- Using FastAPI');
    await skill(join(workspace, '.workbench', 'skills'), 'csv-analyzer', 'Analyze CSV files and generate charts');
    await skill(join(home, 'skills'), 'code-review', 'Review code for bugs and style issues');
    fake = await startFakeOpenAi();
    wb = await createWorkbench({ home, workspace, baseURL: fake.baseURL, apiKey: 'sk-test', interactive: false });
    await (await wb.chat.send({ text: 'hello' })).finished;

    const system = systemText(fake.chatRequests()[0]);
    expect(system).toContain('<agent_memory>\n- I prefer tabs\n\n---\n\n# Project notes\n- Using FastAPI\n</agent_memory>');
    expect(system).toContain('Guidelines for agent memory:');
    expect(system).toContain(`[csv-analyzer] Analyze CSV files and generate charts → Read ${join(workspace, '.workbench/skills/csv-analyzer/SKILL.md')} for full instructions`);
    expect(system).toContain(`[code-review] Review code for bugs and style issues → Read ${join(home, 'skills/code-review/SKILL.md')} for full instructions`);
  });

  it('an AGENTS.md edited by the agent is in the very next model request', async () => {
    const { home, workspace } = await sandbox();
    await writeFile(join(workspace, 'AGENTS.md'), '- old fact');
    fake = await startFakeOpenAi({
      script: [{ toolCalls: [{ name: 'edit_file', args: { path: 'AGENTS.md', old_text: 'old fact', new_text: 'new fact' } }] }, { text: 'noted' }],
    });
    wb = await createWorkbench({ home, workspace, baseURL: fake.baseURL, apiKey: 'sk-test', interactive: false });
    await (await wb.chat.send({ text: 'remember the new fact', approvalMode: 'auto' })).finished;
    const [first, second] = fake.chatRequests();
    expect(systemText(first)).toContain('- old fact');
    expect(systemText(second)).toContain('- new fact');
    expect(systemText(second)).not.toContain('- old fact');
  });

  it('a 200-turn thread with a small context window compacts, keeps memory and keeps answering', async () => {
    const { home, workspace } = await sandbox();
    await writeFile(join(workspace, 'AGENTS.md'), '- the secret word is tangerine');
    await mkdir(join(workspace, '.workbench'));
    await writeFile(join(workspace, '.workbench', 'agent.yaml'), 'context_window: 3000\ncompaction:\n  strategy: summarization\n');
    fake = await startFakeOpenAi({
      rules: [{ match: /./, turns: [(req) => ({ text: req.tools?.length ? `answer ${req.messages.length}` : 'Summary: the user asked many numbered questions.' })] }],
    });
    wb = await createWorkbench({ home, workspace, baseURL: fake.baseURL, apiKey: 'sk-test', interactive: false });
    const compactions: StreamEvent[] = [];
    wb.subscribe((e) => e.event === 'on_compaction' && compactions.push(e));
    let threadId: string | undefined;
    for (let i = 0; i < 200; i++) {
      const h = await wb.chat.send({ threadId, text: `question number ${i}: ${'please think about this. '.repeat(4)}` });
      threadId = h.threadId;
      const r = await h.finished;
      expect(r.stop_reason).toBe('completed');
    }
    expect(compactions.length).toBeGreaterThan(0);
    const agentRequests = fake.chatRequests().filter((r) => r.tools?.length);
    expect(agentRequests).toHaveLength(200);
    const last = agentRequests.at(-1)!;
    expect(last.messages.length).toBeLessThan(60);
    expect(systemText(last)).toContain('tangerine');
    expect(JSON.stringify(last.messages)).toContain('Summary: the user asked many numbered questions.');
    expect(String(last.messages.at(-1)!.content)).toContain('question number 199');
    // The stored thread keeps the full history.
    expect(wb.threads.get({ threadId: threadId! })!.messages).toHaveLength(400);
  });

  it('trace export --format otlp gives spans that form one tree per run', async () => {
    const { home, workspace } = await sandbox();
    await writeFile(join(workspace, 'a.txt'), 'alpha');
    fake = await startFakeOpenAi({
      script: [
        { toolCalls: [{ name: 'read_file', args: { path: 'a.txt' } }, { name: 'ls', args: {} }] },
        { text: 'first done' },
        { toolCalls: [{ name: 'grep', args: { pattern: 'alpha' } }] },
        { text: 'second done' },
      ],
    });
    wb = await createWorkbench({ home, workspace, baseURL: fake.baseURL, apiKey: 'sk-test', interactive: false });
    const h1 = await wb.chat.send({ text: 'read a.txt' });
    await h1.finished;
    await (await wb.chat.send({ threadId: h1.threadId, text: 'grep alpha' })).finished;
    await wb.close();
    wb = undefined;

    const out = join(home, 'trace.json');
    const r = await runCli(['trace', 'export', h1.threadId, '--format', 'otlp', '--out', out], { home, workspace });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/wrote 9 spans/);
    const otlp = JSON.parse(await readFile(out, 'utf8'));
    expect(otlp.resourceSpans[0].scopeSpans[0].spans.length).toBeGreaterThan(0);
    const spans = fromOtlpJson(otlp);
    const runs = new Map<string, typeof spans>();
    for (const s of spans) runs.set(s.trace_id, [...(runs.get(s.trace_id) ?? []), s]);
    expect(runs.size).toBe(2);
    for (const runSpans of runs.values()) {
      const report = validateSpanTree(runSpans);
      expect(report.errors).toEqual([]);
      expect(Object.keys(report.roots)).toHaveLength(1);
    }
    const names = spans.map((s) => s.name);
    expect(names.filter((n) => n.startsWith('invoke_agent'))).toHaveLength(2);
    expect(names.filter((n) => n.startsWith('chat '))).toHaveLength(4);
    expect(names.filter((n) => n.startsWith('execute_tool '))).toEqual(['execute_tool read_file', 'execute_tool ls', 'execute_tool grep']);
    // Content is left out of exports unless the user turns capture on.
    expect(JSON.stringify(otlp)).not.toContain('alpha');
  });
});

describe('effective context', () => {
  it('keeps the exact system message of the last model request per thread', async () => {
    const { home, workspace } = await sandbox();
    await writeFile(join(workspace, 'AGENTS.md'), '- remember me');
    fake = await startFakeOpenAi();
    wb = await createWorkbench({ home, workspace, baseURL: fake.baseURL, apiKey: 'sk-test', interactive: false });
    const h = await wb.chat.send({ text: 'hi' });
    await h.finished;
    const last = wb.inspect.lastRequest({ threadId: h.threadId })!;
    expect(last.system).toBe(systemText(fake.chatRequests()[0]));
    expect(last.system).toContain('- remember me');
    expect(last.message_count).toBe(fake.chatRequests()[0].messages.length);
  });
});
