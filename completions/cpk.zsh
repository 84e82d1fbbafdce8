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
    '/api') __cpk_reply='api' ;;
    '/plan') __cpk_reply='plan' ;;
    '/apply') __cpk_reply='apply' ;;
    '/import') __cpk_reply='import' ;;
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
    '/--base-url'|'/--query'|'/--timeout'|'/--retries') return 0 ;;
    'monitors/--base-url'|'monitors/--query'|'monitors/--timeout'|'monitors/--retries') return 0 ;;
    'monitors create/--name'|'monitors create/--type'|'monitors create/--target'|'monitors create/--interval'|'monitors create/--set'|'monitors create/--set-string'|'monitors create/--data'|'monitors create/--from'|'monitors create/--concurrency'|'monitors create/--base-url'|'monitors create/--query'|'monitors create/--timeout'|'monitors create/--retries') return 0 ;;
    'monitors get/--concurrency'|'monitors get/--base-url'|'monitors get/--query'|'monitors get/--timeout'|'monitors get/--retries') return 0 ;;
    'monitors update/--name'|'monitors update/--type'|'monitors update/--target'|'monitors update/--interval'|'monitors update/--set'|'monitors update/--set-string'|'monitors update/--data'|'monitors update/--base-url'|'monitors update/--query'|'monitors update/--timeout'|'monitors update/--retries') return 0 ;;
    'monitors delete/--concurrency'|'monitors delete/--base-url'|'monitors delete/--query'|'monitors delete/--timeout'|'monitors delete/--retries') return 0 ;;
    'monitors help/--base-url'|'monitors help/--query'|'monitors help/--timeout'|'monitors help/--retries') return 0 ;;
    'channels/--base-url'|'channels/--query'|'channels/--timeout'|'channels/--retries') return 0 ;;
    'channels update/--set'|'channels update/--set-string'|'channels update/--data'|'channels update/--base-url'|'channels update/--query'|'channels update/--timeout'|'channels update/--retries') return 0 ;;
    'channels help/--base-url'|'channels help/--query'|'channels help/--timeout'|'channels help/--retries') return 0 ;;
    'reports/--base-url'|'reports/--query'|'reports/--timeout'|'reports/--retries') return 0 ;;
    'reports get/--every'|'reports get/--base-url'|'reports get/--query'|'reports get/--timeout'|'reports get/--retries') return 0 ;;
    'reports help/--base-url'|'reports help/--query'|'reports help/--timeout'|'reports help/--retries') return 0 ;;
    'openapi/--base-url'|'openapi/--query'|'openapi/--timeout'|'openapi/--retries') return 0 ;;
    'api/--set'|'api/--set-string'|'api/--data'|'api/--base-url'|'api/--query'|'api/--timeout'|'api/--retries') return 0 ;;
    'plan/--file'|'plan/-f'|'plan/--state'|'plan/--concurrency'|'plan/--base-url'|'plan/--query'|'plan/--timeout'|'plan/--retries') return 0 ;;
    'apply/--file'|'apply/-f'|'apply/--state'|'apply/--concurrency'|'apply/--base-url'|'apply/--query'|'apply/--timeout'|'apply/--retries') return 0 ;;
    'import/--file'|'import/-f'|'import/--state'|'import/--base-url'|'import/--query'|'import/--timeout'|'import/--retries') return 0 ;;
    'emulator/--host'|'emulator/--port'|'emulator/--token'|'emulator/--latency'|'emulator/--fail-rate'|'emulator/--admin-secret'|'emulator/--base-url'|'emulator/--query'|'emulator/--timeout'|'emulator/--retries') return 0 ;;
    'completion/--base-url'|'completion/--query'|'completion/--timeout'|'completion/--retries') return 0 ;;
  esac
  return 1
}

