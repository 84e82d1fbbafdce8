// docs/agents.md's configuration snippets are what people paste into their
// agents: each must parse, and the command it names must start cpk's MCP server.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { baseEnv, BIN } from '../helpers/cli.js';

const doc = readFileSync(resolve(import.meta.dirname, '../../docs/agents.md'), 'utf8');
const section = /## Adding cpk to your agent\n([\s\S]*?)\n## /.exec(doc)?.[1] ?? '';
const blocks = [...section.matchAll(/```(json|toml)\n([\s\S]*?)```/g)].map(([, lang, text]) => ({
  lang: lang!,
  text: text!,
}));

interface Launch {
  command: string;
  args: string[];
}

/** The server entry of a snippet: Claude Code and Cursor say mcpServers, VS Code servers, Codex a TOML table. */
function launchOf({ lang, text }: { lang: string; text: string }): Launch {
  if (lang === 'json') {
    const config = JSON.parse(text) as { mcpServers?: Record<string, Launch>; servers?: Record<string, Launch> };
    const { command, args } = (config.mcpServers ?? config.servers)!.cpk!;
    return { command, args };
  }
  // No TOML parser among the dependencies: the table's two keys, each a string and an array of strings.
  expect(text).toMatch(/^\[mcp_servers\.cpk\]$/m);
  const command = /^command = ("[^"]*")$/m.exec(text)?.[1];
  const args = /^args = (\[[^\]]*\])$/m.exec(text)?.[1];
  return { command: JSON.parse(command!) as string, args: JSON.parse(args!) as string[] };
}

describe('docs/agents.md snippets', () => {
  it('holds one for each of Claude Code, Cursor, VS Code and Codex CLI, each naming cpk mcp', () => {
    expect(blocks.map((b) => b.lang)).toEqual(['json', 'json', 'json', 'toml']);
    for (const block of blocks) expect(launchOf(block)).toEqual({ command: 'cpk', args: ['mcp'] });
  });

  it('the command they name starts the server: it answers initialize and lists its tools', async () => {
    const launches = new Map(blocks.map((b) => launchOf(b)).map((l) => [JSON.stringify(l), l]));
    for (const { command, args } of launches.values()) {
      // `cpk` as installed is bin/cpk.js.
      expect(command).toBe('cpk');
      const client = new Client({ name: 'docs-check', version: '1.0.0' });
      await client.connect(
        new StdioClientTransport({ command: process.execPath, args: [BIN, ...args], env: baseEnv(), stderr: 'pipe' }),
      );
      try {
        expect(client.getServerVersion()?.name).toBe('cpk');
        const { tools } = await client.listTools();
        expect(tools.map((t) => t.name)).toContain('monitors_get');
      } finally {
        await client.close();
      }
    }
  });
});
