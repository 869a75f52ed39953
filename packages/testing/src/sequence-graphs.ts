/**
 * The field's example of a two-channel sequence graph, as a request body gives it:
 * connect on LinkedIn; accepted → a message there; not accepted within 7 days → an
 * e-mail. Shared by the graph tests of core, the API and the whole system.
 */
export const FIELD_EXAMPLE_GRAPH = {
  nodes: [
    { id: 'connect', action: 'linkedin_connect', note: 'Hi {{firstName}}' },
    { id: 'dm', action: 'linkedin_message', body: 'Thanks for connecting, {{firstName}}' },
    { id: 'mail', action: 'email', subject: 'Hello {{company}}', body: 'Hi {{firstName}}' },
    { id: 'end', action: 'end' },
  ],
  edges: [
    { from: 'connect', to: 'dm', trigger: 'connection_accepted' },
    { from: 'connect', to: 'mail', trigger: 'not_accepted', wait: '7d' },
    { from: 'dm', to: 'end', trigger: 'no_reply', wait: '3d' },
    { from: 'mail', to: 'end', trigger: 'no_reply', wait: '3d' },
  ],
};
