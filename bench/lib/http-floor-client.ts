/**
 * The floor under the client gap, run as its own process: `node http-floor-client.ts URL ROUNDS BYTES`
 * posts ROUNDS + 1 chat requests of BYTES bytes to the gap server one after another over one kept-alive
 * `node:http` connection, reading each answer to its end and doing nothing else in between. What the
 * server then measures between rounds is what this machine charges any client for a round trip to
 * another process — its scheduler, loopback and Node's HTTP — with none of the workbench's own work.
 */
import http from 'node:http';

const [url, roundsArg, bytesArg] = process.argv.slice(2);
if (!url || !roundsArg || !bytesArg) {
  process.stderr.write('usage: http-floor-client.ts URL ROUNDS BYTES\n');
  process.exit(2);
}
const target = new URL(`${url}/chat/completions`);
const agent = new http.Agent({ keepAlive: true, noDelay: true });
const body = Buffer.alloc(Number(bytesArg), ' ');
body.write('{"model":"fake-model","stream":true,"messages":[]}');

function post(): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = http.request(target, {
      method: 'POST',
      agent,
      headers: { 'content-type': 'application/json', 'content-length': String(body.length) },
    });
    req.on('error', reject);
    req.on('response', (res) => {
      res.on('data', () => {});
      res.on('end', resolve);
      res.on('error', reject);
    });
    req.end(body);
  });
}

for (let i = 0; i <= Number(roundsArg); i++) await post();
agent.destroy();
