/**
 * The skills panel's service: lists skills from every source with their problems and catalog line,
 * creates a skill from a template, reads and saves SKILL.md (conflict-checked), switches skills on and
 * off (settings.disabled_skills) and deletes a skill folder — only inside a known skill root.
 */
import { mkdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type {
  SaveResult,
  SkillFile,
  SkillListing,
  SkillView,
} from '../../../shared/ipc/contract.ts';
import { workspaceWorkingDirs } from '../../middleware/claude-working-dirs.ts';
import { loadAgentProfile } from '../../agents/profile.ts';
import { catalogLine } from '../../skills/catalog.ts';
import { allowedTools } from '../../skills/allowed-tools.ts';
import { loadSkills, skillRoots, type Skill } from '../../skills/loader.ts';
import {
  ConflictError,
  readTextOrNull,
  versionOf,
  writeFileAtomic,
} from '../../fs/atomic-write.ts';
import { WorkbenchError } from '../../errors.ts';
import type { PanelDeps } from './panel-deps.ts';
import { locateSkill } from './skill-guard.ts';
import { SKILL_NAME_PATTERN, skillTemplate } from './skill-template.ts';

export interface SkillsService {
  list(args: { workspace: string }): Promise<SkillListing>;
  read(args: { workspace: string; path: string }): Promise<SkillFile>;
  create(args: {
    workspace: string;
    scope: 'user' | 'workspace';
    name: string;
    description: string;
  }): Promise<SkillView>;
  /** Contract: writes only a SKILL.md inside a known root; never over a file changed since `baseVersion`. */
  save(args: {
    workspace: string;
    path: string;
    content: string;
    baseVersion: string;
  }): Promise<SaveResult<SkillFile>>;
  /** Contract: removes only a skill folder directly inside a known root (a linked folder: only the link). */
  delete(args: { workspace: string; path: string }): Promise<{ deleted: true }>;
  setEnabled(args: { workspace: string; name: string; enabled: boolean }): Promise<SkillView>;
}

const toView = (s: Skill): SkillView => {
  const tools = allowedTools(s.frontmatter['allowed-tools']);
  return {
    name: s.name,
    description: s.description,
    path: s.path,
    dir: s.dir,
    source: s.source,
    enabled: s.enabled,
    modelInvocable: s.modelInvocable,
    ...(tools ? { allowedTools: tools } : {}),
    catalogLine: catalogLine(s),
  };
};

/** Creates the skills service. */
export function createSkillsService(deps: PanelDeps): SkillsService {
  const rootsOf = async (workspace: string) => {
    // The same sources a run uses: an untrusted workspace's skills.paths are ignored, and so are
    // the working directories its settings would add.
    const trusted = deps.trust.isTrusted(workspace);
    const { profile } = await loadAgentProfile(workspace, { trusted });
    const { dirs } = await workspaceWorkingDirs({ workspace, workbenchHome: deps.home, trusted });
    return { home: deps.home, workspace, extraPaths: profile.skills.paths, workingDirs: dirs };
  };
  const list = async (workspace: string): Promise<SkillListing> => {
    const roots = await rootsOf(workspace);
    const loaded = await loadSkills({ ...roots, disabled: deps.settings.get().disabled_skills });
    return {
      skills: loaded.skills.map(toView),
      diagnostics: loaded.diagnostics,
      roots: skillRoots(roots).map((r) => ({ source: r.source, dir: r.dir })),
    };
  };
  const readFile = async (path: string): Promise<SkillFile> => {
    const content = await readTextOrNull(path);
    if (content === null) throw new WorkbenchError('not_found', `no such file: ${path}`);
    return { path, content, version: versionOf(content) };
  };
  return {
    list: (a) => list(a.workspace),
    async read(a) {
      const loc = await locateSkill(a.path, await rootsOf(a.workspace));
      return readFile(loc.file);
    },
    async create(a) {
      if (!SKILL_NAME_PATTERN.test(a.name))
        throw new WorkbenchError(
          'invalid_args',
          'a skill name is lowercase letters, digits and single hyphens',
        );
      const root =
        a.scope === 'workspace'
          ? join(a.workspace, '.workbench', 'skills')
          : join(deps.home, 'skills');
      const dir = join(root, a.name);
      if (
        await stat(dir).then(
          () => true,
          () => false,
        )
      )
        throw new WorkbenchError('conflict', `${dir} already exists`);
      await mkdir(dir, { recursive: true });
      await writeFileAtomic(join(dir, 'SKILL.md'), skillTemplate(a.name, a.description), {
        expectedVersion: '',
      });
      const created = (await list(a.workspace)).skills.find((s) => s.name === a.name);
      if (!created)
        throw new WorkbenchError(
          'conflict',
          `skill "${a.name}" was created in ${dir} but another source already has that name`,
        );
      return created;
    },
    async save(a) {
      const loc = await locateSkill(a.path, await rootsOf(a.workspace));
      try {
        await writeFileAtomic(loc.file, a.content, { expectedVersion: a.baseVersion });
      } catch (err) {
        if (err instanceof ConflictError)
          return { status: 'conflict', document: await readFile(loc.file) };
        throw err;
      }
      return {
        status: 'saved',
        document: { path: loc.file, content: a.content, version: versionOf(a.content) },
      };
    },
    async delete(a) {
      const loc = await locateSkill(a.path, await rootsOf(a.workspace));
      // A linked folder belongs to someone else: remove the link only, never follow it.
      await rm(loc.entry, { recursive: !loc.linked, force: false });
      return { deleted: true as const };
    },
    async setEnabled(a) {
      const disabled = new Set(deps.settings.get().disabled_skills);
      if (a.enabled) disabled.delete(a.name);
      else disabled.add(a.name);
      await deps.settings.update({ disabled_skills: [...disabled].sort() });
      const view = (await list(a.workspace)).skills.find((s) => s.name === a.name);
      if (!view) throw new WorkbenchError('not_found', `no skill named "${a.name}"`);
      return view;
    },
  };
}
