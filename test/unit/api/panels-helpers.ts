/** Temp workspace + home and a real createWorkbench for the panel service tests. */
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createWorkbench } from '../../../src/main/api/workbench.ts';
import type { Workbench } from '../../../src/main/api/types.ts';
import {
  createScriptedLlm,
  type ScriptedLlm,
  type ScriptedTurn,
} from '../../helpers/scripted-llm.ts';

export interface PanelSandbox {
  ws: string;
  home: string;
  wb: Workbench;
  llm: ScriptedLlm;
  cleanup(): Promise<void>;
}

/** A workbench over fresh temp folders, with a scripted model. */
export async function panelSandbox(turns: ScriptedTurn[] = []): Promise<PanelSandbox> {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'wb-panels-')));
  const ws = join(base, 'ws');
  const home = join(base, 'home');
  mkdirSync(ws, { recursive: true });
  mkdirSync(home, { recursive: true });
  const llm = createScriptedLlm(turns);
  const wb = await createWorkbench({ home, workspace: ws, llm, interactive: false });
  return {
    ws,
    home,
    wb,
    llm,
    async cleanup() {
      await wb.close();
      rmSync(base, { recursive: true, force: true });
    },
  };
}
