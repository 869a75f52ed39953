import type { ProviderAdapter } from './provider-adapter.js';

/** Finds the adapter of a mailbox's provider by name. */
export class ProviderRegistry {
  private readonly adapters = new Map<string, ProviderAdapter>();

  register(adapter: ProviderAdapter): this {
    this.adapters.set(adapter.name, adapter);
    return this;
  }

  get(name: string): ProviderAdapter {
    const adapter = this.adapters.get(name);
    if (!adapter) throw new Error(`no provider adapter registered for "${name}"`);
    return adapter;
  }

  names(): string[] {
    return [...this.adapters.keys()];
  }
}
