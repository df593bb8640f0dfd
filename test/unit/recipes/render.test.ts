import { describe, expect, it } from 'vitest';
import { parseSlashCommand, renderRecipe } from '../../../src/main/recipes/render.ts';

describe('recipe templates', () => {
  it('fills $ARGUMENTS and $1..$9 as Claude Code does; missing positions are empty', () => {
    expect(renderRecipe('Fix #$1 in $2 ($3). All: $ARGUMENTS', '123 "src/a b.ts"')).toBe(
      'Fix #123 in src/a b.ts (). All: 123 "src/a b.ts"',
    );
  });

  it('appends the arguments to a template without placeholders, and fills {{.key}}', () => {
    expect(renderRecipe('Review the diff.', 'carefully')).toBe(
      'Review the diff.\n\nARGUMENTS: carefully',
    );
    expect(renderRecipe('Review the diff.', '')).toBe('Review the diff.');
    expect(renderRecipe('Tidy {{.target}}; keep {{ .other }}', '', { target: 'imports' })).toBe(
      'Tidy imports; keep {{ .other }}',
    );
  });

  it('reads /name args from a message, and leaves other text alone', () => {
    expect(parseSlashCommand('/review  src/a.ts now')).toEqual({
      name: 'review',
      args: 'src/a.ts now',
    });
    expect(parseSlashCommand('/review')).toEqual({ name: 'review', args: '' });
    expect(parseSlashCommand('review /x')).toBeUndefined();
    expect(parseSlashCommand('/ nothing')).toBeUndefined();
  });
});
