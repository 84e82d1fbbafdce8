# bash completion for cpk.
# Generated from the command tree by `cpk completion`; `npm run gen` rewrites completions/. Do not edit.
#
# Install: add  source <(cpk completion bash)  to ~/.bashrc, or save this file as
# ~/.local/share/bash-completion/completions/cpk (loaded on demand by bash-completion).

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
    '/validate') __cpk_reply='validate' ;;
    '/auth') __cpk_reply='auth' ;;
    '/profile') __cpk_reply='profile' ;;
    '/emulator') __cpk_reply='emulator' ;;
    '/doctor') __cpk_reply='doctor' ;;
    '/completion') __cpk_reply='completion' ;;
    '/mcp') __cpk_reply='mcp' ;;
    '/help') __cpk_reply='help' ;;
    'monitors/list') __cpk_reply='list' ;;
    'monitors/ls') __cpk_reply='list' ;;
    'monitors/create') __cpk_reply='create' ;;
    'monitors/get') __cpk_reply='get' ;;
    'monitors/view') __cpk_reply='get' ;;
    'monitors/describe') __cpk_reply='get' ;;
    'monitors/update') __cpk_reply='update' ;;
    'monitors/delete') __cpk_reply='delete' ;;
    'monitors/rm') __cpk_reply='delete' ;;
    'monitors/wait') __cpk_reply='wait' ;;
    'monitors/watch') __cpk_reply='watch' ;;
    'monitors/help') __cpk_reply='help' ;;
    'channels/list') __cpk_reply='list' ;;
    'channels/ls') __cpk_reply='list' ;;
    'channels/update') __cpk_reply='update' ;;
    'channels/help') __cpk_reply='help' ;;
    'reports/list') __cpk_reply='list' ;;
    'reports/ls') __cpk_reply='list' ;;
    'reports/get') __cpk_reply='get' ;;
    'reports/help') __cpk_reply='help' ;;
    'auth/login') __cpk_reply='login' ;;
    'auth/status') __cpk_reply='status' ;;
    'auth/logout') __cpk_reply='logout' ;;
    'auth/token') __cpk_reply='token' ;;
    'auth/help') __cpk_reply='help' ;;
    'profile/list') __cpk_reply='list' ;;
    'profile/use') __cpk_reply='use' ;;
    'profile/remove') __cpk_reply='remove' ;;
    'profile/help') __cpk_reply='help' ;;
    'emulator/requests') __cpk_reply='requests' ;;
    *) __cpk_reply= ;;
  esac
}

