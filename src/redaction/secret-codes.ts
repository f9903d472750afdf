/**
 * Codes named in a sentence: door, gate and alarm codes, PINs, passcodes, lock combinations,
 * recovery and backup codes, one-time (2FA, SMS, verification) codes and card security codes —
 * "the gate code for the warehouse is 4471-B, don't share it", "4471 is the gate code",
 * "gate code: 4471-B", "use 7731 as the alarm code", "enter 4471 at the gate", "Recovery codes:
 * a1b2-c3d4, e5f6-g7h8", and the common French, German, Spanish, Portuguese and Italian forms
 * ("le digicode est 4471B", "der Türcode ist 4471", "el código de acceso es 4471").
 *
 * Only a code-shaped value is taken (3–40 characters of letters, digits and dashes holding a digit,
 * not a date, time, version, size or ordinal), and only after a name that says the code is a
 * secret: a qualifier before "code" (gate, door, alarm, recovery, one-time…), or a bare "code"
 * whose sentence names what it opens ("the code for the warehouse gate is 4471"). So the ordinary
 * codes stay: error, status and exit codes, zip, postal, area and country codes, source code, code
 * review, and promo, discount and coupon codes (made to be shared; docs/security.md).
 * Seed and recovery phrases are word lists, taken by secret-assignments.ts (passphrase keys).
 *
 * Every regex is bounded: the names are fixed alternations, each value or window a bounded run,
 * and each name reads at most a fixed window on either side, so the pass is linear in the text.
 */
import type { SecretSpan } from './secret-sentences.js';

const L = String.raw`\p{L}\p{N}_`;
/** Qualifiers that make "code" a secret, by kind (first match wins). */
const ONE_TIME = String.raw`one[- ]time|2fa|two[- ]factor|mfa|otp|totp|sms|verification|authentication|authenticator|auth|login|log[- ]in|sign[- ]in|confirmation sms|security key`;
const RECOVERY = String.raw`recovery|backup|emergency|reset|unlock`;
const ACCESS = String.raw`gate|door|front[- ]door|back[- ]door|entry|entrance|lobby|alarm|lock|garage|safe|locker|keypad|access|wi-?fi|lock[- ]?box|key[- ]?box|key[- ]?safe|padlock|vault|buzzer|intercom|disarm|arming|puk|voicemail|security|gift[- ]card|activation|cvv|cvc`;
const QUALIFIER = `${ONE_TIME}|${RECOVERY}|${ACCESS}`;

/** French, German, Spanish, Portuguese and Italian names of a secret code or password. */
const FOREIGN = [
  String.raw`digicode|code (?:d['’]accès|d['’]entrée|de (?:la porte|l['’]immeuble|l['’]alarme|sécurité|vérification|confirmation|déverrouillage|récupération|secours)|du (?:portail|coffre|cadenas|garage|wifi)|secret|pin)|mot de passe`,
  String.raw`(?:haustür|tür|tor|zugangs|alarm|sicherheits|bestätigungs|wiederherstellungs|backup|tresor|schloss|wlan|zahlen|einmal)code|geheimzahl|passwort|kennwort|zahlenkombination`,
  String.raw`código (?:de (?:la puerta|acceso|seguridad|verificación|la alarma|desbloqueo|recuperación|respaldo|la caja fuerte|entrada)|secreto|pin)|contraseña`,
  String.raw`código (?:de (?:acesso|segurança|verificação|recuperação|desbloqueio|entrada)|do (?:portão|alarme|cofre|cadeado)|da porta)|senha`,
  String.raw`codice (?:di (?:accesso|sicurezza|verifica|sblocco|recupero|ingresso)|della porta|del (?:cancello|portone|lucchetto)|dell['’]allarme|segreto|pin)`,
].join('|');

/**
 * One name per match: group 1 a qualified code, group 2 a combination, group 3 a standalone
 * name (OTP, CVV, PUK), group 4 a foreign name, group 5 a bare "code" (needs what it opens),
 * group 6 a name whose forward form secret-sentences.ts takes (PIN, passcode, password): here
 * only "Y is the X" and "use Y as the X".
 */
