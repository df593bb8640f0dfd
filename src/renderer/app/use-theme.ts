import { useEffect } from 'react';
import { useWorkbenchStore } from '../stores/store.ts';

/** Applies the light/dark/system theme to <html data-theme>. */
export function useTheme(): void {
  const theme = useWorkbenchStore((s) => s.settings?.settings.theme ?? 'system');
  useEffect(() => {
    const media = window.matchMedia('(prefers-color-scheme: dark)');
    const apply = () => {
      document.documentElement.dataset.theme = theme === 'system' ? (media.matches ? 'dark' : 'light') : theme;
    };
    apply();
    media.addEventListener('change', apply);
    return () => media.removeEventListener('change', apply);
  }, [theme]);
}
