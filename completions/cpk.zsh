#compdef cpk
# zsh completion for cpk.
# Generated from the command tree by `cpk completion`; `npm run gen` rewrites completions/. Do not edit.
#
# Install: save this file as _cpk in a directory on your $fpath, before compinit runs, e.g.
#   mkdir -p ~/.zfunc && cpk completion zsh > ~/.zfunc/_cpk
#   # in ~/.zshrc:  fpath=(~/.zfunc $fpath); autoload -Uz compinit; compinit
# or add  source <(cpk completion zsh)  to ~/.zshrc after compinit.

# __cpk_command PATH WORD: sets __cpk_reply to the subcommand WORD names at PATH ('' if none).
__cpk_command() {
  case "$1/$2" in
    '/monitors') __cpk_reply='monitors' ;;
    '/channels') __cpk_reply='channels' ;;
    '/reports') __cpk_reply='reports' ;;
    '/openapi') __cpk_reply='openapi' ;;
    '/emulator') __cpk_reply='emulator' ;;
    '/completion') __cpk_reply='completion' ;;
    'monitors/create') __cpk_reply='create' ;;
    'monitors/get') __cpk_reply='get' ;;
    'monitors/update') __cpk_reply='update' ;;
    'monitors/delete') __cpk_reply='delete' ;;
    'monitors/help') __cpk_reply='help' ;;
    'channels/update') __cpk_reply='update' ;;
    'channels/help') __cpk_reply='help' ;;
    'reports/get') __cpk_reply='get' ;;
    'reports/help') __cpk_reply='help' ;;
    *) __cpk_reply= ;;
  esac
}

# __cpk_value_option PATH WORD: whether option WORD takes a value at PATH.
__cpk_value_option() {
  case "$1/$2" in
    '/--base-url'|'/--timeout') return 0 ;;
    'monitors/--base-url'|'monitors/--timeout') return 0 ;;
    'monitors create/--name'|'monitors create/--type'|'monitors create/--target'|'monitors create/--interval'|'monitors create/--set'|'monitors create/--set-string'|'monitors create/--data'|'monitors create/--base-url'|'monitors create/--timeout') return 0 ;;
    'monitors get/--base-url'|'monitors get/--timeout') return 0 ;;
    'monitors update/--name'|'monitors update/--type'|'monitors update/--target'|'monitors update/--interval'|'monitors update/--set'|'monitors update/--set-string'|'monitors update/--data'|'monitors update/--base-url'|'monitors update/--timeout') return 0 ;;
    'monitors delete/--base-url'|'monitors delete/--timeout') return 0 ;;
    'monitors help/--base-url'|'monitors help/--timeout') return 0 ;;
    'channels/--base-url'|'channels/--timeout') return 0 ;;
    'channels update/--set'|'channels update/--set-string'|'channels update/--data'|'channels update/--base-url'|'channels update/--timeout') return 0 ;;
    'channels help/--base-url'|'channels help/--timeout') return 0 ;;
    'reports/--base-url'|'reports/--timeout') return 0 ;;
    'reports get/--every'|'reports get/--base-url'|'reports get/--timeout') return 0 ;;
    'reports help/--base-url'|'reports help/--timeout') return 0 ;;
    'openapi/--base-url'|'openapi/--timeout') return 0 ;;
    'emulator/--host'|'emulator/--port'|'emulator/--token'|'emulator/--latency'|'emulator/--fail-rate'|'emulator/--admin-secret'|'emulator/--base-url'|'emulator/--timeout') return 0 ;;
    'completion/--base-url'|'completion/--timeout') return 0 ;;
  esac
  return 1
}

