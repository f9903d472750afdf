/**
 * The redaction corpus: each secret format, planted in prose or config, must be gone from the
 * output and from every stored field of a prepared memory; innocent text must come out unchanged.
 * Secrets are generated (deterministic filler in the format's alphabet), never real ones.
 */
import { describe, expect, it } from 'vitest';

import { prepareMemory } from '../write/prepare.js';
import { redactSecrets } from './redact.js';
import { validateRememberInput } from '../write/validate-input.js';

const B62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const HEX = '0123456789abcdef';
const UPPER_NUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const LOWER_NUM = 'abcdefghijklmnopqrstuvwxyz0123456789';
const B64 = `${B62}+/`;
/** `n` characters from `alphabet`, varied so no format gets a degenerate repeated value. */
function fake(alphabet: string, n: number, seed = 7): string {
  let out = '';
  let x = seed;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    out += alphabet[x % alphabet.length];
  }
  return out;
}

const PEM = `-----BEGIN RSA PRIVATE KEY-----\n${fake(B64, 64)}\n${fake(B64, 64, 9)}\n${fake(B64, 40, 11)}==\n-----END RSA PRIVATE KEY-----`;
const OPENSSH = `-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA${fake(B64, 48)}\n${fake(B64, 64, 3)}\n-----END OPENSSH PRIVATE KEY-----`;
const PGP = `-----BEGIN PGP PRIVATE KEY BLOCK-----\n\nlQOYBF${fake(B64, 60)}\n=${fake(B64, 4)}\n-----END PGP PRIVATE KEY BLOCK-----`;
const JWT = `eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4ifQ.${fake(B62, 43)}`;

