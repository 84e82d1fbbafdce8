// What the GitHub Actions runner would read as workflow commands in a step's
// output, as actions/runner's ActionCommand.TryParseV2 and TryParse read a
// line: lines split at CR, LF or CRLF (.NET's ReadLine); a line that, once
// its leading white space is trimmed (.NET's, wider than ASCII), starts with
// `::` and has a second `::`; or, failing that, a line with `##[` anywhere and
// a `]` after it (the legacy form). Stricter than the runner in one way: any
// command name counts, since `stop-commands` makes its token a command and an
// unknown name is one runner update away from being known.

/** .NET's Char.IsWhiteSpace, and the rest of C0's separators for good measure. */
// eslint-disable-next-line no-control-regex -- the white space the runner trims holds C0 separators
const DOTNET_SPACE = /^[\t\n\v\f\r\u001c-\u001f \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]*/;

/** The lines of `output` the runner would take as workflow commands (empty: none). */
export function workflowCommandsIn(output: string): string[] {
  return output.split(/\r\n|\r|\n/).filter((line) => {
    const trimmed = line.replace(DOTNET_SPACE, '');
    if (trimmed.startsWith('::') && trimmed.indexOf('::', 2) > 2) return true;
    const legacy = line.indexOf('##[');
    return legacy >= 0 && line.indexOf(']', legacy) > legacy;
  });
}

/** A command's data as the runner reads it back (ActionCommand.UnescapeData): CR, LF, then `%`. */
export function unescapeData(text: string): string {
  return text.replaceAll('%0D', '\r').replaceAll('%0A', '\n').replaceAll('%25', '%');
}
