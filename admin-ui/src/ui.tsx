import { createContext, useCallback, useContext, useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { OperationError, runOperation } from './api';
import { followLink, hrefOf, navigate, type Params } from './route';
import type { SignedIn } from './sign-in';

/** The signed-in admin (with their id, for four eyes), available to every screen. */
export interface Me extends SignedIn {
  id: string;
}
export const MeContext = createContext<Me | null>(null);
export function useMe(): Me {
  const me = useContext(MeContext);
  if (!me) throw new Error('useMe outside the back office');
  return me;
}

export interface Loaded<T> {
  data: T | null;
  error: string | null;
  loading: boolean;
  reload(): void;
}

/** Runs a named operation when the screen opens and whenever its variables change; `reload` runs it again. */
export function useOperation<T>(operationName: string, variables: Record<string, unknown>, options: { skip?: boolean } = {}): Loaded<T> {
  const me = useMe();
  const key = JSON.stringify(variables);
  const [state, setState] = useState<{ data: T | null; error: string | null; loading: boolean }>({ data: null, error: null, loading: !options.skip });
  const [round, setRound] = useState(0);
  useEffect(() => {
    if (options.skip) return;
    let current = true;
    setState((previous) => ({ ...previous, loading: true }));
    runOperation<T>(me.auth, operationName, JSON.parse(key) as Record<string, unknown>)
      .then((data) => current && setState({ data, error: null, loading: false }))
      .catch((error: Error) => current && setState({ data: null, error: messageOf(error), loading: false }));
    return () => {
      current = false;
    };
  }, [operationName, key, round, me.auth, options.skip]);
  const reload = useCallback(() => setRound((n) => n + 1), []);
  return { ...state, reload };
}

export function messageOf(error: unknown): string {
  if (error instanceof OperationError) return error.message;
  return 'Something went wrong in this page. Reload it and try again.';
}

/** A link inside the back office: a real address (it opens in a new tab), followed without a reload. */
export function Link({ to, children, className, ...rest }: { to: Params; children: ReactNode; className?: string; 'aria-current'?: 'page' | undefined; 'aria-label'?: string }) {
  return (
    <a href={hrefOf(to)} className={className} onClick={(event) => followLink(event, to)} {...rest}>
      {children}
    </a>
  );
}

/** A screen's heading: focused when the screen opens, so a keyboard or screen reader user starts there. */
export function ScreenTitle({ children, actions }: { children: ReactNode; actions?: ReactNode }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    ref.current?.focus({ preventScroll: false });
  }, []);
  return (
    <div className="screen-title">
      <h1 ref={ref} tabIndex={-1}>
        {children}
      </h1>
      {actions && <div className="screen-actions">{actions}</div>}
    </div>
  );
}

export function Problem({ children, id }: { children: ReactNode; id?: string }) {
  return (
    <p className="problem" role="alert" id={id}>
      {children}
    </p>
  );
}

export function Done({ children }: { children: ReactNode }) {
  return (
    <p className="done" role="status">
      {children}
    </p>
  );
}

/** Loading, the refusal in words, or the screen. */
export function Loading<T>({ loaded, children, what }: { loaded: Loaded<T>; children: (data: T) => ReactNode; what: string }) {
  if (loaded.error) return <Problem>{loaded.error}</Problem>;
  if (!loaded.data) return <p className="quiet" role="status">Loading {what}…</p>;
  return (
    <div aria-busy={loaded.loading || undefined} className={loaded.loading ? 'refreshing' : undefined}>
      {children(loaded.data)}
    </div>
  );
}

export type Tone = 'neutral' | 'good' | 'warn' | 'bad' | 'info';

export function Badge({ tone = 'neutral', children }: { tone?: Tone; children: ReactNode }) {
  return <span className={`badge badge-${tone}`}>{children}</span>;
}

/**
 * A column heading that sorts the table through the address (`order`): the first click sorts one way, the next
 * the other. `aria-sort` tells which column sorts the table and how.
 */
