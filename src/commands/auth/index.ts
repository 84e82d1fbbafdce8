import type { Command } from 'commander';
import { examples, type Runtime } from '../../cli/action.js';
import { register as login } from './login.js';
import { register as status } from './status.js';
import { register as logout } from './logout.js';
import { register as token } from './token.js';

export function register(program: Command, runtime: Runtime): void {
  const auth = program
    .command('auth')
    .description('Sign in and out: store a token per profile (keychain, or a 0600 file), show which one is in use');
  examples(
    auth,
    'cpk auth login',
    'echo "$TOKEN" | cpk auth login --with-token --profile prod --base-url URL',
    'cpk auth status',
  );
  for (const verb of [login, status, logout, token]) verb(auth, runtime);
}
