// docs/agents.md's configuration snippets are what people paste into their
// agents: each must parse and name the same command. That command starting the
// server is proven in test/cli/mcp.test.ts, whose read-only server is started
// from exactly what the snippets name.
import { describe, expect, it } from 'vitest';
import { agentSnippets, launchOf } from '../helpers/agents-doc.js';

describe('docs/agents.md snippets', () => {
  it('holds one for each of Claude Code, Cursor, VS Code and Codex CLI, each parsing to cpk mcp', () => {
    const snippets = agentSnippets();
    expect(snippets.map((b) => b.lang)).toEqual(['json', 'json', 'json', 'toml']);
    for (const snippet of snippets) expect(launchOf(snippet)).toEqual({ command: 'cpk', args: ['mcp'] });
  });
});
