// The mask that guards what leaves cpk (src/core/redact.ts): the secrets in
// use, exactly, on stdout and stderr; credential shapes (cpk tokens, any
// Authorization value, Bearer and Basic credentials, a URL's user and
// password) on stderr only. Table-driven, with whitespace runs and brackets
// around the credential, and property-based where the input is untrusted.
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import {
  forgetSecrets,
  redactKnown,
  redactSecrets,
  registerSecret,
  registerUrlCredentials,
} from '../../src/core/redact.js';

afterEach(() => forgetSecrets());

describe('redactSecrets: credential shapes (stderr)', () => {
  it.each([
    // A cpk token alone.
    ['token cpk_dev_emulator_token here', 'token cpk_[REDACTED] here'],
    ['short cpk_abc is not a token', 'short cpk_abc is not a token'],
    // Bearer: any run of spaces and tabs after the scheme, and only the credential is replaced.
    ['Bearer abc.def-ghi', 'Bearer [REDACTED]'],
    ['Bearer  abc.def', 'Bearer  [REDACTED]'],
    ['Bearer\t\tabc.def', 'Bearer\t\t[REDACTED]'],
    ['bearer \t  abc.def rest', 'bearer \t  [REDACTED] rest'],
    ['(Bearer cpk_abcdefghijkl)', '(Bearer [REDACTED])'],
    ['(Bearer opaque-secret)', '(Bearer [REDACTED])'],
    ['[Bearer opaque] {Bearer x1} <Bearer y2>', '[Bearer [REDACTED]] {Bearer [REDACTED]} <Bearer [REDACTED]>'],
    ['Bearer [REDACTED] stays', 'Bearer [REDACTED] stays'],
    ['Bearer cpk_[REDACTED] stays', 'Bearer [REDACTED] stays'],
    // Basic: base64 of user:password, after any run of spaces and tabs.
    ['Basic dXNlcjpwYXNz', 'Basic [REDACTED]'],
    ['(Basic  \tdXNlcjpwYXNzd29yZA==)', '(Basic  \t[REDACTED])'],
    ['Basic auth failed', 'Basic auth failed'],
    // Any Authorization or Proxy-Authorization value, whatever the scheme; the scheme's name is kept.
    ['< proxy-authorization: Basic Ym9iOmh1bnRlcjI=', '< proxy-authorization: Basic [REDACTED]'],
    ['< x-echo-proxy-authorization: Negotiate YIIabc', '< x-echo-proxy-authorization: Negotiate [REDACTED]'],
    ['Proxy-Authorization: Digest username="bob", response="6629f"', 'Proxy-Authorization: Digest [REDACTED]'],
    ['Authorization:   opaque-credential', 'Authorization:   [REDACTED]'],
    ['authorization: Bearer [REDACTED]', 'authorization: Bearer [REDACTED]'],
    ['{"Proxy-Authorization":"Token abc def","x":1}', '{"Proxy-Authorization":"Token [REDACTED]","x":1}'],
    ['{"authorization": "opaque"}', '{"authorization": "[REDACTED]"}'],
    ['{\\"authorization\\":\\"Bearer xyz\\"}', '{\\"authorization\\":\\"Bearer [REDACTED]\\"}'],
    ['check the Authorization header', 'check the Authorization header'],
    // A URL's user information.
    ['proxy http://bob:hunter2@127.0.0.1:3128/ failed', 'proxy http://[REDACTED]@127.0.0.1:3128/ failed'],
    ['(https://user@proxy.example:8080)', '(https://[REDACTED]@proxy.example:8080)'],
    ['http://127.0.0.1:3128/ has none', 'http://127.0.0.1:3128/ has none'],
    ['mail bob@example.com', 'mail bob@example.com'],
  ])('%j -> %j', (input, output) => {
    expect(redactSecrets(input)).toBe(output);
  });

  it('property: a cpk_ token inside any text never survives', () => {
    fc.assert(
      fc.property(fc.string(), fc.stringMatching(/^[A-Za-z0-9_]{8,40}$/), fc.string(), (before, secret, after) => {
        const token = `cpk_${secret}`;
        expect(redactSecrets(`${before} ${token} ${after}`)).not.toContain(token);
      }),
    );
  });

  it('property: a Bearer or Basic credential after any run of blanks never survives, and what follows is kept', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('Bearer', 'bearer', 'Basic'),
        fc.stringMatching(/^[ \t]{1,6}$/),
        fc.stringMatching(/^[A-Za-z0-9]{6,20}$/),
        fc.stringMatching(/^[A-Za-z0-9]{6,20}$/),
        fc.constantFrom(')', ']', '}', '>', ' tail', '"', ''),
        (scheme, blanks, user, password, after) => {
          const credential =
            scheme === 'Basic' ? Buffer.from(`${user}:${password}`).toString('base64') : `${user}.${password}`;
          const text = redactSecrets(`(${scheme}${blanks}${credential}${after}`);
          expect(text).toBe(`(${scheme}${blanks}[REDACTED]${after}`);
        },
      ),
    );
  });
});

