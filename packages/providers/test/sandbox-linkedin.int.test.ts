import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { CanonicalEvent } from '@touchbase/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpLinkedInSender } from '../src/linkedin/http-linkedin.adapter.js';
import { LinkedInActionError } from '../src/linkedin/linkedin-sender.port.js';
import { sandboxPulledEvent } from '../src/sandbox/sandbox-event-stream.js';
import { SandboxServer } from '../src/sandbox/sandbox-server.js';
import { sandboxWebhookProvider } from '../src/webhooks/sandbox-webhook.provider.js';

const SECRET = 'sandbox-linkedin-secret-0123';

/** Ingest's side of the wire: verifies each push as ingest does, over the raw bytes, and keeps its events. */
class Receiver {
  readonly events: CanonicalEvent[] = [];
  url = '';
  private readonly provider = sandboxWebhookProvider({ secret: SECRET });
  private readonly server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const rawBody = Buffer.concat(chunks);
      try {
        const delivery = this.provider.verify({
          method: 'POST',
          url: req.url ?? '/',
          headers: req.headers as IncomingHttpHeaders,
          rawBody,
          nowMs: Date.now(),
        });
        this.events.push(...(await this.provider.normalise(rawBody.toString('utf8'), delivery, new Date())));
        res.writeHead(204).end();
      } catch (err) {
        res.writeHead(401).end(String(err));
      }
    });
  });
  async start(): Promise<void> {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as { port: number }).port}/webhooks/sandbox`;
  }
  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((r) => this.server.close(() => r()));
  }
}

describe('the sandbox LinkedIn over real HTTP: actions, odds, signed webhooks', () => {
  const receiver = new Receiver();
  let sandbox: SandboxServer;
  let sender: HttpLinkedInSender;
  beforeAll(async () => {
    await receiver.start();
    sandbox = new SandboxServer({
      webhookSecret: SECRET,
      webhookUrl: receiver.url,
      timeScale: 3_600_000,
      linkedin: { acceptOdds: 1, acceptDelayMs: 3_600_000, replyOdds: 0 },
    });
    await sandbox.start();
    sender = new HttpLinkedInSender({
      baseUrl: sandbox.url,
      token: 'sandbox',
      timeoutMs: 2_000,
      name: 'sandbox',
    });
  });
  afterAll(async () => {
    await sender.close();
    await sandbox.close();
    await receiver.close();
  });

  const target = (slug: string, key: string) => ({
    accountId: 'acc_1',
    profileUrl: `https://www.linkedin.com/in/${slug}/`,
    idempotencyKey: key,
  });

  it('an invitation is sent once per key and accepted by odds after the delay, as a signed webhook', async () => {
    const first = await sender.sendInvitation({ ...target('grace-hopper', 'e1-n1-1'), note: 'Hi' });
    const again = await sender.sendInvitation({ ...target('grace-hopper', 'e1-n1-1'), note: 'Hi' });
    expect(again).toEqual(first);
    expect(sandbox.linkedin.actions().filter((a) => a.kind === 'invitation')).toHaveLength(1);
    await sandbox.settled();
    const accepted = receiver.events.find((e) => e.type === 'linkedin.connection_accepted');
    expect(accepted).toMatchObject({
      source: 'sandbox',
      channel: 'linkedin',
      linkedinUrl: 'https://www.linkedin.com/in/grace-hopper/',
      messageId: first.providerMessageId,
    });
  });

  it('a message goes only to a connection, and a scripted member answers it', async () => {
    const notYet = await sender
      .sendMessage({ ...target('ada-lovelace', 'e2-n2-1'), text: 'Hello Ada' })
      .catch((e: unknown) => e);
    expect(notYet).toBeInstanceOf(LinkedInActionError);
    expect(notYet).toMatchObject({ reason: 'not_connected', permanent: true });
    sandbox.linkedin.script('https://fr.linkedin.com/in/Ada-Lovelace', {
      accept: true,
      reply: true,
      text: 'Sure, call me',
    });
    await sender.sendInvitation(target('ada-lovelace', 'e2-n1-1'));
    await sandbox.settled();
    const sent = await sender.sendMessage({
      ...target('ada-lovelace', 'e2-n3-1'),
      text: 'Thanks for connecting',
    });
    await sandbox.settled();
    const reply = receiver.events.find((e) => e.type === 'reply' && e.messageId === sent.providerMessageId);
    expect(reply).toMatchObject({
      channel: 'linkedin',
      linkedinUrl: 'https://www.linkedin.com/in/ada-lovelace/',
      inReply: true,
    });
    expect(reply?.classification).toBeDefined();
  });

  it('scripted failures and double invitations are refused with the contract reasons', async () => {
    sandbox.linkedin.script('https://www.linkedin.com/in/no-one-here', { fail: 'profile_not_found' });
    await expect(sender.visitProfile(target('no-one-here', 'e3-n1-1'))).rejects.toMatchObject({
      reason: 'profile_not_found',
      permanent: true,
    });
    const acceptless = new SandboxServer({ webhookSecret: SECRET, linkedin: { acceptOdds: 0 } });
    await acceptless.start();
    const s2 = new HttpLinkedInSender({ baseUrl: acceptless.url, token: 't', timeoutMs: 2_000 });
    await s2.sendInvitation(target('alan-turing', 'k1'));
    await expect(s2.sendInvitation(target('alan-turing', 'k2'))).rejects.toMatchObject({
      reason: 'already_invited',
    });
    expect(await s2.visitProfile(target('alan-turing', 'k3'))).toHaveProperty('providerMessageId');
    await s2.close();
    await acceptless.close();
  });

  it('every LinkedIn answer is in the pull stream too, read as the webhook was', () => {
    const logged = sandbox.events().filter((e) => e.payload && 'channel' in e.payload);
    expect(logged.length).toBeGreaterThanOrEqual(2);
    for (const e of logged) {
      const read = sandboxPulledEvent(e.id, e.payload);
      expect('event' in read && read.event.externalId).toBe(e.id);
    }
    expect(logged.every((e) => e.push === 'delivered')).toBe(true);
  });
});
