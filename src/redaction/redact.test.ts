import { describe, it, expect } from 'vitest';
import { PiiRejectedError, ValidationError } from '../errors.js';
import { redactSecrets } from './redact.js';
import { isPlausibleCardNumber } from './redact-patterns.js';
import { classifyKey } from './secret-assignments.js';

const redact = (text: string) => redactSecrets(text);
const kinds = (text: string) => Object.fromEntries(redact(text).redactions.map((r) => [r.kind, r.count]));

describe('redactSecrets: secret and PII patterns', () => {
  it('reproduces the seed example (only the password value is replaced)', () => {
    const input = "I configured the database with password='super_secret_123' and\nAWS key AKIAIOSFODNN7EXAMPLE for the Lambda function.";
    const { text, redactions } = redact(input);
    expect(text).toBe("I configured the database with password='[PASSWORD]' and\nAWS key [AWS_ACCESS_KEY] for the Lambda function.");
    expect(redactions).toEqual([
      { kind: 'AWS_ACCESS_KEY', count: 1 },
      { kind: 'PASSWORD', count: 1 },
    ]);
  });

  it('masks an AWS secret access key assignment', () => {
    const { text } = redact('aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY');
    expect(text).toBe('aws_secret_access_key = [AWS_SECRET_KEY]');
  });

  it('masks whole private key blocks, also unterminated ones', () => {
    const block = '-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA1234\nabcd==\n-----END RSA PRIVATE KEY-----';
    expect(redact(`key:\n${block}\ndone`).text).toBe('key:\n[PRIVATE_KEY]\ndone');
    expect(redact('-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA').text).toBe('[PRIVATE_KEY]');
  });

  it('masks api keys, bearer tokens and known token formats', () => {
    expect(redact('api_key=abcd1234efgh5678ijkl9012').text).toBe('api_key=[API_KEY]');
    expect(redact('X-API-Key: 9f8e7d6c5b4a').text).toBe('X-API-Key: [API_KEY]');
    expect(redact('Authorization: Bearer eyJhbGciOiJIUzI1NiJ9abcdefghijklmnopqrstuvwxyz0123').text).toBe(
      'Authorization: Bearer [BEARER_TOKEN]',
    );
    expect(redact('export GITHUB_TOKEN=ghp_abcdefghijklmnopqrstuvwxyz0123456789').text).toBe('export GITHUB_TOKEN=[GITHUB_TOKEN]');
    expect(redact('OPENAI_API_KEY=sk-proj-abcdefghijklmnopqrstuvwx').text).toBe('OPENAI_API_KEY=[API_KEY]');
    expect(redact('token: <your token here>, key=[API_KEY].').text).toBe('token: <your token here>, key=[API_KEY].');
  });

  it('masks database URIs of every listed scheme, keeping trailing punctuation', () => {
    for (const uri of [
      'postgres://u:p@db:5432/app',
      'postgresql://u:p@db/app',
      'mysql://root:pw@localhost/x',
      'mongodb+srv://a:b@cluster0.mongodb.net/db',
      'redis://:pw@cache:6379/0',
      'amqp://guest:guest@mq:5672',
    ]) {
      expect(redact(`connect to ${uri}.`).text).toBe('connect to [DATABASE_URI].');
    }
  });

  it('masks emails unless turned off', () => {
    expect(redact('mail alice.smith+tag@example.co.uk today').text).toBe('mail [EMAIL] today');
    expect(redactSecrets('mail alice@example.com', { redactEmails: false }).text).toBe('mail alice@example.com');
  });

  it('leaves package@version and git remotes alone', () => {
    const input = 'Added lodash@4.17.21 and cloned git@github.com:org/repo.git';
    expect(redact(input).text).toBe(input);
  });

  it('masks Luhn-valid card numbers only', () => {
    expect(redact('card 4111 1111 1111 1111 on file').text).toBe('card [CREDIT_CARD] on file');
    expect(redact('card 4111-1111-1111-1111').text).toBe('card [CREDIT_CARD]');
    expect(redact('order 4111 1111 1111 1112 shipped').text).toBe('order 4111 1111 1111 1112 shipped');
    expect(redact('ts 1699999999999 and id 0000000000000000').text).toBe('ts 1699999999999 and id 0000000000000000');
    expect(isPlausibleCardNumber('378282246310005')).toBe(true);
  });

  it('masks large mixed base64 blobs but not hex digests', () => {
    const blob = 'QmFzZTY0IGVuY29kZWQgc2VjcmV0IGRhdGEgdGhhdCBpcyBsb25nIGVub3VnaCB0byBtYXRjaA1234';
    expect(redact(`blob ${blob} end`).text).toBe('blob [BASE64_BLOB] end');
    const sha = 'a'.repeat(32) + '0123456789abcdef0123456789abcdef';
    expect(redact(`hash ${sha}`).text).toBe(`hash ${sha}`);
  });
});