export function SortHeader({ label, params, first, second, isDefault }: { label: string; params: Params; first: string; second: string; isDefault?: 'first' | 'second' }) {
  const current = params.order || (isDefault === 'first' ? first : isDefault === 'second' ? second : '');
  const active = current === first || current === second;
  const next = current === first ? second : first;
  const ascending = (value: string) => /OLDEST|SMALLEST|A_TO_Z/.test(value);
  const sort = active ? (ascending(current) ? 'ascending' : 'descending') : 'none';
  return (
    <th scope="col" aria-sort={sort}>
      <button type="button" className="sort" onClick={() => navigate({ ...params, order: next, page: '' })}>
        {label}
        <span aria-hidden="true" className="sort-mark">
          {active ? (ascending(current) ? ' ▲' : ' ▼') : ' ↕'}
        </span>
      </button>
    </th>
  );
}

export interface Pagination {
  page: number;
  limit: number;
  total: number;
  pages: number;
}

/** Previous / next pages of a table, through the address. */
export function Pager({ pagination, params, noun }: { pagination: Pagination; params: Params; noun: string }) {
  const { page, pages, total, limit } = pagination;
  const from = total === 0 ? 0 : (page - 1) * limit + 1;
  const to = Math.min(total, page * limit);
  return (
    <nav className="pager" aria-label={`Pages of ${noun}`}>
      <p role="status">
        {total === 0 ? `No ${noun}` : `${from}–${to} of ${total} ${noun}`}
        {pages > 1 && ` · page ${page} of ${pages}`}
      </p>
      {page > 1 && (
        <Link to={{ ...params, page: String(page - 1) }} className="button secondary">
          Previous page
        </Link>
      )}
      {page < pages && (
        <Link to={{ ...params, page: String(page + 1) }} className="button secondary">
          Next page
        </Link>
      )}
    </nav>
  );
}

/** A filter form whose fields are the address's parameters: submitting it goes to the filtered list (page 1). */
export function FilterForm({ params, fields, label, children }: { params: Params; fields: string[]; label: string; children: ReactNode }) {
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const next: Params = { ...params, page: '' };
    for (const field of fields) next[field] = String(form.get(field) ?? '').trim();
    navigate(next);
  };
  const clear = () => {
    const next: Params = { ...params, page: '' };
    for (const field of fields) next[field] = '';
    navigate(next);
  };
  return (
    <form className="filters" onSubmit={submit} aria-label={label} key={JSON.stringify(fields.map((f) => params[f] ?? ''))}>
      {children}
      <div className="filter-buttons">
        <button type="submit">Apply filters</button>
        <button type="button" className="secondary" onClick={clear}>
          Clear
        </button>
      </div>
    </form>
  );
}

/** A labelled input of a filter form, holding the address's value. */
export function FilterField({ name, label, params, type = 'text', hint, ...rest }: { name: string; label: string; params: Params; type?: string; hint?: string; placeholder?: string; inputMode?: 'text' | 'email' | 'numeric' }) {
  const id = `filter-${name}`;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} name={name} type={type} defaultValue={params[name] ?? ''} aria-describedby={hint ? `${id}-hint` : undefined} {...rest} />
      {hint && (
        <small id={`${id}-hint`} className="hint">
          {hint}
        </small>
      )}
    </div>
  );
}

export function FilterSelect({ name, label, params, options }: { name: string; label: string; params: Params; options: [value: string, text: string][] }) {
  const id = `filter-${name}`;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} name={name} defaultValue={params[name] ?? ''}>
        {options.map(([value, text]) => (
          <option key={value} value={value}>
            {text}
          </option>
        ))}
      </select>
    </div>
  );
}

export interface DialogField {
  name: string;
  label: string;
  required?: boolean;
  multiline?: boolean;
  hint?: string;
  type?: string;
  options?: [value: string, text: string][];
  initial?: string;
}

/**
 * A confirmation dialog (the native modal <dialog>: focus moves in and stays in, Escape closes it, the page behind
 * is inert, focus returns to the button that opened it). It states what will happen, asks for the reason or
 * reference when the action needs one, and shows the server's refusal in words, inside the dialog.
 */
