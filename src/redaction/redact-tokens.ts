/**
 * Vendor token formats: a fixed, documented prefix followed by a bounded run of a fixed alphabet
 * (the formats the providers publish, as catalogued by secret scanners such as gitleaks and
 * secretlint). A literal prefix and bounded, non-overlapping runs keep every pattern linear.
 * Each is asserted in redact-corpus.test.ts.
 */
/** A pattern whose matches are masked as `[KIND]`. */
export interface SpanPattern {
  /** UPPER_SNAKE; the placeholder is `[KIND]`. */
  kind: string;
  /** Global regex. With `keepPrefix`, group 1 is kept and group 2 (the rest of the match) is the secret. */
  regex: RegExp;
  keepPrefix?: boolean;
  /** A further check on the secret text (and up to 300 characters before the match); a match it refuses is left alone. */
  accept?: (secret: string, prefix: string, before: string) => boolean;
}

// Not preceded by a letter, digit or "_", so a format never matches from the middle of a word
// (a "-" may precede: "msg-sk-proj-…"); the rest of the token is masked with it, so a longer
// variant leaves no tail behind.
const START = String.raw`(?<![A-Za-z0-9_])`;
const REST = '[A-Za-z0-9_-]*';
const token = (kind: string, body: string): SpanPattern => ({ kind, regex: new RegExp(`${START}(?:${body})${REST}`, 'g') });

export const TOKEN_PATTERNS: readonly SpanPattern[] = [
  token('GITHUB_TOKEN', String.raw`gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{40,255}`),
  token('GITLAB_TOKEN', String.raw`gl(?:pat|dt|rt|ptt|soat|cbt|imt|ft|oas|agent)-[A-Za-z0-9_-]{20,64}|GR1348941[A-Za-z0-9_-]{20,64}`),
  token('SLACK_TOKEN', String.raw`xox[abposre]-[A-Za-z0-9-]{10,255}|xapp-\d-[A-Z0-9]{6,20}-\d{6,20}-[a-z0-9]{32,80}`),
  token('API_KEY', String.raw`sk-(?:proj-|ant-(?:api\d\d-|admin\d\d-)?|svcacct-|admin-)?[A-Za-z0-9_-]{20,255}`),
  token('STRIPE_KEY', String.raw`(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,255}|whsec_[A-Za-z0-9+/=]{24,128}`),
  token('AWS_ACCESS_KEY', String.raw`(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}`),
  token('GCP_API_KEY', String.raw`AIza[A-Za-z0-9_-]{35}`),
  token('GCP_OAUTH_SECRET', String.raw`GOCSPX-[A-Za-z0-9_-]{28}`),
  token('GCP_ACCESS_TOKEN', String.raw`ya29\.[A-Za-z0-9_-]{20,2048}`),
  token('AZURE_CLIENT_SECRET', String.raw`[A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.-]{31,34}`),
  token('TWILIO_API_KEY', String.raw`SK[0-9a-f]{32}`),
  token('SENDGRID_API_KEY', String.raw`SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}`),
  token('MAILGUN_API_KEY', String.raw`key-[0-9a-z]{32}`),
  token('MAILCHIMP_API_KEY', String.raw`[0-9a-f]{32}-us\d{1,2}`),
  token('NPM_TOKEN', String.raw`npm_[A-Za-z0-9]{36}`),
  token('PYPI_TOKEN', String.raw`pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,1000}`),
  token('DOCKER_HUB_TOKEN', String.raw`dckr_pat_[A-Za-z0-9_-]{27,64}`),
  token('HUGGINGFACE_TOKEN', String.raw`hf_[A-Za-z0-9]{34,64}`),
  token('SHOPIFY_TOKEN', String.raw`shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}`),
  token('DIGITALOCEAN_TOKEN', String.raw`do[opr]_v1_[a-f0-9]{64}`),
  token('LINEAR_API_KEY', String.raw`lin_api_[A-Za-z0-9]{40}`),
  token('DATABRICKS_TOKEN', String.raw`dapi[a-f0-9]{32}(?:-\d)?`),
  token('POSTMAN_API_KEY', String.raw`PMAK-[a-f0-9]{24}-[a-f0-9]{34}`),
  token('GRAFANA_TOKEN', String.raw`glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}|glc_[A-Za-z0-9+/]{32,400}={0,2}`),
  token('SENTRY_TOKEN', String.raw`sntry[su]_[A-Za-z0-9+/=_]{20,200}`),
  token('NEW_RELIC_KEY', String.raw`NRAK-[A-Z0-9]{27}`),
  token('VAULT_TOKEN', String.raw`hv[sb]\.[A-Za-z0-9_-]{24,200}`),
  token('DOPPLER_TOKEN', String.raw`dp\.(?:pt|st|ct|sa|scim|audit)\.[A-Za-z0-9]{40,44}`),
  token('PULUMI_TOKEN', String.raw`pul-[a-f0-9]{40}`),
  token('SUPABASE_TOKEN', String.raw`sbp_[a-f0-9]{40}`),
  token('GROQ_API_KEY', String.raw`gsk_[A-Za-z0-9]{52}`),
  token('REPLICATE_TOKEN', String.raw`r8_[A-Za-z0-9]{37}`),
  token('NOTION_TOKEN', String.raw`ntn_[A-Za-z0-9]{46}|secret_[A-Za-z0-9]{43}`),
  token('SQUARE_TOKEN', String.raw`sq0(?:atp|csp)-[A-Za-z0-9_-]{22,43}|EAAA[A-Za-z0-9_-]{60}`),
  token('ATLASSIAN_TOKEN', String.raw`ATATT3[A-Za-z0-9_=-]{100,300}`),
  token('TELEGRAM_BOT_TOKEN', String.raw`\d{8,10}:AA[A-Za-z0-9_-]{33}`),
  token('AGE_SECRET_KEY', String.raw`AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}`),
  {
    kind: 'WEBHOOK_URL',
    regex:
      /\bhttps:\/\/(?:hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9+/_-]{20,200}|discord(?:app)?\.com\/api\/webhooks\/\d{5,30}\/[A-Za-z0-9_-]{20,200}|[a-z0-9-]{1,63}\.webhook\.office\.com\/webhookb2\/[A-Za-z0-9@\/_-]{20,400})/g,
  },
  // Azure storage connection strings and SAS URLs: only the key or signature is masked.
  { kind: 'AZURE_STORAGE_KEY', regex: /\b(AccountKey=)([A-Za-z0-9+/]{40,120}={0,2})/g, keepPrefix: true },
  { kind: 'AZURE_SAS_SIGNATURE', regex: /([?&]sig=)([A-Za-z0-9%+/=]{20,200})/g, keepPrefix: true },
];
