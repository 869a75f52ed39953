import { type HttpClient, HttpTransportError } from '../http/http-client.js';
import { AlertDeliveryError } from './ops-alert.js';

/**
 * POSTs a JSON body to the client's URL (its name is the channel's) and
 * classifies the answer as every HTTP call is: 2xx delivered; 408, 429, 5xx and
 * network errors retryable; any other 4xx permanent. The URL never appears in the
 * error (a Slack webhook URL is itself the secret).
 */
export async function postJson(
  client: HttpClient,
  body: string,
  headers: Record<string, string> = {},
): Promise<void> {
  let answer: Awaited<ReturnType<HttpClient['exchange']>>;
  try {
    answer = await client.exchange({
      method: 'POST',
      path: '',
      headers: { 'content-type': 'application/json', ...headers },
      body,
    });
  } catch (err) {
    if (!(err instanceof HttpTransportError)) throw err;
    throw new AlertDeliveryError(client.name, `request failed: ${err.code || err.message}`, false);
  }
  if (answer.kind === 'ok') return;
  const text = answer.text.slice(0, 200);
  throw new AlertDeliveryError(
    client.name,
    `HTTP ${answer.status}${text ? `: ${text}` : ''}`,
    answer.kind === 'permanent',
  );
}
