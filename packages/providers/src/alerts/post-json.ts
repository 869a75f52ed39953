import { AlertDeliveryError } from './ops-alert.js';

/**
 * POSTs a JSON body and classifies the answer: 2xx delivered; 408, 429, 5xx and
 * network errors retryable; any other 4xx permanent. The URL never appears in the
 * error (a Slack webhook URL is itself the secret).
 */
export async function postJson(
  channel: string,
  url: string,
  body: string,
  opts: { headers?: Record<string, string>; timeoutMs: number },
): Promise<void> {
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...opts.headers },
      body,
      signal: AbortSignal.timeout(opts.timeoutMs),
    });
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    throw new AlertDeliveryError(
      channel,
      `request failed: ${cause?.code ?? cause?.message ?? (err as Error).message}`,
      false,
    );
  }
  if (res.ok) {
    await res.body?.cancel();
    return;
  }
  const text = (await res.text().catch(() => '')).slice(0, 200);
  const permanent = res.status >= 400 && res.status < 500 && res.status !== 408 && res.status !== 429;
  throw new AlertDeliveryError(channel, `HTTP ${res.status}${text ? `: ${text}` : ''}`, permanent);
}
