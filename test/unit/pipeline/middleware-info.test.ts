import { describe, expect, it } from 'vitest';
import {
  ApprovalBroker,
  approvalInfo,
  createApprovalHook,
} from '../../../src/main/middleware/approval.ts';
import { createFilesystemHook, filesystemInfo } from '../../../src/main/middleware/filesystem.ts';
import { createMemoryHook, memoryInfo } from '../../../src/main/middleware/memory.ts';
import { createProfileHook, profileInfo } from '../../../src/main/middleware/profile.ts';
import { createSkillsHook, skillsInfo } from '../../../src/main/middleware/skills.ts';
import {
  createSummarizationHook,
  summarizationInfo,
} from '../../../src/main/middleware/summarization.ts';
import { createTodoListHook, todoListInfo } from '../../../src/main/middleware/todos.ts';
import { createSubagentsHook, subagentsInfo } from '../../../src/main/middleware/subagents.ts';
import { createTracingHook, tracingInfo } from '../../../src/main/middleware/tracing.ts';
import { createClaudeHooks } from '../../../src/main/user-hooks/claude-hooks.ts';
import { createExecutableHooks } from '../../../src/main/user-hooks/executable-hooks.ts';
import { userHooksInfo } from '../../../src/main/user-hooks/list.ts';
import {
  createPermissionRulesHook,
  permissionRulesInfo,
} from '../../../src/main/middleware/permission-rules.ts';
import { createScriptHook } from '../../../src/main/user-hooks/script-hooks/index.ts';
import { builtinHookInfos } from '../../../src/main/api/build-pipeline.ts';
import { PHASES, phasesOf } from '../../../src/main/pipeline/phases.ts';
import { DEFAULT_SETTINGS } from '../../../src/shared/types/index.ts';

describe('self-describing middleware', () => {
  it.each([
    [tracingInfo, createTracingHook()],
    [todoListInfo, createTodoListHook()],
    [subagentsInfo, createSubagentsHook([])],
    [
      approvalInfo,
      createApprovalHook({ mode: 'ask', broker: new ApprovalBroker(), interactive: false }),
    ],
    [permissionRulesInfo, createPermissionRulesHook([])],
    [filesystemInfo, createFilesystemHook()],
    [profileInfo, createProfileHook({ system_prompt: 'P' })],
    [skillsInfo, createSkillsHook({ home: '/h' })],
    [memoryInfo, createMemoryHook({ home: '/h' })],
    [summarizationInfo, createSummarizationHook()],
  ] as const)('%o lists exactly the phases its hook implements', (info, hook) => {
    expect(hook.name).toBe(info.name);
    expect(phasesOf(hook)).toEqual(info.phases);
  });

  it('user-hooks lists the phases its three kinds take part in', () => {
    const executable = createExecutableHooks({ entries: [], settings: DEFAULT_SETTINGS }, 'user');
    const claude = createClaudeHooks(
      { handlers: [], settings: DEFAULT_SETTINGS, home: '/h' },
      'user',
    );
    const script = createScriptHook({ scriptPath: '/h/hooks.ts', profileName: 'main' });
    const all = new Set([...phasesOf(executable), ...phasesOf(claude), ...phasesOf(script)]);
    expect(PHASES.map((p) => p.name).filter((p) => all.has(p))).toEqual(userHooksInfo.phases);
  });

  it('the hooks panel lists the built-ins in pipeline order with their own descriptions', () => {
    const infos = builtinHookInfos(DEFAULT_SETTINGS);
    expect(infos.map((i) => i.id)).toEqual([
      'builtin:tracing',
      'builtin:todolist',
      'builtin:subagents',
      'builtin:user-hooks',
      'builtin:permission-rules',
      'builtin:approval',
      'builtin:filesystem',
      'builtin:external-tools',
      'builtin:profile',
      'builtin:skills',
      'builtin:memory',
      'builtin:summarization',
    ]);
    expect(infos.find((i) => i.name === 'memory')).toMatchObject({
      command: memoryInfo.description,
      events: ['before_agent', 'modify_request', 'wrap_tool_call'],
    });
  });
});
