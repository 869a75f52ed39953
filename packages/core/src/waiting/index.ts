/** Why a live enrollment is not being sent right now, and until when. */
export * from './missing-variables.js';
export * from './waiting-reason.js';
