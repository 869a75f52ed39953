/*
 * The shapes the API answers. Each one several routes answer is registered with an id
 * (`.meta({ id })`): the OpenAPI document states it once, under components/schemas, and
 * the routes refer to it. Objects are `z.object`: the checking serializer
 * (plugins/response-serializer.ts) makes a field a handler answers and a schema lacks a
 * 500 in the tests, so a schema here names every field its routes answer.
 */

export * from './responses/common.schemas.js';
export * from './responses/funnel.schemas.js';
export * from './responses/logs.schemas.js';
export * from './responses/people.schemas.js';
export * from './responses/sending.schemas.js';
export * from './responses/sequence.schemas.js';