describe('registered secrets', () => {
  it('a registered secret of any shape is masked on stdout and stderr, everywhere in the text', () => {
    expect(redactKnown('a s3cr3t!value b s3cr3t!value')).toBe('a s3cr3t!value b s3cr3t!value');
    registerSecret('s3cr3t!value');
    registerSecret('cpk_sh0rt');
    expect(redactKnown('a s3cr3t!value b s3cr3t!value')).toBe('a [REDACTED] b [REDACTED]');
    expect(redactKnown('{"message":"cpk_sh0rt is not valid"}')).toBe('{"message":"cpk_[REDACTED] is not valid"}');
    expect(redactSecrets('why: s3cr3t!value')).toBe('why: [REDACTED]');
  });

  it('a secret with a quote or a backslash is masked inside JSON too, and the JSON stays valid', () => {
    const secret = 'cpk_a"b\\c_token';
    registerSecret(secret);
    const json = JSON.stringify({ echoed: `you sent ${secret}`, n: 1 });
    const masked = redactKnown(json);
    expect(JSON.parse(masked)).toEqual({ echoed: 'you sent cpk_[REDACTED]', n: 1 });
  });

  it('secrets shorter than 4 characters are not registered (they would mask ordinary text)', () => {
    registerSecret('abc');
    registerSecret('');
    registerSecret(undefined);
    expect(redactKnown('abc abc')).toBe('abc abc');
  });

  it('stdout masks only registered secrets, never shapes (a monitor named cpk_checkout_prod is data)', () => {
    expect(redactKnown('cpk_checkout_prod Bearer words http://u:p@h/')).toBe(
      'cpk_checkout_prod Bearer words http://u:p@h/',
    );
  });

  it("a proxy's password is masked on stderr only, the Basic value sent on stdout too", () => {
    registerUrlCredentials('http://bob:p%40ss-word@127.0.0.1:3128');
    const basic = Buffer.from('bob:p@ss-word').toString('base64');
    expect(redactSecrets(`echo p@ss-word and ${basic}`)).toBe('echo [REDACTED] and [REDACTED]');
    expect(redactKnown(`p@ss-word ${basic}`)).toBe('p@ss-word [REDACTED]');
  });

  it('a proxy URL without credentials or not a URL registers nothing', () => {
    registerUrlCredentials('http://127.0.0.1:3128');
    registerUrlCredentials('not a url');
    registerUrlCredentials(undefined);
    expect(redactSecrets('127.0.0.1:3128 not a url')).toBe('127.0.0.1:3128 not a url');
  });

  it('masking stays linear: 50,000 rows holding the secret are masked in one pass', () => {
    registerSecret('cpk_rowsecret_123456');
    const rows = Array.from({ length: 50_000 }, (_, i) => `mon_${i} up cpk_rowsecret_123456`).join('\n');
    const started = performance.now();
    const masked = redactKnown(rows);
    // Only to catch a quadratic blow-up or a hang, far above the expected few milliseconds.
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(masked).not.toContain('cpk_rowsecret_123456');
    expect(masked.split('\n')).toHaveLength(50_000);
  });
});

describe('registered secrets: the edges', () => {
  it('a secret of four characters is masked; one of three is too short to mask anything', () => {
    registerSecret('abcd');
    registerSecret('xyz');
    expect(redactKnown('abcd xyz')).toBe('[REDACTED] xyz');
  });

  it('a proxy user without a password: the Basic value sent is masked on stdout', () => {
    registerUrlCredentials('http://alice@127.0.0.1:3128');
    const basic = Buffer.from('alice:').toString('base64');
    expect(redactKnown(`sent ${basic}`)).toBe('sent [REDACTED]');
  });

  it('a proxy password without a user: masked on stderr, and the Basic value on stdout', () => {
    registerUrlCredentials('http://:hunter2pass@127.0.0.1:3128');
    expect(redactSecrets('the proxy said hunter2pass')).toBe('the proxy said [REDACTED]');
    expect(redactKnown(Buffer.from(':hunter2pass').toString('base64'))).toBe('[REDACTED]');
  });

  it('a proxy URL without credentials masks nothing, not even the Basic value of an empty pair', () => {
    registerUrlCredentials('http://127.0.0.1:3128');
    const emptyPair = Buffer.from(':').toString('base64');
    expect(redactKnown(`data ${emptyPair}`)).toBe(`data ${emptyPair}`);
  });

  it('a password whose percent-encoding is broken is masked as written', () => {
    registerUrlCredentials('http://u:pw%E0%A4%A@127.0.0.1:3128');
    expect(redactSecrets('echo pw%E0%A4%A')).toBe('echo [REDACTED]');
  });

  it('forgetSecrets forgets every registered secret, on stdout and stderr', () => {
    registerSecret('cpk_forgotten_token_1');
    registerUrlCredentials('http://u:forgottenpass@127.0.0.1:3128');
    forgetSecrets();
    expect(redactKnown('cpk_forgotten_token_1')).toBe('cpk_forgotten_token_1');
    expect(redactSecrets('forgottenpass')).toBe('forgottenpass');
  });
});
