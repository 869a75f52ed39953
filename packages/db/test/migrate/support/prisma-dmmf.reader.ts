import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { DMMF } from '@prisma/client/runtime/client';

// Prisma's schema parser (prisma-engines' `prisma-schema-wasm`, the code behind `prisma
// format`, `validate` and `generate`) ships inside the prisma CLI as
// build/prisma_schema_build_bg.wasm; its wasm-bindgen glue is bundled into the CLI and not
// exported. The few lines below are that glue, for `get_dmmf` only. Using the real parser
// means the drift test reads schema.prisma exactly as `prisma migrate` does, @map,
// @@unique and defaults included, with no hand-written parsing.

// lib ES2023 without DOM has no WebAssembly types, and @types/node 20 adds none: these
// are the few members used here.
interface WasmTable {
  get(index: number): unknown;
  set(index: number, value: unknown): void;
  grow(delta: number): number;
}
interface WasmModule {
  readonly brand?: 'WasmModule';
}
interface WasmApi {
  Module: {
    new (bytes: Uint8Array): WasmModule;
    imports(module: WasmModule): { module: string; name: string; kind: string }[];
  };
  Instance: new (
    module: WasmModule,
    imports: Record<string, Record<string, (ptr: number, len: number) => unknown>>,
  ) => { exports: object };
}
const wasmApi = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

interface SchemaWasmExports {
  memory: { buffer: ArrayBuffer };
  __wbindgen_externrefs: WasmTable;
  __wbindgen_start(): void;
  __wbindgen_malloc(size: number, align: number): number;
  __wbindgen_free(ptr: number, size: number, align: number): void;
  __externref_table_dealloc(index: number): void;
  /** Returns [ptr, len, errorRef, isError]. */
  get_dmmf(ptr: number, len: number): [number, number, number, number];
}

let wasm: SchemaWasmExports | undefined;
let panicMessage: string | undefined;

/**
 * Parses and validates a Prisma schema with Prisma's own parser and returns its data model
 * (the DMMF that generators receive).
 *
 * @throws Error with Prisma's validation message when the schema is invalid.
 */
export function readPrismaDatamodel(schema: string): DMMF.Datamodel {
  const exports = loadSchemaWasm();
  const input = new TextEncoder().encode(JSON.stringify({ prismaSchema: schema, noColor: true }));
  const inputPtr = exports.__wbindgen_malloc(input.length, 1) >>> 0;
  new Uint8Array(exports.memory.buffer, inputPtr, input.length).set(input);
  let result: [number, number, number, number];
  try {
    result = exports.get_dmmf(inputPtr, input.length);
  } catch (error) {
    throw new Error(`prisma-schema-wasm panicked: ${panicMessage ?? String(error)}`, { cause: error });
  }
  const [ptr, len, errorRef, isError] = result;
  if (isError) {
    const error = exports.__wbindgen_externrefs.get(errorRef) as Error;
    exports.__externref_table_dealloc(errorRef);
    throw new Error(`Prisma rejected the schema:\n${validationMessage(error)}`, { cause: error });
  }
  try {
    const json = decode(exports, ptr, len);
    return (JSON.parse(json) as { datamodel: DMMF.Datamodel }).datamodel;
  } finally {
    exports.__wbindgen_free(ptr, len, 1);
  }
}

function loadSchemaWasm(): SchemaWasmExports {
  if (wasm !== undefined) return wasm;
  const require = createRequire(import.meta.url);
  const cliDir = dirname(require.resolve('prisma/package.json'));
  const module = new wasmApi.Module(readFileSync(join(cliDir, 'build', 'prisma_schema_build_bg.wasm')));

  // wasm-bindgen suffixes its import names with a hash that changes between builds, so
  // they are matched by prefix; an unknown import means the glue needs updating.
  const imports: Record<string, (ptr: number, len: number) => unknown> = {};
  for (const { name } of wasmApi.Module.imports(module)) {
    if (name.startsWith('__wbg_Error_')) {
      imports[name] = (ptr, len) => new Error(decode(instance(), ptr, len));
    } else if (name.includes('__wbindgen_throw')) {
      imports[name] = (ptr, len) => {
        throw new Error(decode(instance(), ptr, len));
      };
    } else if (name.startsWith('__wbg_set_message_')) {
      imports[name] = (ptr, len) => {
        panicMessage = decode(instance(), ptr, len);
      };
    } else if (name === '__wbindgen_init_externref_table') {
      imports[name] = () => {
        const table = instance().__wbindgen_externrefs;
        const offset = table.grow(4);
        table.set(0, undefined);
        table.set(offset, undefined);
        table.set(offset + 1, null);
        table.set(offset + 2, true);
        table.set(offset + 3, false);
      };
    } else {
      throw new Error(
        `Unexpected import ${name} in prisma_schema_build_bg.wasm: update prisma-dmmf.reader.ts`,
      );
    }
  }
  const exports = new wasmApi.Instance(module, { __wbindgen_placeholder__: imports })
    .exports as unknown as SchemaWasmExports;
  wasm = exports;
  exports.__wbindgen_start();
  return exports;
}

// The error's message is JSON ({ error_code, message }); the inner message is the readable part.
function validationMessage(error: Error): string {
  try {
    const parsed = JSON.parse(error.message) as { message?: unknown };
    return typeof parsed.message === 'string' ? parsed.message : error.message;
  } catch {
    return error.message;
  }
}

function instance(): SchemaWasmExports {
  if (wasm === undefined) throw new Error('prisma-schema-wasm called back before it was instantiated');
  return wasm;
}

function decode(exports: SchemaWasmExports, ptr: number, len: number): string {
  return new TextDecoder('utf-8', { fatal: true }).decode(
    new Uint8Array(exports.memory.buffer, ptr >>> 0, len),
  );
}