# __cpk_words KEY: sets __cpk_list to name:description entries. KEY is PATH/ for
# subcommands and argument values, PATH/- for options, PATH/OPTION= for values.
__cpk_words() {
  case "$1" in
    '/') __cpk_list=('monitors:Create, show, change and delete monitors' 'channels:Change channel settings' 'reports:Read reports' 'openapi:Print the service'\''s public OpenAPI document (sent without a token)' 'api:Send an authenticated request to any path below the base URL (for operations cpk does not wrap yet)' 'plan:Show what `cpk apply` would change to make the service match the manifest (exit 0: nothing, 10: changes)' 'apply:Make the service match the manifest: create and update monitors, set channels, and with --prune delete removed ones' 'import:Adopt existing monitors: record KEY=ID in the state file, so the manifest entry KEY manages monitor ID' 'emulator:Run a local emulator of the service (in memory), for trying cpk and testing scripts' 'completion:Print the shell completion script for bash, zsh, fish or powershell') ;;
    '/-') __cpk_list=('--version:print the version' '--base-url:service base URL (env CPK_BASE_URL; default http://127.0.0.1:4010/v1, the local emulator)' '--json:print results as JSON (errors as one JSON object on stderr)' '--query:JMESPath expression applied to the JSON result; implies --json; a string prints raw' '--timeout:time limit for each request attempt (default 30)' '--retries:retries of a failed request that is safe to repeat (default 2, i.e. 3 attempts; env CPK_MAX_ATTEMPTS counts attempts in all)' '--debug:trace requests and responses on stderr (the token is redacted)' '--no-color:no color (also NO_COLOR=1 or CI=true)' '--help:show help' '-h:show help') ;;
    'monitors/') __cpk_list=('create:Create a monitor, or many with --from' 'get:Show monitors (several ids, or - to read them from stdin)' 'update:Change fields of a monitor (only the fields given are sent)' 'delete:Delete monitors (asks first on a terminal; several ids, or - to read them from stdin)' 'help:display help for command') ;;
    'monitors/-') __cpk_list=('--help:show help' '-h:show help' '--version:print the version' '--base-url:service base URL (env CPK_BASE_URL; default http://127.0.0.1:4010/v1, the local emulator)' '--json:print results as JSON (errors as one JSON object on stderr)' '--query:JMESPath expression applied to the JSON result; implies --json; a string prints raw' '--timeout:time limit for each request attempt (default 30)' '--retries:retries of a failed request that is safe to repeat (default 2, i.e. 3 attempts; env CPK_MAX_ATTEMPTS counts attempts in all)' '--debug:trace requests and responses on stderr (the token is redacted)' '--no-color:no color (also NO_COLOR=1 or CI=true)') ;;
    'monitors create/-') __cpk_list=('--name:human label of the monitor (required unless given in --data)' '--type:kind of check, e.g. http' '--target:what is checked; for an HTTP check, a URL' '--interval:seconds between checks: 60, 90s, 5m, 1h' '--set:set any other field; the value is parsed as JSON when it is JSON (repeatable; dotted keys nest)' '--set-string:set any other field to a string, always (repeatable)' '--data:the request body: a JSON object, @file, or - for stdin (flags are merged over it)' '--from:create one monitor per object of FILE (a JSON array or NDJSON; - for stdin)' '--concurrency:creates in flight at once with --from (default 8)' '--quiet:print only the new monitor id (one per line with --from)' '-q:print only the new monitor id (one per line with --from)' '--dry-run:print the request(s) as curl commands and send nothing' '--help:show help' '-h:show help' '--version:print the version' '--base-url:service base URL (env CPK_BASE_URL; default http://127.0.0.1:4010/v1, the local emulator)' '--json:print results as JSON (errors as one JSON object on stderr)' '--query:JMESPath expression applied to the JSON result; implies --json; a string prints raw' '--timeout:time limit for each request attempt (default 30)' '--retries:retries of a failed request that is safe to repeat (default 2, i.e. 3 attempts; env CPK_MAX_ATTEMPTS counts attempts in all)' '--debug:trace requests and responses on stderr (the token is redacted)' '--no-color:no color (also NO_COLOR=1 or CI=true)') ;;
    'monitors get/-') __cpk_list=('--concurrency:requests in flight at once for several ids (default 8)' '--manifest:print them as manifest entries for cpk.yaml (YAML; JSON with --json)' '--help:show help' '-h:show help' '--version:print the version' '--base-url:service base URL (env CPK_BASE_URL; default http://127.0.0.1:4010/v1, the local emulator)' '--json:print results as JSON (errors as one JSON object on stderr)' '--query:JMESPath expression applied to the JSON result; implies --json; a string prints raw' '--timeout:time limit for each request attempt (default 30)' '--retries:retries of a failed request that is safe to repeat (default 2, i.e. 3 attempts; env CPK_MAX_ATTEMPTS counts attempts in all)' '--debug:trace requests and responses on stderr (the token is redacted)' '--no-color:no color (also NO_COLOR=1 or CI=true)') ;;
    'monitors update/-') __cpk_list=('--name:new name' '--type:new kind of check' '--target:new target' '--interval:new interval: 60, 90s, 5m, 1h' '--set:set a field; the value is parsed as JSON when it is JSON (repeatable; dotted keys nest)' '--set-string:set a field to a string, always (repeatable)' '--data:fields as a JSON object, @file, or - for stdin (flags are merged over it)' '--dry-run:print the request as a curl command and send nothing' '--help:show help' '-h:show help' '--version:print the version' '--base-url:service base URL (env CPK_BASE_URL; default http://127.0.0.1:4010/v1, the local emulator)' '--json:print results as JSON (errors as one JSON object on stderr)' '--query:JMESPath expression applied to the JSON result; implies --json; a string prints raw' '--timeout:time limit for each request attempt (default 30)' '--retries:retries of a failed request that is safe to repeat (default 2, i.e. 3 attempts; env CPK_MAX_ATTEMPTS counts attempts in all)' '--debug:trace requests and responses on stderr (the token is redacted)' '--no-color:no color (also NO_COLOR=1 or CI=true)') ;;
    'monitors delete/-') __cpk_list=('--yes:do not ask for confirmation (required when stdin is not a terminal)' '-y:do not ask for confirmation (required when stdin is not a terminal)' '--concurrency:requests in flight at once for several ids (default 8)' '--dry-run:print the requests as curl commands and send nothing' '--help:show help' '-h:show help' '--version:print the version' '--base-url:service base URL (env CPK_BASE_URL; default http://127.0.0.1:4010/v1, the local emulator)' '--json:print results as JSON (errors as one JSON object on stderr)' '--query:JMESPath expression applied to the JSON result; implies --json; a string prints raw' '--timeout:time limit for each request attempt (default 30)' '--retries:retries of a failed request that is safe to repeat (default 2, i.e. 3 attempts; env CPK_MAX_ATTEMPTS counts attempts in all)' '--debug:trace requests and responses on stderr (the token is redacted)' '--no-color:no color (also NO_COLOR=1 or CI=true)') ;;
    'monitors help/-') __cpk_list=('--version:print the version' '--base-url:service base URL (env CPK_BASE_URL; default http://127.0.0.1:4010/v1, the local emulator)' '--json:print results as JSON (errors as one JSON object on stderr)' '--query:JMESPath expression applied to the JSON result; implies --json; a string prints raw' '--timeout:time limit for each request attempt (default 30)' '--retries:retries of a failed request that is safe to repeat (default 2, i.e. 3 attempts; env CPK_MAX_ATTEMPTS counts attempts in all)' '--debug:trace requests and responses on stderr (the token is redacted)' '--no-color:no color (also NO_COLOR=1 or CI=true)') ;;
    'channels/') __cpk_list=('update:Change settings of a channel (the fields are the service'\''s own)' 'help:display help for command') ;;
    'channels/-') __cpk_list=('--help:show help' '-h:show help' '--version:print the version' '--base-url:service base URL (env CPK_BASE_URL; default http://127.0.0.1:4010/v1, the local emulator)' '--json:print results as JSON (errors as one JSON object on stderr)' '--query:JMESPath expression applied to the JSON result; implies --json; a string prints raw' '--timeout:time limit for each request attempt (default 30)' '--retries:retries of a failed request that is safe to repeat (default 2, i.e. 3 attempts; env CPK_MAX_ATTEMPTS counts attempts in all)' '--debug:trace requests and responses on stderr (the token is redacted)' '--no-color:no color (also NO_COLOR=1 or CI=true)') ;;
    'channels update/-') __cpk_list=('--set:set a field; the value is parsed as JSON when it is JSON (repeatable; dotted keys nest)' '--set-string:set a field to a string, always (repeatable)' '--data:fields as a JSON object, @file, or - for stdin (flags are merged over it)' '--dry-run:print the request as a curl command and send nothing' '--help:show help' '-h:show help' '--version:print the version' '--base-url:service base URL (env CPK_BASE_URL; default http://127.0.0.1:4010/v1, the local emulator)' '--json:print results as JSON (errors as one JSON object on stderr)' '--query:JMESPath expression applied to the JSON result; implies --json; a string prints raw' '--timeout:time limit for each request attempt (default 30)' '--retries:retries of a failed request that is safe to repeat (default 2, i.e. 3 attempts; env CPK_MAX_ATTEMPTS counts attempts in all)' '--debug:trace requests and responses on stderr (the token is redacted)' '--no-color:no color (also NO_COLOR=1 or CI=true)') ;;
    'channels help/-') __cpk_list=('--version:print the version' '--base-url:service base URL (env CPK_BASE_URL; default http://127.0.0.1:4010/v1, the local emulator)' '--json:print results as JSON (errors as one JSON object on stderr)' '--query:JMESPath expression applied to the JSON result; implies --json; a string prints raw' '--timeout:time limit for each request attempt (default 30)' '--retries:retries of a failed request that is safe to repeat (default 2, i.e. 3 attempts; env CPK_MAX_ATTEMPTS counts attempts in all)' '--debug:trace requests and responses on stderr (the token is redacted)' '--no-color:no color (also NO_COLOR=1 or CI=true)') ;;
    'reports/') __cpk_list=('get:Show a report' 'help:display help for command') ;;
    'reports/-') __cpk_list=('--help:show help' '-h:show help' '--version:print the version' '--base-url:service base URL (env CPK_BASE_URL; default http://127.0.0.1:4010/v1, the local emulator)' '--json:print results as JSON (errors as one JSON object on stderr)' '--query:JMESPath expression applied to the JSON result; implies --json; a string prints raw' '--timeout:time limit for each request attempt (default 30)' '--retries:retries of a failed request that is safe to repeat (default 2, i.e. 3 attempts; env CPK_MAX_ATTEMPTS counts attempts in all)' '--debug:trace requests and responses on stderr (the token is redacted)' '--no-color:no color (also NO_COLOR=1 or CI=true)') ;;
    'reports get/-') __cpk_list=('--watch:refresh until Ctrl-C: in place on a terminal, else one JSON line per change' '-w:refresh until Ctrl-C: in place on a terminal, else one JSON line per change' '--every:time between refreshes with --watch: 10s, 1m, 5m (default 30s)' '--help:show help' '-h:show help' '--version:print the version' '--base-url:service base URL (env CPK_BASE_URL; default http://127.0.0.1:4010/v1, the local emulator)' '--json:print results as JSON (errors as one JSON object on stderr)' '--query:JMESPath expression applied to the JSON result; implies --json; a string prints raw' '--timeout:time limit for each request attempt (default 30)' '--retries:retries of a failed request that is safe to repeat (default 2, i.e. 3 attempts; env CPK_MAX_ATTEMPTS counts attempts in all)' '--debug:trace requests and responses on stderr (the token is redacted)' '--no-color:no color (also NO_COLOR=1 or CI=true)') ;;
    'reports help/-') __cpk_list=('--version:print the version' '--base-url:service base URL (env CPK_BASE_URL; default http://127.0.0.1:4010/v1, the local emulator)' '--json:print results as JSON (errors as one JSON object on stderr)' '--query:JMESPath expression applied to the JSON result; implies --json; a string prints raw' '--timeout:time limit for each request attempt (default 30)' '--retries:retries of a failed request that is safe to repeat (default 2, i.e. 3 attempts; env CPK_MAX_ATTEMPTS counts attempts in all)' '--debug:trace requests and responses on stderr (the token is redacted)' '--no-color:no color (also NO_COLOR=1 or CI=true)') ;;
    'openapi/-') __cpk_list=('--help:show help' '-h:show help' '--version:print the version' '--base-url:service base URL (env CPK_BASE_URL; default http://127.0.0.1:4010/v1, the local emulator)' '--json:print results as JSON (errors as one JSON object on stderr)' '--query:JMESPath expression applied to the JSON result; implies --json; a string prints raw' '--timeout:time limit for each request attempt (default 30)' '--retries:retries of a failed request that is safe to repeat (default 2, i.e. 3 attempts; env CPK_MAX_ATTEMPTS counts attempts in all)' '--debug:trace requests and responses on stderr (the token is redacted)' '--no-color:no color (also NO_COLOR=1 or CI=true)') ;;
    'api/-') __cpk_list=('--set:set a body field; the value is parsed as JSON when it is JSON (repeatable; dotted keys nest)' '--set-string:set a body field to a string, always (repeatable)' '--data:the request body: any JSON value, @file, or - for stdin (--set fields are merged over an object)' '--include:print the status line and the response headers before the body' '-i:print the status line and the response headers before the body' '--dry-run:print the request as a curl command and send nothing' '--help:show help' '-h:show help' '--version:print the version' '--base-url:service base URL (env CPK_BASE_URL; default http://127.0.0.1:4010/v1, the local emulator)' '--json:print results as JSON (errors as one JSON object on stderr)' '--query:JMESPath expression applied to the JSON result; implies --json; a string prints raw' '--timeout:time limit for each request attempt (default 30)' '--retries:retries of a failed request that is safe to repeat (default 2, i.e. 3 attempts; env CPK_MAX_ATTEMPTS counts attempts in all)' '--debug:trace requests and responses on stderr (the token is redacted)' '--no-color:no color (also NO_COLOR=1 or CI=true)') ;;
    'plan/-') __cpk_list=('--file:the manifest, YAML or JSON (default cpk.yaml)' '-f:the manifest, YAML or JSON (default cpk.yaml)' '--state:the state file (default: beside the manifest, cpk.yaml -> cpk.state.json); one per service' '--prune:plan to delete monitors the state records but the manifest no longer names' '--create-uncertain:plan to create again monitors whose earlier create has an unknown outcome' '--concurrency:requests at a time, 1 to 64 (default 8)' '--help:show help' '-h:show help' '--version:print the version' '--base-url:service base URL (env CPK_BASE_URL; default http://127.0.0.1:4010/v1, the local emulator)' '--json:print results as JSON (errors as one JSON object on stderr)' '--query:JMESPath expression applied to the JSON result; implies --json; a string prints raw' '--timeout:time limit for each request attempt (default 30)' '--retries:retries of a failed request that is safe to repeat (default 2, i.e. 3 attempts; env CPK_MAX_ATTEMPTS counts attempts in all)' '--debug:trace requests and responses on stderr (the token is redacted)' '--no-color:no color (also NO_COLOR=1 or CI=true)') ;;
    'apply/-') __cpk_list=('--file:the manifest, YAML or JSON (default cpk.yaml)' '-f:the manifest, YAML or JSON (default cpk.yaml)' '--state:the state file (default: beside the manifest, cpk.yaml -> cpk.state.json); one per service' '--prune:delete monitors the state records but the manifest no longer names (never any other monitor)' '--create-uncertain:create again monitors whose earlier create has an unknown outcome (may make a duplicate)' '--yes:do not ask for confirmation (required when stdin is not a terminal)' '-y:do not ask for confirmation (required when stdin is not a terminal)' '--concurrency:requests at a time, 1 to 64 (default 8)' '--help:show help' '-h:show help' '--version:print the version' '--base-url:service base URL (env CPK_BASE_URL; default http://127.0.0.1:4010/v1, the local emulator)' '--json:print results as JSON (errors as one JSON object on stderr)' '--query:JMESPath expression applied to the JSON result; implies --json; a string prints raw' '--timeout:time limit for each request attempt (default 30)' '--retries:retries of a failed request that is safe to repeat (default 2, i.e. 3 attempts; env CPK_MAX_ATTEMPTS counts attempts in all)' '--debug:trace requests and responses on stderr (the token is redacted)' '--no-color:no color (also NO_COLOR=1 or CI=true)') ;;
    'import/-') __cpk_list=('--file:the manifest, YAML or JSON (default cpk.yaml)' '-f:the manifest, YAML or JSON (default cpk.yaml)' '--state:the state file (default: beside the manifest, cpk.yaml -> cpk.state.json); one per service' '--replace:let a key that already manages another monitor manage this one instead (the other is left alone, no longer managed)' '--help:show help' '-h:show help' '--version:print the version' '--base-url:service base URL (env CPK_BASE_URL; default http://127.0.0.1:4010/v1, the local emulator)' '--json:print results as JSON (errors as one JSON object on stderr)' '--query:JMESPath expression applied to the JSON result; implies --json; a string prints raw' '--timeout:time limit for each request attempt (default 30)' '--retries:retries of a failed request that is safe to repeat (default 2, i.e. 3 attempts; env CPK_MAX_ATTEMPTS counts attempts in all)' '--debug:trace requests and responses on stderr (the token is redacted)' '--no-color:no color (also NO_COLOR=1 or CI=true)') ;;
    'emulator/-') __cpk_list=('--host:address to listen on' '--port:port to listen on (0 picks a free one)' '--token:the development token to accept (must start with cpk_)' '--latency:delay every API response by this many milliseconds' '--fail-rate:answer this fraction (0..1) of API requests with a 503' '--admin-secret:secret for the fault-injection routes (default: random, printed)' '--quiet:do not log requests to stderr' '-q:do not log requests to stderr' '--help:show help' '-h:show help' '--version:print the version' '--base-url:service base URL (env CPK_BASE_URL; default http://127.0.0.1:4010/v1, the local emulator)' '--json:print results as JSON (errors as one JSON object on stderr)' '--query:JMESPath expression applied to the JSON result; implies --json; a string prints raw' '--timeout:time limit for each request attempt (default 30)' '--retries:retries of a failed request that is safe to repeat (default 2, i.e. 3 attempts; env CPK_MAX_ATTEMPTS counts attempts in all)' '--debug:trace requests and responses on stderr (the token is redacted)' '--no-color:no color (also NO_COLOR=1 or CI=true)') ;;
    'completion/') __cpk_list=('bash' 'zsh' 'fish' 'powershell') ;;
    'completion/-') __cpk_list=('--help:show help' '-h:show help' '--version:print the version' '--base-url:service base URL (env CPK_BASE_URL; default http://127.0.0.1:4010/v1, the local emulator)' '--json:print results as JSON (errors as one JSON object on stderr)' '--query:JMESPath expression applied to the JSON result; implies --json; a string prints raw' '--timeout:time limit for each request attempt (default 30)' '--retries:retries of a failed request that is safe to repeat (default 2, i.e. 3 attempts; env CPK_MAX_ATTEMPTS counts attempts in all)' '--debug:trace requests and responses on stderr (the token is redacted)' '--no-color:no color (also NO_COLOR=1 or CI=true)') ;;
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
