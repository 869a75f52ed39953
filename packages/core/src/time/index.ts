/**
 * Time: durations, waits in the prospect's calendar, sending windows and time zones.
 * Pure functions; the current time always comes in as an argument.
 */
export { addWait } from './add-wait.js';
export {
  type DoNotContactRule,
  DoNotContactRuleSchema,
  type DoNotContactTable,
  DoNotContactTableSchema,
  doNotContactRuleOf,
  recipientCountryOf,
  withDoNotContact,
} from './do-not-contact.js';
export { DurationSchema, parseDuration } from './duration.js';
export { type MoveIntoWindowOptions, moveIntoWindow } from './sending-window.js';
export { type SendingWindow, SendingWindowSchema } from './sending-window.schemas.js';
export { DurationError, SendingWindowError, TimeRangeError, TimeZoneError } from './time.errors.js';
export { scaleDuration } from './time-scale.js';
export { isValidTimeZone, resolveTimeZone, TimeZoneSchema } from './time-zone.js';
