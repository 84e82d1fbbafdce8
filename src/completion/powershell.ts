// The PowerShell completion script: a native argument completer with the
// same path walk as the other shells. Lookups use ordinal (case-sensitive)
// hashtables, since -q and -Q are different options; lists are flat arrays
// (PowerShell flattens a one-element array of arrays).
import { GENERATED_NOTE, optionChoices, valueOptionWords, type PathEntry } from './table.js';

/** A PowerShell single-quoted string (only ' needs doubling; typographic quotes count as quotes too). */
export function psQuote(text: string): string {
  return `'${text.replace(/['\u2018\u2019\u201a\u201b]/g, (q) => q + q)}'`;
}

function list(words: string[]): string {
  return `@(${words.map(psQuote).join(', ')})`;
}

export function powershellScript(table: PathEntry[]): string {
  const set = (name: string, key: string, value: string) => `  $${name}[${psQuote(key)}] = ${value}`;
  const names = table.flatMap((p) => p.subcommands.map((s) => set('names', `${p.key}/${s.word}`, psQuote(s.name))));
  const commands = table.map((p) =>
    set(
      'commands',
      p.key,
      list([
        ...p.subcommands.flatMap((s) => [s.word, s.description || s.word]),
        ...p.argumentChoices.flatMap((c) => [c, c]),
      ]),
    ),
  );
  const options = table.map((p) =>
    set('options', p.key, list(p.options.flatMap((o) => o.names.flatMap((n) => [n, o.description || n])))),
  );
  const valued = table.map((p) => set('valued', p.key, list(valueOptionWords(p))));
  const choices = table.flatMap((p) =>
    optionChoices(p).map((c) => set('choices', `${p.key}/${c.option}`, list(c.choices))),
  );
  return `# PowerShell completion for cpk.
# ${GENERATED_NOTE}
#
# Install: add this line to your profile (notepad $PROFILE):
#   cpk completion powershell | Out-String | Invoke-Expression

Register-ArgumentCompleter -Native -CommandName cpk -ScriptBlock {
  param($wordToComplete, $commandAst, $cursorPosition)
  $names = [hashtable]::new([StringComparer]::Ordinal)     # path/word -> the subcommand it names
  $commands = [hashtable]::new([StringComparer]::Ordinal)  # path -> subcommands and argument values, with descriptions
  $options = [hashtable]::new([StringComparer]::Ordinal)   # path -> options (own and inherited), with descriptions
  $valued = [hashtable]::new([StringComparer]::Ordinal)    # path -> options that take a value
  $choices = [hashtable]::new([StringComparer]::Ordinal)   # path/option -> its fixed values
${[...names, ...commands, ...options, ...valued, ...choices].join('\n')}

  # Walk the words before the cursor: subcommand words extend the path;
  # options are skipped, with their value when they take one.
  $path = ''
  $skip = $false
  $prev = ''
  foreach ($element in @($commandAst.CommandElements | Select-Object -Skip 1)) {
    if ($element.Extent.EndOffset -ge $cursorPosition) { break }
    $word = if ($element -is [System.Management.Automation.Language.StringConstantExpressionAst]) { $element.Value } else { $element.Extent.Text }
    $prev = $word
    if ($skip) { $skip = $false; continue }
    if ($word -like '-*=*') { continue }
    if ($word -like '-*') {
      if ($valued[$path] -ccontains $word) { $skip = $true }
      continue
    }
    $name = $names["$path/$word"]
    if ($name) { $path = if ($path) { "$path $name" } else { $name } }
  }

  if ($skip) {
    foreach ($value in @($choices["$path/$prev"])) {
      if ($value -and $value -clike "$wordToComplete*") {
        [System.Management.Automation.CompletionResult]::new($value, $value, 'ParameterValue', $value)
      }
    }
    return
  }
  if ($wordToComplete -like '-*') {
    $candidates = @($options[$path])
    $kind = 'ParameterName'
  } else {
    $candidates = @($commands[$path])
    $kind = 'ParameterValue'
  }
  for ($i = 0; $i + 1 -lt $candidates.Count; $i += 2) {
    if ($candidates[$i] -clike "$wordToComplete*") {
      [System.Management.Automation.CompletionResult]::new($candidates[$i], $candidates[$i], $kind, $candidates[$i + 1])
    }
  }
}
`;
}
