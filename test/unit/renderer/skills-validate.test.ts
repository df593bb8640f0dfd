import { describe, expect, it } from 'vitest';
import { folderOf, validateSkill } from '../../../src/renderer/features/skills/validate-skill.ts';
import { catalogLine } from '../../../src/renderer/features/skills/catalog-line.ts';
import { catalogLine as modelCatalogLine } from '../../../src/main/skills/catalog.ts';

const md = (front: string) => `---\n${front}\n---\n# Body\n`;

describe('SKILL.md live validation', () => {
  it('accepts a valid skill', () => {
    expect(validateSkill(md('name: csv\ndescription: >\n  Analyze CSV\n  files.'), 'csv')).toEqual({
      name: 'csv',
      description: 'Analyze CSV files.',
      problems: [],
    });
  });

  it('requires name and description', () => {
    const r = validateSkill(md('license: MIT'), 'x');
    expect(r.problems.map((p) => p.message)).toEqual([
      'name is required (a string)',
      'description is required (a string)',
    ]);
    expect(validateSkill(md('name: 42\ndescription: d'), 'x').problems[0]).toMatchObject({
      severity: 'error',
      message: 'name is required (a string)',
    });
  });

  it('warns when the name differs from its folder or breaks the pattern', () => {
    const r = validateSkill(md('name: Other_Name\ndescription: d'), 'csv');
    expect(r.problems.map((p) => p.severity)).toEqual(['warning', 'warning']);
    expect(r.problems[0]!.message).toContain('differs from its folder "csv"');
  });

  it('reports missing or unclosed frontmatter and YAML errors with a line', () => {
    expect(validateSkill('# no frontmatter', 'x').problems[0]).toMatchObject({
      severity: 'error',
      line: 1,
    });
    expect(validateSkill('---\nname: x\n', 'x').problems[0]!.message).toContain('not closed');
    const bad = validateSkill('---\nname: x\ndescription: [unclosed\n---\n', 'x');
    expect(bad.problems[0]).toMatchObject({ severity: 'error' });
    expect(bad.problems[0]!.message).toContain('invalid YAML');
    expect(bad.problems[0]!.line).toBeGreaterThanOrEqual(2);
    expect(validateSkill(md('- a\n- b'), 'x').problems[0]!.message).toContain('mapping');
  });

  it('warns about an overlong description', () => {
    expect(
      validateSkill(md(`name: x\ndescription: ${'d'.repeat(1100)}`), 'x').problems[0]!.message,
    ).toContain('1100 characters');
  });

  it('finds the folder of a SKILL.md path', () => {
    expect(folderOf('/w/.workbench/skills/csv/SKILL.md')).toBe('csv');
    expect(folderOf('C:\\u\\skills\\pdf\\SKILL.md')).toBe('pdf');
  });

  it('previews the catalog line exactly as the model sees it', () => {
    const s = { name: 'csv', description: 'Analyze CSV', path: '/h/skills/csv/SKILL.md' };
    expect(catalogLine(s.name, s.description, s.path)).toBe(modelCatalogLine(s));
  });
});
