export {
  type CrmAdapter,
  type CrmUpdateResult,
  HubspotCrmAdapter,
  type HubspotCrmOptions,
} from './hubspot-crm.adapter.js';
