// The parts of the official MCP SDK that `cpk mcp` uses, from its public entry points. The build bundles this
// module, the SDK and what the SDK imports (zod, ajv) into one file of its own, dist/mcp-sdk.cjs, which only
// `cpk mcp` loads: installed, those are some 240 ES modules, and finding, reading and linking each one cost
// `cpk mcp` more than everything else it does before it can answer, even with Node's compile cache warm. One
// file, compiled once into that cache, costs a fraction of it; no other command's start-up grows.
export { Server } from '@modelcontextprotocol/sdk/server/index.js';
export { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
export { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
export { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
export type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation';
