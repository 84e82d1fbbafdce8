// The zsh completion script: the same path walk as bash, offering
// descriptions through _describe.
import { moreFunction, pathFunctions, shQuote, WALK_WORD, wordsFunction } from './bash.js';
import { FIRST_CHARACTERS, WORD_CHARACTERS } from './candidate.js';
import { GENERATED_NOTE, type PathEntry } from './table.js';

/** For _describe: a colon in the name must be escaped. */
function entry(word: string, description: string): string {
  const name = word.replace(/\\/g, '\\\\').replace(/:/g, '\\:');
  return shQuote(description ? `${name}:${description}` : name);
}

export function zshScript(table: PathEntry[]): string {
  return `#compdef cpk
# zsh completion for cpk.
# ${GENERATED_NOTE}
#
# Install: save this file as _cpk in a directory on your $fpath, before compinit runs, e.g.
#   mkdir -p ~/.zfunc && cpk completion zsh > ~/.zfunc/_cpk
#   # in ~/.zshrc:  fpath=(~/.zfunc $fpath); autoload -Uz compinit; compinit
# or add  source <(cpk completion zsh)  to ~/.zshrc after compinit.

${pathFunctions(table)}

${wordsFunction(table, entry, '__cpk_list to name:description entries')}

# __cpk_dynamic KIND: adds to __cpk_list the entries \`cpk __complete KIND\`
# prints (ids from the local inventory with their names, profile names,
# declared types): never the network. Each line is data: the value must be a
# plain word (letters, digits and _ first, then those and . + @ / -) or the
# line is left out; the name after the tab is only shown by _describe, never
# evaluated, with control characters replaced.
__cpk_dynamic() {
  local line value description
  while IFS= read -r line; do
    value=\${line%%$'\\t'*}
    description=
    [[ $line == *$'\\t'* ]] && description=\${line#*$'\\t'}
    case $value in
      '' | [^${FIRST_CHARACTERS}]* | *[^${WORD_CHARACTERS}]*) continue ;;
    esac
    description=\${description//[[:cntrl:]]/ }
    __cpk_list+=("$value\${description:+:$description}")
  done < <("\${words[1]}" __complete "$1" "\${words[CURRENT]}" 2>/dev/null)
}

${moreFunction(table, ':', '# __cpk_more KEY: the dynamic entries for KEY; returns 0 at an id argument (no file names there).')}

_cpk() {
  local cmdpath= word __cpk_reply i skip=0
  local -a __cpk_list
  # Find the command path: the words that name subcommands, skipping options
  # and the values of the options that take one.
  for ((i = 2; i < CURRENT; i++)); do
    word=\${words[i]}
    if ((skip)); then
      skip=0
      continue
    fi
${WALK_WORD}
  done
  if ((skip)); then
    __cpk_words "$cmdpath/\${words[CURRENT-1]}="
    __cpk_more "$cmdpath/\${words[CURRENT-1]}="
    if (( \${#__cpk_list} )); then _describe -t values value __cpk_list; else _files; fi
  elif [[ \${words[CURRENT]} == -* ]]; then
    __cpk_words "$cmdpath/-"
    _describe -t options option __cpk_list
  else
    __cpk_words "$cmdpath/"
    local ids=1
    __cpk_more "$cmdpath/" && ids=0
    if (( \${#__cpk_list} )); then
      _describe -t commands command __cpk_list
    elif (( ids )); then
      _files
    fi
  fi
}

if [[ "\${funcstack[1]}" == _cpk ]]; then
  _cpk "$@"
else
  compdef _cpk cpk
fi
`;
}
