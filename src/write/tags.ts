/**
 * Heuristic auto-tagging: cheap labels for filtering without an LLM.
 * Each rule sums the points of the distinct signals it finds (capped at TAG_RULE_MAX_POINTS) and
 * its tag is applied when the score exceeds TAG_SCORE_THRESHOLD, so one weak keyword ("should",
 * "design", "issue") never tags on its own. Rules run and tags come out in one fixed order.
 */

export interface AutoTagOptions {
  /** Where the memory came from; "conversation"/"chat…" adds the `conversation` tag. */
  source?: string | null | undefined;
  /** Points a rule must exceed to apply its tag. */
  threshold?: number;
}

export interface AutoTagResult {
  tags: string[];
  /** Every rule's score, applied or not (the `conversation` tag is not scored). */
  scores: Record<string, number>;
}

/** A tag is applied when its score is strictly greater than this (points). */
export const TAG_SCORE_THRESHOLD = 2;
/** A rule's score is capped at this many points. */
export const TAG_RULE_MAX_POINTS = 5;
export const CONVERSATION_TAG = 'conversation';

type Signal = [pattern: RegExp, points: number];

// Linear time on any input: no `\s` that crosses lines after `^` in multiline mode, and no
// identifier that may start inside another (`\b` fires at every `$`).
/** Rule order is the order of application: decision → code → error → architecture → config → dependency → todo. */
export const TAG_RULES: ReadonlyArray<{ tag: string; signals: readonly Signal[] }> = [
  {
    tag: 'decision',
    signals: [
      [/\bdecid(?:ed|e to|ing)\b/i, 3],
      [/\b(?:we|i|they|team)\s+(?:chose|picked|opted|settled on|went with)\b/i, 3],
      [/\bsettled on\b/i, 3],
      [/\bfor this reason\b/i, 2],
      [/\bdecision\b/i, 2],
      [/\b(?:instead of|rather than|in favou?r of)\b/i, 1],
      [/\bbecause\b/i, 1],
    ],
  },
  {
    tag: 'code',
    signals: [
      [/```/, 3],
      [/\b(?:function|const|let|var|class|import|export|def|func|struct|interface|enum|return|async|await|fn|impl|lambda)\b/, 1],
      [/\b(?:const|let|var|def|func|fn)\s+[A-Za-z_$][\w$]*\s*[=(:]/, 2],
      [/\w\.(?:tsx?|jsx?|mjs|cjs|py|rs|go|java|rb|cs|cpp|hpp|kt|swift|php|sh|sql)\b/, 2],
      [/(?<![\w$])[A-Za-z_$][\w$]*\([^()\n]{0,40}\)/, 2],
      [/\b[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+\b/, 1],
      [/\b[a-z]+[A-Z][A-Za-z0-9]*\b/, 1],
      [/\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b/, 1],
      [/(?<![\w$])[a-z_$][\w$]*\.[a-z_$][\w$]*(?![\w$.])/, 1],
      [/===|!==|=>|&&|\|\||::|->/, 2],
    ],
  },
  {
    tag: 'error',
    signals: [
      [
        /\b(?:errors?|exceptions?|crash(?:ed|es|ing)?|bugs?|failed|failure|panic(?:ked)?|traceback|stack ?trace|broken|not working|segfault)\b/i,
        3,
      ],
      [/\b[A-Z]\w*(?:Error|Exception)\b/, 3],
      [/^[ \t]+at [^\n]+:\d+:\d+\)?$|Traceback \(most recent call last\)|goroutine \d+ \[/m, 3],
      [/\b(?:fix(?:ed|es|ing)?|issues?|problems?|wrong|regression|timeout|warning)\b/i, 1],
    ],
  },
  {
    tag: 'architecture',
    signals: [
      [/\barchitect(?:ure|ural)\b/i, 3],
      [/\b(?:re-?design(?:ed|ing)?|refactor(?:ed|ing|s)?)\b/i, 2],
      [/\bmodular(?:ity|ize|ized)?\b/i, 2],
      [/\blayers?\b/i, 2],
      [/\bsepara(?:te|tion of) concerns\b/i, 2],
      [/\bdecoupl(?:e|ed|ing)\b/i, 2],
      [/\bdesign\b/i, 1],
      [/\bpatterns?\b/i, 1],
      [/\bdependenc(?:y|ies)\b/i, 1],
      [/\b(?:components?|micro-?services?|gateway|boundar(?:y|ies))\b/i, 1],
    ],
  },
  {
    tag: 'config',
    signals: [
      [/\bconfig(?:uration|ure|ured|s)?\b/i, 2],
      [/\b(?:environment|env) var(?:iable)?s?\b/i, 3],
      [/\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b/, 2],
      [/\b[A-Z][A-Z0-9_]{2,}=\S/, 3],
      [/(?<![\w.-])[a-z][\w.-]{0,60}=[^\s=]/, 1],
      [/(?:^|[\s/])\.env\b|(?<![\w-])[\w-]{1,100}\.(?:ya?ml|toml|ini|conf|cfg)\b|\b(?:settings|config)\.\w+\b/i, 2],
      [/\benvironment\b/i, 1],
      [/\bsettings?\b/i, 1],
      [/\bflags?\b/i, 1],
      [/\bparameters?\b/i, 1],
      [/\bvariables?\b/i, 1],
    ],
  },
  {
    tag: 'dependency',
    signals: [
      [/\b(?:npm|pnpm|yarn|bun|pip3?|poetry|uv|cargo|gem|brew|apt(?:-get)?|go)\s+(?:install|add|get|i)\b/i, 3],
      [/(?:^|[\s(])(?:@[\w.-]+\/)?[a-z][\w.-]*@[\^~]?\d+(?:\.\d+)*/, 3],
      [/(?:^|[\s(])[\^~]?\d+\.\d+\.\d+\b/, 2],
      [/\bdependenc(?:y|ies)\b/i, 2],
      [/\b(?:upgrade[ds]?|upgrading|downgrade[ds]?|bump(?:ed|s)?)\b/i, 2],
      [/\b(?:packages?|librar(?:y|ies)|modules?)\b/i, 1],
      [/\b(?:import|require)\b/i, 1],
      [/\bversions?\b/i, 1],
    ],
  },
  {
    tag: 'todo',
    signals: [
      [/\b(?:TODO|FIXME|HACK|XXX)\b/, 3],
      [/^[ \t]*[-*] \[ \]/m, 3],
      [/\bto-?do\b/i, 2],
      [/\bshould\b/i, 1],
      [/\bneeds? to\b/i, 1],
      [/\bmust\b/i, 1],
      [/\b(?:remember|don'?t forget) to\b/i, 1],
    ],
  },
];

const CONVERSATION_SOURCE = /(?:^|[^a-z])(?:conversation|chat)/i;

export function autoTag(text: string, options: AutoTagOptions = {}): AutoTagResult {
  const threshold = options.threshold ?? TAG_SCORE_THRESHOLD;
  const tags: string[] = [];
  const scores: Record<string, number> = {};
  for (const rule of TAG_RULES) {
    let score = 0;
    for (const [pattern, points] of rule.signals) if (pattern.test(text)) score += points;
    score = Math.min(score, TAG_RULE_MAX_POINTS);
    scores[rule.tag] = score;
    if (score > threshold) tags.push(rule.tag);
  }
  if (options.source && CONVERSATION_SOURCE.test(options.source)) tags.push(CONVERSATION_TAG);
  return { tags, scores };
}
