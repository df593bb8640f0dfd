/** The LLM module's public surface: the port, the OpenAI-compatible client and provider helpers. */
export type {
  ChatOptions,
  LlmClient,
  LlmErrorCode,
  LlmResponse,
  ModelParams,
  ModelRequest,
  ToolSchema,
} from './types.ts';
export { LlmError } from './types.ts';
export { createOpenAiClient } from './openai-client.ts';
export type { OpenAiClientOptions } from './openai-client.ts';
export {
  getPreset,
  listModels,
  normalizeBaseUrl,
  probeLocalProviders,
  PROVIDER_PRESETS,
  testConnection,
} from './providers.ts';
export type {
  ConnectionResult,
  EndpointOptions,
  ProbeResult,
  ProviderId,
  ProviderPreset,
} from './providers.ts';