const NAME = new RegExp(
  String.raw`(?<![${L}-])(?:((?:(?:${QUALIFIER})[ -]){1,3}codes?)|((?:(?:lock|safe|padlock|locker|bike[- ]lock|combination[- ]lock)[ -])?combinations?)|(OTPs?|TOTP|CVV2?|CVC2?|CVN|PUK)|(${FOREIGN})|(codes?)|(PINs?|PIN[ -](?:code|number)s?|passcodes?|passwords?))(?![${L}-])`,
  'giu',
);
/** Case-sensitive names: "OTP", "CVV", "PIN" in capitals only ("pin it", "otp" as a word stay). */
const CAPITALS_ONLY = /^(?:otps?|totp|cvv2?|cvc2?|cvn|puk|pins?)$/i;

/** What a bare "code" or a "use Y for the …" may open. */
const PLACE = String.raw`gate|door|doors|safe|alarm|lock|locker|lockers|garage|building|entrance|lobby|keypad|lock[- ]?box|padlock|vault|wi-?fi|house|apartment|flat|office|storage|shed|gym|bike|suitcase|router|get in|get into|let (?:you|me|us|them) in|open(?:s)?|unlock(?:s)?|disarm(?:s)?|portail|porte|immeuble|tür|tor|puerta|portão|porta|cancello`;
const PLACE_WORD = new RegExp(String.raw`(?<![${L}])(?:${PLACE})(?![${L}])`, 'iu');
/** The word before a bare "code" that makes it an ordinary one. */
const ORDINARY_BEFORE = new RegExp(
  String.raw`(?<![${L}])(?:error|status|exit|return|response|http|zip|postal|post|area|country|dial(?:l?ing)?|calling|source|promo|promotional|discount|coupon|voucher|referral|invite|invitation|product|item|sku|tax|iata|icao|airport|station|language|colou?r|bar|qr|morse|dress|sort|reference|booking|tracking|fault|reason|diagnostic|trouble|event|course|class|building|legal|penal|civil|machine|byte|op|op-|opcode|short|tv|ad|promotion)[ -]?$`,
  'iu',
);

/** Up to six bridging words, then the marker; sticky, so it reads only from where the name ends. */
const MARKER = String.raw`is|was|are|were|is now|is still|will be|est|sont|ist|sind|lautet|lauten|es|son|é|são|è|sono`;
const BRIDGE = new RegExp(
  String.raw`((?:[ \t]{1,8}(?!(?:${MARKER})(?![${L}]))[\p{L}\p{N}][\p{L}\p{N}'’-]{0,30}){0,6}?)[ \t]{0,8}(?:((?<![${L}])(?:${MARKER})(?![${L}])[ \t]{0,8}:?|:(?!\/\/)|=|[-–—]{1,2}(?=[ \t]))|(?=[ \t]{1,8}[#*]?\p{N}))[ \t]{0,8}`,
  'yu',
);
/** One code-shaped token: letters, digits and dashes, an optional # or * at either end. */
const TOKEN = String.raw`[#*]{0,2}[A-Za-z0-9]{1,24}(?:[-–][A-Za-z0-9]{1,24}){0,7}[#*]{0,2}`;
const VALUE = new RegExp(String.raw`^${TOKEN}(?![\w@/.:]\w)`, 'u');
/** A further group of a spaced value ("1234 5678", "12 34 56"), or the next item of a list. */
const NEXT_GROUP = new RegExp(String.raw`^[ \t]{1,8}(\d{2,8})(?![\w@/.:\-–]\w)`, 'u');
const NEXT_ITEM = new RegExp(
  String.raw`^[ \t]{0,8}(?:[,;]|[ \t]and|[ \t]or)[ \t]{0,8}(?:and[ \t]{1,8}|or[ \t]{1,8})?(${TOKEN})(?![\w@/.:]\w)`,
  'iud',
);
const NEXT_LINE = new RegExp(
  String.raw`^[ \t]{0,8}\r?\n[ \t]{0,8}(?:[-*•][ \t]{1,8}|\d{1,2}[.)][ \t]{1,8})?(${TOKEN})[ \t]{0,8}(?=\r?\n|$)`,
  'ud',
);
const MAX_ITEMS = 24;

