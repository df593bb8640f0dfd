import { useEffect, useState } from 'react';
import type { ProbeResultView } from '../../../shared/ipc/contract.ts';
import type { ProviderSettings } from '../../../shared/types/index.ts';
import { call } from '../../ipc/client.ts';
import { useWorkbenchStore } from '../../stores/store.ts';
import { errorMessage } from '../../../shared/error-message.ts';

/** First start without a provider: find a local Ollama / LM Studio, else ask for an OpenAI key. */
export function Onboarding() {
  const setOnboarding = useWorkbenchStore((s) => s.setOnboarding);
  const setSettings = useWorkbenchStore((s) => s.setSettings);
  const setDockTab = useWorkbenchStore((s) => s.setDockTab);
  const [found, setFound] = useState<ProbeResultView[] | null>(null);
  const [key, setKey] = useState('');
  const [error, setError] = useState('');

  useEffect(() => {
    void call('providers.probe', {})
      .then((r) => setFound(r.filter((p) => p.ok)))
      .catch(() => setFound([]));
  }, []);

  const chooseLocal = async (p: ProbeResultView) => {
    const provider: ProviderSettings = { preset: p.id as ProviderSettings['preset'], base_url: p.baseURL, model: p.models?.[0] ?? '' };
    setSettings(await call('settings.update', { patch: { provider } }));
    setOnboarding(false);
  };
  const saveKey = async () => {
    try {
      await call('settings.update', { patch: { provider: { preset: 'openai', base_url: 'https://api.openai.com/v1' } } });
      setSettings(await call('settings.setApiKey', { apiKey: key }));
      setOnboarding(false);
    } catch (err) {
      setError(errorMessage(err));
    }
  };

  return (
    <div className="modal-backdrop">
      <div className="modal" role="dialog" aria-modal="true" aria-labelledby="onboarding-title" data-testid="onboarding">
        <h2 id="onboarding-title">Connect a model</h2>
        {found === null && <p className="muted">Looking for a local model server (Ollama, LM Studio)…</p>}
        {found && found.length > 0 && (
          <>
            <p>Found a model server on this machine:</p>
            {found.map((p) => (
              <button key={p.id} type="button" className="primary block" onClick={() => void chooseLocal(p)}>
                Use {p.label} ({p.models?.length ?? 0} models)
              </button>
            ))}
          </>
        )}
        {found && found.length === 0 && <p>No local model server found. Paste an OpenAI API key, or choose another endpoint in Settings.</p>}
        <label>
          OpenAI API key
          <input type="password" value={key} onChange={(e) => setKey(e.target.value)} placeholder="sk-…" autoComplete="off" />
        </label>
        {error && <p className="warning">{error}</p>}
        <div className="inline">
          <button type="button" className="primary" disabled={!key.trim()} onClick={() => void saveKey()}>
            Save key
          </button>
          <button
            type="button"
            onClick={() => {
              setOnboarding(false);
              setDockTab('settings');
            }}
          >
            Other endpoint…
          </button>
          <button type="button" className="link-button" onClick={() => setOnboarding(false)}>
            Later
          </button>
        </div>
      </div>
    </div>
  );
}
