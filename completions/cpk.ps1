# PowerShell completion for cpk.
# Generated from the command tree by `cpk completion`; `npm run gen` rewrites completions/. Do not edit.
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
  $names['/monitors'] = 'monitors'
  $names['/channels'] = 'channels'
  $names['/reports'] = 'reports'
  $names['/openapi'] = 'openapi'
  $names['/api'] = 'api'
  $names['/plan'] = 'plan'
  $names['/apply'] = 'apply'
  $names['/import'] = 'import'
  $names['/emulator'] = 'emulator'
  $names['/completion'] = 'completion'
  $names['monitors/create'] = 'create'
  $names['monitors/get'] = 'get'
  $names['monitors/update'] = 'update'
  $names['monitors/delete'] = 'delete'
  $names['monitors/help'] = 'help'
  $names['channels/update'] = 'update'
  $names['channels/help'] = 'help'
  $names['reports/get'] = 'get'
  $names['reports/help'] = 'help'
  $commands[''] = @('monitors', 'Create, show, change and delete monitors', 'channels', 'Change channel settings', 'reports', 'Read reports', 'openapi', 'Print the service''s public OpenAPI document (sent without a token)', 'api', 'Send an authenticated request to any path below the base URL (for operations cpk does not wrap yet)', 'plan', 'Show what `cpk apply` would change to make the service match the manifest (exit 0: nothing, 10: changes)', 'apply', 'Make the service match the manifest: create and update monitors, set channels, and with --prune delete removed ones', 'import', 'Adopt existing monitors: record KEY=ID in the state file, so the manifest entry KEY manages monitor ID', 'emulator', 'Run a local emulator of the service (in memory), for trying cpk and testing scripts', 'completion', 'Print the shell completion script for bash, zsh, fish or powershell')
  $commands['monitors'] = @('create', 'Create a monitor, or many with --from', 'get', 'Show monitors (several ids, or - to read them from stdin)', 'update', 'Change fields of a monitor (only the fields given are sent)', 'delete', 'Delete monitors (asks first on a terminal; several ids, or - to read them from stdin)', 'help', 'display help for command')
  $commands['monitors create'] = @()
  $commands['monitors get'] = @()
  $commands['monitors update'] = @()
  $commands['monitors delete'] = @()
  $commands['monitors help'] = @()
  $commands['channels'] = @('update', 'Change settings of a channel (the fields are the service''s own)', 'help', 'display help for command')
  $commands['channels update'] = @()
  $commands['channels help'] = @()
  $commands['reports'] = @('get', 'Show a report', 'help', 'display help for command')
  $commands['reports get'] = @()
  $commands['reports help'] = @()
  $commands['openapi'] = @()
  $commands['api'] = @()
  $commands['plan'] = @()
  $commands['apply'] = @()
  $commands['import'] = @()
  $commands['emulator'] = @()
  $commands['completion'] = @('bash', 'bash', 'zsh', 'zsh', 'fish', 'fish', 'powershell', 'powershell')
  $options[''] = @('--version', 'print the version', '--base-url', 'service base URL (env CPK_BASE_URL; default http://127.0.0.1:4010/v1, the local emulator)', '--json', 'print results as JSON (errors as one JSON object on stderr)', '--query', 'JMESPath expression applied to the JSON result; implies --json; a string prints raw', '--timeout', 'time limit for each request attempt (default 30)', '--retries', 'retries of a failed request that is safe to repeat (default 2, i.e. 3 attempts; env CPK_MAX_ATTEMPTS counts attempts in all)', '--debug', 'trace requests and responses on stderr (the token is redacted)', '--no-color', 'no color (also NO_COLOR=1 or CI=true)', '--help', 'show help', '-h', 'show help')
  $options['monitors'] = @('--help', 'show help', '-h', 'show help', '--version', 'print the version', '--base-url', 'service base URL (env CPK_BASE_URL; default http://127.0.0.1:4010/v1, the local emulator)', '--json', 'print results as JSON (errors as one JSON object on stderr)', '--query', 'JMESPath expression applied to the JSON result; implies --json; a string prints raw', '--timeout', 'time limit for each request attempt (default 30)', '--retries', 'retries of a failed request that is safe to repeat (default 2, i.e. 3 attempts; env CPK_MAX_ATTEMPTS counts attempts in all)', '--debug', 'trace requests and responses on stderr (the token is redacted)', '--no-color', 'no color (also NO_COLOR=1 or CI=true)')
  $options['monitors create'] = @('--name', 'human label of the monitor (required unless given in --data)', '--type', 'kind of check, e.g. http', '--target', 'what is checked; for an HTTP check, a URL', '--interval', 'seconds between checks: 60, 90s, 5m, 1h', '--set', 'set any other field; the value is parsed as JSON when it is JSON (repeatable; dotted keys nest)', '--set-string', 'set any other field to a string, always (repeatable)', '--data', 'the request body: a JSON object, @file, or - for stdin (flags are merged over it)', '--from', 'create one monitor per object of FILE (a JSON array or NDJSON; - for stdin)', '--concurrency', 'creates in flight at once with --from (default 8)', '--quiet', 'print only the new monitor id (one per line with --from)', '-q', 'print only the new monitor id (one per line with --from)', '--dry-run', 'print the request(s) as curl commands and send nothing', '--help', 'show help', '-h', 'show help', '--version', 'print the version', '--base-url', 'service base URL (env CPK_BASE_URL; default http://127.0.0.1:4010/v1, the local emulator)', '--json', 'print results as JSON (errors as one JSON object on stderr)', '--query', 'JMESPath expression applied to the JSON result; implies --json; a string prints raw', '--timeout', 'time limit for each request attempt (default 30)', '--retries', 'retries of a failed request that is safe to repeat (default 2, i.e. 3 attempts; env CPK_MAX_ATTEMPTS counts attempts in all)', '--debug', 'trace requests and responses on stderr (the token is redacted)', '--no-color', 'no color (also NO_COLOR=1 or CI=true)')
  $options['monitors get'] = @('--concurrency', 'requests in flight at once for several ids (default 8)', '--manifest', 'print them as manifest entries for cpk.yaml (YAML; JSON with --json)', '--help', 'show help', '-h', 'show help', '--version', 'print the version', '--base-url', 'service base URL (env CPK_BASE_URL; default http://127.0.0.1:4010/v1, the local emulator)', '--json', 'print results as JSON (errors as one JSON object on stderr)', '--query', 'JMESPath expression applied to the JSON result; implies --json; a string prints raw', '--timeout', 'time limit for each request attempt (default 30)', '--retries', 'retries of a failed request that is safe to repeat (default 2, i.e. 3 attempts; env CPK_MAX_ATTEMPTS counts attempts in all)', '--debug', 'trace requests and responses on stderr (the token is redacted)', '--no-color', 'no color (also NO_COLOR=1 or CI=true)')
  $options['monitors update'] = @('--name', 'new name', '--type', 'new kind of check', '--target', 'new target', '--interval', 'new interval: 60, 90s, 5m, 1h', '--set', 'set a field; the value is parsed as JSON when it is JSON (repeatable; dotted keys nest)', '--set-string', 'set a field to a string, always (repeatable)', '--data', 'fields as a JSON object, @file, or - for stdin (flags are merged over it)', '--dry-run', 'print the request as a curl command and send nothing', '--help', 'show help', '-h', 'show help', '--version', 'print the version', '--base-url', 'service base URL (env CPK_BASE_URL; default http://127.0.0.1:4010/v1, the local emulator)', '--json', 'print results as JSON (errors as one JSON object on stderr)', '--query', 'JMESPath expression applied to the JSON result; implies --json; a string prints raw', '--timeout', 'time limit for each request attempt (default 30)', '--retries', 'retries of a failed request that is safe to repeat (default 2, i.e. 3 attempts; env CPK_MAX_ATTEMPTS counts attempts in all)', '--debug', 'trace requests and responses on stderr (the token is redacted)', '--no-color', 'no color (also NO_COLOR=1 or CI=true)')
  $options['monitors delete'] = @('--yes', 'do not ask for confirmation (required when stdin is not a terminal)', '-y', 'do not ask for confirmation (required when stdin is not a terminal)', '--concurrency', 'requests in flight at once for several ids (default 8)', '--dry-run', 'print the requests as curl commands and send nothing', '--help', 'show help', '-h', 'show help', '--version', 'print the version', '--base-url', 'service base URL (env CPK_BASE_URL; default http://127.0.0.1:4010/v1, the local emulator)', '--json', 'print results as JSON (errors as one JSON object on stderr)', '--query', 'JMESPath expression applied to the JSON result; implies --json; a string prints raw', '--timeout', 'time limit for each request attempt (default 30)', '--retries', 'retries of a failed request that is safe to repeat (default 2, i.e. 3 attempts; env CPK_MAX_ATTEMPTS counts attempts in all)', '--debug', 'trace requests and responses on stderr (the token is redacted)', '--no-color', 'no color (also NO_COLOR=1 or CI=true)')
  $options['monitors help'] = @('--version', 'print the version', '--base-url', 'service base URL (env CPK_BASE_URL; default http://127.0.0.1:4010/v1, the local emulator)', '--json', 'print results as JSON (errors as one JSON object on stderr)', '--query', 'JMESPath expression applied to the JSON result; implies --json; a string prints raw', '--timeout', 'time limit for each request attempt (default 30)', '--retries', 'retries of a failed request that is safe to repeat (default 2, i.e. 3 attempts; env CPK_MAX_ATTEMPTS counts attempts in all)', '--debug', 'trace requests and responses on stderr (the token is redacted)', '--no-color', 'no color (also NO_COLOR=1 or CI=true)')
  $options['channels'] = @('--help', 'show help', '-h', 'show help', '--version', 'print the version', '--base-url', 'service base URL (env CPK_BASE_URL; default http://127.0.0.1:4010/v1, the local emulator)', '--json', 'print results as JSON (errors as one JSON object on stderr)', '--query', 'JMESPath expression applied to the JSON result; implies --json; a string prints raw', '--timeout', 'time limit for each request attempt (default 30)', '--retries', 'retries of a failed request that is safe to repeat (default 2, i.e. 3 attempts; env CPK_MAX_ATTEMPTS counts attempts in all)', '--debug', 'trace requests and responses on stderr (the token is redacted)', '--no-color', 'no color (also NO_COLOR=1 or CI=true)')
  $options['channels update'] = @('--set', 'set a field; the value is parsed as JSON when it is JSON (repeatable; dotted keys nest)', '--set-string', 'set a field to a string, always (repeatable)', '--data', 'fields as a JSON object, @file, or - for stdin (flags are merged over it)', '--dry-run', 'print the request as a curl command and send nothing', '--help', 'show help', '-h', 'show help', '--version', 'print the version', '--base-url', 'service base URL (env CPK_BASE_URL; default http://127.0.0.1:4010/v1, the local emulator)', '--json', 'print results as JSON (errors as one JSON object on stderr)', '--query', 'JMESPath expression applied to the JSON result; implies --json; a string prints raw', '--timeout', 'time limit for each request attempt (default 30)', '--retries', 'retries of a failed request that is safe to repeat (default 2, i.e. 3 attempts; env CPK_MAX_ATTEMPTS counts attempts in all)', '--debug', 'trace requests and responses on stderr (the token is redacted)', '--no-color', 'no color (also NO_COLOR=1 or CI=true)')
  $options['channels help'] = @('--version', 'print the version', '--base-url', 'service base URL (env CPK_BASE_URL; default http://127.0.0.1:4010/v1, the local emulator)', '--json', 'print results as JSON (errors as one JSON object on stderr)', '--query', 'JMESPath expression applied to the JSON result; implies --json; a string prints raw', '--timeout', 'time limit for each request attempt (default 30)', '--retries', 'retries of a failed request that is safe to repeat (default 2, i.e. 3 attempts; env CPK_MAX_ATTEMPTS counts attempts in all)', '--debug', 'trace requests and responses on stderr (the token is redacted)', '--no-color', 'no color (also NO_COLOR=1 or CI=true)')
  $options['reports'] = @('--help', 'show help', '-h', 'show help', '--version', 'print the version', '--base-url', 'service base URL (env CPK_BASE_URL; default http://127.0.0.1:4010/v1, the local emulator)', '--json', 'print results as JSON (errors as one JSON object on stderr)', '--query', 'JMESPath expression applied to the JSON result; implies --json; a string prints raw', '--timeout', 'time limit for each request attempt (default 30)', '--retries', 'retries of a failed request that is safe to repeat (default 2, i.e. 3 attempts; env CPK_MAX_ATTEMPTS counts attempts in all)', '--debug', 'trace requests and responses on stderr (the token is redacted)', '--no-color', 'no color (also NO_COLOR=1 or CI=true)')
  $options['reports get'] = @('--watch', 'refresh until Ctrl-C: in place on a terminal, else one JSON line per change', '-w', 'refresh until Ctrl-C: in place on a terminal, else one JSON line per change', '--every', 'time between refreshes with --watch: 10s, 1m, 5m (default 30s)', '--help', 'show help', '-h', 'show help', '--version', 'print the version', '--base-url', 'service base URL (env CPK_BASE_URL; default http://127.0.0.1:4010/v1, the local emulator)', '--json', 'print results as JSON (errors as one JSON object on stderr)', '--query', 'JMESPath expression applied to the JSON result; implies --json; a string prints raw', '--timeout', 'time limit for each request attempt (default 30)', '--retries', 'retries of a failed request that is safe to repeat (default 2, i.e. 3 attempts; env CPK_MAX_ATTEMPTS counts attempts in all)', '--debug', 'trace requests and responses on stderr (the token is redacted)', '--no-color', 'no color (also NO_COLOR=1 or CI=true)')
  $options['reports help'] = @('--version', 'print the version', '--base-url', 'service base URL (env CPK_BASE_URL; default http://127.0.0.1:4010/v1, the local emulator)', '--json', 'print results as JSON (errors as one JSON object on stderr)', '--query', 'JMESPath expression applied to the JSON result; implies --json; a string prints raw', '--timeout', 'time limit for each request attempt (default 30)', '--retries', 'retries of a failed request that is safe to repeat (default 2, i.e. 3 attempts; env CPK_MAX_ATTEMPTS counts attempts in all)', '--debug', 'trace requests and responses on stderr (the token is redacted)', '--no-color', 'no color (also NO_COLOR=1 or CI=true)')
  $options['openapi'] = @('--help', 'show help', '-h', 'show help', '--version', 'print the version', '--base-url', 'service base URL (env CPK_BASE_URL; default http://127.0.0.1:4010/v1, the local emulator)', '--json', 'print results as JSON (errors as one JSON object on stderr)', '--query', 'JMESPath expression applied to the JSON result; implies --json; a string prints raw', '--timeout', 'time limit for each request attempt (default 30)', '--retries', 'retries of a failed request that is safe to repeat (default 2, i.e. 3 attempts; env CPK_MAX_ATTEMPTS counts attempts in all)', '--debug', 'trace requests and responses on stderr (the token is redacted)', '--no-color', 'no color (also NO_COLOR=1 or CI=true)')
  $options['api'] = @('--set', 'set a body field; the value is parsed as JSON when it is JSON (repeatable; dotted keys nest)', '--set-string', 'set a body field to a string, always (repeatable)', '--data', 'the request body: any JSON value, @file, or - for stdin (--set fields are merged over an object)', '--include', 'print the status line and the response headers before the body', '-i', 'print the status line and the response headers before the body', '--dry-run', 'print the request as a curl command and send nothing', '--help', 'show help', '-h', 'show help', '--version', 'print the version', '--base-url', 'service base URL (env CPK_BASE_URL; default http://127.0.0.1:4010/v1, the local emulator)', '--json', 'print results as JSON (errors as one JSON object on stderr)', '--query', 'JMESPath expression applied to the JSON result; implies --json; a string prints raw', '--timeout', 'time limit for each request attempt (default 30)', '--retries', 'retries of a failed request that is safe to repeat (default 2, i.e. 3 attempts; env CPK_MAX_ATTEMPTS counts attempts in all)', '--debug', 'trace requests and responses on stderr (the token is redacted)', '--no-color', 'no color (also NO_COLOR=1 or CI=true)')
  $options['plan'] = @('--file', 'the manifest, YAML or JSON (default cpk.yaml)', '-f', 'the manifest, YAML or JSON (default cpk.yaml)', '--state', 'the state file (default: beside the manifest, cpk.yaml -> cpk.state.json); one per service', '--prune', 'plan to delete monitors the state records but the manifest no longer names', '--create-uncertain', 'plan to create again monitors whose earlier create has an unknown outcome', '--concurrency', 'requests at a time, 1 to 64 (default 8)', '--help', 'show help', '-h', 'show help', '--version', 'print the version', '--base-url', 'service base URL (env CPK_BASE_URL; default http://127.0.0.1:4010/v1, the local emulator)', '--json', 'print results as JSON (errors as one JSON object on stderr)', '--query', 'JMESPath expression applied to the JSON result; implies --json; a string prints raw', '--timeout', 'time limit for each request attempt (default 30)', '--retries', 'retries of a failed request that is safe to repeat (default 2, i.e. 3 attempts; env CPK_MAX_ATTEMPTS counts attempts in all)', '--debug', 'trace requests and responses on stderr (the token is redacted)', '--no-color', 'no color (also NO_COLOR=1 or CI=true)')
  $options['apply'] = @('--file', 'the manifest, YAML or JSON (default cpk.yaml)', '-f', 'the manifest, YAML or JSON (default cpk.yaml)', '--state', 'the state file (default: beside the manifest, cpk.yaml -> cpk.state.json); one per service', '--prune', 'delete monitors the state records but the manifest no longer names (never any other monitor)', '--create-uncertain', 'create again monitors whose earlier create has an unknown outcome (may make a duplicate)', '--yes', 'do not ask for confirmation (required when stdin is not a terminal)', '-y', 'do not ask for confirmation (required when stdin is not a terminal)', '--concurrency', 'requests at a time, 1 to 64 (default 8)', '--help', 'show help', '-h', 'show help', '--version', 'print the version', '--base-url', 'service base URL (env CPK_BASE_URL; default http://127.0.0.1:4010/v1, the local emulator)', '--json', 'print results as JSON (errors as one JSON object on stderr)', '--query', 'JMESPath expression applied to the JSON result; implies --json; a string prints raw', '--timeout', 'time limit for each request attempt (default 30)', '--retries', 'retries of a failed request that is safe to repeat (default 2, i.e. 3 attempts; env CPK_MAX_ATTEMPTS counts attempts in all)', '--debug', 'trace requests and responses on stderr (the token is redacted)', '--no-color', 'no color (also NO_COLOR=1 or CI=true)')
  $options['import'] = @('--file', 'the manifest, YAML or JSON (default cpk.yaml)', '-f', 'the manifest, YAML or JSON (default cpk.yaml)', '--state', 'the state file (default: beside the manifest, cpk.yaml -> cpk.state.json); one per service', '--replace', 'let a key that already manages another monitor manage this one instead (the other is left alone, no longer managed)', '--help', 'show help', '-h', 'show help', '--version', 'print the version', '--base-url', 'service base URL (env CPK_BASE_URL; default http://127.0.0.1:4010/v1, the local emulator)', '--json', 'print results as JSON (errors as one JSON object on stderr)', '--query', 'JMESPath expression applied to the JSON result; implies --json; a string prints raw', '--timeout', 'time limit for each request attempt (default 30)', '--retries', 'retries of a failed request that is safe to repeat (default 2, i.e. 3 attempts; env CPK_MAX_ATTEMPTS counts attempts in all)', '--debug', 'trace requests and responses on stderr (the token is redacted)', '--no-color', 'no color (also NO_COLOR=1 or CI=true)')
  $options['emulator'] = @('--host', 'address to listen on', '--port', 'port to listen on (0 picks a free one)', '--token', 'the development token to accept (must start with cpk_)', '--latency', 'delay every API response by this many milliseconds', '--fail-rate', 'answer this fraction (0..1) of API requests with a 503', '--admin-secret', 'secret for the fault-injection routes (default: random, printed)', '--quiet', 'do not log requests to stderr', '-q', 'do not log requests to stderr', '--help', 'show help', '-h', 'show help', '--version', 'print the version', '--base-url', 'service base URL (env CPK_BASE_URL; default http://127.0.0.1:4010/v1, the local emulator)', '--json', 'print results as JSON (errors as one JSON object on stderr)', '--query', 'JMESPath expression applied to the JSON result; implies --json; a string prints raw', '--timeout', 'time limit for each request attempt (default 30)', '--retries', 'retries of a failed request that is safe to repeat (default 2, i.e. 3 attempts; env CPK_MAX_ATTEMPTS counts attempts in all)', '--debug', 'trace requests and responses on stderr (the token is redacted)', '--no-color', 'no color (also NO_COLOR=1 or CI=true)')
  $options['completion'] = @('--help', 'show help', '-h', 'show help', '--version', 'print the version', '--base-url', 'service base URL (env CPK_BASE_URL; default http://127.0.0.1:4010/v1, the local emulator)', '--json', 'print results as JSON (errors as one JSON object on stderr)', '--query', 'JMESPath expression applied to the JSON result; implies --json; a string prints raw', '--timeout', 'time limit for each request attempt (default 30)', '--retries', 'retries of a failed request that is safe to repeat (default 2, i.e. 3 attempts; env CPK_MAX_ATTEMPTS counts attempts in all)', '--debug', 'trace requests and responses on stderr (the token is redacted)', '--no-color', 'no color (also NO_COLOR=1 or CI=true)')
  $valued[''] = @('--base-url', '--query', '--timeout', '--retries')
  $valued['monitors'] = @('--base-url', '--query', '--timeout', '--retries')
  $valued['monitors create'] = @('--name', '--type', '--target', '--interval', '--set', '--set-string', '--data', '--from', '--concurrency', '--base-url', '--query', '--timeout', '--retries')
  $valued['monitors get'] = @('--concurrency', '--base-url', '--query', '--timeout', '--retries')
  $valued['monitors update'] = @('--name', '--type', '--target', '--interval', '--set', '--set-string', '--data', '--base-url', '--query', '--timeout', '--retries')
  $valued['monitors delete'] = @('--concurrency', '--base-url', '--query', '--timeout', '--retries')
  $valued['monitors help'] = @('--base-url', '--query', '--timeout', '--retries')
  $valued['channels'] = @('--base-url', '--query', '--timeout', '--retries')
  $valued['channels update'] = @('--set', '--set-string', '--data', '--base-url', '--query', '--timeout', '--retries')
  $valued['channels help'] = @('--base-url', '--query', '--timeout', '--retries')
  $valued['reports'] = @('--base-url', '--query', '--timeout', '--retries')
  $valued['reports get'] = @('--every', '--base-url', '--query', '--timeout', '--retries')
  $valued['reports help'] = @('--base-url', '--query', '--timeout', '--retries')
  $valued['openapi'] = @('--base-url', '--query', '--timeout', '--retries')
  $valued['api'] = @('--set', '--set-string', '--data', '--base-url', '--query', '--timeout', '--retries')
  $valued['plan'] = @('--file', '-f', '--state', '--concurrency', '--base-url', '--query', '--timeout', '--retries')
  $valued['apply'] = @('--file', '-f', '--state', '--concurrency', '--base-url', '--query', '--timeout', '--retries')
  $valued['import'] = @('--file', '-f', '--state', '--base-url', '--query', '--timeout', '--retries')
  $valued['emulator'] = @('--host', '--port', '--token', '--latency', '--fail-rate', '--admin-secret', '--base-url', '--query', '--timeout', '--retries')
  $valued['completion'] = @('--base-url', '--query', '--timeout', '--retries')

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
