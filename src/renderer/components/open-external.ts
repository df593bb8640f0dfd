/** Opens an external link: only https:, only after the user confirms (Electron re-checks in main). */
export function openExternal(href: string): void {
  let url: URL;
  try {
    url = new URL(href, location.href);
  } catch {
    return;
  }
  if (url.protocol !== 'https:') return;
  // In Electron the main process asks (and re-checks the scheme) when window.open reaches it.
  if (!window.workbench && !window.confirm(`Open this link in your browser?\n\n${url.href}`)) return;
  window.open(url.href, '_blank', 'noopener,noreferrer');
}
