// The PowerShell completion script: a native argument completer with the
// same path walk as the other shells. Lookups use ordinal (case-sensitive)
// hashtables, since -q and -Q are different options; lists are flat arrays
// (PowerShell flattens a one-element array of arrays).
import { FIRST_CHARACTERS, WORD_CHARACTERS } from './candidate.js';
import {
  dynamicArguments,
  dynamicOptions,
  GENERATED_NOTE,
  optionChoices,
  valueOptionWords,
  type PathEntry,
} from './table.js';

/** Only ' needs doubling, but typographic quotes count as quotes too. */
function psQuote(text: string): string {
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
  const dynamic = [
    ...dynamicArguments(table).map(([path, kind]) => set('dynamic', `${path}/`, psQuote(kind))),
    ...dynamicOptions(table).map(([option, kind]) => set('dynamicOptions', option, psQuote(kind))),
  ];
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
  $dynamic = [hashtable]::new([StringComparer]::Ordinal)   # path/ -> what \`cpk __complete\` offers for its arguments
  $dynamicOptions = [hashtable]::new([StringComparer]::Ordinal)  # option -> what \`cpk __complete\` offers for its value
${[...names, ...commands, ...options, ...valued, ...choices, ...dynamic].join('\n')}

  # The candidates \`cpk __complete KIND\` prints (ids from the local inventory
  # with their names, profile names, declared types): never the network. Each
  # line is data, passed as arguments and never evaluated: a value that is not
  # a plain word is left out; the name after the tab is only its tooltip.
  $cpk = $commandAst.CommandElements[0].Extent.Text
  function Get-CpkDynamic($kind) {
    foreach ($line in @(& $cpk __complete $kind $wordToComplete 2>$null)) {
      $parts = ([string]$line).Split([char]9, 2)
      $value = $parts[0]
      if ($value -cmatch ${psQuote(`^[${FIRST_CHARACTERS}][${WORD_CHARACTERS.replace('-', '') + '-'}]*$`)}) {
        $tip = if ($parts.Count -gt 1 -and $parts[1]) { $parts[1] -replace '[\\x00-\\x1f\\x7f-\\x9f]', ' ' } else { $value }
        [System.Management.Automation.CompletionResult]::new($value, $value, 'ParameterValue', $tip)
      }
    }
  }

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
    if ($dynamicOptions[$prev]) { Get-CpkDynamic $dynamicOptions[$prev] }
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
  if ($kind -eq 'ParameterValue' -and $dynamic["$path/"]) { Get-CpkDynamic $dynamic["$path/"] }
  for ($i = 0; $i + 1 -lt $candidates.Count; $i += 2) {
    if ($candidates[$i] -clike "$wordToComplete*") {
      [System.Management.Automation.CompletionResult]::new($candidates[$i], $candidates[$i], $kind, $candidates[$i + 1])
    }
  }
}
`;
}
