/** Raw bytes to a proxy's Unix socket, for the sandbox's domain proxy tests. */
import net from 'node:net';

/** Sends `text` to the proxy at `socketPath`; everything it answers until it closes (or `until` shows). */
export function talk(socketPath: string, text: string, until?: RegExp): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const s = net.connect(socketPath, () => s.write(text));
    let got = '';
    s.on('data', (d) => {
      got += d;
      if (until?.test(got)) {
        s.destroy();
        resolve(got);
      }
    });
    s.on('end', () => resolve(got));
    s.on('error', reject);
  });
}
