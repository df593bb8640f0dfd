/**
 * The model endpoint a run actually talks to: an environment override (OPENAI_BASE_URL,
 * WORKBENCH_MODEL) wins over what Settings shows, so "Test connection" and "List models" must ask
 * that endpoint and say so. See docs/settings.md.
 */
import type { ConnectionResultView } from '../../shared/ipc/contract.ts';

/** Where the tested endpoint and model came from. */
export interface EndpointInUse {
  baseURL: string;
  model?: string;
  /** True when the environment overrode the URL given. */
  fromEnvironment: boolean;
}

/** Contract: an environment base URL or model replaces the one given; the rest passes through. */
export function endpointInUse(
  given: { baseURL: string; model?: string },
  env: { baseURL?: string; model?: string } | undefined,
): EndpointInUse {
  return {
    baseURL: env?.baseURL ?? given.baseURL,
    model: env?.model ?? given.model,
    fromEnvironment: Boolean(env?.baseURL && env.baseURL !== given.baseURL),
  };
}

/**
 * A connection result that also tells the truth about the model: connected but without the chosen
 * model on the endpoint's list is a failure. Contract: an endpoint listing no models cannot be
 * checked, and passes.
 */
export function withModelCheck(
  result: ConnectionResultView,
  endpoint: EndpointInUse,
): ConnectionResultView {
  const where = endpoint.fromEnvironment ? ` (from OPENAI_BASE_URL, which overrides Settings)` : '';
  const base = { baseURL: endpoint.baseURL, fromEnvironment: endpoint.fromEnvironment };
  if (!result.ok) return { ...result, ...base, message: `${result.message}${where}` };
  const model = endpoint.model?.trim();
  if (model && result.modelIds.length > 0 && !result.modelIds.includes(model)) {
    return {
      ok: false,
      ...base,
      modelIds: result.modelIds,
      message: `Connected to ${endpoint.baseURL}${where}, but the model "${model}" is not on its list of ${result.models} models.`,
    };
  }
  return { ...result, ...base, message: `${result.message}${where}` };
}