# __cpk_value_option PATH WORD: whether option WORD takes a value at PATH.
__cpk_value_option() {
  case "$1/$2" in
    '/--base-url'|'/--profile'|'/--output'|'/-o'|'/--columns'|'/--query'|'/--timeout'|'/--max-time'|'/--retries') return 0 ;;
    'monitors/--base-url'|'monitors/--profile'|'monitors/--output'|'monitors/-o'|'monitors/--columns'|'monitors/--query'|'monitors/--timeout'|'monitors/--max-time'|'monitors/--retries') return 0 ;;
    'monitors list/--limit'|'monitors list/--param'|'monitors list/--concurrency'|'monitors list/--base-url'|'monitors list/--profile'|'monitors list/--output'|'monitors list/-o'|'monitors list/--columns'|'monitors list/--query'|'monitors list/--timeout'|'monitors list/--max-time'|'monitors list/--retries') return 0 ;;
    'monitors create/--name'|'monitors create/--type'|'monitors create/--target'|'monitors create/--interval'|'monitors create/--set'|'monitors create/--set-string'|'monitors create/--data'|'monitors create/--from'|'monitors create/--only'|'monitors create/--concurrency'|'monitors create/--base-url'|'monitors create/--profile'|'monitors create/--output'|'monitors create/-o'|'monitors create/--columns'|'monitors create/--query'|'monitors create/--timeout'|'monitors create/--max-time'|'monitors create/--retries') return 0 ;;
    'monitors get/--concurrency'|'monitors get/--assert'|'monitors get/--junit'|'monitors get/--base-url'|'monitors get/--profile'|'monitors get/--output'|'monitors get/-o'|'monitors get/--columns'|'monitors get/--query'|'monitors get/--timeout'|'monitors get/--max-time'|'monitors get/--retries') return 0 ;;
    'monitors update/--name'|'monitors update/--type'|'monitors update/--target'|'monitors update/--interval'|'monitors update/--set'|'monitors update/--set-string'|'monitors update/--data'|'monitors update/--base-url'|'monitors update/--profile'|'monitors update/--output'|'monitors update/-o'|'monitors update/--columns'|'monitors update/--query'|'monitors update/--timeout'|'monitors update/--max-time'|'monitors update/--retries') return 0 ;;
    'monitors delete/--concurrency'|'monitors delete/--base-url'|'monitors delete/--profile'|'monitors delete/--output'|'monitors delete/-o'|'monitors delete/--columns'|'monitors delete/--query'|'monitors delete/--timeout'|'monitors delete/--max-time'|'monitors delete/--retries') return 0 ;;
    'monitors wait/--for'|'monitors wait/--every'|'monitors wait/--junit'|'monitors wait/--base-url'|'monitors wait/--profile'|'monitors wait/--output'|'monitors wait/-o'|'monitors wait/--columns'|'monitors wait/--query'|'monitors wait/--timeout'|'monitors wait/--max-time'|'monitors wait/--retries') return 0 ;;
    'monitors watch/--every'|'monitors watch/--concurrency'|'monitors watch/--base-url'|'monitors watch/--profile'|'monitors watch/--output'|'monitors watch/-o'|'monitors watch/--columns'|'monitors watch/--query'|'monitors watch/--timeout'|'monitors watch/--max-time'|'monitors watch/--retries') return 0 ;;
    'monitors help/--base-url'|'monitors help/--profile'|'monitors help/--output'|'monitors help/-o'|'monitors help/--columns'|'monitors help/--query'|'monitors help/--timeout'|'monitors help/--max-time'|'monitors help/--retries') return 0 ;;
    'channels/--base-url'|'channels/--profile'|'channels/--output'|'channels/-o'|'channels/--columns'|'channels/--query'|'channels/--timeout'|'channels/--max-time'|'channels/--retries') return 0 ;;
    'channels list/--limit'|'channels list/--param'|'channels list/--base-url'|'channels list/--profile'|'channels list/--output'|'channels list/-o'|'channels list/--columns'|'channels list/--query'|'channels list/--timeout'|'channels list/--max-time'|'channels list/--retries') return 0 ;;
    'channels update/--set'|'channels update/--set-string'|'channels update/--data'|'channels update/--base-url'|'channels update/--profile'|'channels update/--output'|'channels update/-o'|'channels update/--columns'|'channels update/--query'|'channels update/--timeout'|'channels update/--max-time'|'channels update/--retries') return 0 ;;
    'channels help/--base-url'|'channels help/--profile'|'channels help/--output'|'channels help/-o'|'channels help/--columns'|'channels help/--query'|'channels help/--timeout'|'channels help/--max-time'|'channels help/--retries') return 0 ;;
    'reports/--base-url'|'reports/--profile'|'reports/--output'|'reports/-o'|'reports/--columns'|'reports/--query'|'reports/--timeout'|'reports/--max-time'|'reports/--retries') return 0 ;;
    'reports list/--limit'|'reports list/--param'|'reports list/--base-url'|'reports list/--profile'|'reports list/--output'|'reports list/-o'|'reports list/--columns'|'reports list/--query'|'reports list/--timeout'|'reports list/--max-time'|'reports list/--retries') return 0 ;;
    'reports get/--every'|'reports get/--assert'|'reports get/--junit'|'reports get/--base-url'|'reports get/--profile'|'reports get/--output'|'reports get/-o'|'reports get/--columns'|'reports get/--query'|'reports get/--timeout'|'reports get/--max-time'|'reports get/--retries') return 0 ;;
    'reports help/--base-url'|'reports help/--profile'|'reports help/--output'|'reports help/-o'|'reports help/--columns'|'reports help/--query'|'reports help/--timeout'|'reports help/--max-time'|'reports help/--retries') return 0 ;;
    'openapi/--base-url'|'openapi/--profile'|'openapi/--output'|'openapi/-o'|'openapi/--columns'|'openapi/--query'|'openapi/--timeout'|'openapi/--max-time'|'openapi/--retries') return 0 ;;
    'api/--set'|'api/--set-string'|'api/--data'|'api/--base-url'|'api/--profile'|'api/--output'|'api/-o'|'api/--columns'|'api/--query'|'api/--timeout'|'api/--max-time'|'api/--retries') return 0 ;;
    'plan/--file'|'plan/-f'|'plan/--state'|'plan/--out'|'plan/--junit'|'plan/--concurrency'|'plan/--base-url'|'plan/--profile'|'plan/--output'|'plan/-o'|'plan/--columns'|'plan/--query'|'plan/--timeout'|'plan/--max-time'|'plan/--retries') return 0 ;;
    'apply/--file'|'apply/-f'|'apply/--state'|'apply/--junit'|'apply/--lock-timeout'|'apply/--concurrency'|'apply/--base-url'|'apply/--profile'|'apply/--output'|'apply/-o'|'apply/--columns'|'apply/--query'|'apply/--timeout'|'apply/--max-time'|'apply/--retries') return 0 ;;
    'import/--file'|'import/-f'|'import/--state'|'import/--lock-timeout'|'import/--base-url'|'import/--profile'|'import/--output'|'import/-o'|'import/--columns'|'import/--query'|'import/--timeout'|'import/--max-time'|'import/--retries') return 0 ;;
    'validate/--file'|'validate/-f'|'validate/--junit'|'validate/--base-url'|'validate/--profile'|'validate/--output'|'validate/-o'|'validate/--columns'|'validate/--query'|'validate/--timeout'|'validate/--max-time'|'validate/--retries') return 0 ;;
    'auth/--base-url'|'auth/--profile'|'auth/--output'|'auth/-o'|'auth/--columns'|'auth/--query'|'auth/--timeout'|'auth/--max-time'|'auth/--retries') return 0 ;;
    'auth login/--base-url'|'auth login/--profile'|'auth login/--output'|'auth login/-o'|'auth login/--columns'|'auth login/--query'|'auth login/--timeout'|'auth login/--max-time'|'auth login/--retries') return 0 ;;
    'auth status/--base-url'|'auth status/--profile'|'auth status/--output'|'auth status/-o'|'auth status/--columns'|'auth status/--query'|'auth status/--timeout'|'auth status/--max-time'|'auth status/--retries') return 0 ;;
    'auth logout/--base-url'|'auth logout/--profile'|'auth logout/--output'|'auth logout/-o'|'auth logout/--columns'|'auth logout/--query'|'auth logout/--timeout'|'auth logout/--max-time'|'auth logout/--retries') return 0 ;;
    'auth token/--base-url'|'auth token/--profile'|'auth token/--output'|'auth token/-o'|'auth token/--columns'|'auth token/--query'|'auth token/--timeout'|'auth token/--max-time'|'auth token/--retries') return 0 ;;
    'auth help/--base-url'|'auth help/--profile'|'auth help/--output'|'auth help/-o'|'auth help/--columns'|'auth help/--query'|'auth help/--timeout'|'auth help/--max-time'|'auth help/--retries') return 0 ;;
    'profile/--base-url'|'profile/--profile'|'profile/--output'|'profile/-o'|'profile/--columns'|'profile/--query'|'profile/--timeout'|'profile/--max-time'|'profile/--retries') return 0 ;;
    'profile list/--base-url'|'profile list/--profile'|'profile list/--output'|'profile list/-o'|'profile list/--columns'|'profile list/--query'|'profile list/--timeout'|'profile list/--max-time'|'profile list/--retries') return 0 ;;
    'profile use/--base-url'|'profile use/--profile'|'profile use/--output'|'profile use/-o'|'profile use/--columns'|'profile use/--query'|'profile use/--timeout'|'profile use/--max-time'|'profile use/--retries') return 0 ;;
    'profile remove/--base-url'|'profile remove/--profile'|'profile remove/--output'|'profile remove/-o'|'profile remove/--columns'|'profile remove/--query'|'profile remove/--timeout'|'profile remove/--max-time'|'profile remove/--retries') return 0 ;;
    'profile help/--base-url'|'profile help/--profile'|'profile help/--output'|'profile help/-o'|'profile help/--columns'|'profile help/--query'|'profile help/--timeout'|'profile help/--max-time'|'profile help/--retries') return 0 ;;
    'emulator/--host'|'emulator/--port'|'emulator/--token'|'emulator/--latency'|'emulator/--fail-rate'|'emulator/--admin-secret'|'emulator/--import'|'emulator/--export-on-exit'|'emulator/--persist'|'emulator/--seed'|'emulator/--time-scale'|'emulator/--base-url'|'emulator/--profile'|'emulator/--output'|'emulator/-o'|'emulator/--columns'|'emulator/--query'|'emulator/--timeout'|'emulator/--max-time'|'emulator/--retries') return 0 ;;
    'emulator requests/--admin-secret'|'emulator requests/--expect'|'emulator requests/--count'|'emulator requests/--host'|'emulator requests/--port'|'emulator requests/--token'|'emulator requests/--latency'|'emulator requests/--fail-rate'|'emulator requests/--import'|'emulator requests/--export-on-exit'|'emulator requests/--persist'|'emulator requests/--seed'|'emulator requests/--time-scale'|'emulator requests/--base-url'|'emulator requests/--profile'|'emulator requests/--output'|'emulator requests/-o'|'emulator requests/--columns'|'emulator requests/--query'|'emulator requests/--timeout'|'emulator requests/--max-time'|'emulator requests/--retries') return 0 ;;
    'doctor/--base-url'|'doctor/--profile'|'doctor/--output'|'doctor/-o'|'doctor/--columns'|'doctor/--query'|'doctor/--timeout'|'doctor/--max-time'|'doctor/--retries') return 0 ;;
    'completion/--base-url'|'completion/--profile'|'completion/--output'|'completion/-o'|'completion/--columns'|'completion/--query'|'completion/--timeout'|'completion/--max-time'|'completion/--retries') return 0 ;;
    'mcp/--base-url'|'mcp/--profile'|'mcp/--output'|'mcp/-o'|'mcp/--columns'|'mcp/--query'|'mcp/--timeout'|'mcp/--max-time'|'mcp/--retries') return 0 ;;
    'help/--base-url'|'help/--profile'|'help/--output'|'help/-o'|'help/--columns'|'help/--query'|'help/--timeout'|'help/--max-time'|'help/--retries') return 0 ;;
  esac
  return 1
}

