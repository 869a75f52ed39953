#!/usr/bin/env node
// The `touchbase` command. The workspaces ship TypeScript sources (no build step
// between editing and running), so the CLI registers tsx's loader first.
import { register } from 'tsx/esm/api';

register();
await import('../src/main.ts');
