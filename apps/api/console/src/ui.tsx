import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useId, useRef, useState } from 'preact/hooks';

/** A read of the API: its data, its error, and a way to read it again. */
export type Loaded<T> = {
  data: T | undefined;
  error: string | undefined;
  loading: boolean;
  reload: () => void;
};

/** Reads `load()` whenever `deps` change; the last answer wins. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): Loaded<T> {
  const [state, setState] = useState<{ data?: T; error?: string; loading: boolean }>({ loading: true });
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let current = true;
    setState((s) => ({ ...s, loading: true }));
    load().then(
      (data) => current && setState({ data, loading: false }),
      (err: unknown) => current && setState({ error: (err as Error).message, loading: false }),
    );
    return () => {
      current = false;
    };
  }, [...deps, tick]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { data: state.data, error: state.error, loading: state.loading, reload };
}

/** Renders a read: a status line while loading, the error as an alert, else the content. */
export function Show<T>(props: { of: Loaded<T>; children: (data: T) => ComponentChildren }) {
  const { data, error, loading } = props.of;
  if (error)
    return (
      <p role="alert" class="error">
        Could not load: {error}
      </p>
    );
  if (data === undefined)
    return (
      <p role="status" aria-busy={loading}>
        Loading…
      </p>
    );
  return <>{props.children(data)}</>;
}

export type Field = {
  name: string;
  label: string;
  type?: 'text' | 'datetime-local';
  required?: boolean;
  hint?: string;
};

/** The reason an action asks for, kept in the audit log. */
export const REASON: Field = { name: 'reason', label: 'Reason', required: true };

/**
 * A button that opens a modal dialog (the browser's `<dialog>`: focus moves into it,
 * Escape closes it) asking for confirmation and the fields the action needs; the
 * action runs only on "Confirm", and its error stays in the dialog.
 */
export function ConfirmAction(props: {
  label: string;
  title: string;
  description: ComponentChildren;
  fields?: Field[];
  confirmLabel?: string;
  danger?: boolean;
  run: (values: Record<string, string>) => Promise<unknown>;
  done?: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const id = useId();
  const open = () => {
    setError(undefined);
    dialog.current?.showModal();
  };
  const submit = async (e: Event) => {
    e.preventDefault();
    const form = e.currentTarget as HTMLFormElement;
    const values = Object.fromEntries(
      [...new FormData(form).entries()].map(([k, v]) => [k, String(v).trim()]),
    ) as Record<string, string>;
    setBusy(true);
    try {
      await props.run(values);
      dialog.current?.close();
      form.reset();
      props.done?.();
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <button type="button" class={props.danger ? 'danger' : undefined} onClick={open}>
        {props.label}
      </button>
      <dialog ref={dialog} aria-labelledby={`${id}-title`}>
        <form onSubmit={submit}>
          <h2 id={`${id}-title`}>{props.title}</h2>
          <div class="dialog-text">{props.description}</div>
          {(props.fields ?? []).map((f) => (
            <p key={f.name}>
              <label for={`${id}-${f.name}`}>{f.label}</label>
              {f.type === 'datetime-local' ? (
                <input
                  id={`${id}-${f.name}`}
                  name={f.name}
                  type="datetime-local"
                  required={f.required ?? false}
                  aria-describedby={f.hint ? `${id}-${f.name}-hint` : undefined}
                />
              ) : (
                <input
                  id={`${id}-${f.name}`}
                  name={f.name}
                  type="text"
                  required={f.required ?? false}
                  aria-describedby={f.hint ? `${id}-${f.name}-hint` : undefined}
                />
              )}
              {f.hint && (
                <small id={`${id}-${f.name}-hint`} class="hint">
                  {f.hint}
                </small>
              )}
            </p>
          ))}
          {error && (
            <p role="alert" class="error">
              {error}
            </p>
          )}
          <div class="actions">
            <button type="button" onClick={() => dialog.current?.close()}>
              Cancel
            </button>
            <button type="submit" class={props.danger ? 'danger' : 'primary'} disabled={busy}>
              {props.confirmLabel ?? 'Confirm'}
            </button>
          </div>
        </form>
      </dialog>
    </>
  );
}

/** A status word with its colour, never colour alone: the word is the meaning. */
export function Badge(props: { tone: 'ok' | 'warn' | 'bad' | 'muted'; children: ComponentChildren }) {
  return <span class={`badge ${props.tone}`}>{props.children}</span>;
}

/** A column heading: its text, right-aligned (`num`) when the column holds numbers. */
export type Column = string | { label: string; num: true };

/** A heading of a column of numbers. */
export const num = (label: string): Column => ({ label, num: true });

/**
 * A table in its scrolling wrapper: a caption, one row of column headings, and the
 * rows given as children (the `<tbody>`'s content).
 */
export function Table(props: { caption: ComponentChildren; columns: Column[]; children: ComponentChildren }) {
  return (
    <div class="table-wrap">
      <table>
        <caption>{props.caption}</caption>
        <thead>
          <tr>
            {props.columns.map((c) =>
              typeof c === 'string' ? (
                <th scope="col" key={c}>
                  {c}
                </th>
              ) : (
                <th scope="col" class="num" key={c.label}>
                  {c.label}
                </th>
              ),
            )}
          </tr>
        </thead>
        <tbody>{props.children}</tbody>
      </table>
    </div>
  );
}
