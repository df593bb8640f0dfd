import { describe, expect, it } from 'vitest';
import { redactSecrets, registerSecret } from '../../../src/main/secrets/redaction.ts';

describe('secret redaction', () => {
  it('replaces every occurrence of a registered key, a longer key containing another whole', () => {
    registerSecret('sk-unit-redaction-1234');
    registerSecret('sk-unit-redaction-1234-and-more');
    expect(
      redactSecrets(
        'a sk-unit-redaction-1234 b sk-unit-redaction-1234\nc sk-unit-redaction-1234-and-more',
      ),
    ).toBe('a [REDACTED] b [REDACTED]\nc [REDACTED]');
  });

  it('ignores empty and short values, which would cut ordinary words', () => {
    registerSecret(undefined);
    registerSecret('');
    registerSecret('none');
    expect(redactSecrets('none of this is secret')).toBe('none of this is secret');
  });
});
