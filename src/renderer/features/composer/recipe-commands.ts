/**
 * The workspace's recipes (docs/recipes.md) as `/` commands of the composer: picked from the menu
 * or typed as `/name args`, a recipe is sent as that text and the main process fills its template.
 * A built-in command of the same name (`/compact`, `/new`, `/clear`) keeps its meaning.
 */
import { useEffect, useState } from 'react';
import { call } from '../../ipc/client.ts';
import { findCommand, registerComposerCommand } from './composer-commands.ts';

/**
 * Registers the recipes of `workspace` each time the user starts typing a command (`active`), so a
 * recipe file added meanwhile is offered. Contract: the component re-renders once they are in.
 */
export function useRecipeCommands(workspace: string, active: boolean): void {
  const [, setLoaded] = useState(0);
  useEffect(() => {
    if (!active) return;
    let live = true;
    const removers: Array<() => void> = [];
    call('recipes.list', {}).then(
      (recipes) => {
        if (!live) return;
        for (const r of recipes) {
          if (findCommand(r.name)) continue;
          removers.push(
            registerComposerCommand({
              name: r.name,
              description: [r.description, r.argument_hint].filter(Boolean).join(' — '),
              takesArgs: Boolean(r.argument_hint),
              run: (ctx) => ctx.send(ctx.args ? `/${r.name} ${ctx.args}` : `/${r.name}`),
            }),
          );
        }
        setLoaded((n) => n + 1);
      },
      () => undefined,
    );
    return () => {
      live = false;
      for (const remove of removers) remove();
    };
  }, [workspace, active]);
}
