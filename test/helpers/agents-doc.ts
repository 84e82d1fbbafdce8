// The agent configurations docs/agents.md gives ("Adding cpk to your agent"): what people paste into Claude
// Code, Cursor, VS Code and Codex CLI, read back as the command and arguments each starts.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

export interface Launch {
  command: string;
  args: string[];
}

export interface Snippet {
  lang: string;
  text: string;
}

export function agentSnippets(): Snippet[] {
  const doc = readFileSync(resolve(import.meta.dirname, '../../docs/agents.md'), 'utf8');
  const section = /## Adding cpk to your agent\n([\s\S]*?)\n## /.exec(doc)?.[1] ?? '';
  return [...section.matchAll(/```(json|toml)\n([\s\S]*?)```/g)].map(([, lang, text]) => ({
    lang: lang!,
    text: text!,
  }));
}

/** The server entry of a snippet: Claude Code and Cursor say mcpServers, VS Code servers, Codex a TOML table. */
export function launchOf({ lang, text }: Snippet): Launch {
  if (lang === 'json') {
    const config = JSON.parse(text) as { mcpServers?: Record<string, Launch>; servers?: Record<string, Launch> };
    const { command, args } = (config.mcpServers ?? config.servers)!.cpk!;
    return { command, args };
  }
  // No TOML parser among the dependencies: the table and its two keys, a string and an array of strings.
  if (!/^\[mcp_servers\.cpk\]$/m.test(text)) throw new Error(`no [mcp_servers.cpk] table in:\n${text}`);
  const command = /^command = ("[^"]*")$/m.exec(text)?.[1];
  const args = /^args = (\[[^\]]*\])$/m.exec(text)?.[1];
  if (command === undefined || args === undefined) throw new Error(`no command or args in:\n${text}`);
  return { command: JSON.parse(command) as string, args: JSON.parse(args) as string[] };
}
