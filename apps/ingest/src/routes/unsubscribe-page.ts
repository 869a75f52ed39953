/** The small HTML pages of `/u/{token}`: no script, no external resource, nothing to track. */

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>${escapeHtml(title)}</title>
<style>
body { font-family: system-ui, sans-serif; max-width: 32rem; margin: 4rem auto; padding: 0 1rem; color: #222; }
button { font: inherit; padding: .6rem 1.2rem; border: 0; border-radius: .3rem; background: #222; color: #fff; cursor: pointer; }
</style>
</head>
<body>
<h1>${escapeHtml(title)}</h1>
${body}
</body>
</html>
`;
}

/**
 * The confirmation page a GET shows. It changes nothing: mail scanners and link
 * previews fetch every link in a message, so only the button's POST unsubscribes.
 */
export function confirmPage(token: string): string {
  return page(
    'Unsubscribe',
    `<p>Stop receiving these emails? You will not be contacted again from this address.</p>
<form method="post" action="/u/${encodeURIComponent(token)}">
<input type="hidden" name="confirm" value="page">
<button type="submit">Unsubscribe</button>
</form>`,
  );
}

/** What the button's POST answers. */
export function donePage(): string {
  return page(
    'You are unsubscribed',
    '<p>You will not receive any more of these emails. Nothing else is needed.</p>',
  );
}

/** A link that is not one of ours, or was changed. */
export function invalidPage(): string {
  return page(
    'Link not valid',
    '<p>This unsubscribe link is not valid. Please use the link from the email as it is, or reply to the email asking to be removed.</p>',
  );
}
