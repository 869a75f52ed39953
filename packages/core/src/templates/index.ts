/**
 * Templates: `{{variable|fallback}}` rendering, validation, A/B variant assignment
 * and reply subjects. Pure functions.
 */
export { TemplateError } from './template.errors.js';
export { TemplateSchema } from './template.schemas.js';
export {
  findVariables,
  type RenderResult,
  renderTemplate,
  type TemplateVariables,
} from './template-renderer.js';
export { threadSubject } from './thread-subject.js';
export { pickVariant } from './variant-picker.js';
