// Apart from the generators, so the command tree can name the shells without loading any of them.
export const SHELLS = ['bash', 'zsh', 'fish', 'powershell'] as const;
export type Shell = (typeof SHELLS)[number];

export const COMPLETION_FILES: Record<Shell, string> = {
  bash: 'completions/cpk.bash',
  zsh: 'completions/cpk.zsh',
  fish: 'completions/cpk.fish',
  powershell: 'completions/cpk.ps1',
};
