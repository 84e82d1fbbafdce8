// The bash completion script: bash 3.2+ builtins only (macOS still ships 3.2), no bash-completion package.
// Candidates are held in arrays and compared as text; none goes through compgen -W, eval or an unquoted
// expansion, which would run the $(...) or backquotes in an id a server sent.
import { FIRST_CHARACTERS, WORD_CHARACTERS } from './candidate.js';
import {
  dynamicArguments,
  dynamicOptions,
  GENERATED_NOTE,
  optionChoices,
  valueOptionWords,
  type PathEntry,
} from './table.js';

export function shQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

function caseArms(arms: Array<[patterns: string[], body: string]>): string {
  return arms
    .filter(([patterns]) => patterns.length > 0)
    .map(([patterns, body]) => `    ${patterns.join('|')}) ${body} ;;`)
    .join('\n');
}

/** __cpk_command and __cpk_value_option: the same shell code in bash and zsh. */
export function pathFunctions(table: PathEntry[]): string {
  const commandArms = table.flatMap((p) =>
    p.subcommands.map((s): [string[], string] => [[shQuote(`${p.key}/${s.word}`)], `__cpk_reply=${shQuote(s.name)}`]),
  );
  const valueArms = table.map((p): [string[], string] => [
    valueOptionWords(p).map((o) => shQuote(`${p.key}/${o}`)),
    'return 0',
  ]);
  return `# __cpk_command PATH WORD: sets __cpk_reply to the subcommand WORD names at PATH ('' if none).
__cpk_command() {
  case "$1/$2" in
${caseArms(commandArms)}
    *) __cpk_reply= ;;
  esac
}

# __cpk_value_option PATH WORD: whether option WORD takes a value at PATH.
__cpk_value_option() {
  case "$1/$2" in
${caseArms(valueArms)}
  esac
  return 1
}`;
}

/** One step of the command-path walk, shared by bash and zsh. */
export const WALK_WORD = `    case $word in
      -*=*) ;;
      -*) __cpk_value_option "$cmdpath" "$word" && skip=1 ;;
      *)
        __cpk_command "$cmdpath" "$word"
        [[ -n $__cpk_reply ]] && cmdpath=\${cmdpath:+$cmdpath }$__cpk_reply
        ;;
    esac`;

/** __cpk_words, shared by bash and zsh: `item` writes a candidate with its description. */
export function wordsFunction(
  table: PathEntry[],
  item: (word: string, description: string) => string,
  sets: string,
): string {
  const arms: Array<[string[], string]> = [];
  const arm = (key: string, items: string[]) => {
    if (items.length > 0) arms.push([[shQuote(key)], `__cpk_list=(${items.join(' ')})`]);
  };
  for (const p of table) {
    arm(`${p.key}/`, [
      ...p.subcommands.map((s) => item(s.word, s.description)),
      ...p.argumentChoices.map((c) => item(c, '')),
    ]);
    arm(
      `${p.key}/-`,
      p.options.flatMap((o) => o.names.map((n) => item(n, o.description))),
    );
    for (const c of optionChoices(p))
      arm(
        `${p.key}/${c.option}=`,
        c.choices.map((v) => item(v, '')),
      );
  }
  return `# __cpk_words KEY: sets ${sets}. KEY is PATH/ for
# subcommands and argument values, PATH/- for options, PATH/OPTION= for values.
__cpk_words() {
  case "$1" in
${caseArms(arms)}
    *) __cpk_list=() ;;
  esac
}`;
}

/**
 * __cpk_more, shared by bash and zsh. An argument's arm also runs `atArgument` and returns 0:
 * ids and names are never files, so a script offers no file names there.
 */
export function moreFunction(table: readonly PathEntry[], atArgument: string, comment: string): string {
  const arms = [
    ...dynamicArguments(table).map(([path, kind]): [string[], string] => [
      [shQuote(`${path}/`)],
      `__cpk_dynamic ${kind}; ${atArgument}; return 0`,
    ]),
    ...dynamicOptions(table).map(([option, kind]): [string[], string] => [
      [`*/${option}=`],
      `__cpk_dynamic ${kind}; return 1`,
    ]),
  ];
  return `${comment}
__cpk_more() {
  case "$1" in
${caseArms(arms)}
  esac
  return 1
}`;
}

