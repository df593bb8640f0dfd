/**
 * An MCP `elicitation/create` request as the workbench asks it (docs/tools.md#when-a-server-asks-you):
 * a form read into fields, or a page to open. What cannot be shown — a schema no form can ask for, a
 * page that is not a web address (`file:`, `javascript:`) — is marked unusable and declined.
 */
import type { ElicitRequest } from '@modelcontextprotocol/sdk/types.js';
import { elicitFields } from '../../shared/elicitation.ts';
import type { ElicitationAsk } from '../pipeline/hook.ts';

/** The longest message shown; a server's message is text for a person, not a document. */
const MAX_MESSAGE = 2000;

export function elicitationAsk(params: ElicitRequest['params']): Omit<ElicitationAsk, 'server'> {
  const message = params.message.slice(0, MAX_MESSAGE);
  if (params.mode === 'url') {
    const web = URL.canParse(params.url) && /^https?:$/.test(new URL(params.url).protocol);
    return {
      mode: 'url',
      message,
      url: params.url,
      elicitationId: params.elicitationId,
      ...(web
        ? {}
        : {
            unusable: `the page to open, ${JSON.stringify(params.url.slice(0, 200))}, is not a web address`,
          }),
    };
  }
  const requestedSchema = params.requestedSchema as Record<string, unknown>;
  const fields = elicitFields(requestedSchema);
  return typeof fields === 'string'
    ? { mode: 'form', message, requestedSchema, unusable: `the form cannot be shown: ${fields}` }
    : { mode: 'form', message, requestedSchema, fields };
}
