/**
 * The console's only way to the server: the public REST API (`/v1`), with the
 * session cookie of the login form. No private route: what the console shows is
 * what any API client reads.
 */

/** An answer that is not 2xx, with the problem+json `detail` (or title) as its message. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** A page of a list, as every list route answers. */
export type Page<T> = { items: T[]; next: string | null };

async function request<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(path, {
    method,
    credentials: 'same-origin',
    headers: {
      accept: 'application/json',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (res.status === 401) {
    // The session ended (expired, signed out elsewhere): back to the form, then here again.
    window.location.assign(
      `/login?next=${encodeURIComponent(window.location.pathname + window.location.search)}`,
    );
    throw new ApiError(401, 'Signed out: sign in again');
  }
  const text = await res.text();
  const json = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  if (!res.ok) {
    const detail = typeof json.detail === 'string' ? json.detail : undefined;
    const title = typeof json.title === 'string' ? json.title : res.statusText;
    throw new ApiError(res.status, detail ?? title);
  }
  return json as T;
}

/** Builds a query string from the defined values. */
export function query(params: Record<string, string | number | undefined | null>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params))
    if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : '';
}

export const api = {
  get: <T>(path: string) => request<T>('GET', path),
  post: <T>(path: string, body?: unknown) => request<T>('POST', path, body ?? {}),
  delete: <T>(path: string) => request<T>('DELETE', path),
};
