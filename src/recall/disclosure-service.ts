import type { Executor } from '../db/index.js';
import { memoriesPage, timelineAround, type TimelineRows } from '../db/index.js';
import { LimitExceededError, NotFoundError, ValidationError } from '../errors.js';
import { snippet } from './disclosure.js';
import type { RecallFilters, RecallService } from './recall-service.js';

const MAX_SEARCH_WINDOW = 100;
const MAX_TIMELINE_SIDE = 50;
const TITLE_CHARS = 80;

export interface SearchHitView {
  id: string;
  title: string;
  type: string;
  occurredAt: string | null;
  createdAt: string;
  score: number;
  tokenEstimate: number;
}

/**
 * Progressive disclosure: a compact index first (`search`), then context around an
 * anchor (`timeline`); full records come from `memories(ids)`.
 */
export class DisclosureService {
  constructor(
    private readonly executor: Executor,
    private readonly recall: RecallService,
    private readonly countTokens: (text: string) => number,
  ) {}

  /** A namespace's memories, newest first, a page at a time (full records; `memories(ids)` reads them by id). */
  page(query: Parameters<typeof memoriesPage>[1]) {
    return memoriesPage(this.executor, query);
  }

  async search(request: { query: string; namespace: string; limit: number; offset: number; filters?: RecallFilters | null }) {
    const { limit, offset } = request;
    if (limit < 1 || offset < 0) throw new ValidationError('limit must be ≥ 1 and offset ≥ 0');
    if (offset + limit > MAX_SEARCH_WINDOW)
      throw new LimitExceededError(`search pages reach at most ${MAX_SEARCH_WINDOW} results (offset + limit)`);
    const outcome = await this.recall.recall({ ...request, limit: offset + limit, tokenBudget: null, trackAccess: false, rankOnly: true });
    const hits: SearchHitView[] = outcome.ranked.slice(offset, offset + limit).map(({ candidate, score }) => ({
      id: candidate.memoryId,
      title: snippet(candidate.content, TITLE_CHARS),
      type: candidate.type,
      occurredAt: candidate.occurredAt,
      createdAt: candidate.createdAt,
      score,
      tokenEstimate: this.countTokens(candidate.content),
    }));
    return { hits, offset, hasMore: outcome.ranked.length > offset + limit };
  }

  async timeline(request: {
    namespace: string;
    anchor?: string | null;
    query?: string | null;
    before: number;
    after: number;
  }): Promise<TimelineRows | { anchor: null; before: []; after: [] }> {
    const { before, after } = request;
    if (before < 0 || after < 0 || before > MAX_TIMELINE_SIDE || after > MAX_TIMELINE_SIDE) {
      throw new ValidationError(`before and after must be between 0 and ${MAX_TIMELINE_SIDE}`);
    }
    let anchorId = request.anchor ?? null;
    if (!anchorId) {
      if (!request.query) throw new ValidationError('timeline needs an anchor id or a query');
      const best = await this.recall.recall({ query: request.query, namespace: request.namespace, limit: 1, trackAccess: false });
      anchorId = best.items[0]?.memory.id ?? null;
      if (!anchorId) return { anchor: null, before: [], after: [] };
    }
    const rows = await timelineAround(this.executor, request.namespace, anchorId, before, after);
    if (!rows) throw new NotFoundError('memory', anchorId);
    return rows;
  }
}