export function ConfirmDialog({
  title,
  children,
  confirmLabel,
  fields = [],
  tone = 'primary',
  onConfirm,
  onClose,
}: {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  fields?: DialogField[];
  tone?: 'primary' | 'danger';
  onConfirm(values: Record<string, string>): Promise<void>;
  onClose(): void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const bodyId = useId();
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    const dialog = ref.current!;
    if (!dialog.open) dialog.showModal();
    return () => dialog.close();
  }, []);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const values = Object.fromEntries(fields.map((field) => [field.name, String(form.get(field.name) ?? '').trim()]));
    const missing = fields.find((field) => field.required && !values[field.name]);
    if (missing) return setProblem(`${missing.label} is required.`);
    setBusy(true);
    setProblem(null);
    try {
      await onConfirm(values);
    } catch (error) {
      setProblem(messageOf(error));
      setBusy(false);
    }
  };
  return (
    <dialog
      ref={ref}
      className="dialog"
      aria-labelledby={titleId}
      aria-describedby={bodyId}
      onCancel={(event) => {
        event.preventDefault();
        if (!busy) onClose();
      }}
    >
      <form method="dialog" onSubmit={submit} noValidate>
        <h2 id={titleId}>{title}</h2>
        <div id={bodyId} className="dialog-body">
          {children}
        </div>
        {fields.map((field, index) => {
          const id = `${titleId}-${field.name}`;
          const common = {
            id,
            name: field.name,
            required: field.required,
            autoFocus: index === 0,
            defaultValue: field.initial,
            'aria-invalid': problem ? true : undefined,
            'aria-describedby': [field.hint ? `${id}-hint` : '', problem ? `${titleId}-problem` : ''].filter(Boolean).join(' ') || undefined,
          };
          return (
            <div className="field" key={field.name}>
              <label htmlFor={id}>
                {field.label}
                {field.required ? '' : ' (optional)'}
              </label>
              {field.options ? (
                <select {...common}>
                  {field.options.map(([value, text]) => (
                    <option key={value} value={value}>
                      {text}
                    </option>
                  ))}
                </select>
              ) : field.multiline ? (
                <textarea {...common} rows={3} maxLength={500} />
              ) : (
                <input {...common} type={field.type ?? 'text'} autoComplete="off" />
              )}
              {field.hint && (
                <small id={`${id}-hint`} className="hint">
                  {field.hint}
                </small>
              )}
            </div>
          );
        })}
        {problem && <Problem id={`${titleId}-problem`}>{problem}</Problem>}
        <div className="dialog-buttons">
          <button type="submit" className={tone === 'danger' ? 'danger' : undefined} disabled={busy} autoFocus={fields.length === 0}>
            {busy ? 'Working…' : confirmLabel}
          </button>
          <button type="button" className="secondary" onClick={onClose} disabled={busy}>
            Cancel
          </button>
        </div>
      </form>
    </dialog>
  );
}

/** The row a table shows when nothing matches its filters. */
export function NoRows({ columns, children }: { columns: number; children: ReactNode }) {
  return (
    <tr>
      <td colSpan={columns} className="quiet">
        {children}
      </td>
    </tr>
  );
}

/** A list of facts: label and value pairs. */
export function Facts({ rows, label }: { rows: [label: string, value: ReactNode][]; label?: string }) {
  return (
    <dl className="facts" aria-label={label}>
      {rows.map(([name, value]) => (
        <div key={name}>
          <dt>{name}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** A table that scrolls sideways inside itself on a narrow window, never the whole page; named by its caption. */
export function Table({ caption, children, captionHidden }: { caption: string; children: ReactNode; captionHidden?: boolean }) {
  return (
    <div className="table-scroll" role="region" aria-label={caption} tabIndex={0}>
      <table>
        <caption className={captionHidden ? 'visually-hidden' : undefined}>{caption}</caption>
        {children}
      </table>
    </div>
  );
}
