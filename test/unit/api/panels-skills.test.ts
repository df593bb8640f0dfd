import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { panelSandbox, type PanelSandbox } from './panels-helpers.ts';

let sb: PanelSandbox;
afterEach(async () => sb?.cleanup());

const skill = (root: string, folder: string, front: string) => {
  mkdirSync(join(root, folder), { recursive: true });
  writeFileSync(join(root, folder, 'SKILL.md'), `---\n${front}\n---\n# body\n`);
  return join(root, folder, 'SKILL.md');
};

describe('skills service', () => {
  it('creates a skill from the template in the workspace or user folder', async () => {
    sb = await panelSandbox();
    const s = await sb.wb.skills!.create({
      workspace: sb.ws,
      scope: 'workspace',
      name: 'csv-tools',
      description: 'Analyze CSV files: charts & stats',
    });
    expect(s).toMatchObject({
      name: 'csv-tools',
      source: 'workspace',
      enabled: true,
      path: join(sb.ws, '.workbench', 'skills', 'csv-tools', 'SKILL.md'),
    });
    expect(s.catalogLine).toBe(
      `[csv-tools] Analyze CSV files: charts & stats → Read ${s.path} for full instructions`,
    );
    const u = await sb.wb.skills!.create({
      workspace: sb.ws,
      scope: 'user',
      name: 'notes',
      description: '',
    });
    expect(u.path).toBe(join(sb.home, 'skills', 'notes', 'SKILL.md'));
    const listing = await sb.wb.skills!.list({ workspace: sb.ws });
    expect(listing.skills.map((x) => x.name)).toEqual(['csv-tools', 'notes']);
    expect(listing.diagnostics).toEqual([]);
    await expect(
      sb.wb.skills!.create({ workspace: sb.ws, scope: 'user', name: 'notes', description: 'x' }),
    ).rejects.toMatchObject({ code: 'conflict' });
    await expect(
      sb.wb.skills!.create({ workspace: sb.ws, scope: 'user', name: '../evil', description: 'x' }),
    ).rejects.toMatchObject({ code: 'invalid_args' });
  });

  it('lists diagnostics next to the good skills', async () => {
    sb = await panelSandbox();
    skill(join(sb.ws, '.workbench', 'skills'), 'broken', 'name: broken');
    skill(join(sb.ws, '.workbench', 'skills'), 'good', 'name: other-name\ndescription: d');
    const listing = await sb.wb.skills!.list({ workspace: sb.ws });
    expect(listing.skills.map((s) => s.name)).toEqual(['other-name']);
    expect(listing.diagnostics.map((d) => d.severity).sort()).toEqual(['error', 'warning']);
  });

  it('saves with a conflict check', async () => {
    sb = await panelSandbox();
    const path = skill(join(sb.home, 'skills'), 'a', 'name: a\ndescription: first');
    const file = await sb.wb.skills!.read({ workspace: sb.ws, path });
    const saved = await sb.wb.skills!.save({
      workspace: sb.ws,
      path,
      content: file.content.replace('first', 'second'),
      baseVersion: file.version,
    });
    expect(saved.status).toBe('saved');
    expect((await sb.wb.skills!.list({ workspace: sb.ws })).skills[0]!.description).toBe('second');
    writeFileSync(path, 'changed elsewhere');
    const conflict = await sb.wb.skills!.save({
      workspace: sb.ws,
      path,
      content: 'mine',
      baseVersion: saved.document.version,
    });
    expect(conflict).toMatchObject({
      status: 'conflict',
      document: { content: 'changed elsewhere' },
    });
  });

  it('never writes, reads or deletes outside the skill roots', async () => {
    sb = await panelSandbox();
    const outside = join(sb.ws, 'src');
    mkdirSync(outside);
    writeFileSync(join(outside, 'SKILL.md'), 'x');
    writeFileSync(join(sb.ws, 'keep.txt'), 'x');
    for (const path of [
      join(outside, 'SKILL.md'),
      join(sb.ws, 'keep.txt'),
      join(sb.ws, '.workbench', 'skills', 'SKILL.md'),
      '/etc/passwd',
    ]) {
      await expect(sb.wb.skills!.delete({ workspace: sb.ws, path })).rejects.toMatchObject({
        code: 'forbidden',
      });
      await expect(
        sb.wb.skills!.save({ workspace: sb.ws, path, content: 'pwned', baseVersion: '' }),
      ).rejects.toMatchObject({ code: 'forbidden' });
    }
    // A root itself holding a SKILL.md is not a skill folder.
    mkdirSync(join(sb.ws, '.workbench', 'skills'), { recursive: true });
    writeFileSync(join(sb.ws, '.workbench', 'skills', 'SKILL.md'), 'x');
    await expect(
      sb.wb.skills!.delete({
        workspace: sb.ws,
        path: join(sb.ws, '.workbench', 'skills', 'SKILL.md'),
      }),
    ).rejects.toMatchObject({ code: 'forbidden' });
    expect(existsSync(join(outside, 'SKILL.md'))).toBe(true);
    expect(existsSync(join(sb.ws, '.workbench', 'skills'))).toBe(true);
  });

  it('deletes a skill folder, and only the link of a linked-in folder', async () => {
    sb = await panelSandbox();
    const path = skill(join(sb.ws, '.workbench', 'skills'), 'gone', 'name: gone\ndescription: d');
    writeFileSync(join(sb.ws, '.workbench', 'skills', 'gone', 'helper.py'), '');
    await sb.wb.skills!.delete({ workspace: sb.ws, path });
    expect(existsSync(join(sb.ws, '.workbench', 'skills', 'gone'))).toBe(false);
    const shared = join(sb.ws, 'shared-skill');
    skill(sb.ws, 'shared-skill', 'name: linked\ndescription: d');
    symlinkSync(shared, join(sb.ws, '.workbench', 'skills', 'linked'));
    const linked = (await sb.wb.skills!.list({ workspace: sb.ws })).skills.find(
      (s) => s.name === 'linked',
    )!;
    await sb.wb.skills!.delete({ workspace: sb.ws, path: linked.path });
    expect(existsSync(join(sb.ws, '.workbench', 'skills', 'linked'))).toBe(false);
    expect(readFileSync(join(shared, 'SKILL.md'), 'utf8')).toContain('name: linked');
  });

  it('switches a skill off and on through settings.disabled_skills', async () => {
    sb = await panelSandbox();
    skill(join(sb.home, 'skills'), 'a', 'name: a\ndescription: d');
    expect(
      await sb.wb.skills!.setEnabled({ workspace: sb.ws, name: 'a', enabled: false }),
    ).toMatchObject({ enabled: false });
    expect(sb.wb.settings.get().disabled_skills).toEqual(['a']);
    expect(
      await sb.wb.skills!.setEnabled({ workspace: sb.ws, name: 'a', enabled: true }),
    ).toMatchObject({ enabled: true });
    expect(sb.wb.settings.get().disabled_skills).toEqual([]);
  });
});