# __cpk_words KEY: sets __cpk_list to name:description entries. KEY is PATH/ for
# subcommands and argument values, PATH/- for options, PATH/OPTION= for values.
__cpk_words() {
  case "$1" in
    '/') __cpk_list=('monitors:Create, show, change and delete monitors' 'channels:Change channel settings' 'reports:Read reports' 'openapi:Print the service'\''s public OpenAPI document (sent without a token)' 'emulator:Run a local emulator of the service (in memory), for trying cpk and testing scripts' 'completion:Print the shell completion script for bash, zsh, fish or powershell') ;;
    '/-') __cpk_list=('--version:print the version' '--base-url:service base URL (env CPK_BASE_URL; default http://127.0.0.1:4010/v1, the local emulator)' '--json:print results as JSON (errors as one JSON object on stderr)' '--timeout:time limit for each request attempt (default 30)' '--debug:trace requests and responses on stderr (the token is redacted)' '--no-color:no color (also NO_COLOR=1 or CI=true)' '--help:show help' '-h:show help') ;;
    'monitors/') __cpk_list=('create:Create a monitor' 'get:Show a monitor' 'update:Change fields of a monitor (only the fields given are sent)' 'delete:Delete a monitor (asks first on a terminal)' 'help:display help for command') ;;
    'monitors/-') __cpk_list=('--help:show help' '-h:show help' '--version:print the version' '--base-url:service base URL (env CPK_BASE_URL; default http://127.0.0.1:4010/v1, the local emulator)' '--json:print results as JSON (errors as one JSON object on stderr)' '--timeout:time limit for each request attempt (default 30)' '--debug:trace requests and responses on stderr (the token is redacted)' '--no-color:no color (also NO_COLOR=1 or CI=true)') ;;
    'monitors create/-') __cpk_list=('--name:human label of the monitor (required unless given in --data)' '--type:kind of check, e.g. http' '--target:what is checked; for an HTTP check, a URL' '--interval:seconds between checks: 60, 90s, 5m, 1h' '--set:set any other field; the value is parsed as JSON when it is JSON (repeatable; dotted keys nest)' '--set-string:set any other field to a string, always (repeatable)' '--data:the request body: a JSON object, @file, or - for stdin (flags are merged over it)' '--quiet:print only the new monitor id' '-q:print only the new monitor id' '--help:show help' '-h:show help' '--version:print the version' '--base-url:service base URL (env CPK_BASE_URL; default http://127.0.0.1:4010/v1, the local emulator)' '--json:print results as JSON (errors as one JSON object on stderr)' '--timeout:time limit for each request attempt (default 30)' '--debug:trace requests and responses on stderr (the token is redacted)' '--no-color:no color (also NO_COLOR=1 or CI=true)') ;;
    'monitors get/-') __cpk_list=('--help:show help' '-h:show help' '--version:print the version' '--base-url:service base URL (env CPK_BASE_URL; default http://127.0.0.1:4010/v1, the local emulator)' '--json:print results as JSON (errors as one JSON object on stderr)' '--timeout:time limit for each request attempt (default 30)' '--debug:trace requests and responses on stderr (the token is redacted)' '--no-color:no color (also NO_COLOR=1 or CI=true)') ;;
    'monitors update/-') __cpk_list=('--name:new name' '--type:new kind of check' '--target:new target' '--interval:new interval: 60, 90s, 5m, 1h' '--set:set a field; the value is parsed as JSON when it is JSON (repeatable; dotted keys nest)' '--set-string:set a field to a string, always (repeatable)' '--data:fields as a JSON object, @file, or - for stdin (flags are merged over it)' '--help:show help' '-h:show help' '--version:print the version' '--base-url:service base URL (env CPK_BASE_URL; default http://127.0.0.1:4010/v1, the local emulator)' '--json:print results as JSON (errors as one JSON object on stderr)' '--timeout:time limit for each request attempt (default 30)' '--debug:trace requests and responses on stderr (the token is redacted)' '--no-color:no color (also NO_COLOR=1 or CI=true)') ;;
    'monitors delete/-') __cpk_list=('--yes:do not ask for confirmation (required when stdin is not a terminal)' '-y:do not ask for confirmation (required when stdin is not a terminal)' '--help:show help' '-h:show help' '--version:print the version' '--base-url:service base URL (env CPK_BASE_URL; default http://127.0.0.1:4010/v1, the local emulator)' '--json:print results as JSON (errors as one JSON object on stderr)' '--timeout:time limit for each request attempt (default 30)' '--debug:trace requests and responses on stderr (the token is redacted)' '--no-color:no color (also NO_COLOR=1 or CI=true)') ;;
    'monitors help/-') __cpk_list=('--version:print the version' '--base-url:service base URL (env CPK_BASE_URL; default http://127.0.0.1:4010/v1, the local emulator)' '--json:print results as JSON (errors as one JSON object on stderr)' '--timeout:time limit for each request attempt (default 30)' '--debug:trace requests and responses on stderr (the token is redacted)' '--no-color:no color (also NO_COLOR=1 or CI=true)') ;;
    'channels/') __cpk_list=('update:Change settings of a channel (the fields are the service'\''s own)' 'help:display help for command') ;;
    'channels/-') __cpk_list=('--help:show help' '-h:show help' '--version:print the version' '--base-url:service base URL (env CPK_BASE_URL; default http://127.0.0.1:4010/v1, the local emulator)' '--json:print results as JSON (errors as one JSON object on stderr)' '--timeout:time limit for each request attempt (default 30)' '--debug:trace requests and responses on stderr (the token is redacted)' '--no-color:no color (also NO_COLOR=1 or CI=true)') ;;
    'channels update/-') __cpk_list=('--set:set a field; the value is parsed as JSON when it is JSON (repeatable; dotted keys nest)' '--set-string:set a field to a string, always (repeatable)' '--data:fields as a JSON object, @file, or - for stdin (flags are merged over it)' '--help:show help' '-h:show help' '--version:print the version' '--base-url:service base URL (env CPK_BASE_URL; default http://127.0.0.1:4010/v1, the local emulator)' '--json:print results as JSON (errors as one JSON object on stderr)' '--timeout:time limit for each request attempt (default 30)' '--debug:trace requests and responses on stderr (the token is redacted)' '--no-color:no color (also NO_COLOR=1 or CI=true)') ;;
    'channels help/-') __cpk_list=('--version:print the version' '--base-url:service base URL (env CPK_BASE_URL; default http://127.0.0.1:4010/v1, the local emulator)' '--json:print results as JSON (errors as one JSON object on stderr)' '--timeout:time limit for each request attempt (default 30)' '--debug:trace requests and responses on stderr (the token is redacted)' '--no-color:no color (also NO_COLOR=1 or CI=true)') ;;
    'reports/') __cpk_list=('get:Show a report' 'help:display help for command') ;;
    'reports/-') __cpk_list=('--help:show help' '-h:show help' '--version:print the version' '--base-url:service base URL (env CPK_BASE_URL; default http://127.0.0.1:4010/v1, the local emulator)' '--json:print results as JSON (errors as one JSON object on stderr)' '--timeout:time limit for each request attempt (default 30)' '--debug:trace requests and responses on stderr (the token is redacted)' '--no-color:no color (also NO_COLOR=1 or CI=true)') ;;
    'reports get/-') __cpk_list=('--watch:refresh until Ctrl-C: in place on a terminal, else one JSON line per change' '-w:refresh until Ctrl-C: in place on a terminal, else one JSON line per change' '--every:time between refreshes with --watch: 10s, 1m, 5m (default 30s)' '--help:show help' '-h:show help' '--version:print the version' '--base-url:service base URL (env CPK_BASE_URL; default http://127.0.0.1:4010/v1, the local emulator)' '--json:print results as JSON (errors as one JSON object on stderr)' '--timeout:time limit for each request attempt (default 30)' '--debug:trace requests and responses on stderr (the token is redacted)' '--no-color:no color (also NO_COLOR=1 or CI=true)') ;;
    'reports help/-') __cpk_list=('--version:print the version' '--base-url:service base URL (env CPK_BASE_URL; default http://127.0.0.1:4010/v1, the local emulator)' '--json:print results as JSON (errors as one JSON object on stderr)' '--timeout:time limit for each request attempt (default 30)' '--debug:trace requests and responses on stderr (the token is redacted)' '--no-color:no color (also NO_COLOR=1 or CI=true)') ;;
    'openapi/-') __cpk_list=('--help:show help' '-h:show help' '--version:print the version' '--base-url:service base URL (env CPK_BASE_URL; default http://127.0.0.1:4010/v1, the local emulator)' '--json:print results as JSON (errors as one JSON object on stderr)' '--timeout:time limit for each request attempt (default 30)' '--debug:trace requests and responses on stderr (the token is redacted)' '--no-color:no color (also NO_COLOR=1 or CI=true)') ;;
    'emulator/-') __cpk_list=('--host:address to listen on' '--port:port to listen on (0 picks a free one)' '--token:the development token to accept (must start with cpk_)' '--latency:delay every API response by this many milliseconds' '--fail-rate:answer this fraction (0..1) of API requests with a 503' '--admin-secret:secret for the fault-injection routes (default: random, printed)' '--quiet:do not log requests to stderr' '-q:do not log requests to stderr' '--help:show help' '-h:show help' '--version:print the version' '--base-url:service base URL (env CPK_BASE_URL; default http://127.0.0.1:4010/v1, the local emulator)' '--json:print results as JSON (errors as one JSON object on stderr)' '--timeout:time limit for each request attempt (default 30)' '--debug:trace requests and responses on stderr (the token is redacted)' '--no-color:no color (also NO_COLOR=1 or CI=true)') ;;
    'completion/') __cpk_list=('bash' 'zsh' 'fish' 'powershell') ;;
    'completion/-') __cpk_list=('--help:show help' '-h:show help' '--version:print the version' '--base-url:service base URL (env CPK_BASE_URL; default http://127.0.0.1:4010/v1, the local emulator)' '--json:print results as JSON (errors as one JSON object on stderr)' '--timeout:time limit for each request attempt (default 30)' '--debug:trace requests and responses on stderr (the token is redacted)' '--no-color:no color (also NO_COLOR=1 or CI=true)') ;;
    *) __cpk_list=() ;;
  esac
}

