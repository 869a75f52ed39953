/**
 * @touchbase/providers: one adapter per provider behind one interface, the sandbox
 * provider, and webhook signatures.
 */
export * from './alerts/index.js';
export { HttpProviderAdapter, type HttpProviderOptions } from './http/http.adapter.js';
export {
  classifyHttpStatus,
  type HttpAnswer,
  HttpClient,
  type HttpClientOptions,
  type HttpFailureKind,
  type HttpRequest,
  HttpTransportError,
} from './http/http-client.js';
export { JsonHttpClient, type JsonRequest, type JsonResponse } from './http/json-http-client.js';
export { parseRetryAfter, retryAfterMs } from './http/retry-after.js';
export { hasTouchMarker, htmlWithMarker, touchMarker } from './http/touch-marker.js';
export * from './hubspot/index.js';
export { LemlistAdapter, type LemlistOptions } from './lemlist/lemlist.adapter.js';
export * from './linkedin/index.js';
export * from './provider-adapter.js';
export { ProviderRegistry } from './provider-registry.js';
export { SandboxAdapter } from './sandbox/sandbox.adapter.js';
export {
  DEFAULT_SANDBOX_WEBHOOK_RETRY,
  type SandboxDelivery,
  type SandboxEventPayload,
  type SandboxLinkedInEventPayload,
  type SandboxLoggedEvent,
  type SandboxOptions,
  type SandboxOutcome,
  type SandboxWebhookRetry,
} from './sandbox/sandbox.types.js';
export { sandboxEventStream, sandboxPulledEvent } from './sandbox/sandbox-event-stream.js';
export {
  DEFAULT_SANDBOX_LINKEDIN,
  SandboxLinkedIn,
  type SandboxLinkedInAction,
  type SandboxLinkedInOptions,
  type SandboxLinkedInScript,
} from './sandbox/sandbox-linkedin.js';
export { SandboxServer } from './sandbox/sandbox-server.js';
export {
  normaliseSandboxEvent,
  SandboxEventPayloadSchema,
  sandboxCanonicalEvent,
} from './sandbox/sandbox-webhook.js';
export { SmartleadAdapter, type SmartleadOptions } from './smartlead/smartlead.adapter.js';
export { SmtpAdapter, type SmtpOptions, smtpMessageId } from './smtp/smtp.adapter.js';
export { classifySmtpError } from './smtp/smtp-error.js';
export {
  signUnsubscribeToken,
  UnsubscribeTokenError,
  verifyUnsubscribeToken,
} from './smtp/unsubscribe-token.js';
export { BottleneckThrottle, type BottleneckThrottleOptions } from './throttle/bottleneck-throttle.js';
export { type CreateThrottleOptions, createThrottle } from './throttle/create-throttle.js';
export {
  countCapViolations,
  type MailboxLimits,
  MailboxThrottle,
  type MailboxThrottleOptions,
  type ThrottleDecision,
} from './throttle/mailbox-throttle.js';
export {
  capWindows,
  type Throttle,
  type ThrottleKind,
  type ThrottleSeedSource,
  type WindowCounts,
} from './throttle/throttle.port.js';
export * from './webhooks/index.js';
