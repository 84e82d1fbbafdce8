# fish completion for cpk.
# Generated from the command tree by `cpk completion`; `npm run gen` rewrites completions/. Do not edit.
#
# Install: cpk completion fish > ~/.config/fish/completions/cpk.fish

# The subcommand a word names at a command path (aliases resolved), if any.
function __cpk_command --argument-names cmdpath word
    switch "$cmdpath/$word"
        case '/monitors'
            echo 'monitors'
        case '/channels'
            echo 'channels'
        case '/reports'
            echo 'reports'
        case '/openapi'
            echo 'openapi'
        case '/emulator'
            echo 'emulator'
        case '/completion'
            echo 'completion'
        case 'monitors/create'
            echo 'create'
        case 'monitors/get'
            echo 'get'
        case 'monitors/update'
            echo 'update'
        case 'monitors/delete'
            echo 'delete'
        case 'monitors/help'
            echo 'help'
        case 'channels/update'
            echo 'update'
        case 'channels/help'
            echo 'help'
        case 'reports/get'
            echo 'get'
        case 'reports/help'
            echo 'help'
    end
end

function __cpk_value_option --argument-names cmdpath word
    switch "$cmdpath/$word"
        case '/--base-url' '/--timeout' 'monitors/--base-url' 'monitors/--timeout' 'monitors create/--name' 'monitors create/--type' 'monitors create/--target' 'monitors create/--interval' 'monitors create/--set' 'monitors create/--set-string' 'monitors create/--data' 'monitors create/--base-url' 'monitors create/--timeout' 'monitors get/--base-url' 'monitors get/--timeout' 'monitors update/--name' 'monitors update/--type' 'monitors update/--target' 'monitors update/--interval' 'monitors update/--set' 'monitors update/--set-string' 'monitors update/--data' 'monitors update/--base-url' 'monitors update/--timeout' 'monitors delete/--base-url' 'monitors delete/--timeout' 'monitors help/--base-url' 'monitors help/--timeout' 'channels/--base-url' 'channels/--timeout' 'channels update/--set' 'channels update/--set-string' 'channels update/--data' 'channels update/--base-url' 'channels update/--timeout' 'channels help/--base-url' 'channels help/--timeout' 'reports/--base-url' 'reports/--timeout' 'reports get/--every' 'reports get/--base-url' 'reports get/--timeout' 'reports help/--base-url' 'reports help/--timeout' 'openapi/--base-url' 'openapi/--timeout' 'emulator/--host' 'emulator/--port' 'emulator/--token' 'emulator/--latency' 'emulator/--fail-rate' 'emulator/--admin-secret' 'emulator/--base-url' 'emulator/--timeout' 'completion/--base-url' 'completion/--timeout'
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