_cpk() {
  local cmdpath= word __cpk_reply i skip=0
  local -a __cpk_list
  # Find the command path: the words that name subcommands, skipping options
  # and the values of the options that take one.
  for ((i = 2; i < CURRENT; i++)); do
    word=${words[i]}
    if ((skip)); then
      skip=0
      continue
    fi
    case $word in
      -*=*) ;;
      -*) __cpk_value_option "$cmdpath" "$word" && skip=1 ;;
      *)
        __cpk_command "$cmdpath" "$word"
        [[ -n $__cpk_reply ]] && cmdpath=${cmdpath:+$cmdpath }$__cpk_reply
        ;;
    esac
  done
  if ((skip)); then
    __cpk_words "$cmdpath/${words[CURRENT-1]}="
    if (( ${#__cpk_list} )); then _describe -t values value __cpk_list; else _files; fi
  elif [[ ${words[CURRENT]} == -* ]]; then
    __cpk_words "$cmdpath/-"
    _describe -t options option __cpk_list
  else
    __cpk_words "$cmdpath/"
    if (( ${#__cpk_list} )); then _describe -t commands command __cpk_list; else _files; fi
  fi
}

if [[ "${funcstack[1]}" == _cpk ]]; then
  _cpk "$@"
else
  compdef _cpk cpk
fi
