/** A model answer of about `bytes` characters mixing prose, lists and fenced code in several languages. */
export function bigAnswer(bytes: number, marker: string): string {
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const lang = ['ts', 'python', 'bash', 'json'][i % 4]!;
    const code =
      lang === 'ts'
        ? Array.from(
            { length: 30 },
            (_, j) =>
              `export function step${i}_${j}(x: number): number {\n  return x * ${j} + ${i}; // step\n}`,
          ).join('\n')
        : lang === 'python'
          ? Array.from(
              { length: 30 },
              (_, j) => `def step_${i}_${j}(x):\n    return x * ${j} + ${i}  # step`,
            ).join('\n')
          : lang === 'bash'
            ? Array.from(
                { length: 30 },
                (_, j) => `echo "step ${i} ${j}" && ls -la /tmp/${j} | grep -v total`,
              ).join('\n')
            : JSON.stringify(
                {
                  section: i,
                  items: Array.from({ length: 30 }, (_, j) => ({ id: j, ok: j % 2 === 0 })),
                },
                null,
                2,
              );
    const part = `## Section ${i}\n\nThis section explains **step ${i}** with \`inline code\` and a [link](https://example.com/${i}).\n\n- first point of ${i}\n- second point of ${i}\n\n\`\`\`${lang}\n${code}\n\`\`\`\n\n`;
    parts.push(part);
    size += part.length;
  }
  return `${parts.join('')}${marker}`;
}
