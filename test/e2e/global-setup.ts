import { startStack } from './stack.ts';

/** Starts the stack once for the run and passes its addresses to the tests through the environment. */
export default async function globalSetup(): Promise<() => Promise<void>> {
  const stack = await startStack();
  process.env.WB_URL = stack.url;
  process.env.WB_ORIGIN = stack.origin;
  process.env.WB_TOKEN = stack.token;
  process.env.WB_FAKE_URL = stack.fakeURL;
  process.env.WB_HOME = stack.home;
  process.env.WB_WORKSPACE = stack.workspace;
  return () => stack.stop();
}
