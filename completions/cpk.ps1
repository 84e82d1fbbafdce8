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
  $commands[''] = @('monitors', 'Create, show, change and delete monitors', 'channels', 'Change channel settings', 'reports', 'Read reports', 'openapi', 'Print the service''s public OpenAPI document (sent without a token)', 'emulator', 'Run a local emulator of the service (in memory), for trying cpk and testing scripts', 'completion', 'Print the shell completion script for bash, zsh, fish or powershell')
  $commands['monitors'] = @('create', 'Create a monitor', 'get', 'Show a monitor', 'update', 'Change fields of a monitor (only the fields given are sent)', 'delete', 'Delete a monitor (asks first on a terminal)', 'help', 'display help for command')
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
  $commands['emulator'] = @()
  $commands['completion'] = @('bash', 'bash', 'zsh', 'zsh', 'fish', 'fish', 'powershell', 'powershell')
  $options[''] = @('--version', 'print the version', '--base-url', 'service base URL (env CPK_BASE_URL; default http://127.0.0.1:4010/v1, the local emulator)', '--json', 'print results as JSON (errors as one JSON object on stderr)', '--timeout', 'time limit for each request attempt (default 30)', '--debug', 'trace requests and responses on stderr (the token is redacted)', '--no-color', 'no color (also NO_COLOR=1 or CI=true)', '--help', 'show help', '-h', 'show help')
  $options['monitors'] = @('--help', 'show help', '-h', 'show help', '--version', 'print the version', '--base-url', 'service base URL (env CPK_BASE_URL; default http://127.0.0.1:4010/v1, the local emulator)', '--json', 'print results as JSON (errors as one JSON object on stderr)', '--timeout', 'time limit for each request attempt (default 30)', '--debug', 'trace requests and responses on stderr (the token is redacted)', '--no-color', 'no color (also NO_COLOR=1 or CI=true)')
  $options['monitors create'] = @('--name', 'human label of the monitor (required unless given in --data)', '--type', 'kind of check, e.g. http', '--target', 'what is checked; for an HTTP check, a URL', '--interval', 'seconds between checks: 60, 90s, 5m, 1h', '--set', 'set any other field; the value is parsed as JSON when it is JSON (repeatable; dotted keys nest)', '--set-string', 'set any other field to a string, always (repeatable)', '--data', 'the request body: a JSON object, @file, or - for stdin (flags are merged over it)', '--quiet', 'print only the new monitor id', '-q', 'print only the new monitor id', '--help', 'show help', '-h', 'show help', '--version', 'print the version', '--base-url', 'service base URL (env CPK_BASE_URL; default http://127.0.0.1:4010/v1, the local emulator)', '--json', 'print results as JSON (errors as one JSON object on stderr)', '--timeout', 'time limit for each request attempt (default 30)', '--debug', 'trace requests and responses on stderr (the token is redacted)', '--no-color', 'no color (also NO_COLOR=1 or CI=true)')
  $options['monitors get'] = @('--help', 'show help', '-h', 'show help', '--version', 'print the version', '--base-url', 'service base URL (env CPK_BASE_URL; default http://127.0.0.1:4010/v1, the local emulator)', '--json', 'print results as JSON (errors as one JSON object on stderr)', '--timeout', 'time limit for each request attempt (default 30)', '--debug', 'trace requests and responses on stderr (the token is redacted)', '--no-color', 'no color (also NO_COLOR=1 or CI=true)')
  $options['monitors update'] = @('--name', 'new name', '--type', 'new kind of check', '--target', 'new target', '--interval', 'new interval: 60, 90s, 5m, 1h', '--set', 'set a field; the value is parsed as JSON when it is JSON (repeatable; dotted keys nest)', '--set-string', 'set a field to a string, always (repeatable)', '--data', 'fields as a JSON object, @file, or - for stdin (flags are merged over it)', '--help', 'show help', '-h', 'show help', '--version', 'print the version', '--base-url', 'service base URL (env CPK_BASE_URL; default http://127.0.0.1:4010/v1, the local emulator)', '--json', 'print results as JSON (errors as one JSON object on stderr)', '--timeout', 'time limit for each request attempt (default 30)', '--debug', 'trace requests and responses on stderr (the token is redacted)', '--no-color', 'no color (also NO_COLOR=1 or CI=true)')
  $options['monitors delete'] = @('--yes', 'do not ask for confirmation (required when stdin is not a terminal)', '-y', 'do not ask for confirmation (required when stdin is not a terminal)', '--help', 'show help', '-h', 'show help', '--version', 'print the version', '--base-url', 'service base URL (env CPK_BASE_URL; default http://127.0.0.1:4010/v1, the local emulator)', '--json', 'print results as JSON (errors as one JSON object on stderr)', '--timeout', 'time limit for each request attempt (default 30)', '--debug', 'trace requests and responses on stderr (the token is redacted)', '--no-color', 'no color (also NO_COLOR=1 or CI=true)')
  $options['monitors help'] = @('--version', 'print the version', '--base-url', 'service base URL (env CPK_BASE_URL; default http://127.0.0.1:4010/v1, the local emulator)', '--json', 'print results as JSON (errors as one JSON object on stderr)', '--timeout', 'time limit for each request attempt (default 30)', '--debug', 'trace requests and responses on stderr (the token is redacted)', '--no-color', 'no color (also NO_COLOR=1 or CI=true)')
  $options['channels'] = @('--help', 'show help', '-h', 'show help', '--version', 'print the version', '--base-url', 'service base URL (env CPK_BASE_URL; default http://127.0.0.1:4010/v1, the local emulator)', '--json', 'print results as JSON (errors as one JSON object on stderr)', '--timeout', 'time limit for each request attempt (default 30)', '--debug', 'trace requests and responses on stderr (the token is redacted)', '--no-color', 'no color (also NO_COLOR=1 or CI=true)')
  $options['channels update'] = @('--set', 'set a field; the value is parsed as JSON when it is JSON (repeatable; dotted keys nest)', '--set-string', 'set a field to a string, always (repeatable)', '--data', 'fields as a JSON object, @file, or - for stdin (flags are merged over it)', '--help', 'show help', '-h', 'show help', '--version', 'print the version', '--base-url', 'service base URL (env CPK_BASE_URL; default http://127.0.0.1:4010/v1, the local emulator)', '--json', 'print results as JSON (errors as one JSON object on stderr)', '--timeout', 'time limit for each request attempt (default 30)', '--debug', 'trace requests and responses on stderr (the token is redacted)', '--no-color', 'no color (also NO_COLOR=1 or CI=true)')
  $options['channels help'] = @('--version', 'print the version', '--base-url', 'service base URL (env CPK_BASE_URL; default http://127.0.0.1:4010/v1, the local emulator)', '--json', 'print results as JSON (errors as one JSON object on stderr)', '--timeout', 'time limit for each request attempt (default 30)', '--debug', 'trace requests and responses on stderr (the token is redacted)', '--no-color', 'no color (also NO_COLOR=1 or CI=true)')
  $options['reports'] = @('--help', 'show help', '-h', 'show help', '--version', 'print the version', '--base-url', 'service base URL (env CPK_BASE_URL; default http://127.0.0.1:4010/v1, the local emulator)', '--json', 'print results as JSON (errors as one JSON object on stderr)', '--timeout', 'time limit for each request attempt (default 30)', '--debug', 'trace requests and responses on stderr (the token is redacted)', '--no-color', 'no color (also NO_COLOR=1 or CI=true)')
  $options['reports get'] = @('--watch', 'refresh until Ctrl-C: in place on a terminal, else one JSON line per change', '-w', 'refresh until Ctrl-C: in place on a terminal, else one JSON line per change', '--every', 'time between refreshes with --watch: 10s, 1m, 5m (default 30s)', '--help', 'show help', '-h', 'show help', '--version', 'print the version', '--base-url', 'service base URL (env CPK_BASE_URL; default http://127.0.0.1:4010/v1, the local emulator)', '--json', 'print results as JSON (errors as one JSON object on stderr)', '--timeout', 'time limit for each request attempt (default 30)', '--debug', 'trace requests and responses on stderr (the token is redacted)', '--no-color', 'no color (also NO_COLOR=1 or CI=true)')
  $options['reports help'] = @('--version', 'print the version', '--base-url', 'service base URL (env CPK_BASE_URL; default http://127.0.0.1:4010/v1, the local emulator)', '--json', 'print results as JSON (errors as one JSON object on stderr)', '--timeout', 'time limit for each request attempt (default 30)', '--debug', 'trace requests and responses on stderr (the token is redacted)', '--no-color', 'no color (also NO_COLOR=1 or CI=true)')
  $options['openapi'] = @('--help', 'show help', '-h', 'show help', '--version', 'print the version', '--base-url', 'service base URL (env CPK_BASE_URL; default http://127.0.0.1:4010/v1, the local emulator)', '--json', 'print results as JSON (errors as one JSON object on stderr)', '--timeout', 'time limit for each request attempt (default 30)', '--debug', 'trace requests and responses on stderr (the token is redacted)', '--no-color', 'no color (also NO_COLOR=1 or CI=true)')
  $options['emulator'] = @('--host', 'address to listen on', '--port', 'port to listen on (0 picks a free one)', '--token', 'the development token to accept (must start with cpk_)', '--latency', 'delay every API response by this many milliseconds', '--fail-rate', 'answer this fraction (0..1) of API requests with a 503', '--admin-secret', 'secret for the fault-injection routes (default: random, printed)', '--quiet', 'do not log requests to stderr', '-q', 'do not log requests to stderr', '--help', 'show help', '-h', 'show help', '--version', 'print the version', '--base-url', 'service base URL (env CPK_BASE_URL; default http://127.0.0.1:4010/v1, the local emulator)', '--json', 'print results as JSON (errors as one JSON object on stderr)', '--timeout', 'time limit for each request attempt (default 30)', '--debug', 'trace requests and responses on stderr (the token is redacted)', '--no-color', 'no color (also NO_COLOR=1 or CI=true)')
  $options['completion'] = @('--help', 'show help', '-h', 'show help', '--version', 'print the version', '--base-url', 'service base URL (env CPK_BASE_URL; default http://127.0.0.1:4010/v1, the local emulator)', '--json', 'print results as JSON (errors as one JSON object on stderr)', '--timeout', 'time limit for each request attempt (default 30)', '--debug', 'trace requests and responses on stderr (the token is redacted)', '--no-color', 'no color (also NO_COLOR=1 or CI=true)')
  $valued[''] = @('--base-url', '--timeout')
  $valued['monitors'] = @('--base-url', '--timeout')
  $valued['monitors create'] = @('--name', '--type', '--target', '--interval', '--set', '--set-string', '--data', '--base-url', '--timeout')
  $valued['monitors get'] = @('--base-url', '--timeout')
  $valued['monitors update'] = @('--name', '--type', '--target', '--interval', '--set', '--set-string', '--data', '--base-url', '--timeout')
  $valued['monitors delete'] = @('--base-url', '--timeout')
  $valued['monitors help'] = @('--base-url', '--timeout')
  $valued['channels'] = @('--base-url', '--timeout')
  $valued['channels update'] = @('--set', '--set-string', '--data', '--base-url', '--timeout')
  $valued['channels help'] = @('--base-url', '--timeout')
  $valued['reports'] = @('--base-url', '--timeout')
  $valued['reports get'] = @('--every', '--base-url', '--timeout')
  $valued['reports help'] = @('--base-url', '--timeout')
  $valued['openapi'] = @('--base-url', '--timeout')
  $valued['emulator'] = @('--host', '--port', '--token', '--latency', '--fail-rate', '--admin-secret', '--base-url', '--timeout')
  $valued['completion'] = @('--base-url', '--timeout')

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