/** "4471 is the gate code": the value before the name (window ends where the name starts). */
const BEFORE_IS = new RegExp(
  String.raw`(?:^|[\s(“"'‘])(${TOKEN})["”'’]?[ \t]{1,8}(?:is|was|'s|’s|will be|becomes|est|ist|es|é|è)[ \t]{1,8}(?:(?:the|our|my|your|his|her|their|its|this|le|la|mon|ton|son|notre|votre|der|die|das|unser|mein|el|mi|tu|su|o|a|meu|il|la mia|mio)[ \t]{1,8})?(?:(?:new|current|old|temporary|temp|default|actual|real|only|nouveau|neue|nuevo)[ \t]{1,8})?(?:\p{Lu}[\p{L}\p{N}]{1,20}[ \t]{1,8})?$`,
  'iud',
);
/** "use 7731 as the alarm code", "enter 4471 for the gate code". */
const USE_AS = new RegExp(
  String.raw`(?:^|[\s(])(?:use|enter|type|dial|punch(?:[ \t]{1,8}in)?|key(?:[ \t]{1,8}in)?|input|try|utilise[rz]?|gib|usa)[ \t]{1,8}(${TOKEN})[ \t]{1,8}(?:as|for|at|on|on the|in|comme|pour|als|für|como|para|come|per)[ \t]{1,8}(?:(?:the|our|my|your|its|le|la|l['’]|den|die|das|el|la|o|a|il)[ \t]{0,8})?(?:(?:new|current)[ \t]{1,8})?$`,
  'iud',
);
/** "enter 4471 at the gate", "punch in 90210# to disarm the alarm" (no code noun at all). */
const USE_AT_PLACE = new RegExp(
  String.raw`(?<![${L}])(?:use|enter|type|dial|punch(?:[ \t]{1,8}in)?|key[ \t]{1,8}in|input)[ \t]{1,8}(${TOKEN})[ \t]{1,8}(?:at|on|for|into|to[ \t]{1,8}(?:open|unlock|disarm|get[ \t]{1,8}in(?:to)?|enter))(?:[ \t]{1,8}[\p{L}'’-]{1,20}){0,3}?[ \t]{1,8}(?:${PLACE})(?![${L}])`,
  'giu',
);

const WINDOW_BEFORE = 80;
const WINDOW_AFTER = 200;

