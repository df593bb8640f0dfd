/** Glob → RegExp conversion shared by the glob tool, grep's file filter and the .gitignore matcher. */

/**
 * Converts a glob (`**`, `*`, `?`, `{a,b}`, `[abc]`, `[!a]`) to a RegExp matching a whole
 * `/`-separated relative path. `*` and `?` never cross `/`; `**` spans any number of segments.
 */
export function globToRegExp(glob: string, flags = ''): RegExp {
  return new RegExp(`^${globToSource(glob)}$`, flags);
}

/** The regex source of a glob, without anchors. */
export function globToSource(glob: string): string {
  let out = '';
  let braceDepth = 0;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*') {
      if (glob[i + 1] === '*') {
        const atStart = i === 0 || glob[i - 1] === '/';
        let j = i + 2;
        while (glob[j] === '*') j++;
        if (atStart && glob[j] === '/') {
          out += '(?:[^/]*/)*'; // `**/` = zero or more whole segments
          i = j;
        } else {
          out += '.*';
          i = j - 1;
        }
      } else {
        out += '[^/]*';
      }
    } else if (c === '?') {
      out += '[^/]';
    } else if (c === '[') {
      const end = glob.indexOf(']', i + 2);
      if (end === -1) {
        out += '\\[';
      } else {
        let body = glob.slice(i + 1, end);
        if (body.startsWith('!')) body = '^' + body.slice(1);
        out += `[${body.replace(/\\/g, '\\\\')}]`;
        i = end;
      }
    } else if (c === '{') {
      braceDepth++;
      out += '(?:';
    } else if (c === '}' && braceDepth > 0) {
      braceDepth--;
      out += ')';
    } else if (c === ',' && braceDepth > 0) {
      out += '|';
    } else if (c === '\\' && i + 1 < glob.length) {
      out += escapeRegExp(glob[++i]!);
    } else {
      out += escapeRegExp(c);
    }
  }
  // An unclosed `{` is taken literally rather than producing an invalid regex.
  if (braceDepth > 0) return globToSource(glob.replace(/[{}]/g, (b) => `\\${b}`));
  return out;
}

/** True when the glob has any wildcard syntax. */
export function hasGlobMagic(segment: string): boolean {
  return /[*?[{]/.test(segment);
}

/**
 * The regex source of a pattern whose only wildcard is `*`, spanning any characters, `/` and spaces
 * included (permission rules' `Bash(npm run *)`, an MCP server list's URLs); no anchors.
 */
export function starToSource(pattern: string): string {
  return pattern.split('*').map(escapeRegExp).join('.*');
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
