import { useEffect, useState } from 'react';

/**
 * Where the back office is: everything after `/admin?` (view, filters, page, sort), so any screen, filtered and
 * sorted, is a link that can be shared or reopened. No router: the query string is the state.
 */
export type Params = Record<string, string>;

export function currentParams(): Params {
  return Object.fromEntries(new URLSearchParams(window.location.search));
}

/** `/admin?…` for these parameters, empty ones left out. */
export function hrefOf(params: Params): string {
  const search = new URLSearchParams(Object.entries(params).filter(([, value]) => value !== '' && value !== undefined && value !== null));
  const text = search.toString();
  return text ? `/admin?${text}` : '/admin';
}

const listeners = new Set<() => void>();

/** Goes to `params` (a new history entry, or in place for a filter being typed). */
export function navigate(params: Params, options: { replace?: boolean } = {}): void {
  const href = hrefOf(params);
  if (options.replace) window.history.replaceState(null, '', href);
  else window.history.pushState(null, '', href);
  for (const listener of listeners) listener();
}

/** The current parameters, kept in step with navigation and the browser's back and forward buttons. */
export function useParams(): Params {
  const [params, setParams] = useState(currentParams);
  useEffect(() => {
    const update = () => setParams(currentParams());
    listeners.add(update);
    window.addEventListener('popstate', update);
    return () => {
      listeners.delete(update);
      window.removeEventListener('popstate', update);
    };
  }, []);
  return params;
}

/** A click on one of our links is handled here (no reload); a click with a modifier opens a tab as usual. */
export function followLink(event: React.MouseEvent<HTMLAnchorElement>, params: Params): void {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  event.preventDefault();
  navigate(params);
}