/** [format, the secret, the text it is planted in ({} marks the spot)]. */
const CORPUS: ReadonlyArray<[string, string, string]> = [
  ['AWS access key id', `AKIA${fake(UPPER_NUM, 16)}`, 'aws key {} in prod'],
  ['AWS temporary access key id', `ASIA${fake(UPPER_NUM, 16)}`, 'AWS_ACCESS_KEY_ID={}'],
  ['AWS secret access key', fake(B64, 40), 'aws_secret_access_key = {}'],
  ['GCP API key', `AIza${fake(B62, 35)}`, 'maps key: {}'],
  ['GCP OAuth client secret', `GOCSPX-${fake(B62, 28)}`, 'client_secret={}'],
  ['GCP OAuth access token', `ya29.${fake(B62, 60)}`, 'token {} expires soon'],
  ['GCP service-account private key (JSON)', PEM, '{"type": "service_account", "private_key": "{}"}'],
  ['Azure AD client secret', `abc8Q~${fake(B62, 34)}`, 'the app secret is {}'],
  [
    'Azure storage connection string key',
    `${fake(B64, 86)}==`,
    'DefaultEndpointsProtocol=https;AccountName=acme;AccountKey={};EndpointSuffix=core.windows.net',
  ],
  ['Azure SAS signature', `${fake(B62, 40)}%3D`, 'https://acme.blob.core.windows.net/c/f?sv=2022-11-02&sig={}&se=2030'],
  ['GitHub classic PAT', `ghp_${fake(B62, 36)}`, 'export GH_TOKEN={}'],
  ['GitHub OAuth token', `gho_${fake(B62, 36)}`, 'oauth {} granted'],
  ['GitHub app installation token', `ghs_${fake(B62, 36)}`, 'installation token {}'],
  ['GitHub app user token', `ghu_${fake(B62, 36)}`, 'user-to-server {}'],
  ['GitHub refresh token', `ghr_${fake(B62, 76)}`, 'refresh with {}'],
  ['GitHub fine-grained PAT', `github_pat_${fake(B62, 22)}_${fake(B62, 59)}`, 'use {} for the CI'],
  ['GitLab PAT', `glpat-${fake(B62, 20)}`, 'GITLAB_TOKEN: {}'],
  ['GitLab deploy token', `gldt-${fake(B62, 20)}`, 'deploy with {}'],
  ['GitLab runner registration token', `GR1348941${fake(B62, 20)}`, 'register the runner with {}'],
  ['Slack bot token', `xoxb-${fake('0123456789', 12)}-${fake('0123456789', 13)}-${fake(B62, 24)}`, 'SLACK_BOT_TOKEN={}'],
  ['Slack user token', `xoxp-${fake('0123456789', 12)}-${fake('0123456789', 12)}-${fake(HEX, 32)}`, 'user token {}'],
  ['Slack app token', `xapp-1-A${fake(UPPER_NUM, 10)}-${fake('0123456789', 13)}-${fake(HEX, 64)}`, 'socket mode uses {}'],
  [
    'Slack webhook',
    `https://hooks.slack.com/services/T${fake(UPPER_NUM, 8)}/B${fake(UPPER_NUM, 8)}/${fake(B62, 24)}`,
    'post alerts to {} please',
  ],
  ['Discord webhook', `https://discord.com/api/webhooks/${fake('0123456789', 18)}/${fake(B62, 68)}`, 'hook: {}'],
  ['Stripe live secret key', `sk_live_${fake(B62, 24)}`, 'STRIPE_SECRET_KEY={}'],
  ['Stripe restricted key', `rk_live_${fake(B62, 24)}`, 'restricted {}'],
  ['Stripe webhook secret', `whsec_${fake(B62, 32)}`, 'signing secret {}'],
  ['Twilio API key', `SK${fake(HEX, 32)}`, 'twilio {}'],
  ['SendGrid API key', `SG.${fake(B62, 22)}.${fake(B62, 43)}`, 'SENDGRID_API_KEY="{}"'],
  ['Mailgun API key', `key-${fake(LOWER_NUM, 32)}`, 'mailgun {}'],
  ['Mailchimp API key', `${fake(HEX, 32)}-us14`, 'mailchimp key {}'],
  ['npm token', `npm_${fake(B62, 36)}`, '//registry.npmjs.org/:_authToken={}'],
  ['PyPI token', `pypi-AgEIcHlwaS5vcmc${fake(B62, 70)}`, 'twine upload -u __token__ -p {}'],
  ['Docker Hub PAT', `dckr_pat_${fake(B62, 27)}`, 'docker login -u acme --password-stdin <<< {}'],
  ['OpenAI project key', `sk-proj-${fake(B62, 48)}`, 'OPENAI_API_KEY={}'],
  ['OpenAI legacy key', `sk-${fake(B62, 48)}`, 'openai key {}'],
  ['Anthropic key', `sk-ant-api03-${fake(B62, 93)}AA`, 'ANTHROPIC_API_KEY: {}'],
  ['Hugging Face token', `hf_${fake(B62, 34)}`, 'HF_TOKEN={}'],
  ['Groq key', `gsk_${fake(B62, 52)}`, 'groq {}'],
  ['Replicate token', `r8_${fake(B62, 37)}`, 'replicate {}'],
  ['Shopify access token', `shpat_${fake(HEX, 32)}`, 'shopify {}'],
  ['DigitalOcean PAT', `dop_v1_${fake(HEX, 64)}`, 'doctl auth init -t {}'],
  ['Linear API key', `lin_api_${fake(B62, 40)}`, 'linear {}'],
  ['Databricks token', `dapi${fake(HEX, 32)}`, 'databricks {}'],
  ['Postman API key', `PMAK-${fake(HEX, 24)}-${fake(HEX, 34)}`, 'postman {}'],
  ['Grafana service account token', `glsa_${fake(B62, 32)}_${fake(HEX, 8)}`, 'grafana {}'],
  ['Sentry org token', `sntrys_${fake(B62, 80)}`, 'SENTRY_AUTH_TOKEN={}'],
  ['New Relic user key', `NRAK-${fake(UPPER_NUM, 27)}`, 'newrelic {}'],
  ['HashiCorp Vault token', `hvs.${fake(B62, 90)}`, 'VAULT_TOKEN={}'],
  ['Doppler token', `dp.pt.${fake(B62, 43)}`, 'doppler {}'],
  ['Pulumi token', `pul-${fake(HEX, 40)}`, 'pulumi {}'],
  ['Supabase token', `sbp_${fake(HEX, 40)}`, 'supabase {}'],
  ['Notion token', `ntn_${fake(B62, 46)}`, 'notion {}'],
  ['Square access token', `sq0atp-${fake(B62, 22)}`, 'square {}'],
  ['Atlassian API token', `ATATT3${fake(B62, 180)}`, 'jira {}'],
  ['Telegram bot token', `${fake('0123456789', 10)}:AA${fake(B62, 33)}`, 'bot {} online'],
  ['age secret key', `AGE-SECRET-KEY-1${fake('QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L', 58)}`, 'age key {}'],
  ['JWT', JWT, 'Cookie: session={}'],
  ['RSA private key (PEM, multi-line)', PEM, 'here is the key:\n{}\nkeep it safe'],
  ['OpenSSH private key', OPENSSH, '~/.ssh/id_ed25519:\n{}'],
  ['PGP private key block', PGP, '{}'],
  ['PostgreSQL URL with credentials', `postgres://app:${fake(B62, 16)}@db.internal:5432/app`, 'DATABASE_URL={}'],
  ['MongoDB SRV URL', `mongodb+srv://root:${fake(B62, 16)}@cluster0.example.net/db`, 'connect to {} now'],
  ['Redis URL', `redis://:${fake(B62, 16)}@cache:6379/0`, 'REDIS_URL={}'],
  ['URL with user:password@', fake(B62, 14), 'clone https://deploy:{}@git.example.com/acme/app.git'],
  ['FTP URL with credentials', fake(B62, 12), 'ftp://bob:{}@files.example.com/'],
  ['Basic auth header', Buffer.from(`bob:${fake(B62, 12)}`).toString('base64'), 'Authorization: Basic {}'],
  ['Bearer token', fake(B62, 40), 'curl -H "Authorization: Bearer {}" https://api.example.com'],
  ['curl -u user:password', fake(B62, 12), 'curl -u admin:{} https://api.example.com'],
  ['password= in .env', `p4ss_${fake(B62, 10)}`, 'DB_PASSWORD={}'],
  ['password: in YAML', `Yx${fake(B62, 12)}`, 'database:\n  user: app\n  password: {}\n  host: db'],
  ['password in JSON', `j${fake(B62, 14)}`, '{"user": "app", "password": "{}"}'],
  ['password in TOML', `t${fake(B62, 14)}`, '[db]\npassword = "{}"'],
  ['passwd=', `q${fake(B62, 11)}`, 'passwd={}'],
  ['pwd=', `w${fake(B62, 11)}`, 'Server=db;Uid=app;Pwd={};'],
  ['secret assignment', `s${fake(B62, 20)}`, 'client_secret: {}'],
  ['api_key assignment', fake(LOWER_NUM, 24), 'api_key={}'],
  ['CLI --password flag', `c${fake(B62, 11)}`, 'mysql --user root --password {} app'],
  ['CLI --password= flag', `d${fake(B62, 11)}`, 'pg_dump --password={} app'],
  ['CLI --token flag', fake(B62, 24), 'deploy --token {} --prod'],
  ['prose password', 'hunter2', 'my password is {}'],
  ['prose password with colon', 'Tr0ub4dor&3', 'Password: {}'],
  ['prose PIN', '4451', 'the pin is {}'],
  ['PIN label', '9921', 'PIN: {}'],
  ['prose passphrase', 'correct horse battery staple', 'passphrase: {}'],
  ['seed phrase', 'abandon ability able about above absent', 'my seed phrase is {}. Keep it offline'],
  ['credit card (Visa)', '4111 1111 1111 1111', 'card {} exp 12/29'],
  ['credit card (Amex)', '378282246310005', 'amex {} on file'],
  ['IBAN', 'DE89 3704 0044 0532 0130 00', 'wire to IBAN {} today'],
  ['IBAN compact', 'GB82WEST12345698765432', 'iban {}'],
  ['US SSN', '123-45-6789', 'SSN {}'],
  ['US phone', '(555) 123-4567', 'call me at {}'],
  ['international phone', '+44 20 7946 0958', 'office {}'],
  ['email', 'alice.smith@example.com', 'write to {} tomorrow'],
  // Named by structure (#24): the key, header or parameter says it is a secret, whatever the value looks like.
  ['env line, plain word', 'swordfishlantern', 'NODE_ENV=production\nDB_PASSWORD={}\nPORT=3000'],
  ['env line, symbols', `Tr0ub4dor&3${fake(B62, 6)}`, 'SMTP_PASS={}'],
  ['YAML line, plain word', 'meadowquartz', 'db:\n  host: db.internal\n  password: {}\n  pool: 5'],
  ['JSON pair under auth', `Purple28&${fake(B62, 8)}`, '{"host": "db", "auth": "{}", "port": 5432}'],
  ['JSON pair under credentials', 'orbit violet ember', '{"credentials": "{}"}'],
  ['Authorization: Token', fake(B62, 24), 'Authorization: Token {}'],
  ['Authorization: Digest-less bare value', `${fake(B62, 10)}${fake('0123456789', 4)}`, 'the request had Authorization: {} and failed'],
  ['Proxy-Authorization: Basic (not base64)', `${fake(B62, 8)}$${fake(B62, 4)}`, 'Proxy-Authorization: Basic {}'],
  ['Cookie header', `${fake(B62, 20)}`, 'Cookie: theme=dark; session_id={}; lang=en'],
  ['Set-Cookie header', `${fake(LOWER_NUM, 24)}`, 'Set-Cookie: sid={}; Path=/; HttpOnly; Secure'],
  ['X-Auth-Token header', 'dishwashermonkey', 'curl -H "X-Auth-Token: {}" https://api.example.com'],
  ['URL ?token=', fake(B62, 20), 'https://api.example.com/v1/export?token={}&format=csv'],
  ['URL ?api_key=', fake(LOWER_NUM, 16), 'GET /maps?api_key={}'],
  ['URL ?key=', `k${fake(B62, 15)}`, 'https://maps.example.com/v1?key={}&zoom=3'],
  [
    'ADO connection string Password=',
    `Vq7!${fake(B62, 8)}`,
    'Server=tcp:sql.internal,1433;Database=crm;User Id=svc;Password={};Encrypt=true',
  ],
  ['connection string with encoded password', `s3cr%21${fake(B62, 8)}`, 'postgresql://reporting:{}@10.0.3.7/warehouse?sslmode=require'],
  // Named by the sentence (#24).
  ['sentence: password … is', `Tr0ub4dor&3${fake(B62, 4)}`, 'The root password for the staging box is {} until Friday.'],
  ['sentence: plain word after a bridge', 'horsequartz', 'The root password for the staging box is {} until Friday.'],
  ['sentence: API key … was', `${fake(B62, 14)}9`, 'The API key the vendor sent us was {} so please update the config.'],
  ['sentence: quoted passphrase', 'correct horse battery staple', 'Use passphrase "{}" to unlock the vault'],
  ['sentence: password set to quoted', `Vq7 Lm2 ${fake(B62, 6)}`, 'set the admin password to "{}" for now'],
  ['sentence: colon, trailing symbol', `Xk29sLq0${fake(B62, 4)}!`, "the wifi password: {} Don't share it."],
  ['sentence: PIN after a bridge', '4821', 'The alarm PIN for the garage is {}, remember it.'],
];

