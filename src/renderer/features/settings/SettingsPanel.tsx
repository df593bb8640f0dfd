import { useEffect, useState } from 'react';
import type { ConnectionResultView, KeyStorage } from '../../../shared/ipc/contract.ts';
import type { ApprovalMode, ProviderSettings, SandboxSettings, WorkbenchSettings } from '../../../shared/types/index.ts';
import { call } from '../../ipc/client.ts';
import { useWorkbenchStore } from '../../stores/store.ts';
import { errorMessage } from '../../../shared/error-message.ts';
import { McpServers } from './McpServers.tsx';

const STORAGE: Record<KeyStorage, string> = {
  'safe-storage': 'encrypted with the OS keychain',
  'basic-text': 'obfuscated only (no OS keychain found)',
  env: 'from the OPENAI_API_KEY environment variable',
  'server-file': 'in secrets.json on the server (mode 0600)',
  memory: 'in memory until the server stops',
  none: 'no key saved',
};

/** Provider, model, API key, connection test, approval mode and theme. */
export function SettingsPanel() {
  const view = useWorkbenchStore((s) => s.settings);
  const presets = useWorkbenchStore((s) => s.presets);
  const setSettings = useWorkbenchStore((s) => s.setSettings);
  const [provider, setProvider] = useState<ProviderSettings | null>(view?.settings.provider ?? null);
  const [approval, setApproval] = useState<ApprovalMode>(view?.settings.approval_mode ?? 'ask');
  const [sandboxMode, setSandboxMode] = useState<SandboxSettings['mode']>(view?.settings.sandbox.mode ?? 'auto');
  const [theme, setTheme] = useState<WorkbenchSettings['theme']>(view?.settings.theme ?? 'system');
  const [apiKey, setApiKey] = useState('');
  const [models, setModels] = useState<string[]>([]);
  const [modelsNote, setModelsNote] = useState('');
  const [test, setTest] = useState<ConnectionResultView | null>(null);
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState('');

  useEffect(() => {
    if (view && !provider) {
      setProvider(view.settings.provider);
      setApproval(view.settings.approval_mode);
      setSandboxMode(view.settings.sandbox.mode);
      setTheme(view.settings.theme);
    }
  }, [view, provider]);

  // Offer the endpoint's models right away (quietly: errors show only when the user asks).
  const baseURL = provider?.base_url;
  useEffect(() => {
    if (!baseURL) return;
    let live = true;
    void call('providers.models', { baseURL })
      .then((ids) => live && setModels(ids))
      .catch(() => undefined);
    return () => {
      live = false;
    };
    // Only on open: later URL edits use "List models" / "Test connection".
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [Boolean(baseURL)]);

  if (!view || !provider) return <p className="muted">Loading settings…</p>;

  const loadModels = async () => {
    setModelsNote('Loading models…');
    try {
      const ids = await call('providers.models', { baseURL: provider.base_url, apiKey: apiKey || undefined });
      setModels(ids);
      setModelsNote(ids.length ? `${ids.length} models available` : 'The endpoint lists no models; type the name.');
    } catch (err) {
      setModels([]);
      setModelsNote(errorMessage(err));
    }
  };

  const testConnection = async () => {
    setBusy(true);
    setTest(null);
    try {
      const r = await call('providers.test', { baseURL: provider.base_url, apiKey: apiKey || undefined, model: provider.model || undefined });
      setTest(r);
      if (r.modelIds) setModels(r.modelIds);
    } catch (err) {
      setTest({ ok: false, message: errorMessage(err) });
    } finally {
      setBusy(false);
    }
  };

  const save = async () => {
    setBusy(true);
    setSaved('');
    try {
      let next = await call('settings.update', { patch: { provider, approval_mode: approval, theme, sandbox: { mode: sandboxMode } } });
      if (apiKey) next = await call('settings.setApiKey', { apiKey });
      setApiKey('');
      setSettings(next);
      setProvider(next.settings.provider);
      setSaved('Saved.');
    } catch (err) {
      setSaved(`Not saved: ${errorMessage(err)}`);
    } finally {
      setBusy(false);
    }
  };

  const removeKey = async () => {
    setSettings(await call('settings.setApiKey', { apiKey: null }));
  };

  // A new preset is a new endpoint: the old model name rarely exists there, so take the endpoint's
  // first model unless it also serves the current one.
  const onPreset = async (id: ProviderSettings['preset']) => {
    const preset = presets.find((p) => p.id === id);
    const next = { ...provider, preset: id, base_url: preset?.baseURL || provider.base_url };
    setProvider(next);
    setModels([]);
    setTest(null);
    setModelsNote('');
    try {
      const ids = await call('providers.models', { baseURL: next.base_url });
      setModels(ids);
      const model = ids.includes(next.model) ? next.model : (ids[0] ?? '');
      setProvider({ ...next, model });
      setModelsNote(ids.length ? '' : 'The endpoint lists no models; type the name.');
    } catch (err) {
      setProvider({ ...next, model: '' });
      setModelsNote(`Could not list the models of ${next.base_url}: ${errorMessage(err)}. Type the model name.`);
    }
  };

  // The theme shows at once and is kept at once: it is not a setting worth a separate Save.
  const onTheme = async (next: WorkbenchSettings['theme']) => {
    setTheme(next);
    if (view) setSettings({ ...view, settings: { ...view.settings, theme: next } });
    try {
      setSettings(await call('settings.update', { patch: { theme: next } }));
    } catch (err) {
      setSaved(`Theme not saved: ${errorMessage(err)}`);
    }
  };

  return (
    <form
      className="settings"
      data-testid="settings"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <h2>Model provider</h2>
      <label>
        Provider
        <select value={provider.preset} onChange={(e) => void onPreset(e.target.value as ProviderSettings['preset'])} data-testid="settings-preset">
          {presets.map((p) => (
            <option key={p.id} value={p.id}>
              {p.label}
            </option>
          ))}
        </select>
      </label>
      <label>
        Base URL
        <input value={provider.base_url} onChange={(e) => setProvider({ ...provider, base_url: e.target.value })} placeholder="http://127.0.0.1:11434/v1" data-testid="settings-base-url" spellCheck={false} />
      </label>
      {view.envOverrides?.baseURL && (
        <p className="warning" data-testid="settings-env-override">
          In use: <code>{view.envOverrides.baseURL}</code> from OPENAI_BASE_URL on the server, which overrides this field. Test connection and List models ask that endpoint.
        </p>
      )}
      {view.envOverrides?.model && (
        <p className="warning" data-testid="settings-env-model">
          In use: model <code>{view.envOverrides.model}</code> from WORKBENCH_MODEL, which overrides the model below.
        </p>
      )}
      <label>
        Model
        <div className="inline">
          <input value={provider.model} onChange={(e) => setProvider({ ...provider, model: e.target.value })} list="model-options" data-testid="settings-model" spellCheck={false} />
          <button type="button" onClick={() => void loadModels()} data-testid="settings-load-models">
            List models
          </button>
        </div>
        <datalist id="model-options">
          {models.map((m) => (
            <option key={m} value={m} />
          ))}
        </datalist>
      </label>
      {models.length > 0 && (
        <select aria-label="Pick a model" value={models.includes(provider.model) ? provider.model : ''} onChange={(e) => setProvider({ ...provider, model: e.target.value })} data-testid="settings-model-select">
          <option value="" disabled>
            Pick one of {models.length} models
          </option>
          {models.map((m) => (
            <option key={m} value={m}>
              {m}
            </option>
          ))}
        </select>
      )}
      {modelsNote && <p className="hint" data-testid="models-note">{modelsNote}</p>}
      <label>
        API key
        <input type="password" value={apiKey} onChange={(e) => setApiKey(e.target.value)} placeholder={view.apiKeyConfigured ? '•••••••• (saved — type to replace)' : 'sk-… (not needed for local servers)'} autoComplete="off" data-testid="settings-api-key" />
      </label>
      <p className="hint" data-testid="key-status">
        {view.apiKeyConfigured ? `A key is configured: ${STORAGE[view.keyStorage]}.` : 'No key configured.'}{' '}
        {view.apiKeyConfigured && view.keyStorage !== 'env' && (
          <button type="button" className="link-button" onClick={() => void removeKey()}>
            Remove key
          </button>
        )}
      </p>
      {view.keyWarning && <p className="warning" role="alert">{view.keyWarning}</p>}
      <div className="inline">
        <button type="button" onClick={() => void testConnection()} disabled={busy} data-testid="settings-test">
          Test connection
        </button>
      </div>
      {test && (
        <p className={test.ok ? 'success' : 'warning'} role="status" data-testid="connection-result">
          {test.message}
        </p>
      )}
      <h2>Behaviour</h2>
      <label>
        Approvals
        <select value={approval} onChange={(e) => setApproval(e.target.value as ApprovalMode)} data-testid="settings-approval">
          <option value="ask">Ask before writes and commands</option>
          <option value="auto-edit">Allow file edits, ask before commands</option>
          <option value="auto">Allow everything (no prompts)</option>
        </select>
      </label>
      <label>
        Command sandbox
        <select value={sandboxMode} onChange={(e) => setSandboxMode(e.target.value as SandboxSettings['mode'])} data-testid="settings-sandbox">
          <option value="auto">Sandbox commands where available</option>
          <option value="required">Require the sandbox (refuse commands without it)</option>
          <option value="off">Off (commands run unsandboxed)</option>
        </select>
      </label>
      {view?.sandboxStatus && (
        <p className={view.sandboxStatus.startsWith('sandboxed') ? undefined : 'warning'} data-testid="sandbox-status">
          Commands: {view.sandboxStatus}
        </p>
      )}
      {view?.workingDirs && (
        <div data-testid="working-dirs">
          {view.workingDirs.dirs.length > 0 && (
            <p>
              Also works in (Claude Code&apos;s additionalDirectories): {view.workingDirs.dirs.join(', ')}
            </p>
          )}
          {view.workingDirs.problems.map((problem) => (
            <p key={problem} className="warning">
              {problem}
            </p>
          ))}
        </div>
      )}
      <label>
        Theme
        <select value={theme} onChange={(e) => void onTheme(e.target.value as WorkbenchSettings['theme'])} data-testid="settings-theme">
          <option value="system">System</option>
          <option value="light">Light</option>
          <option value="dark">Dark</option>
        </select>
      </label>
      <div className="inline">
        <button type="submit" className="primary" disabled={busy} data-testid="settings-save">
          Save settings
        </button>
        {saved && <span role="status" data-testid="settings-saved">{saved}</span>}
      </div>
      <McpServers />
    </form>
  );
}