describe('redactSecrets: SSN and phone numbers', () => {
  it('masks SSNs and phone numbers', () => {
    expect(redact('SSN 123-45-6789.').text).toBe('SSN [SSN].');
    expect(redact('call 555-123-4567 or (555) 123-4567 or +1 555.123.4567').text).toBe('call [PHONE] or [PHONE] or [PHONE]');
    expect(redact('office +44 20 7946 0958').text).toBe('office [PHONE]');
  });

  it('leaves dates, versions, times, plain numbers and addresses untouched', () => {
    for (const s of [
      '2023-05-08',
      '2023-05-08T13:56:00Z',
      'v1.2.3',
      'call at 3pm',
      '1,234,567',
      '192.168.1.10',
      '123456789',
      'ticket 000-12-3456',
      'port 8080, 10:30-11:45',
    ]) {
      const { text, redactions } = redact(s);
      expect(text).toBe(s);
      expect(redactions).toEqual([]);
    }
  });
});

describe('redactSecrets: key=value assignments', () => {
  it('masks only the value in assignments of many shapes', () => {
    expect(redact('password=hunter22').text).toBe('password=[PASSWORD]');
    expect(redact('{"password": "p@ss w0rd", "user": "bob"}').text).toBe('{"password": "[PASSWORD]", "user": "bob"}');
    expect(redact('DB_PASSWORD=s3cr3t!x && run').text).toBe('DB_PASSWORD=[PASSWORD] && run');
    expect(redact('my password is hunter2').text).toBe('my password is [PASSWORD]');
    expect(redact('The password is swordfish.').text).toBe('The password is [PASSWORD].');
    expect(redact('client_secret: abcDEF123').text).toBe('client_secret: [SECRET]');
    expect(redact('the access token is tok_12345abc').text).toBe('the access token is [TOKEN]');
    expect(redact('/login?password=abc123&next=/home').text).toBe('/login?password=[PASSWORD]&next=/home');
  });

  it('leaves prose, references, comparisons and non-secret keys alone', () => {
    for (const s of [
      'Reset your password via the settings page.',
      'Your password is required and the password is too short.',
      'The API key is rotated monthly.',
      'Password: must be at least 12 characters',
      'password_min_length = 12',
      'max_tokens: 512',
      'api_key: ${OPENAI_API_KEY}',
      "if (password === '') return",
      'Whatever the password is, keep it out of git.',
      'I forgot what my password is.',
      'the token is valid for one hour',
      'the access token is short-lived',
      'Use `password: ${{ secrets.DB_PASSWORD }}` in the workflow',
      'the secret key is in 1Password',
      'The secret is out.',
      'check for empty passwords using const isEmpty = pwd.length === 0',
    ]) {
      expect(redact(s)).toEqual({ text: s, redactions: [] });
    }
  });

  it('treats an empty strict assignment as a template, not a rejection', () => {
    expect(redact('GITHUB_TOKEN=\nNPM_TOKEN=').text).toBe('GITHUB_TOKEN=\nNPM_TOKEN=');
  });

  it('is stable under a second pass', () => {
    const once = redact("password='x1y2z3' key AKIAIOSFODNN7EXAMPLE mail a@b.io").text;
    expect(redact(once)).toEqual({ text: once, redactions: [] });
  });

  it('classifies keys by segment', () => {
    expect(classifyKey('dbPassword')?.kind).toBe('PASSWORD');
    expect(classifyKey('STRIPE_SECRET_KEY')?.kind).toBe('SECRET');
    expect(classifyKey('x-api-key')?.kind).toBe('API_KEY');
    expect(classifyKey('passwordless')).toBeNull();
    expect(classifyKey('PASSWORD_FILE')).toBeNull();
    expect(classifyKey('token')).toEqual({ kind: 'TOKEN', strong: false });
  });
});

