/** Builds the live exporter from `settings.tracing` (one per app, shared by every run). */
import type { WorkbenchSettings } from '../../shared/types/index.ts';
import { createOtlpHttpExporter, type OtlpExporter, type OtlpExporterOptions } from './otlp-exporter.ts';

/**
 * Returns an exporter when `otlp_endpoint` is set, else undefined. Contract: an endpoint that is not
 * an http(s) URL is rejected with an Error naming the setting (misconfiguration, not a runtime failure).
 */
export function exporterFromSettings(
  tracing: WorkbenchSettings['tracing'],
  extra: Partial<OtlpExporterOptions> = {},
): OtlpExporter | undefined {
  const endpoint = tracing.otlp_endpoint?.trim();
  if (!endpoint) return undefined;
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new Error(`settings.tracing.otlp_endpoint is not a URL: ${JSON.stringify(endpoint)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`settings.tracing.otlp_endpoint must be http(s), got ${url.protocol}`);
  }
  return createOtlpHttpExporter({ endpoint, headers: tracing.otlp_headers, captureContent: tracing.capture_content, ...extra });
}