const plant = (template: string, secret: string) => template.replace('{}', secret);

/** The secret is gone, and so is any 8-character piece of it (no partial secret survives). */
function expectNoSecret(output: string, secret: string, label: string): void {
  expect(output, label).not.toContain(secret);
  const core = secret.replace(/^-----BEGIN [A-Z ]+-----\n|\n-----END [A-Z ]+-----$/g, '');
  if (core.length >= 16) {
    for (let i = 0; i + 8 <= core.length; i += 4) {
      const piece = core.slice(i, i + 8);
      if (/^[\w+/=.-]{8}$/.test(piece) && /\d/.test(piece) && /[A-Za-z]/.test(piece))
        expect(output, `${label}: piece ${piece}`).not.toContain(piece);
    }
  }
}

describe('redaction corpus: every format is masked', () => {
  it('covers at least 110 formats (94 before the structure and sentence classes of #24)', () => {
    expect(new Set(CORPUS.map(([name]) => name)).size).toBeGreaterThanOrEqual(110);
  });

  it.each(CORPUS)('%s', (name, secret, template) => {
    const { text, redactions } = redactSecrets(plant(template, secret));
    expectNoSecret(text, secret, name);
    expect(text).toMatch(/\[[A-Z][A-Z0-9_]*\]/);
    expect(redactions.length).toBeGreaterThan(0);
  });
});