const RECOVERY_FIRST = new RegExp(String.raw`^(?:(?:${RECOVERY})[ -])`, 'u');
const ONE_TIME_FIRST = new RegExp(String.raw`^(?:(?:${ONE_TIME})[ -])`, 'u');
/** After "Y is the X", the name ends its clause or goes on with a small word ("1234 is my PIN for the card"), not a noun ("… the password policy"). */
const NAME_ENDS =
  /^(?:[ \t]*(?:$|[\n.,;:!?)"”'’—–-])|[ \t]+(?:for|to|of|on|at|in|and|so|but|now|again|today|tonight|here|then|that|which|until|from|right|btw)(?![\p{L}]))/iu;

const kindOf = (name: string, group: number): string => {
  if (group === 2) return 'COMBINATION';
  if (group === 6) return /^pin/i.test(name) ? 'PIN' : 'PASSWORD';
  const n = name.toLowerCase();
  if (/^(?:cvv|cvc|cvn)/.test(n)) return 'CARD_SECURITY_CODE';
  if (/^(?:otp|totp)/.test(n)) return 'ONE_TIME_CODE';
  if (group === 4) return /mot de passe|passwort|kennwort|contraseña|senha/.test(n) ? 'PASSWORD' : 'ACCESS_CODE';
  if (RECOVERY_FIRST.test(n)) return 'RECOVERY_CODE';
  if (ONE_TIME_FIRST.test(n)) return 'ONE_TIME_CODE';
  if (/^(?:cvv|cvc)[ -]/.test(n)) return 'CARD_SECURITY_CODE';
  return 'ACCESS_CODE';
};

/**
 * A code's value: holds a digit, 3–40 characters, and is not a date, time, version, size,
 * ordinal or year range. A combination is digits only ("12-34-56", "36 24 36").
 */
export function isCodeValue(value: string, kind: string): boolean {
  const v = value.replace(/^[#*]+|[#*]+$/g, '');
  if (value.length < 3 || value.length > 40 || !/\d/.test(v)) return false;
  if (kind === 'COMBINATION') return /^\d{1,4}(?:[- –]\d{1,4}){0,5}$/.test(v) && v.replace(/\D/g, '').length >= 3;
  if (/^\d{4}-\d{2}-\d{2}$|^\d{1,2}-\d{1,2}-\d{2,4}$/.test(v)) return false;
  if (/^\d+(?:st|nd|rd|th|am|pm|px|ms|s|m|h|d|k|kb|mb|gb|x|mm|cm|km)$/i.test(v)) return false;
  // A word with a number in it (`v2`, `utf8`, `h264`): letters must not be most of a short token.
  if (/^[A-Za-z]+\d{1,2}$/.test(v) && v.length <= 5) return false;
  if (/^v\d/i.test(v) && /^v\d+(?:-\w+)?$/i.test(v)) return false;
  return true;
}

/** Every sentence-named code in `text`, in text order (overlaps resolved by the caller). */
export function codeSecrets(text: string): SecretSpan[] {
  const out: SecretSpan[] = [];
  const names = new RegExp(NAME.source, NAME.flags);
  const bridge = new RegExp(BRIDGE.source, BRIDGE.flags);
  const named = QUICK.test(text);
  let m: RegExpExecArray | null;
  while (named && (m = names.exec(text)) !== null) {
    const group = m.slice(1).findIndex((g) => g !== undefined) + 1;
    const name = m[0];
    const head = name.split(/[ -]/)[0]!;
    if (CAPITALS_ONLY.test(head) && head !== head.toUpperCase()) continue;
    const kind = kindOf(name, group);
    const start = m.index;
    const end = start + name.length;
    const before = text.slice(Math.max(0, start - WINDOW_BEFORE), start);
    const after = text.slice(end, end + WINDOW_AFTER);
    const sentenceAfter = after.split(/[.!?](?:\s|$)|\n/u)[0] ?? '';
    if (group === 5) {
      // A bare "code": an ordinary one by its qualifier, a secret only when its sentence names what it opens.
      if (ORDINARY_BEFORE.test(before)) continue;
      if (!PLACE_WORD.test(sentenceAfter) && !PLACE_WORD.test(before.split(/[.!?](?:\s|$)|\n/u).pop() ?? '')) continue;
    }
    // Backwards: "4471 is the gate code", "use 7731 as the alarm code".
    const back = NAME_ENDS.test(after) ? (BEFORE_IS.exec(before) ?? USE_AS.exec(before)) : null;
    if (back) {
      const value = back[1]!;
      if (isCodeValue(value, kind)) {
        const s = start - before.length + back.indices![1]![0];
        out.push({ start: s, end: s + value.length, kind });
        continue;
      }
    }
    if (group === 6) continue; // the forward forms are secret-sentences.ts's
    bridge.lastIndex = end;
    const b = bridge.exec(text);
    // A value right after the name ("gate code 4471") needs no marker; after bridging words it does.
    if (!b || (b[2] === undefined && (b[1] ?? '').trim() !== '')) continue;
    const valueStart = b.index + b[0].length;
    const spans = valuesAt(text, valueStart, kind, /s$/i.test(name) || group === 1 || kind === 'RECOVERY_CODE');
    if (spans.length === 0) continue;
    out.push(...spans);
    names.lastIndex = spans[spans.length - 1]!.end;
  }
  seedPhrases(text, out);
  const places = new RegExp(USE_AT_PLACE.source, USE_AT_PLACE.flags);
  while ((m = places.exec(text)) !== null) {
    const value = m[1]!;
    if (!isCodeValue(value, 'ACCESS_CODE')) continue;
    const s = m.index + m[0].indexOf(value);
    out.push({ start: s, end: s + value.length, kind: 'ACCESS_CODE' });
  }
  return out.sort((a, b) => a.start - b.start);
}

/**
 * A seed or recovery phrase in BIP-39's shape: 12 to 24 lowercase words of 3–8 letters after its
 * name ("seed phrase — abandon ability …", "seed words: …", "mnemonic is …"), numbered or not.
 */
const SEED_NAME =
  /(?<![\w-])(?:(?:secret|wallet|backup|\d{2}-word)[ \t]{1,8}){0,3}(?:(?:seed|recovery|backup|mnemonic|wallet)[ \t]{1,8}(?:phrase|words|sentence)|mnemonic|seed)(?![\w-])[ \t]{0,8}(?:(?:is|are|was|were)(?![\w-])|[:=—–-]{1,2})?[ \t]{0,8}["“']?[ \t]{0,8}(?=[a-z1])/gi;
const SEED_WORDS = /^(?:(?:\d{1,2}[.)][ \t]{0,8})?[a-z]{3,8}[ \t,]{1,4}){11,23}(?:\d{1,2}[.)][ \t]{0,8})?[a-z]{3,8}(?![A-Za-z])/;

function seedPhrases(text: string, out: SecretSpan[]): void {
  if (!/seed|recovery|mnemonic|wallet|backup/i.test(text)) return;
  const names = new RegExp(SEED_NAME.source, 'gi');
  let m: RegExpExecArray | null;
  while ((m = names.exec(text)) !== null) {
    const at = m.index + m[0].length;
    const words = SEED_WORDS.exec(text.slice(at, at + 24 * 13));
    if (!words) continue;
    out.push({ start: at, end: at + words[0].length, kind: 'SEED_PHRASE' });
    names.lastIndex = at + words[0].length;
  }
}

const QUICK = /code|combination|otp|cvv|cvc|cvn|puk|pin|pass|digicode|geheimzahl|kennwort|contraseña|senha|codice|código/i;

/** A value at `at`: one token and, when it starts with digits, its further space-separated digit groups ("1234 5678"). */
function readValue(text: string, at: number, kind: string): { start: number; end: number } | null {
  const first = VALUE.exec(text.slice(at, at + 64));
  if (!first) return null;
  let end = at + first[0].length;
  if (/^[#*]*\d/.test(first[0])) {
    for (let i = 0; i < 5; i++) {
      const g = NEXT_GROUP.exec(text.slice(end, end + 16));
      if (!g) break;
      end += g[0].length;
    }
  }
  return isCodeValue(text.slice(at, end), kind) ? { start: at, end } : null;
}

/** The value at `at` and, for a list ("Recovery codes: …, …", one per line), the next items. */
function valuesAt(text: string, at: number, kind: string, list: boolean): SecretSpan[] {
  const out: SecretSpan[] = [];
  let pos = at;
  const first = readValue(text, at, kind);
  if (first) {
    out.push({ ...first, kind });
    pos = first.end;
  } else if (!list || !/^[ \t]{0,8}(?=\r?\n)/.test(text.slice(pos, pos + 64))) {
    return [];
  }
  if (!list) return out;
  for (let i = 0; i < MAX_ITEMS; i++) {
    const window = text.slice(pos, pos + 80);
    const item = NEXT_ITEM.exec(window) ?? NEXT_LINE.exec(window);
    if (!item) break;
    const s = pos + item.indices![1]![0];
    const value = readValue(text, s, kind);
    if (!value) break;
    out.push({ ...value, kind });
    pos = value.end;
  }
  return out;
}