# __cpk_words KEY: sets the array __cpk_list to the words to offer. KEY is PATH/ for
# subcommands and argument values, PATH/- for options, PATH/OPTION= for values.
__cpk_words() {
  case "$1" in
    '/') __cpk_list=('monitors' 'channels' 'reports' 'openapi' 'api' 'plan' 'apply' 'import' 'validate' 'auth' 'profile' 'emulator' 'doctor' 'completion' 'mcp' 'help') ;;
    '/-') __cpk_list=('--version' '--base-url' '--profile' '--output' '-o' '--json' '--agent' '--columns' '--query' '--timeout' '--max-time' '--retries' '--debug' '--no-color' '--help' '-h') ;;
    '/--output=') __cpk_list=('table' 'wide' 'json' 'jsonl' 'yaml' 'markdown' 'name') ;;
    '/-o=') __cpk_list=('table' 'wide' 'json' 'jsonl' 'yaml' 'markdown' 'name') ;;
    'monitors/') __cpk_list=('list' 'ls' 'create' 'get' 'view' 'describe' 'update' 'delete' 'rm' 'wait' 'watch' 'help') ;;
    'monitors/-') __cpk_list=('--help' '-h' '--version' '--base-url' '--profile' '--output' '-o' '--json' '--agent' '--columns' '--query' '--timeout' '--max-time' '--retries' '--debug' '--no-color') ;;
    'monitors/--output=') __cpk_list=('table' 'wide' 'json' 'jsonl' 'yaml' 'markdown' 'name') ;;
    'monitors/-o=') __cpk_list=('table' 'wide' 'json' 'jsonl' 'yaml' 'markdown' 'name') ;;
    'monitors list/-') __cpk_list=('--quiet' '-q' '--limit' '--param' '--refresh-spec' '--refresh' '--concurrency' '--help' '-h' '--version' '--base-url' '--profile' '--output' '-o' '--json' '--agent' '--columns' '--query' '--timeout' '--max-time' '--retries' '--debug' '--no-color') ;;
    'monitors list/--output=') __cpk_list=('table' 'wide' 'json' 'jsonl' 'yaml' 'markdown' 'name') ;;
    'monitors list/-o=') __cpk_list=('table' 'wide' 'json' 'jsonl' 'yaml' 'markdown' 'name') ;;
    'monitors create/-') __cpk_list=('--name' '--type' '--target' '--interval' '--set' '--set-string' '--data' '--from' '--only' '--concurrency' '--quiet' '-q' '--dry-run' '--help' '-h' '--version' '--base-url' '--profile' '--output' '-o' '--json' '--agent' '--columns' '--query' '--timeout' '--max-time' '--retries' '--debug' '--no-color') ;;
    'monitors create/--output=') __cpk_list=('table' 'wide' 'json' 'jsonl' 'yaml' 'markdown' 'name') ;;
    'monitors create/-o=') __cpk_list=('table' 'wide' 'json' 'jsonl' 'yaml' 'markdown' 'name') ;;
    'monitors get/-') __cpk_list=('--concurrency' '--manifest' '--assert' '--junit' '--help' '-h' '--version' '--base-url' '--profile' '--output' '-o' '--json' '--agent' '--columns' '--query' '--timeout' '--max-time' '--retries' '--debug' '--no-color') ;;
    'monitors get/--output=') __cpk_list=('table' 'wide' 'json' 'jsonl' 'yaml' 'markdown' 'name') ;;
    'monitors get/-o=') __cpk_list=('table' 'wide' 'json' 'jsonl' 'yaml' 'markdown' 'name') ;;
    'monitors update/-') __cpk_list=('--name' '--type' '--target' '--interval' '--set' '--set-string' '--data' '--dry-run' '--quiet' '-q' '--help' '-h' '--version' '--base-url' '--profile' '--output' '-o' '--json' '--agent' '--columns' '--query' '--timeout' '--max-time' '--retries' '--debug' '--no-color') ;;
    'monitors update/--output=') __cpk_list=('table' 'wide' 'json' 'jsonl' 'yaml' 'markdown' 'name') ;;
    'monitors update/-o=') __cpk_list=('table' 'wide' 'json' 'jsonl' 'yaml' 'markdown' 'name') ;;
    'monitors delete/-') __cpk_list=('--yes' '-y' '--concurrency' '--dry-run' '--help' '-h' '--version' '--base-url' '--profile' '--output' '-o' '--json' '--agent' '--columns' '--query' '--timeout' '--max-time' '--retries' '--debug' '--no-color') ;;
    'monitors delete/--output=') __cpk_list=('table' 'wide' 'json' 'jsonl' 'yaml' 'markdown' 'name') ;;
    'monitors delete/-o=') __cpk_list=('table' 'wide' 'json' 'jsonl' 'yaml' 'markdown' 'name') ;;
    'monitors wait/-') __cpk_list=('--for' '--every' '--junit' '--help' '-h' '--version' '--base-url' '--profile' '--output' '-o' '--json' '--agent' '--columns' '--query' '--timeout' '--max-time' '--retries' '--debug' '--no-color') ;;
    'monitors wait/--output=') __cpk_list=('table' 'wide' 'json' 'jsonl' 'yaml' 'markdown' 'name') ;;
    'monitors wait/-o=') __cpk_list=('table' 'wide' 'json' 'jsonl' 'yaml' 'markdown' 'name') ;;
    'monitors watch/-') __cpk_list=('--all' '--every' '--concurrency' '--help' '-h' '--version' '--base-url' '--profile' '--output' '-o' '--json' '--agent' '--columns' '--query' '--timeout' '--max-time' '--retries' '--debug' '--no-color') ;;
    'monitors watch/--output=') __cpk_list=('table' 'wide' 'json' 'jsonl' 'yaml' 'markdown' 'name') ;;
    'monitors watch/-o=') __cpk_list=('table' 'wide' 'json' 'jsonl' 'yaml' 'markdown' 'name') ;;
    'monitors help/-') __cpk_list=('--version' '--base-url' '--profile' '--output' '-o' '--json' '--agent' '--columns' '--query' '--timeout' '--max-time' '--retries' '--debug' '--no-color') ;;
    'monitors help/--output=') __cpk_list=('table' 'wide' 'json' 'jsonl' 'yaml' 'markdown' 'name') ;;
    'monitors help/-o=') __cpk_list=('table' 'wide' 'json' 'jsonl' 'yaml' 'markdown' 'name') ;;
    'channels/') __cpk_list=('list' 'ls' 'update' 'help') ;;
    'channels/-') __cpk_list=('--help' '-h' '--version' '--base-url' '--profile' '--output' '-o' '--json' '--agent' '--columns' '--query' '--timeout' '--max-time' '--retries' '--debug' '--no-color') ;;
    'channels/--output=') __cpk_list=('table' 'wide' 'json' 'jsonl' 'yaml' 'markdown' 'name') ;;
    'channels/-o=') __cpk_list=('table' 'wide' 'json' 'jsonl' 'yaml' 'markdown' 'name') ;;
    'channels list/-') __cpk_list=('--quiet' '-q' '--limit' '--param' '--refresh-spec' '--help' '-h' '--version' '--base-url' '--profile' '--output' '-o' '--json' '--agent' '--columns' '--query' '--timeout' '--max-time' '--retries' '--debug' '--no-color') ;;
    'channels list/--output=') __cpk_list=('table' 'wide' 'json' 'jsonl' 'yaml' 'markdown' 'name') ;;
    'channels list/-o=') __cpk_list=('table' 'wide' 'json' 'jsonl' 'yaml' 'markdown' 'name') ;;
    'channels update/-') __cpk_list=('--set' '--set-string' '--data' '--dry-run' '--help' '-h' '--version' '--base-url' '--profile' '--output' '-o' '--json' '--agent' '--columns' '--query' '--timeout' '--max-time' '--retries' '--debug' '--no-color') ;;
    'channels update/--output=') __cpk_list=('table' 'wide' 'json' 'jsonl' 'yaml' 'markdown' 'name') ;;
    'channels update/-o=') __cpk_list=('table' 'wide' 'json' 'jsonl' 'yaml' 'markdown' 'name') ;;
    'channels help/-') __cpk_list=('--version' '--base-url' '--profile' '--output' '-o' '--json' '--agent' '--columns' '--query' '--timeout' '--max-time' '--retries' '--debug' '--no-color') ;;
    'channels help/--output=') __cpk_list=('table' 'wide' 'json' 'jsonl' 'yaml' 'markdown' 'name') ;;
    'channels help/-o=') __cpk_list=('table' 'wide' 'json' 'jsonl' 'yaml' 'markdown' 'name') ;;
    'reports/') __cpk_list=('list' 'ls' 'get' 'help') ;;
    'reports/-') __cpk_list=('--help' '-h' '--version' '--base-url' '--profile' '--output' '-o' '--json' '--agent' '--columns' '--query' '--timeout' '--max-time' '--retries' '--debug' '--no-color') ;;
    'reports/--output=') __cpk_list=('table' 'wide' 'json' 'jsonl' 'yaml' 'markdown' 'name') ;;
    'reports/-o=') __cpk_list=('table' 'wide' 'json' 'jsonl' 'yaml' 'markdown' 'name') ;;
    'reports list/-') __cpk_list=('--quiet' '-q' '--limit' '--param' '--refresh-spec' '--help' '-h' '--version' '--base-url' '--profile' '--output' '-o' '--json' '--agent' '--columns' '--query' '--timeout' '--max-time' '--retries' '--debug' '--no-color') ;;
    'reports list/--output=') __cpk_list=('table' 'wide' 'json' 'jsonl' 'yaml' 'markdown' 'name') ;;
    'reports list/-o=') __cpk_list=('table' 'wide' 'json' 'jsonl' 'yaml' 'markdown' 'name') ;;
    'reports get/-') __cpk_list=('--watch' '-w' '--every' '--assert' '--junit' '--help' '-h' '--version' '--base-url' '--profile' '--output' '-o' '--json' '--agent' '--columns' '--query' '--timeout' '--max-time' '--retries' '--debug' '--no-color') ;;
    'reports get/--output=') __cpk_list=('table' 'wide' 'json' 'jsonl' 'yaml' 'markdown' 'name') ;;
    'reports get/-o=') __cpk_list=('table' 'wide' 'json' 'jsonl' 'yaml' 'markdown' 'name') ;;
    'reports help/-') __cpk_list=('--version' '--base-url' '--profile' '--output' '-o' '--json' '--agent' '--columns' '--query' '--timeout' '--max-time' '--retries' '--debug' '--no-color') ;;
    'reports help/--output=') __cpk_list=('table' 'wide' 'json' 'jsonl' 'yaml' 'markdown' 'name') ;;
    'reports help/-o=') __cpk_list=('table' 'wide' 'json' 'jsonl' 'yaml' 'markdown' 'name') ;;
    'openapi/-') __cpk_list=('--help' '-h' '--version' '--base-url' '--profile' '--output' '-o' '--json' '--agent' '--columns' '--query' '--timeout' '--max-time' '--retries' '--debug' '--no-color') ;;
    'openapi/--output=') __cpk_list=('table' 'wide' 'json' 'jsonl' 'yaml' 'markdown' 'name') ;;
    'openapi/-o=') __cpk_list=('table' 'wide' 'json' 'jsonl' 'yaml' 'markdown' 'name') ;;
    'api/-') __cpk_list=('--set' '--set-string' '--data' '--include' '-i' '--dry-run' '--help' '-h' '--version' '--base-url' '--profile' '--output' '-o' '--json' '--agent' '--columns' '--query' '--timeout' '--max-time' '--retries' '--debug' '--no-color') ;;
    'api/--output=') __cpk_list=('table' 'wide' 'json' 'jsonl' 'yaml' 'markdown' 'name') ;;
    'api/-o=') __cpk_list=('table' 'wide' 'json' 'jsonl' 'yaml' 'markdown' 'name') ;;
    'plan/-') __cpk_list=('--file' '-f' '--state' '--prune' '--create-uncertain' '--out' '--junit' '--concurrency' '--help' '-h' '--version' '--base-url' '--profile' '--output' '-o' '--json' '--agent' '--columns' '--query' '--timeout' '--max-time' '--retries' '--debug' '--no-color') ;;
    'plan/--output=') __cpk_list=('table' 'wide' 'json' 'jsonl' 'yaml' 'markdown' 'name') ;;
    'plan/-o=') __cpk_list=('table' 'wide' 'json' 'jsonl' 'yaml' 'markdown' 'name') ;;
    'apply/-') __cpk_list=('--file' '-f' '--state' '--prune' '--create-uncertain' '--recreate-missing' '--yes' '-y' '--junit' '--lock-timeout' '--concurrency' '--help' '-h' '--version' '--base-url' '--profile' '--output' '-o' '--json' '--agent' '--columns' '--query' '--timeout' '--max-time' '--retries' '--debug' '--no-color') ;;
    'apply/--output=') __cpk_list=('table' 'wide' 'json' 'jsonl' 'yaml' 'markdown' 'name') ;;
    'apply/-o=') __cpk_list=('table' 'wide' 'json' 'jsonl' 'yaml' 'markdown' 'name') ;;
    'import/-') __cpk_list=('--file' '-f' '--state' '--lock-timeout' '--all' '--replace' '--help' '-h' '--version' '--base-url' '--profile' '--output' '-o' '--json' '--agent' '--columns' '--query' '--timeout' '--max-time' '--retries' '--debug' '--no-color') ;;
    'import/--output=') __cpk_list=('table' 'wide' 'json' 'jsonl' 'yaml' 'markdown' 'name') ;;
    'import/-o=') __cpk_list=('table' 'wide' 'json' 'jsonl' 'yaml' 'markdown' 'name') ;;
    'validate/-') __cpk_list=('--file' '-f' '--refresh-spec' '--junit' '--help' '-h' '--version' '--base-url' '--profile' '--output' '-o' '--json' '--agent' '--columns' '--query' '--timeout' '--max-time' '--retries' '--debug' '--no-color') ;;
    'validate/--output=') __cpk_list=('table' 'wide' 'json' 'jsonl' 'yaml' 'markdown' 'name') ;;
    'validate/-o=') __cpk_list=('table' 'wide' 'json' 'jsonl' 'yaml' 'markdown' 'name') ;;
    'auth/') __cpk_list=('login' 'status' 'logout' 'token' 'help') ;;
    'auth/-') __cpk_list=('--help' '-h' '--version' '--base-url' '--profile' '--output' '-o' '--json' '--agent' '--columns' '--query' '--timeout' '--max-time' '--retries' '--debug' '--no-color') ;;
    'auth/--output=') __cpk_list=('table' 'wide' 'json' 'jsonl' 'yaml' 'markdown' 'name') ;;
    'auth/-o=') __cpk_list=('table' 'wide' 'json' 'jsonl' 'yaml' 'markdown' 'name') ;;
    'auth login/-') __cpk_list=('--with-token' '--no-verify' '--insecure-storage' '--help' '-h' '--version' '--base-url' '--profile' '--output' '-o' '--json' '--agent' '--columns' '--query' '--timeout' '--max-time' '--retries' '--debug' '--no-color') ;;
    'auth login/--output=') __cpk_list=('table' 'wide' 'json' 'jsonl' 'yaml' 'markdown' 'name') ;;
    'auth login/-o=') __cpk_list=('table' 'wide' 'json' 'jsonl' 'yaml' 'markdown' 'name') ;;
    'auth status/-') __cpk_list=('--help' '-h' '--version' '--base-url' '--profile' '--output' '-o' '--json' '--agent' '--columns' '--query' '--timeout' '--max-time' '--retries' '--debug' '--no-color') ;;
    'auth status/--output=') __cpk_list=('table' 'wide' 'json' 'jsonl' 'yaml' 'markdown' 'name') ;;
    'auth status/-o=') __cpk_list=('table' 'wide' 'json' 'jsonl' 'yaml' 'markdown' 'name') ;;
    'auth logout/-') __cpk_list=('--help' '-h' '--version' '--base-url' '--profile' '--output' '-o' '--json' '--agent' '--columns' '--query' '--timeout' '--max-time' '--retries' '--debug' '--no-color') ;;
    'auth logout/--output=') __cpk_list=('table' 'wide' 'json' 'jsonl' 'yaml' 'markdown' 'name') ;;
    'auth logout/-o=') __cpk_list=('table' 'wide' 'json' 'jsonl' 'yaml' 'markdown' 'name') ;;
    'auth token/-') __cpk_list=('--help' '-h' '--version' '--base-url' '--profile' '--output' '-o' '--json' '--agent' '--columns' '--query' '--timeout' '--max-time' '--retries' '--debug' '--no-color') ;;
    'auth token/--output=') __cpk_list=('table' 'wide' 'json' 'jsonl' 'yaml' 'markdown' 'name') ;;
    'auth token/-o=') __cpk_list=('table' 'wide' 'json' 'jsonl' 'yaml' 'markdown' 'name') ;;
    'auth help/-') __cpk_list=('--version' '--base-url' '--profile' '--output' '-o' '--json' '--agent' '--columns' '--query' '--timeout' '--max-time' '--retries' '--debug' '--no-color') ;;
    'auth help/--output=') __cpk_list=('table' 'wide' 'json' 'jsonl' 'yaml' 'markdown' 'name') ;;
    'auth help/-o=') __cpk_list=('table' 'wide' 'json' 'jsonl' 'yaml' 'markdown' 'name') ;;
    'profile/') __cpk_list=('list' 'use' 'remove' 'help') ;;
    'profile/-') __cpk_list=('--help' '-h' '--version' '--base-url' '--profile' '--output' '-o' '--json' '--agent' '--columns' '--query' '--timeout' '--max-time' '--retries' '--debug' '--no-color') ;;
    'profile/--output=') __cpk_list=('table' 'wide' 'json' 'jsonl' 'yaml' 'markdown' 'name') ;;
    'profile/-o=') __cpk_list=('table' 'wide' 'json' 'jsonl' 'yaml' 'markdown' 'name') ;;
    'profile list/-') __cpk_list=('--help' '-h' '--version' '--base-url' '--profile' '--output' '-o' '--json' '--agent' '--columns' '--query' '--timeout' '--max-time' '--retries' '--debug' '--no-color') ;;
    'profile list/--output=') __cpk_list=('table' 'wide' 'json' 'jsonl' 'yaml' 'markdown' 'name') ;;
    'profile list/-o=') __cpk_list=('table' 'wide' 'json' 'jsonl' 'yaml' 'markdown' 'name') ;;
    'profile use/-') __cpk_list=('--help' '-h' '--version' '--base-url' '--profile' '--output' '-o' '--json' '--agent' '--columns' '--query' '--timeout' '--max-time' '--retries' '--debug' '--no-color') ;;
    'profile use/--output=') __cpk_list=('table' 'wide' 'json' 'jsonl' 'yaml' 'markdown' 'name') ;;
    'profile use/-o=') __cpk_list=('table' 'wide' 'json' 'jsonl' 'yaml' 'markdown' 'name') ;;
    'profile remove/-') __cpk_list=('--help' '-h' '--version' '--base-url' '--profile' '--output' '-o' '--json' '--agent' '--columns' '--query' '--timeout' '--max-time' '--retries' '--debug' '--no-color') ;;
    'profile remove/--output=') __cpk_list=('table' 'wide' 'json' 'jsonl' 'yaml' 'markdown' 'name') ;;
    'profile remove/-o=') __cpk_list=('table' 'wide' 'json' 'jsonl' 'yaml' 'markdown' 'name') ;;
    'profile help/-') __cpk_list=('--version' '--base-url' '--profile' '--output' '-o' '--json' '--agent' '--columns' '--query' '--timeout' '--max-time' '--retries' '--debug' '--no-color') ;;
    'profile help/--output=') __cpk_list=('table' 'wide' 'json' 'jsonl' 'yaml' 'markdown' 'name') ;;
    'profile help/-o=') __cpk_list=('table' 'wide' 'json' 'jsonl' 'yaml' 'markdown' 'name') ;;
    'emulator/') __cpk_list=('requests') ;;
    'emulator/-') __cpk_list=('--host' '--port' '--token' '--latency' '--fail-rate' '--admin-secret' '--import' '--export-on-exit' '--persist' '--seed' '--time-scale' '--quiet' '-q' '--help' '-h' '--version' '--base-url' '--profile' '--output' '-o' '--json' '--agent' '--columns' '--query' '--timeout' '--max-time' '--retries' '--debug' '--no-color') ;;
    'emulator/--output=') __cpk_list=('table' 'wide' 'json' 'jsonl' 'yaml' 'markdown' 'name') ;;
    'emulator/-o=') __cpk_list=('table' 'wide' 'json' 'jsonl' 'yaml' 'markdown' 'name') ;;
    'emulator requests/-') __cpk_list=('--admin-secret' '--expect' '--count' '--help' '-h' '--host' '--port' '--token' '--latency' '--fail-rate' '--import' '--export-on-exit' '--persist' '--seed' '--time-scale' '--quiet' '-q' '--version' '--base-url' '--profile' '--output' '-o' '--json' '--agent' '--columns' '--query' '--timeout' '--max-time' '--retries' '--debug' '--no-color') ;;
    'emulator requests/--output=') __cpk_list=('table' 'wide' 'json' 'jsonl' 'yaml' 'markdown' 'name') ;;
    'emulator requests/-o=') __cpk_list=('table' 'wide' 'json' 'jsonl' 'yaml' 'markdown' 'name') ;;
    'doctor/-') __cpk_list=('--help' '-h' '--version' '--base-url' '--profile' '--output' '-o' '--json' '--agent' '--columns' '--query' '--timeout' '--max-time' '--retries' '--debug' '--no-color') ;;
    'doctor/--output=') __cpk_list=('table' 'wide' 'json' 'jsonl' 'yaml' 'markdown' 'name') ;;
    'doctor/-o=') __cpk_list=('table' 'wide' 'json' 'jsonl' 'yaml' 'markdown' 'name') ;;
    'completion/') __cpk_list=('bash' 'zsh' 'fish' 'powershell') ;;
    'completion/-') __cpk_list=('--help' '-h' '--version' '--base-url' '--profile' '--output' '-o' '--json' '--agent' '--columns' '--query' '--timeout' '--max-time' '--retries' '--debug' '--no-color') ;;
    'completion/--output=') __cpk_list=('table' 'wide' 'json' 'jsonl' 'yaml' 'markdown' 'name') ;;
    'completion/-o=') __cpk_list=('table' 'wide' 'json' 'jsonl' 'yaml' 'markdown' 'name') ;;
    'mcp/-') __cpk_list=('--allow-write' '--allow-delete' '--sandbox' '--help' '-h' '--version' '--base-url' '--profile' '--output' '-o' '--json' '--agent' '--columns' '--query' '--timeout' '--max-time' '--retries' '--debug' '--no-color') ;;
    'mcp/--output=') __cpk_list=('table' 'wide' 'json' 'jsonl' 'yaml' 'markdown' 'name') ;;
    'mcp/-o=') __cpk_list=('table' 'wide' 'json' 'jsonl' 'yaml' 'markdown' 'name') ;;
    'help/-') __cpk_list=('--help' '-h' '--version' '--base-url' '--profile' '--output' '-o' '--json' '--agent' '--columns' '--query' '--timeout' '--max-time' '--retries' '--debug' '--no-color') ;;
    'help/--output=') __cpk_list=('table' 'wide' 'json' 'jsonl' 'yaml' 'markdown' 'name') ;;
    'help/-o=') __cpk_list=('table' 'wide' 'json' 'jsonl' 'yaml' 'markdown' 'name') ;;
    *) __cpk_list=() ;;
  esac
}