const SETTINGS = { defaultNamespace: 'default', maxContentChars: 50_000, maxMetadataBytes: 16_384, redaction: {} };

describe('redaction corpus: every stored field of a memory is masked', () => {
  it.each(CORPUS)('%s', (name, secret, template) => {
    const planted = plant(template, secret);
    const short = planted.length <= 256;
    // A bare value ("hunter2") is only recognisable with its context; a vendor token is one alone.
    const bare = !redactSecrets(secret).text.includes(secret);
    const prepared = prepareMemory(
      validateRememberInput(
        {
          content: `Note. ${planted}`,
          namespace: 'corpus',
          source: short ? planted : null,
          externalId: short ? planted : null,
          sessionId: short ? planted : null,
          who: short ? planted : null,
          why: short ? planted : null,
          tags: [...(planted.length <= 64 ? [planted] : []), ...(bare && secret.length <= 64 ? [secret] : [])],
          metadata: { note: planted, nested: { list: [planted, 3, true] }, [bare ? secret : 'k']: planted },
        },
        SETTINGS,
      ),
      SETTINGS,
    );
    const stored = JSON.stringify([
      prepared.storageContent,
      prepared.normalizedContent,
      prepared.caption,
      prepared.chunks,
      prepared.links,
      prepared.source,
      prepared.externalId,
      prepared.sessionId,
      prepared.who,
      prepared.why,
      prepared.tags,
      prepared.metadata,
    ]);
    // Compare in the JSON-escaped and the lowercased forms (tags are lowercased after redaction).
    expectNoSecret(stored, JSON.stringify(secret).slice(1, -1), name);
    expect(stored.toLowerCase()).not.toContain(JSON.stringify(secret).slice(1, -1).toLowerCase());
  });
});

