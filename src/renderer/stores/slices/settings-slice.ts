/** Settings: the SettingsView (never the key itself), presets and onboarding. */
import type { StateCreator } from 'zustand';
import { call } from '../../ipc/client.ts';
import type { SettingsSlice, WorkbenchState } from '../state.ts';
import { errorMessage } from '../../../shared/error-message.ts';

/** Creates the settings slice. */
export const createSettingsSlice: StateCreator<WorkbenchState, [], [], SettingsSlice> = (set, get) => ({
  settings: null,
  presets: [],
  onboarding: false,
  async loadSettings() {
    try {
      const [settings, presets] = await Promise.all([call('settings.get', {}), call('providers.presets', {})]);
      const preset = presets.find((p) => p.id === settings.settings.provider.preset);
      const needsSetup = Boolean(preset?.needsKey) && !settings.apiKeyConfigured && !settings.envOverrides?.baseURL;
      set({ settings, presets, onboarding: needsSetup && localStorage.getItem('wb.onboarded') !== '1' });
    } catch (err) {
      get().setBanner(`Could not load settings: ${errorMessage(err)}`);
    }
  },
  setSettings: (settings) => set({ settings }),
  setOnboarding(open) {
    if (!open) localStorage.setItem('wb.onboarded', '1');
    set({ onboarding: open });
  },
});