complete -c cpk -f
complete -c cpk -n '__cpk_at \'\'' -f -a 'monitors' -d 'Create, show, change and delete monitors'
complete -c cpk -n '__cpk_at \'\'' -f -a 'channels' -d 'Change channel settings'
complete -c cpk -n '__cpk_at \'\'' -f -a 'reports' -d 'Read reports'
complete -c cpk -n '__cpk_at \'\'' -f -a 'openapi' -d 'Print the service\'s public OpenAPI document (sent without a token)'
complete -c cpk -n '__cpk_at \'\'' -f -a 'emulator' -d 'Run a local emulator of the service (in memory), for trying cpk and testing scripts'
complete -c cpk -n '__cpk_at \'\'' -f -a 'completion' -d 'Print the shell completion script for bash, zsh, fish or powershell'
complete -c cpk -n '__cpk_at \'\'' -l 'version' -d 'print the version'
complete -c cpk -n '__cpk_at \'\'' -l 'base-url' -r -F -d 'service base URL (env CPK_BASE_URL; default http://127.0.0.1:4010/v1, the local emulator)'
complete -c cpk -n '__cpk_at \'\'' -l 'json' -d 'print results as JSON (errors as one JSON object on stderr)'
complete -c cpk -n '__cpk_at \'\'' -l 'timeout' -r -F -d 'time limit for each request attempt (default 30)'
complete -c cpk -n '__cpk_at \'\'' -l 'debug' -d 'trace requests and responses on stderr (the token is redacted)'
complete -c cpk -n '__cpk_at \'\'' -l 'no-color' -d 'no color (also NO_COLOR=1 or CI=true)'
complete -c cpk -n '__cpk_at \'\'' -l 'help' -s 'h' -d 'show help'
complete -c cpk -n '__cpk_at \'monitors\'' -f -a 'create' -d 'Create a monitor'
complete -c cpk -n '__cpk_at \'monitors\'' -f -a 'get' -d 'Show a monitor'
complete -c cpk -n '__cpk_at \'monitors\'' -f -a 'update' -d 'Change fields of a monitor (only the fields given are sent)'
complete -c cpk -n '__cpk_at \'monitors\'' -f -a 'delete' -d 'Delete a monitor (asks first on a terminal)'
complete -c cpk -n '__cpk_at \'monitors\'' -f -a 'help' -d 'display help for command'
complete -c cpk -n '__cpk_at \'monitors\'' -l 'help' -s 'h' -d 'show help'
complete -c cpk -n '__cpk_at \'monitors\'' -l 'version' -d 'print the version'
complete -c cpk -n '__cpk_at \'monitors\'' -l 'base-url' -r -F -d 'service base URL (env CPK_BASE_URL; default http://127.0.0.1:4010/v1, the local emulator)'
complete -c cpk -n '__cpk_at \'monitors\'' -l 'json' -d 'print results as JSON (errors as one JSON object on stderr)'
complete -c cpk -n '__cpk_at \'monitors\'' -l 'timeout' -r -F -d 'time limit for each request attempt (default 30)'
complete -c cpk -n '__cpk_at \'monitors\'' -l 'debug' -d 'trace requests and responses on stderr (the token is redacted)'
complete -c cpk -n '__cpk_at \'monitors\'' -l 'no-color' -d 'no color (also NO_COLOR=1 or CI=true)'
complete -c cpk -n '__cpk_at \'monitors create\'' -l 'name' -r -F -d 'human label of the monitor (required unless given in --data)'
complete -c cpk -n '__cpk_at \'monitors create\'' -l 'type' -r -F -d 'kind of check, e.g. http'
complete -c cpk -n '__cpk_at \'monitors create\'' -l 'target' -r -F -d 'what is checked; for an HTTP check, a URL'
complete -c cpk -n '__cpk_at \'monitors create\'' -l 'interval' -r -F -d 'seconds between checks: 60, 90s, 5m, 1h'
complete -c cpk -n '__cpk_at \'monitors create\'' -l 'set' -r -F -d 'set any other field; the value is parsed as JSON when it is JSON (repeatable; dotted keys nest)'
complete -c cpk -n '__cpk_at \'monitors create\'' -l 'set-string' -r -F -d 'set any other field to a string, always (repeatable)'
complete -c cpk -n '__cpk_at \'monitors create\'' -l 'data' -r -F -d 'the request body: a JSON object, @file, or - for stdin (flags are merged over it)'
complete -c cpk -n '__cpk_at \'monitors create\'' -l 'quiet' -s 'q' -d 'print only the new monitor id'
complete -c cpk -n '__cpk_at \'monitors create\'' -l 'help' -s 'h' -d 'show help'
complete -c cpk -n '__cpk_at \'monitors create\'' -l 'version' -d 'print the version'
complete -c cpk -n '__cpk_at \'monitors create\'' -l 'base-url' -r -F -d 'service base URL (env CPK_BASE_URL; default http://127.0.0.1:4010/v1, the local emulator)'
complete -c cpk -n '__cpk_at \'monitors create\'' -l 'json' -d 'print results as JSON (errors as one JSON object on stderr)'
complete -c cpk -n '__cpk_at \'monitors create\'' -l 'timeout' -r -F -d 'time limit for each request attempt (default 30)'
complete -c cpk -n '__cpk_at \'monitors create\'' -l 'debug' -d 'trace requests and responses on stderr (the token is redacted)'
complete -c cpk -n '__cpk_at \'monitors create\'' -l 'no-color' -d 'no color (also NO_COLOR=1 or CI=true)'
complete -c cpk -n '__cpk_at \'monitors get\'' -l 'help' -s 'h' -d 'show help'
complete -c cpk -n '__cpk_at \'monitors get\'' -l 'version' -d 'print the version'
complete -c cpk -n '__cpk_at \'monitors get\'' -l 'base-url' -r -F -d 'service base URL (env CPK_BASE_URL; default http://127.0.0.1:4010/v1, the local emulator)'
complete -c cpk -n '__cpk_at \'monitors get\'' -l 'json' -d 'print results as JSON (errors as one JSON object on stderr)'
complete -c cpk -n '__cpk_at \'monitors get\'' -l 'timeout' -r -F -d 'time limit for each request attempt (default 30)'
complete -c cpk -n '__cpk_at \'monitors get\'' -l 'debug' -d 'trace requests and responses on stderr (the token is redacted)'
complete -c cpk -n '__cpk_at \'monitors get\'' -l 'no-color' -d 'no color (also NO_COLOR=1 or CI=true)'
complete -c cpk -n '__cpk_at \'monitors update\'' -l 'name' -r -F -d 'new name'
complete -c cpk -n '__cpk_at \'monitors update\'' -l 'type' -r -F -d 'new kind of check'
complete -c cpk -n '__cpk_at \'monitors update\'' -l 'target' -r -F -d 'new target'
complete -c cpk -n '__cpk_at \'monitors update\'' -l 'interval' -r -F -d 'new interval: 60, 90s, 5m, 1h'
complete -c cpk -n '__cpk_at \'monitors update\'' -l 'set' -r -F -d 'set a field; the value is parsed as JSON when it is JSON (repeatable; dotted keys nest)'
complete -c cpk -n '__cpk_at \'monitors update\'' -l 'set-string' -r -F -d 'set a field to a string, always (repeatable)'
complete -c cpk -n '__cpk_at \'monitors update\'' -l 'data' -r -F -d 'fields as a JSON object, @file, or - for stdin (flags are merged over it)'
complete -c cpk -n '__cpk_at \'monitors update\'' -l 'help' -s 'h' -d 'show help'
complete -c cpk -n '__cpk_at \'monitors update\'' -l 'version' -d 'print the version'
complete -c cpk -n '__cpk_at \'monitors update\'' -l 'base-url' -r -F -d 'service base URL (env CPK_BASE_URL; default http://127.0.0.1:4010/v1, the local emulator)'
complete -c cpk -n '__cpk_at \'monitors update\'' -l 'json' -d 'print results as JSON (errors as one JSON object on stderr)'
complete -c cpk -n '__cpk_at \'monitors update\'' -l 'timeout' -r -F -d 'time limit for each request attempt (default 30)'
complete -c cpk -n '__cpk_at \'monitors update\'' -l 'debug' -d 'trace requests and responses on stderr (the token is redacted)'
complete -c cpk -n '__cpk_at \'monitors update\'' -l 'no-color' -d 'no color (also NO_COLOR=1 or CI=true)'
complete -c cpk -n '__cpk_at \'monitors delete\'' -l 'yes' -s 'y' -d 'do not ask for confirmation (required when stdin is not a terminal)'
complete -c cpk -n '__cpk_at \'monitors delete\'' -l 'help' -s 'h' -d 'show help'
complete -c cpk -n '__cpk_at \'monitors delete\'' -l 'version' -d 'print the version'
complete -c cpk -n '__cpk_at \'monitors delete\'' -l 'base-url' -r -F -d 'service base URL (env CPK_BASE_URL; default http://127.0.0.1:4010/v1, the local emulator)'
complete -c cpk -n '__cpk_at \'monitors delete\'' -l 'json' -d 'print results as JSON (errors as one JSON object on stderr)'
complete -c cpk -n '__cpk_at \'monitors delete\'' -l 'timeout' -r -F -d 'time limit for each request attempt (default 30)'
complete -c cpk -n '__cpk_at \'monitors delete\'' -l 'debug' -d 'trace requests and responses on stderr (the token is redacted)'
complete -c cpk -n '__cpk_at \'monitors delete\'' -l 'no-color' -d 'no color (also NO_COLOR=1 or CI=true)'
complete -c cpk -n '__cpk_at \'monitors help\'' -l 'version' -d 'print the version'
complete -c cpk -n '__cpk_at \'monitors help\'' -l 'base-url' -r -F -d 'service base URL (env CPK_BASE_URL; default http://127.0.0.1:4010/v1, the local emulator)'
complete -c cpk -n '__cpk_at \'monitors help\'' -l 'json' -d 'print results as JSON (errors as one JSON object on stderr)'
complete -c cpk -n '__cpk_at \'monitors help\'' -l 'timeout' -r -F -d 'time limit for each request attempt (default 30)'
complete -c cpk -n '__cpk_at \'monitors help\'' -l 'debug' -d 'trace requests and responses on stderr (the token is redacted)'
complete -c cpk -n '__cpk_at \'monitors help\'' -l 'no-color' -d 'no color (also NO_COLOR=1 or CI=true)'
complete -c cpk -n '__cpk_at \'channels\'' -f -a 'update' -d 'Change settings of a channel (the fields are the service\'s own)'
complete -c cpk -n '__cpk_at \'channels\'' -f -a 'help' -d 'display help for command'
complete -c cpk -n '__cpk_at \'channels\'' -l 'help' -s 'h' -d 'show help'
complete -c cpk -n '__cpk_at \'channels\'' -l 'version' -d 'print the version'
complete -c cpk -n '__cpk_at \'channels\'' -l 'base-url' -r -F -d 'service base URL (env CPK_BASE_URL; default http://127.0.0.1:4010/v1, the local emulator)'
complete -c cpk -n '__cpk_at \'channels\'' -l 'json' -d 'print results as JSON (errors as one JSON object on stderr)'
complete -c cpk -n '__cpk_at \'channels\'' -l 'timeout' -r -F -d 'time limit for each request attempt (default 30)'
complete -c cpk -n '__cpk_at \'channels\'' -l 'debug' -d 'trace requests and responses on stderr (the token is redacted)'
complete -c cpk -n '__cpk_at \'channels\'' -l 'no-color' -d 'no color (also NO_COLOR=1 or CI=true)'
complete -c cpk -n '__cpk_at \'channels update\'' -l 'set' -r -F -d 'set a field; the value is parsed as JSON when it is JSON (repeatable; dotted keys nest)'
complete -c cpk -n '__cpk_at \'channels update\'' -l 'set-string' -r -F -d 'set a field to a string, always (repeatable)'
complete -c cpk -n '__cpk_at \'channels update\'' -l 'data' -r -F -d 'fields as a JSON object, @file, or - for stdin (flags are merged over it)'
complete -c cpk -n '__cpk_at \'channels update\'' -l 'help' -s 'h' -d 'show help'
complete -c cpk -n '__cpk_at \'channels update\'' -l 'version' -d 'print the version'
complete -c cpk -n '__cpk_at \'channels update\'' -l 'base-url' -r -F -d 'service base URL (env CPK_BASE_URL; default http://127.0.0.1:4010/v1, the local emulator)'
complete -c cpk -n '__cpk_at \'channels update\'' -l 'json' -d 'print results as JSON (errors as one JSON object on stderr)'
complete -c cpk -n '__cpk_at \'channels update\'' -l 'timeout' -r -F -d 'time limit for each request attempt (default 30)'
complete -c cpk -n '__cpk_at \'channels update\'' -l 'debug' -d 'trace requests and responses on stderr (the token is redacted)'
complete -c cpk -n '__cpk_at \'channels update\'' -l 'no-color' -d 'no color (also NO_COLOR=1 or CI=true)'
complete -c cpk -n '__cpk_at \'channels help\'' -l 'version' -d 'print the version'
complete -c cpk -n '__cpk_at \'channels help\'' -l 'base-url' -r -F -d 'service base URL (env CPK_BASE_URL; default http://127.0.0.1:4010/v1, the local emulator)'
complete -c cpk -n '__cpk_at \'channels help\'' -l 'json' -d 'print results as JSON (errors as one JSON object on stderr)'
complete -c cpk -n '__cpk_at \'channels help\'' -l 'timeout' -r -F -d 'time limit for each request attempt (default 30)'
complete -c cpk -n '__cpk_at \'channels help\'' -l 'debug' -d 'trace requests and responses on stderr (the token is redacted)'
complete -c cpk -n '__cpk_at \'channels help\'' -l 'no-color' -d 'no color (also NO_COLOR=1 or CI=true)'
complete -c cpk -n '__cpk_at \'reports\'' -f -a 'get' -d 'Show a report'
complete -c cpk -n '__cpk_at \'reports\'' -f -a 'help' -d 'display help for command'
complete -c cpk -n '__cpk_at \'reports\'' -l 'help' -s 'h' -d 'show help'
complete -c cpk -n '__cpk_at \'reports\'' -l 'version' -d 'print the version'
complete -c cpk -n '__cpk_at \'reports\'' -l 'base-url' -r -F -d 'service base URL (env CPK_BASE_URL; default http://127.0.0.1:4010/v1, the local emulator)'
complete -c cpk -n '__cpk_at \'reports\'' -l 'json' -d 'print results as JSON (errors as one JSON object on stderr)'
complete -c cpk -n '__cpk_at \'reports\'' -l 'timeout' -r -F -d 'time limit for each request attempt (default 30)'
complete -c cpk -n '__cpk_at \'reports\'' -l 'debug' -d 'trace requests and responses on stderr (the token is redacted)'
complete -c cpk -n '__cpk_at \'reports\'' -l 'no-color' -d 'no color (also NO_COLOR=1 or CI=true)'
complete -c cpk -n '__cpk_at \'reports get\'' -l 'watch' -s 'w' -d 'refresh until Ctrl-C: in place on a terminal, else one JSON line per change'
complete -c cpk -n '__cpk_at \'reports get\'' -l 'every' -r -F -d 'time between refreshes with --watch: 10s, 1m, 5m (default 30s)'
complete -c cpk -n '__cpk_at \'reports get\'' -l 'help' -s 'h' -d 'show help'
complete -c cpk -n '__cpk_at \'reports get\'' -l 'version' -d 'print the version'
complete -c cpk -n '__cpk_at \'reports get\'' -l 'base-url' -r -F -d 'service base URL (env CPK_BASE_URL; default http://127.0.0.1:4010/v1, the local emulator)'
complete -c cpk -n '__cpk_at \'reports get\'' -l 'json' -d 'print results as JSON (errors as one JSON object on stderr)'
complete -c cpk -n '__cpk_at \'reports get\'' -l 'timeout' -r -F -d 'time limit for each request attempt (default 30)'
complete -c cpk -n '__cpk_at \'reports get\'' -l 'debug' -d 'trace requests and responses on stderr (the token is redacted)'
complete -c cpk -n '__cpk_at \'reports get\'' -l 'no-color' -d 'no color (also NO_COLOR=1 or CI=true)'
complete -c cpk -n '__cpk_at \'reports help\'' -l 'version' -d 'print the version'
complete -c cpk -n '__cpk_at \'reports help\'' -l 'base-url' -r -F -d 'service base URL (env CPK_BASE_URL; default http://127.0.0.1:4010/v1, the local emulator)'
complete -c cpk -n '__cpk_at \'reports help\'' -l 'json' -d 'print results as JSON (errors as one JSON object on stderr)'
complete -c cpk -n '__cpk_at \'reports help\'' -l 'timeout' -r -F -d 'time limit for each request attempt (default 30)'
complete -c cpk -n '__cpk_at \'reports help\'' -l 'debug' -d 'trace requests and responses on stderr (the token is redacted)'
complete -c cpk -n '__cpk_at \'reports help\'' -l 'no-color' -d 'no color (also NO_COLOR=1 or CI=true)'
complete -c cpk -n '__cpk_at \'openapi\'' -l 'help' -s 'h' -d 'show help'
complete -c cpk -n '__cpk_at \'openapi\'' -l 'version' -d 'print the version'
complete -c cpk -n '__cpk_at \'openapi\'' -l 'base-url' -r -F -d 'service base URL (env CPK_BASE_URL; default http://127.0.0.1:4010/v1, the local emulator)'
complete -c cpk -n '__cpk_at \'openapi\'' -l 'json' -d 'print results as JSON (errors as one JSON object on stderr)'
complete -c cpk -n '__cpk_at \'openapi\'' -l 'timeout' -r -F -d 'time limit for each request attempt (default 30)'
complete -c cpk -n '__cpk_at \'openapi\'' -l 'debug' -d 'trace requests and responses on stderr (the token is redacted)'
complete -c cpk -n '__cpk_at \'openapi\'' -l 'no-color' -d 'no color (also NO_COLOR=1 or CI=true)'
complete -c cpk -n '__cpk_at \'emulator\'' -l 'host' -r -F -d 'address to listen on'
complete -c cpk -n '__cpk_at \'emulator\'' -l 'port' -r -F -d 'port to listen on (0 picks a free one)'
complete -c cpk -n '__cpk_at \'emulator\'' -l 'token' -r -F -d 'the development token to accept (must start with cpk_)'
complete -c cpk -n '__cpk_at \'emulator\'' -l 'latency' -r -F -d 'delay every API response by this many milliseconds'
complete -c cpk -n '__cpk_at \'emulator\'' -l 'fail-rate' -r -F -d 'answer this fraction (0..1) of API requests with a 503'
complete -c cpk -n '__cpk_at \'emulator\'' -l 'admin-secret' -r -F -d 'secret for the fault-injection routes (default: random, printed)'
complete -c cpk -n '__cpk_at \'emulator\'' -l 'quiet' -s 'q' -d 'do not log requests to stderr'
complete -c cpk -n '__cpk_at \'emulator\'' -l 'help' -s 'h' -d 'show help'
complete -c cpk -n '__cpk_at \'emulator\'' -l 'version' -d 'print the version'
complete -c cpk -n '__cpk_at \'emulator\'' -l 'base-url' -r -F -d 'service base URL (env CPK_BASE_URL; default http://127.0.0.1:4010/v1, the local emulator)'
complete -c cpk -n '__cpk_at \'emulator\'' -l 'json' -d 'print results as JSON (errors as one JSON object on stderr)'
complete -c cpk -n '__cpk_at \'emulator\'' -l 'timeout' -r -F -d 'time limit for each request attempt (default 30)'
complete -c cpk -n '__cpk_at \'emulator\'' -l 'debug' -d 'trace requests and responses on stderr (the token is redacted)'
complete -c cpk -n '__cpk_at \'emulator\'' -l 'no-color' -d 'no color (also NO_COLOR=1 or CI=true)'
complete -c cpk -n '__cpk_at \'completion\'' -f -a 'bash zsh fish powershell'
complete -c cpk -n '__cpk_at \'completion\'' -l 'help' -s 'h' -d 'show help'
complete -c cpk -n '__cpk_at \'completion\'' -l 'version' -d 'print the version'
complete -c cpk -n '__cpk_at \'completion\'' -l 'base-url' -r -F -d 'service base URL (env CPK_BASE_URL; default http://127.0.0.1:4010/v1, the local emulator)'
complete -c cpk -n '__cpk_at \'completion\'' -l 'json' -d 'print results as JSON (errors as one JSON object on stderr)'
complete -c cpk -n '__cpk_at \'completion\'' -l 'timeout' -r -F -d 'time limit for each request attempt (default 30)'
complete -c cpk -n '__cpk_at \'completion\'' -l 'debug' -d 'trace requests and responses on stderr (the token is redacted)'
complete -c cpk -n '__cpk_at \'completion\'' -l 'no-color' -d 'no color (also NO_COLOR=1 or CI=true)'
