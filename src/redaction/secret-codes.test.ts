import { describe, expect, it } from 'vitest';
import { redactSecrets } from './redact.js';
import { codeSecrets, isCodeValue } from './secret-codes.js';
import { LINEAR_TIME_BUDGET_MS, timeMs } from '../../test/support/linear-time.js';

const redact = (text: string) => redactSecrets(text).text;

describe('codes named in a sentence (#32)', () => {
  it.each([
    ["the gate code for the warehouse is 4471-B, don't share it", "the gate code for the warehouse is [ACCESS_CODE], don't share it"],
    ['The door code is 8812.', 'The door code is [ACCESS_CODE].'],
    ['4471 is the gate code.', '[ACCESS_CODE] is the gate code.'],
    ['gate code: 4471-B', 'gate code: [ACCESS_CODE]'],
    ['Front door code 4471#', 'Front door code [ACCESS_CODE]'],
    ['Use 7731 as the alarm code.', 'Use [ACCESS_CODE] as the alarm code.'],
    ['The alarm code for the office is 90210#', 'The alarm code for the office is [ACCESS_CODE]'],
    ['The code for the warehouse gate is 4471-B.', 'The code for the warehouse gate is [ACCESS_CODE].'],
    ['the code to get in is 4471', 'the code to get in is [ACCESS_CODE]'],
    ['4471 is the code for the gate', '[ACCESS_CODE] is the code for the gate'],
    ['enter 4471 at the gate', 'enter [ACCESS_CODE] at the gate'],
    ['punch in 90210# to disarm the alarm', 'punch in [ACCESS_CODE] to disarm the alarm'],
    ['Use code 4471 for the front door.', 'Use code [ACCESS_CODE] for the front door.'],
    ['the combination to the safe is 12-34-56', 'the combination to the safe is [COMBINATION]'],
    ['The bike lock combination is 3-1-4', 'The bike lock combination is [COMBINATION]'],
    ['my backup code is 8391-2204', 'my backup code is [RECOVERY_CODE]'],
    ['Recovery codes: a1b2-c3d4, e5f6-g7h8', 'Recovery codes: [RECOVERY_CODE], [RECOVERY_CODE]'],
    ['Backup codes: 1234 5678, 2345 6789 and 3456 7890', 'Backup codes: [RECOVERY_CODE], [RECOVERY_CODE] and [RECOVERY_CODE]'],
    ['Backup codes:\n1234-5678\n- 2345-6789\nThanks', 'Backup codes:\n[RECOVERY_CODE]\n- [RECOVERY_CODE]\nThanks'],
    ['The 2FA code is 482913', 'The 2FA code is [ONE_TIME_CODE]'],
    ['your one-time code is 739201', 'your one-time code is [ONE_TIME_CODE]'],
    ['verification code: 551203', 'verification code: [ONE_TIME_CODE]'],
    ['G-551203 is your Google verification code.', '[ONE_TIME_CODE] is your Google verification code.'],
    ['Your OTP is 739201', 'Your OTP is [ONE_TIME_CODE]'],
    ['the CVV is 123', 'the CVV is [CARD_SECURITY_CODE]'],
    ['1234 is my PIN', '[PIN] is my PIN'],
    ['hunter22 is my password', '[PASSWORD] is my password'],
    // Other languages' common forms.
    ['le digicode est 4471B', 'le digicode est [ACCESS_CODE]'],
    ['Le code de la porte est 4471B.', 'Le code de la porte est [ACCESS_CODE].'],
    ['Der Türcode ist 4471.', 'Der Türcode ist [ACCESS_CODE].'],
    ['El código de la puerta es 4471.', 'El código de la puerta es [ACCESS_CODE].'],
    ['Il codice di accesso è 88231', 'Il codice di accesso è [ACCESS_CODE]'],
    ['A senha é gato2024', 'A senha é [PASSWORD]'],
    // Seed and recovery phrases (BIP-39's shape after their name).
    [
      "here's my seed phrase — abandon ability able about above absent absorb abstract absurd abuse access accident",
      "here's my seed phrase — [SEED_PHRASE]",
    ],
    ['seed words: legal winner thank year wave sausage worth useful legal winner thank yellow', 'seed words: [SEED_PHRASE]'],
    [
      'recovery phrase: 1. legal 2. winner 3. thank 4. year 5. wave 6. sausage 7. worth 8. useful 9. legal 10. winner 11. thank 12. yellow',
      'recovery phrase: [SEED_PHRASE]',
    ],
    [
      'The seed phrase is abandon ability able about above absent absorb abstract absurd abuse access accident',
      'The seed phrase is [SEED_PHRASE]',
    ],
  ])('%j', (input, expected) => {
    expect(redact(input)).toBe(expected);
  });

  it.each([
    'the error code is 404',
    'zip code 90210',
    'my zip code is 90210',
    'my area code is 415 and my zip code is 94110',
    'We had a code review today.',
    'The HTTP status code is 200 for this route',
    'The country code is +44.',
    'the country code for France is +33',
    'the source code is on GitHub',
    'the source code for the gate controller is 4000 lines',
    'exit code is 137',
    'the code is in src/main.ts',
    'the code is clean',
    'code 42 is the answer',
    'Lines of code: 1200',
    'the code of conduct is v2.1',
    // Promo, discount and coupon codes are made to be shared: kept (docs/security.md).
    'The promo code is SUMMER25',
    'The discount code is SAVE10 until Friday',
    'I used code SAVE20 at checkout',
    'the error code for the door controller is E42',
    'the door code changed in 2023',
    'We moved the gate code review to 3pm',
    'the alarm code is set for 10pm',
    'the gate code is 4 digits long',
    'the access code is in the email',
    'Recovery codes are 10 single-use codes',
    'The verification code expires in 10 minutes.',
    'The backup code in scripts/backup.sh is v2',
    'the winning combination is a good defence and fast breaks',
    'A combination of factors is 3 times more likely',
    'they gave me a QR code with 4 squares',
    'Use 4 spaces for the indentation of the door module',
    'pin 1234 to the top of the board',
    'the seed phrase is stored offline in a safe place',
    'We seed the database with 12 rows before each test run',
    'Rule 101 is the password policy',
  ])('leaves %j as written', (input) => {
    expect(redact(input)).toBe(input);
  });

  it('takes only code-shaped values', () => {
    expect(isCodeValue('4471-B', 'ACCESS_CODE')).toBe(true);
    expect(isCodeValue('90210#', 'ACCESS_CODE')).toBe(true);
    for (const v of ['2024-05-01', '10pm', '3rd', 'v2', 'utf8', 'ab', '4']) expect(isCodeValue(v, 'ACCESS_CODE'), v).toBe(false);
    expect(isCodeValue('12-34-56', 'COMBINATION')).toBe(true);
    expect(isCodeValue('A1-B2', 'COMBINATION')).toBe(false);
  });

  it('reports each code with its kind', () => {
    expect(redactSecrets('gate code: 4471, backup code: 1234-5678').redactions).toEqual([
      { kind: 'ACCESS_CODE', count: 1 },
      { kind: 'RECOVERY_CODE', count: 1 },
    ]);
  });

  it('runs in linear time on adversarial inputs', () => {
    const N = 50_000;
    const fill = (unit: string) => unit.repeat(Math.ceil(N / unit.length)).slice(0, N);
    const inputs = [
      fill('gate code '),
      fill('the code for the gate door safe '),
      fill('1234 is the gate code '),
      fill('use 1234 as the '),
      fill('enter 1234 at the a b c '),
      `Recovery codes: ${fill('1234 ')}`,
      `Recovery codes:${fill('\n1234-5678')}`,
      fill('code code code '),
      fill('combination 1-'),
      `seed phrase ${fill(' ')}x`,
      fill('secret secret seed '),
      `seed words: ${fill('abc ')}`,
      fill('a1-'),
      `gate code ${fill(' ')}is`,
      `sha384-${fill('A1b/')}`,
      `data:image/png;base64,${fill('A1b/')}`,
      fill('data:a/b;c=d;base64,'),
      fill('ssh-rsa '),
      `-----BEGIN CERTIFICATE-----${fill('\nA: b')}`,
    ];
    for (const input of inputs) {
      expect(
        timeMs(() => codeSecrets(input)),
        input.slice(0, 40),
      ).toBeLessThan(LINEAR_TIME_BUDGET_MS);
      expect(
        timeMs(() => redactSecrets(input, { rejectUnmaskable: false })),
        input.slice(0, 40),
      ).toBeLessThan(LINEAR_TIME_BUDGET_MS);
    }
  });
});

