// Human output of `npm run bench`: one table of figures and one of goals per group.

const pad = (s, n, right = false) => (right ? String(s).padStart(n) : String(s).padEnd(n));

function num(v) {
  if (v === null || v === undefined) return '—';
  if (typeof v !== 'number') return String(v);
  if (Math.abs(v) >= 1000) return Math.round(v).toLocaleString('en-US');
  return String(v);
}

/** Formats one group's result as plain text tables. */
export function formatGroup(r) {
  const load = r.loadavg_before
    ? `, load average ${r.loadavg_before[0]} → ${r.loadavg_after?.[0]}`
    : '';
  const lines = [
    `== ${r.group}${r.quick ? ' (quick sizes)' : ''} — ${r.seconds ?? '?'} s${load} ==`,
  ];
  if (r.error) lines.push(`  ERROR: ${r.error}`);
  const figs = Object.values(r.figures ?? {});
  if (figs.length) {
    const w = Math.max(6, ...figs.map((f) => f.label.length));
    lines.push(
      `  ${pad('figure', w)}  ${pad('median', 10, true)}  ${pad('min', 10, true)}  ${pad('max', 10, true)}  unit  (runs)`,
    );
    for (const f of figs) {
      lines.push(
        `  ${pad(f.label, w)}  ${pad(num(f.median), 10, true)}  ${pad(num(f.min), 10, true)}  ${pad(num(f.max), 10, true)}  ${f.unit}  (${f.runs})`,
      );
    }
  }
  const goals = r.goals ?? [];
  if (goals.length) {
    const w = Math.max(4, ...goals.map((g) => g.label.length));
    lines.push('');
    lines.push(
      `  ${pad('goal', w)}  ${pad('value', 10, true)}  ${pad('target', 10, true)}  status`,
    );
    for (const g of goals) {
      const status = g.met === null ? 'not measured' : g.met ? 'MET' : 'MISSED';
      lines.push(
        `  ${pad(g.label, w)}  ${pad(num(g.value), 10, true)}  ${pad(`${g.strict ? '<' : '≤'} ${num(g.target)}`, 10, true)}  ${status}${g.unit ? ` (${g.unit})` : ''}${g.note ? ` — ${g.note}` : ''}`,
      );
    }
  }
  for (const n of r.notes ?? []) lines.push(`  note: ${n}`);
  return `${lines.join('\n')}\n`;
}

/** Formats the whole report as Markdown (`--markdown`), for docs/performance.md. */
export function formatMarkdown(report) {
  const m = report.machine;
  const out = [
    `Measured ${report.date} with \`${report.command}\` on ${m.nproc} cores (${m.cpu}), ${m.memory_mib} MiB, Node ${m.node}, ${m.platform}, ${m.ripgrep ?? 'no ripgrep'}; load average at start ${m.loadavg.join(' ')}; first write to a page ${m.page_touch_us ?? '?'} µs.`,
    '',
  ];
  for (const r of Object.values(report.groups)) {
    const load = r.loadavg_before
      ? ` (load average ${r.loadavg_before[0]} → ${r.loadavg_after?.[0]})`
      : '';
    out.push(`### ${r.group}${r.quick ? ' (quick sizes)' : ''}${load}`, '');
    if (r.error) out.push(`Error: ${r.error}`, '');
    const figs = Object.values(r.figures ?? {});
    if (figs.length) {
      out.push('| figure | median | min | max | unit | runs |', '|---|--:|--:|--:|---|--:|');
      for (const f of figs)
        out.push(
          `| ${f.label} | ${num(f.median)} | ${num(f.min)} | ${num(f.max)} | ${f.unit} | ${f.runs} |`,
        );
      out.push('');
    }
    if ((r.goals ?? []).length) {
      out.push('| goal | value | target | status |', '|---|--:|--:|---|');
      for (const g of r.goals) {
        const status =
          g.met === null
            ? `not measured${g.note ? `: ${g.note}` : ''}`
            : g.met
              ? '**met**'
              : '**missed**';
        out.push(
          `| ${g.label} | ${num(g.value)} ${g.unit} | ${g.strict ? '<' : '≤'} ${num(g.target)} ${g.unit} | ${status} |`,
        );
      }
      out.push('');
    }
    for (const n of r.notes ?? []) out.push(`- ${n}`);
    if ((r.notes ?? []).length) out.push('');
  }
  return out.join('\n');
}
