export * from './linkedin-caps.js';
export * from './linkedin-profile-url.js';
