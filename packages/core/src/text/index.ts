export { refuseUnsafeText, safeText, safeTextDeep, TextSchema, unsafeTextReason } from './safe-text.js';
