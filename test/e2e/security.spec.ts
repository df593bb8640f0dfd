import { test, expect, e2eEnv } from './fixtures.ts';

test('a malicious answer is inert: no script, no handler, no javascript: link', async ({ fake, chat, app }) => {
  const dialogs: string[] = [];
  app.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  await fake.script([
    {
      text:
        'Look: <img src=x onerror="window.__pwned=1;alert(1)"> <script>window.__pwned=2</script>\n\n' +
        '[click me](javascript:window.__pwned=3) and <a href="javascript:alert(2)">raw</a> ' +
        '<iframe src="javascript:alert(3)"></iframe> <svg onload="window.__pwned=4"></svg> done',
    },
  ]);
  await chat.sendNew('Say something nasty');
  const answer = chat.assistant.last();
  await expect(answer).toContainText('done');
  await answer.getByText('click me').click();
  await answer.getByText('raw').click();
  await app.waitForTimeout(300);
  expect(await app.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  expect(dialogs).toEqual([]);
  expect(await answer.locator('script, iframe, svg, [onerror], [onload]').count()).toBe(0);
  for (const href of await answer.locator('a').evaluateAll((as) => as.map((a) => a.getAttribute('href')))) {
    expect(href ?? '').not.toMatch(/^javascript:/i);
  }
});

test('the page is served with a strict CSP that blocks inline script', async ({ app }) => {
  const response = await app.request.get(e2eEnv('WB_ORIGIN') + '/', { headers: { cookie: `wb_token=${e2eEnv('WB_TOKEN')}` } });
  const csp = response.headers()['content-security-policy'] ?? '';
  expect(csp).toContain("script-src 'self'");
  expect(csp).not.toContain('unsafe-eval');
  expect(csp).toContain("object-src 'none'");
  const ran = await app.evaluate(
    () =>
      new Promise<boolean>((resolve) => {
        const s = document.createElement('script');
        s.textContent = 'window.__inline = 1';
        document.body.append(s);
        setTimeout(() => resolve((window as unknown as { __inline?: number }).__inline === 1), 100);
      }),
  );
  expect(ran).toBe(false);
  expect(await app.evaluate(() => typeof (window as unknown as { require?: unknown }).require)).toBe('undefined');
  expect(await app.evaluate(() => typeof (window as unknown as { process?: unknown }).process)).toBe('undefined');
});

test('requests without the token are refused (HTTP and WebSocket)', async ({ browser, request }) => {
  const origin = e2eEnv('WB_ORIGIN');
  expect((await request.get(`${origin}/`)).status()).toBe(401);
  expect((await request.post(`${origin}/api/threads.list`, { data: {}, headers: { origin } })).status()).toBe(401);
  expect((await request.post(`${origin}/api/threads.list`, { data: {}, headers: { origin: 'http://evil.example', 'x-workbench-token': e2eEnv('WB_TOKEN') } })).status()).toBe(403);
  const ok = await request.post(`${origin}/api/threads.list`, { data: {}, headers: { origin, 'x-workbench-token': e2eEnv('WB_TOKEN') } });
  expect(ok.status()).toBe(200);

  // A fresh context has no cookie: the page is refused and a socket to /ws cannot open.
  const context = await browser.newContext();
  const page = await context.newPage();
  const response = await page.goto(`${origin}/`);
  expect(response?.status()).toBe(401);
  const wsOpened = await page.evaluate(
    (url) =>
      new Promise<boolean>((resolve) => {
        const ws = new WebSocket(url);
        ws.onopen = () => resolve(true);
        ws.onerror = () => resolve(false);
      }),
    origin.replace('http', 'ws') + '/ws',
  );
  expect(wsOpened).toBe(false);
  await context.close();
});
