import { useWorkbenchStore } from '../stores/store.ts';

/** The Monaco theme matching the app's: dark when the setting (or the system, via data-theme) is dark. */
export function useMonacoTheme(): 'vs' | 'vs-dark' {
  const setting = useWorkbenchStore((s) => s.settings?.settings.theme);
  return setting === 'dark' || document.documentElement.dataset.theme === 'dark' ? 'vs-dark' : 'vs';
}
