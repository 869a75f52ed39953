export { type HttpLinkedInOptions, HttpLinkedInSender } from './http-linkedin.adapter.js';
export { DEFAULT_LINKEDIN_RETRY_AFTER_MS } from './linkedin-http.js';
export {
  LinkedInActionError,
  type LinkedInActionResult,
  type LinkedInFailureReason,
  type LinkedInInvitationRequest,
  type LinkedInMessageRequest,
  type LinkedInSender,
  type LinkedInTarget,
} from './linkedin-sender.port.js';
export {
  LinkedInThrottle,
  linkedInBucketId,
  linkedInBucketOf,
  parseLinkedInBucketId,
} from './linkedin-throttle.js';
export { UnipileLinkedInSender, type UnipileOptions } from './unipile.adapter.js';