describe('public digests and keys stay (#32)', () => {
  const SHA384 = 'geWF76RCwLtnZ8qwWowPQNguL3RmwHVBC9FhGdlKrxdiJJigb/j/68SIy3Te4Bkz';
  const SHA512 = 'v2kDEe57lecTulaDIuNTPy3Ry4gLGJ6Z1O3vE1krgXZNrsQ+LFTGHVxVjcXPs817LtnV6rLYj3XjtEGzP/5uEuQ==';
  const RSA_PUB =
    'AAAAB3NzaC1yc2EAAAADAQABAAABgQC7x9Jq2mZ5wK8vN3pL1tR6yU0iO4aS7dF2gH5jK9lZ3xC1vB8nM4qW6eR0tY2uI7oP3aS5dF9gH1jK3lZ7xC5vB9nM1qW';

  it.each([
    `<script src="https://cdn.jsdelivr.net/npm/bootstrap@5.3.0/dist/js/bootstrap.bundle.min.js" integrity="sha384-${SHA384}" crossorigin="anonymous"></script>`,
    `"integrity": "sha512-${SHA512}",`,
    `  integrity sha512-${SHA512}`,
    `Content-Security-Policy: script-src 'sha512-${SHA512}'`,
    'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855  node-v20.tar.gz',
    'docker pull nginx@sha256:0d17b565c37bcbd895e9d92315a05c1c3c9a29f762b011a10c54a66cd53c9b31',
    'commit 9fceb02d0ae598e95dc970b74767f19372d61af8',
    'see https://github.com/org/repo/commit/9fceb02d0ae598e95dc970b74767f19372d61af8',
    'fixed in 9fceb02, reverted in a1b2c3d',
    `ssh-rsa ${RSA_PUB} alice@laptop`,
    `<img src="data:image/png;base64,${SHA512.replace(/=+$/, '')}">`,
    `add this to authorized_keys: ${RSA_PUB}`,
    '-----BEGIN CERTIFICATE-----\nMIIDdzCCAl+gAwIBAgIEAgAAuTANBgkqhkiG9w0BAQUFADBaMQswCQYDVQQGEwJJRTES\nMBAGA1UEChMJQmFsdGltb3JlMRMwEQYDVQQLEwpDeWJlclRydXN0MSIwIAYDVQQD\n-----END CERTIFICATE-----',
  ])('leaves %j as written', (input) => {
    expect(redact(input)).toBe(input);
  });

  it('still masks a real base64 secret, in a secret place or alone', () => {
    expect(redact(`HMAC key: ${SHA512}`)).toBe('HMAC key: [BASE64_BLOB]');
    expect(redact(`client_secret: ${SHA384}`)).toBe('client_secret: [SECRET]');
    expect(redact(`here is a blob ${SHA384.replace('geWF', 'zeWF')} for you`)).toBe('here is a blob [BASE64_BLOB] for you');
    expect(redact(`api_token=9fceb02d0ae598e95dc970b74767f19372d61af8`)).toBe('api_token=[TOKEN]');
    // A digest's prefix must stand right before it: "sha512- " then a blob is no SRI value.
    expect(redact(`sha512 is used; secret ${SHA512}`)).toBe('sha512 is used; secret [BASE64_BLOB]');
  });
});