/** Text with no secret in it: code, ids, hashes, sentences about passwords. Must come back unchanged. */
const INNOCENT: readonly string[] = [
  'Reset your password via the settings page.',
  'The password must be at least 12 characters long.',
  'password_min_length = 12',
  'We rotate the API key every 90 days; the key is stored in Vault.',
  'Pin the dependency to 4.17.21 and re-run npm ci.',
  'The token bucket algorithm refills 10 tokens per second.',
  'max_tokens: 4096',
  'Request 550e8400-e29b-41d4-a716-446655440000 failed with a timeout.',
  'Fixed in commit 3f9a2c1e4b5d6a7f8e9d0c1b2a3f4e5d6c7b8a9f on main.',
  'sha256: 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
  'const user = await db.users.findOne({ where: { id } });',
  'function hashPassword(plain) { return bcrypt.hash(plain, 10); }',
  'if (err) throw new Error(`token expired`);',
  'Visit https://docs.example.com/guide?page=2#install for details.',
  'Release v2.3.1 ships on 2024-05-01 at 10:30.',
  'The meeting is in room 4451 on the 3rd floor.',
  'Order #4111111111111112 was shipped.',
  'Listening on 127.0.0.1:8080 and ::1.',
  'git clone git@github.com:acme/app.git',
  'Install with pip install requests==2.31.0',
  'The secret to good tests is isolation.',
  'Use --password-stdin instead of --password on the command line.',
  'docker run -p 5432:5432 postgres:16',
  'Users forget their passwords; we send a reset link.',
  'The PIN pad was replaced last week.',
  'Set LOG_LEVEL=debug and restart the worker.',
  'Our IBAN validation rejects bad checksums.',
  'skip_tests: false',
  // Code and prose that name a secret without holding one (#24).
  'password = db.Column(db.String(128), nullable=False)',
  "password = request.form['password']",
  "return jsonify({'token': token})",
  '**Password Hashing**: use bcrypt for the user passwords.',
  "SECRET_KEY = os.environ.get('SECRET_KEY')",
  'self.password_hash = generate_password_hash(password)',
  'const token = jwt.sign({ id: user._id }, process.env.JWT_SECRET, { expiresIn: "1h" });',
  'interface Login {\n  email: string;\n  password: string;\n}',
  'class UserCreate(BaseModel):\n    password: str = Field(min_length=8)\n    api_key: Optional[str] = None',
  'cursor.execute("UPDATE users SET password = %s WHERE id = %s", (hashed, user_id))',
  'DB_PASSWORD=${DB_PASSWORD}\nJWT_SECRET=<your-jwt-secret>\nAPI_KEY=your-api-key-here\nMAIL_PASSWORD=',
  'env:\n  DB_PASSWORD: ${{ secrets.DB_PASSWORD }}\n  API_TOKEN: ${{ secrets.API_TOKEN }}',
  'POSTGRES_PASSWORD: ${POSTGRES_PASSWORD}',
  'if not password:\n    return jsonify({"error": "password required"}), 400',
  'curl -H "Authorization: Bearer $TOKEN" http://localhost:5000/me',
  'The client sends `Authorization: Bearer <token>` on every call.',
  'REDIS_URL=redis://localhost:6379/0',
  'url: jdbc:postgresql://localhost:5432/app',
  'The password policy for admins is strict.',
  'The API key for the staging service is rotated weekly.',
  'password: { type: String, required: true, minlength: 8 },',
  '<input type="password" name="password" placeholder="Enter your password">',
  'const [password, setPassword] = useState("");',
  'UPDATE users SET password = ? WHERE id = ?',
  'res.cookie("token", token, { httpOnly: true, secure: true });',
];

describe('redaction corpus: innocent text is unchanged', () => {
  it.each(INNOCENT)('%s', (text) => {
    expect(redactSecrets(text).text).toBe(text);
  });
});