# __cpk_dynamic KIND: adds the words `cpk __complete KIND` prints (ids from
# the local inventory, profile names, declared types): never the network.
# Ids and types are text a server wrote: each line is one word, kept as data,
# and a word that is not a plain one (letters, digits and _ first, then those
# and . + @ / -) is left out, as cpk __complete leaves it out. The description
# after the tab (a monitor's name) is kept beside the word, control characters
# replaced, to be shown by __cpk_describe and never inserted.
__cpk_dynamic() {
  local line value description
  while IFS= read -r line; do
    value=${line%%$'\t'*}
    description=
    [[ $line == *$'\t'* ]] && description=${line#*$'\t'}
    case $value in
      '' | [!ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_]* | *[!ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.+@/-]*) continue ;;
    esac
    description=${description//[[:cntrl:]]/ }
    __cpk_list+=("$value${description:+$'\t'$description}")
  done < <("${COMP_WORDS[0]}" __complete "$1" "$cur" 2>/dev/null)
}

# __cpk_describe LONGEST: as cobra's bash script shows candidates with descriptions
# (__<program>_format_comp_descriptions): each WORD<TAB>DESCRIPTION in COMPREPLY
# becomes "WORD  (DESCRIPTION)", the words padded to the LONGEST so the
# descriptions line up, a description cut with … to the terminal's width. Only
# for a list of several: a single candidate is inserted, and it is the word alone.
__cpk_describe() {
  local i comp description room
  for i in "${!COMPREPLY[@]}"; do
    comp=${COMPREPLY[i]}
    [[ $comp == *$'\t'* ]] || continue
    description=${comp#*$'\t'}
    comp=${comp%%$'\t'*}
    # Two spaces and two parentheses around the description.
    room=$(( ${COLUMNS:-80} - $1 - 4 ))
    if ((room > 8)); then
      while ((${#comp} < $1)); do comp+=' '; done
    else
      room=$(( ${COLUMNS:-80} - ${#comp} - 4 ))
    fi
    if ((room > 0)); then
      if ((${#description} > room)); then description="${description:0:room-1}…"; fi
      comp+="  ($description)"
    fi
    COMPREPLY[i]=$comp
  done
}

# __cpk_more KEY: the dynamic words for KEY, when there are some. At an id
# argument, bash's fallback to file names is turned off (compopt, bash 4+).
__cpk_more() {
  case "$1" in
    'monitors get/') __cpk_dynamic monitor-ids; compopt +o default 2>/dev/null; return 0 ;;
    'monitors update/') __cpk_dynamic monitor-ids; compopt +o default 2>/dev/null; return 0 ;;
    'monitors delete/') __cpk_dynamic monitor-ids; compopt +o default 2>/dev/null; return 0 ;;
    'monitors wait/') __cpk_dynamic monitor-ids; compopt +o default 2>/dev/null; return 0 ;;
    'monitors watch/') __cpk_dynamic monitor-ids; compopt +o default 2>/dev/null; return 0 ;;
    'channels update/') __cpk_dynamic channel-ids; compopt +o default 2>/dev/null; return 0 ;;
    'reports get/') __cpk_dynamic report-ids; compopt +o default 2>/dev/null; return 0 ;;
    'profile use/') __cpk_dynamic profiles; compopt +o default 2>/dev/null; return 0 ;;
    'profile remove/') __cpk_dynamic profiles; compopt +o default 2>/dev/null; return 0 ;;
    */--profile=) __cpk_dynamic profiles; return 1 ;;
    */--type=) __cpk_dynamic types; return 1 ;;
  esac
  return 1
}

