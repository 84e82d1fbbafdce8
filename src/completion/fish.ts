// The fish completion script: fish's own `complete` entries, each guarded by
// the command path the words typed so far lead to.
import { FIRST_CHARACTERS, WORD_CHARACTERS } from './candidate.js';
import { GENERATED_NOTE, valueOptionWords, type PathEntry } from './table.js';

/** Only \\ and \' are escapes in fish single quotes. */
function fishQuote(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

export function fishScript(table: PathEntry[]): string {
  const commandCases = table.flatMap((p) =>
    p.subcommands.map((s) => `        case ${fishQuote(`${p.key}/${s.word}`)}\n            echo ${fishQuote(s.name)}`),
  );
  const valuePatterns = table.flatMap((p) => valueOptionWords(p).map((o) => fishQuote(`${p.key}/${o}`)));
  const lines: string[] = [];
  for (const p of table) {
    const at = `-n ${fishQuote(`__cpk_at ${fishQuote(p.key)}`)}`;
    for (const s of p.subcommands)
      lines.push(`complete -c cpk ${at} -f -a ${fishQuote(s.word)} -d ${fishQuote(s.description)}`);
    const dynamic = p.completes;
    if (dynamic) lines.push(`complete -c cpk ${at} -f -a ${fishQuote(`(__cpk_dynamic ${dynamic})`)}`);
    if (p.argumentChoices.length) lines.push(`complete -c cpk ${at} -f -a ${fishQuote(p.argumentChoices.join(' '))}`);
    for (const o of p.options) {
      const flags = o.names
        .map((n) => (n.startsWith('--') ? `-l ${fishQuote(n.slice(2))}` : `-s ${fishQuote(n.slice(1))}`))
        .join(' ');
      const dynamic = o.completes;
      const value = !o.takesValue
        ? ''
        : o.choices.length
          ? ` -x -a ${fishQuote(o.choices.join(' '))}`
          : dynamic
            ? ` -x -a ${fishQuote(`(__cpk_dynamic ${dynamic})`)}`
            : ' -r -F';
      lines.push(`complete -c cpk ${at} ${flags}${value} -d ${fishQuote(o.description)}`);
    }
  }
  return `# fish completion for cpk.
# ${GENERATED_NOTE}
#
# Install: cpk completion fish > ~/.config/fish/completions/cpk.fish

# The subcommand a word names at a command path (aliases resolved), if any.
function __cpk_command --argument-names cmdpath word
    switch "$cmdpath/$word"
${commandCases.join('\n')}
    end
end

function __cpk_value_option --argument-names cmdpath word
    switch "$cmdpath/$word"
        case ${valuePatterns.join(' ') || "''"}
            return 0
    end
    return 1
end

# The command path the words typed so far lead to, e.g. "monitors create".
function __cpk_path
    set -l cmdpath ''
    set -l skip 0
    for word in (commandline -opc)[2..-1]
        if test $skip = 1
            set skip 0
            continue
        end
        switch $word
            case '-*=*'
            case '-*'
                __cpk_value_option "$cmdpath" $word; and set skip 1
            case '*'
                set -l name (__cpk_command "$cmdpath" $word)
                if test -n "$name"
                    if test -z "$cmdpath"
                        set cmdpath $name
                    else
                        set cmdpath "$cmdpath $name"
                    end
                end
        end
    end
    echo $cmdpath
end

function __cpk_at --argument-names want
    set -l here (__cpk_path)
    test "$here" = "$want"
end

# The candidates \`cpk __complete KIND\` prints (ids from the local inventory
# with their names, profile names, declared types): never the network. Each
# line is data, never evaluated: a value that is not a plain word (letters,
# digits and _ first, then those and . + @ / -) is left out; the name after
# the tab is shown as its description, control characters replaced.
function __cpk_dynamic --argument-names kind
    set -l cpk (commandline -opc)[1]
    for line in (command $cpk __complete $kind (commandline -ct) 2>/dev/null)
        set -l parts (string split -m 1 \\t -- $line)
        string match -qr -- ${fishQuote(`^[${FIRST_CHARACTERS}][${WORD_CHARACTERS}]*$`)} $parts[1]; or continue
        if set -q parts[2]
            printf '%s\\t%s\\n' $parts[1] (string replace -ra '[\\x00-\\x1f\\x7f]' ' ' -- $parts[2])
        else
            printf '%s\\n' $parts[1]
        end
    end
end

complete -c cpk -f
${lines.join('\n')}
`;
}
