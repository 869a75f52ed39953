const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

/** Where the login may send the browser afterwards: a path on this server, never another site. */
export function safeNext(next: unknown, fallback = '/admin/queues'): string {
  if (typeof next !== 'string' || next.length > 2000) return fallback;
  // `//host` and `/\host` are other sites to a browser; only a plain absolute path stays here.
  if (!next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return fallback;
  // Control characters (a header split, a tab browsers strip to reach `//`) never belong here.
  if ([...next].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)) return fallback;
  return next;
}

/**
 * The login page: a form that takes an API key (or ADMIN_TOKEN) and posts it to
 * `/login`. No script, no external asset: it renders under the strictest CSP.
 */
export function loginPage(opts: { next: string; error?: string; signedInAs?: string }): string {
  const error = opts.error ? `<p class="error" role="alert">${escapeHtml(opts.error)}</p>` : '';
  const signedIn = opts.signedInAs
    ? `<p>Signed in as <strong>${escapeHtml(opts.signedInAs)}</strong>.</p>
  <form method="post" action="/logout"><button type="submit">Sign out</button></form>`
    : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>touchbase: sign in</title>
<style>
  body { font: 16px/1.5 system-ui, sans-serif; max-width: 28rem; margin: 4rem auto; padding: 0 1rem; }
  label, input, button { display: block; width: 100%; box-sizing: border-box; }
  input { margin: .25rem 0 1rem; padding: .5rem; font: inherit; }
  button { padding: .5rem; font: inherit; cursor: pointer; }
  .error { color: #b00020; }
</style>
</head>
<body>
<main>
  <h1>touchbase</h1>
  ${signedIn}
  ${error}
  <form method="post" action="/login">
    <label for="key">API key</label>
    <input id="key" name="key" type="password" autocomplete="current-password" required autofocus>
    <input type="hidden" name="next" value="${escapeHtml(opts.next)}">
    <button type="submit">Sign in</button>
  </form>
  <p>A key comes from <code>touchbase keys create --name NAME --scope read|write|admin</code>; ADMIN_TOKEN works too.</p>
</main>
</body>
</html>
`;
}
