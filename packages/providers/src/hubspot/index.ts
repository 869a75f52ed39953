export { CrmLookupUnavailableError } from './crm-lookup-unavailable.error.js';
export {
  type CrmAdapter,
  type CrmUpdateResult,
  type DealContactsResult,
  HubspotCrmAdapter,
  type HubspotCrmOptions,
} from './hubspot-crm.adapter.js';