_cpk() {
  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} cmdpath= word i skip=0 __cpk_reply
  local -a __cpk_list=()
  # Find the command path: the words that name subcommands, skipping options
  # and the values of the options that take one.
  for ((i = 1; i < COMP_CWORD; i++)); do
    word=${COMP_WORDS[i]}
    if ((skip)); then
      # bash splits --opt=value at '=' (COMP_WORDBREAKS): the value comes after it.
      skip=0
      [[ $word == = ]] && skip=1
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
  COMPREPLY=()
  if ((skip)); then
    # The value of an option: its choices, or (none) bash's default file completion.
    [[ $prev == = ]] && prev=${COMP_WORDS[COMP_CWORD-2]}
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
  for word in ${__cpk_list[@]+"${__cpk_list[@]}"}; do
    comp=${word%%$'\t'*}
    [[ $comp == "$cur"* ]] || continue
    COMPREPLY+=("$word")
    if ((${#comp} > longest)); then longest=${#comp}; fi
  done
  # One candidate is inserted: the word without its description. Several are listed, with theirs.
  if ((${#COMPREPLY[@]} == 1)); then
    COMPREPLY[0]=${COMPREPLY[0]%%$'\t'*}
  else
    __cpk_describe "$longest"
  fi
  return 0
}

complete -o default -F _cpk cpk
