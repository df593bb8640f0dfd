/**
 * Opens an external link: only https:, only after the user confirms (Electron re-checks in main).
 * Returns false when it was not opened (not https, or the user said no here).
 */
export function openExternal(href: string): boolean {
  let url: URL;
  try {
    url = new URL(href, location.href);
  } catch {
    return false;
  }
  if (url.protocol !== 'https:') return false;
  // In Electron the main process asks (and re-checks the scheme) when window.open reaches it.
  if (!window.workbench && !window.confirm(`Open this link in your browser?\n\n${url.href}`))
    return false;
  window.open(url.href, '_blank', 'noopener,noreferrer');
  return true;
}