describe('redactSecrets: reject rule (flagged without a span to mask)', () => {
  const rejects = (s: string) => expect(() => redact(s)).toThrow(PiiRejectedError);

  it('rejects a secret keyword whose value is not there to mask', () => {
    rejects('my password is');
    rejects('the api key is below');
    rejects('The API key is attached');
    rejects('Password:');
    rejects('password: see below');
    rejects('My password is: ');
    rejects('the private key is in the next message');
  });

  it('says what was mentioned without repeating any secret', () => {
    try {
      redact('db password=hunter22, admin password is below');
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(PiiRejectedError);
      const e = error as PiiRejectedError;
      expect(e.code).toBe('PII_REJECTED');
      expect(e.message).toMatch(/^content mentions a password but no redactable value/);
      expect(e.message).not.toContain('hunter22');
      expect(JSON.stringify(e.details)).not.toContain('hunter22');
    }
  });

  it('does not reject weak keywords (a lone "token"/"secret") or when redaction is off', () => {
    expect(redact('Token:\nthe smallest unit of text').text).toBe('Token:\nthe smallest unit of text');
    expect(redactSecrets('my password is', { enabled: false })).toEqual({ text: 'my password is', redactions: [] });
  });
});

describe('redactSecrets: options', () => {
  it('applies extra patterns after the built-in ones', () => {
    const { text, redactions } = redactSecrets('employee ACME-123456 joined', {
      extraPatterns: [{ kind: 'EMPLOYEE_ID', pattern: 'ACME-\\d{6}' }],
    });
    expect(text).toBe('employee [EMPLOYEE_ID] joined');
    expect(redactions).toEqual([{ kind: 'EMPLOYEE_ID', count: 1 }]);
  });

  it('honours extra flags and ignores empty matches', () => {
    const { text } = redactSecrets('Project Zeus and project zeus', {
      extraPatterns: [{ kind: 'CODENAME', pattern: 'zeus|x*', flags: 'i' }],
    });
    expect(text).toBe('Project [CODENAME] and project [CODENAME]');
  });

  it('rejects an invalid extra pattern with a ValidationError naming it', () => {
    const call = () => redactSecrets('x', { extraPatterns: [{ kind: 'BROKEN', pattern: '([a-z' }] });
    expect(call).toThrow(ValidationError);
    expect(call).toThrow(/BROKEN.*\(\[a-z/);
    expect(() => redactSecrets('x', { extraPatterns: [{ kind: 'lower', pattern: 'x' }] })).toThrow(ValidationError);
  });

  it('returns kinds as UPPER_SNAKE strings', () => {
    const all = kinds('password=abc123 mail a@b.io SSN 123-45-6789 postgres://u:p@h/db');
    for (const kind of Object.keys(all)) expect(kind).toMatch(/^[A-Z][A-Z0-9_]*$/);
    expect(all).toEqual({ DATABASE_URI: 1, PASSWORD: 1, SSN: 1, EMAIL: 1 });
  });
});

describe('redactSecrets: code is not a secret (#24)', () => {
  it.each([
    'password = db.Column(db.String(128), nullable=False)',
    "password = request.form['password']",
    "return jsonify({'token': token})",
    '**Password Hashing**: use bcrypt, never MD5.',
    'api_key = os.environ["OPENAI_API_KEY"]',
    "SECRET_KEY = os.getenv('SECRET_KEY')",
    'self.password_hash = generate_password_hash(password)',
    'const token = jwt.sign({ id: user.id }, process.env.JWT_SECRET, { expiresIn: "1h" });',
    'password: string;',
    'password: str = Field(min_length=8)',
    'token: Optional[str] = None',
    'password: { type: String, required: true },',
    'cursor.execute("UPDATE users SET password = %s WHERE id = %s", (hashed, user_id))',
    "db.query('UPDATE users SET password = ? WHERE id = ?', [hash, id])",
    'DB_PASSWORD=${DB_PASSWORD}',
    'JWT_SECRET=<your-jwt-secret>',
    'API_KEY=your-api-key-here',
    'API_KEY=your_api_key',
    'DB_PASSWORD=my_secret_password',
    'SECRET=YOUR_32_CHAR_SECRET',
    'password: "{{ vault_db_password }}"',
    'MAIL_PASSWORD=changeme',
    'token=***',
    'curl -H "Authorization: Bearer $TOKEN" https://api.example.com',
    'send `Authorization: Bearer <token>` from the client',
    'headers: { Authorization: `Bearer ${token}` },',
    'const [password, setPassword] = useState("");',
    'apiKey: DataTypes.STRING,',
    'authToken: authToken,',
    'REDIS_URL=redis://localhost:6379/0',
    'url: jdbc:postgresql://localhost:5432/app',
    'WRONG_PASSWORD: "Wrong Password",',
    'proxy_pass http://127.0.0.1:5000;',
    'lastSignificantToken = "?NonExpressionParenEnd";',
    'token = match?.[0];',
  ])('leaves %s alone', (code) => {
    expect(redact(code)).toEqual({ text: code, redactions: [] });
  });

  it('never refuses code that names a password without a value', () => {
    for (const code of [
      'if not password:',
      'Why does `if not password:` never trigger?',
      'def check(password):\n    if not password:\n        raise ValueError',
      'password:\n  type: string\n  format: password',
    ]) {
      expect(() => redact(code), code).not.toThrow();
      expect(redact(code).text).toBe(code);
    }
  });
});

describe('redactSecrets: secrets named by their sentence (#24)', () => {
  it('masks a value a few words after the secret word, up to its end', () => {
    expect(redact('The root password for the staging box is Tr0ub4dor&3 until Friday.').text).toBe(
      'The root password for the staging box is [PASSWORD] until Friday.',
    );
    expect(redact('The API key the vendor sent us was Kq7Zt2Lm9Xw4 so please update it.').text).toBe(
      'The API key the vendor sent us was [API_KEY] so please update it.',
    );
    expect(redact('the alarm PIN is 4821, remember it').text).toBe('the alarm PIN is [PIN], remember it');
  });

  it('masks a quoted value whole, spaces included', () => {
    expect(redact('Use passphrase "correct horse battery staple" to unlock the vault').text).toBe(
      'Use passphrase "[PASSWORD]" to unlock the vault',
    );
    expect(redact('set the admin password to "Vq7 Lm2 Np9" for now').text).toBe('set the admin password to "[PASSWORD]" for now');
  });

  it('leaves no trailing piece of the value behind', () => {
    expect(redact("the wifi password: Xk29sLq0Tz! Don't share it.").text).toBe("the wifi password: [PASSWORD] Don't share it.");
    expect(redact('Password: Tr0ub4dor&3').text).toBe('Password: [PASSWORD]');
  });

  it('leaves sentences about secrets alone', () => {
    for (const s of [
      'The secret to good tests is isolation.',
      'The password for the box is long and random.',
      'The password policy for admins is strict.',
      'Pin the dependency to 4.17.21.',
      'Click "Forgot password" then "Reset".',
    ]) {
      expect(redact(s), s).toEqual({ text: s, redactions: [] });
    }
  });
});

describe('redactSecrets: secrets named by structure (#24)', () => {
  it('masks env and YAML lines whatever the value looks like', () => {
    expect(redact('NODE_ENV=production\nDB_PASSWORD=swordfish\nPORT=3000').text).toBe(
      'NODE_ENV=production\nDB_PASSWORD=[PASSWORD]\nPORT=3000',
    );
    expect(redact('export STRIPE_SECRET="purple monkey"').text).toBe('export STRIPE_SECRET="[SECRET]"');
    expect(redact('database:\n  password: meadowlantern\n  pool: 5').text).toBe('database:\n  password: [PASSWORD]\n  pool: 5');
    expect(redact('SMTP_PASS=Tr0ub4dor&3').text).toBe('SMTP_PASS=[PASSWORD]');
  });

  it('masks a value that only starts like a placeholder ("my_", "your-"): the rest is not words', () => {
    // Found by the property tests (seeds 894294236, 267957057): "my_" + a chosen password passed as a stand-in.
    expect(redact('export DB_PASSWORD="my_AAAAA0A"').text).toBe('export DB_PASSWORD="[PASSWORD]"');
    expect(redact('Server=sql;User Id=svc;Password=mY_AAAAAA0A;Encrypt=true').text).toBe(
      'Server=sql;User Id=svc;Password=[PASSWORD];Encrypt=true',
    );
    expect(redact('API_KEY=your-Xk29fQ').text).toBe('API_KEY=[API_KEY]');
  });

  it('masks JSON pairs under any secret-named key', () => {
    expect(redact('{"host": "db", "auth": "Purple28&saddle", "port": 5432}').text).toBe('{"host": "db", "auth": "[SECRET]", "port": 5432}');
    expect(redact('{"clientSecret": "orbitviolet"}').text).toBe('{"clientSecret": "[SECRET]"}');
  });

  it('masks HTTP credentials: Authorization of any scheme, cookies, API-key headers', () => {
    expect(redact('Authorization: Token dishwasherember').text).toBe('Authorization: Token [AUTHORIZATION]');
    expect(redact('Authorization: Basic Xk2$abc!def').text).toBe('Authorization: Basic [BASIC_AUTH]');
    expect(redact('Proxy-Authorization: Basic Zm9vOmJhcg$$').text).toBe('Proxy-Authorization: Basic [BASIC_AUTH]');
    expect(redact('Cookie: theme=dark; session_id=abc123XYZ; lang=en').text).toBe('Cookie: [COOKIE]');
    expect(redact('Set-Cookie: sid=s3ss10n; Path=/; HttpOnly').text).toBe('Set-Cookie: [COOKIE]');
    expect(redact('curl -H "X-Api-Key: meadowmonkey" https://api.example.com').text).toBe(
      'curl -H "X-Api-Key: [API_KEY]" https://api.example.com',
    );
  });

  it('masks URL credentials, query parameters and connection-string passwords', () => {
    expect(redact('https://api.example.com/export?api_key=orbitviolet&format=csv').text).toBe(
      'https://api.example.com/export?api_key=[API_KEY]&format=csv',
    );
    expect(redact('https://maps.example.com/v1?key=AbCdEf123&z=3').text).toBe('https://maps.example.com/v1?key=[SECRET]&z=3');
    expect(redact('Server=tcp:sql,1433;User Id=svc;Password=Vq7!Lm2;Encrypt=true').text).toBe(
      'Server=tcp:sql,1433;User Id=svc;Password=[PASSWORD];Encrypt=true',
    );
    expect(redact('clone https://deploy:s3cr3t%21@git.example.com/app.git').text).toBe(
      'clone https://deploy:[URL_PASSWORD]@git.example.com/app.git',
    );
  });
});

describe('redactSecrets: refusal only when a value is announced and absent (#24)', () => {
  it('masks a value on the line after a lone "Password:" or a line ending in "is"', () => {
    expect(redact('Password:\nhunter22\nthanks').text).toBe('Password:\n[PASSWORD]\nthanks');
    expect(redact('my password is\nhunter22').text).toBe('my password is\n[PASSWORD]');
  });

  it('does not refuse prose wrapped after "is" (#24)', () => {
    const wrapped = 'If the returned passphrase is\nlonger than the buffer, it is truncated.';
    expect(redact(wrapped)).toEqual({ text: wrapped, redactions: [] });
  });

  it('still refuses a deferral, a copula ending its line, and a last line "Password:"', () => {
    expect(() => redact('the API key is below')).toThrow(PiiRejectedError);
    expect(() => redact('my password is\n\n')).toThrow(PiiRejectedError);
    expect(() => redact('Login details\nPassword:')).toThrow(PiiRejectedError);
  });
});