export function bashScript(table: PathEntry[]): string {
  const more = moreFunction(
    table,
    'compopt +o default 2>/dev/null',
    `# __cpk_more KEY: the dynamic words for KEY, when there are some. At an id
# argument, bash's fallback to file names is turned off (compopt, bash 4+).`,
  );
  return `# bash completion for cpk.
# ${GENERATED_NOTE}
#
# Install: add  source <(cpk completion bash)  to ~/.bashrc, or save this file as
# ~/.local/share/bash-completion/completions/cpk (loaded on demand by bash-completion).

${pathFunctions(table)}

${wordsFunction(table, (word) => shQuote(word), 'the array __cpk_list to the words to offer')}

# __cpk_dynamic KIND: adds the words \`cpk __complete KIND\` prints (ids from
# the local inventory, profile names, declared types): never the network.
# Ids and types are text a server wrote: each line is one word, kept as data,
# and a word that is not a plain one (letters, digits and _ first, then those
# and . + @ / -) is left out, as cpk __complete leaves it out. The description
# after the tab (a monitor's name) is kept beside the word, control characters
# replaced, to be shown by __cpk_describe and never inserted.
__cpk_dynamic() {
  local line value description
  while IFS= read -r line; do
    value=\${line%%$'\\t'*}
    description=
    [[ $line == *$'\\t'* ]] && description=\${line#*$'\\t'}
    case $value in
      '' | [!${FIRST_CHARACTERS}]* | *[!${WORD_CHARACTERS}]*) continue ;;
    esac
    description=\${description//[[:cntrl:]]/ }
    __cpk_list+=("$value\${description:+$'\\t'$description}")
  done < <("\${COMP_WORDS[0]}" __complete "$1" "$cur" 2>/dev/null)
}

# __cpk_describe LONGEST: as cobra's bash script shows candidates with descriptions
# (__<program>_format_comp_descriptions): each WORD<TAB>DESCRIPTION in COMPREPLY
# becomes "WORD  (DESCRIPTION)", the words padded to the LONGEST so the
# descriptions line up, a description cut with … to the terminal's width. Only
# for a list of several: a single candidate is inserted, and it is the word alone.
__cpk_describe() {
  local i comp description room
  for i in "\${!COMPREPLY[@]}"; do
    comp=\${COMPREPLY[i]}
    [[ $comp == *$'\\t'* ]] || continue
    description=\${comp#*$'\\t'}
    comp=\${comp%%$'\\t'*}
    # Two spaces and two parentheses around the description.
    room=$(( \${COLUMNS:-80} - $1 - 4 ))
    if ((room > 8)); then
      while ((\${#comp} < $1)); do comp+=' '; done
    else
      room=$(( \${COLUMNS:-80} - \${#comp} - 4 ))
    fi
    if ((room > 0)); then
      if ((\${#description} > room)); then description="\${description:0:room-1}…"; fi
      comp+="  ($description)"
    fi
    COMPREPLY[i]=$comp
  done
}

${more}

_cpk() {
  local cur=\${COMP_WORDS[COMP_CWORD]} prev=\${COMP_WORDS[COMP_CWORD-1]} cmdpath= word i skip=0 __cpk_reply
  local -a __cpk_list=()
  # Find the command path: the words that name subcommands, skipping options
  # and the values of the options that take one.
  for ((i = 1; i < COMP_CWORD; i++)); do
    word=\${COMP_WORDS[i]}
    if ((skip)); then
      # bash splits --opt=value at '=' (COMP_WORDBREAKS): the value comes after it.
      skip=0
      [[ $word == = ]] && skip=1
      continue
    fi
${WALK_WORD}
  done
  COMPREPLY=()
  if ((skip)); then
    # The value of an option: its choices, or (none) bash's default file completion.
    [[ $prev == = ]] && prev=\${COMP_WORDS[COMP_CWORD-2]}
    __cpk_words "$cmdpath/$prev="
    __cpk_more "$cmdpath/$prev="
  elif [[ $cur == = ]]; then
    return 0
  elif [[ $cur == -* ]]; then
    __cpk_words "$cmdpath/-"
  else
    __cpk_words "$cmdpath/"
    __cpk_more "$cmdpath/"
  fi
  # The words that start with what is typed, compared as text ("$cur" quoted is
  # no pattern). Never compgen -W: it expands each word, running $(...) in it.
  local comp longest=0
  for word in \${__cpk_list[@]+"\${__cpk_list[@]}"}; do
    comp=\${word%%$'\\t'*}
    [[ $comp == "$cur"* ]] || continue
    COMPREPLY+=("$word")
    if ((\${#comp} > longest)); then longest=\${#comp}; fi
  done
  # One candidate is inserted: the word without its description. Several are listed, with theirs.
  if ((\${#COMPREPLY[@]} == 1)); then
    COMPREPLY[0]=\${COMPREPLY[0]%%$'\\t'*}
  else
    __cpk_describe "$longest"
  fi
  return 0
}

complete -o default -F _cpk cpk
`;
}
