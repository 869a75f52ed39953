/**
 * @touchbase/providers: one adapter per provider behind one interface, the sandbox
 * provider, and webhook signatures.
 */
export * from './provider-adapter.js';
export { ProviderRegistry } from './provider-registry.js';
export { SandboxAdapter } from './sandbox/sandbox.adapter.js';
export { normaliseSandboxEvent, SandboxEventPayloadSchema } from './sandbox/sandbox-webhook.js';
export {
  SandboxServer,
  type SandboxDelivery,
  type SandboxEventPayload,
  type SandboxOptions,
  type SandboxOutcome,
} from './sandbox/sandbox-server.js';
export * from './webhooks/standard-webhooks.js';
