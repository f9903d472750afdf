import { Counter, Histogram } from 'prom-client';
import type { Services } from '../api/index.js';

type Metrics = Services['metrics'];

const LATENCY_BUCKETS_S = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

// One histogram per registry: MCP servers are made per request, the registry lives with the service.
const histograms = new WeakMap<Metrics, Histogram<'tool' | 'outcome'>>();

/** Tool names are the server's own (a fixed set), so the label stays bounded. */
export function observeToolCall(metrics: Metrics, tool: string, outcome: 'ok' | 'error', seconds: number): void {
  let histogram = histograms.get(metrics);
  if (!histogram) {
    histogram = new Histogram({
      name: 'mnemograph_mcp_tool_duration_seconds',
      help: 'MCP tool calls (HTTP and stdio), from call to answer, by tool and outcome',
      labelNames: ['tool', 'outcome'] as const,
      buckets: LATENCY_BUCKETS_S,
      registers: [metrics.registry],
    });
    histograms.set(metrics, histogram);
  }
  histogram.observe({ tool, outcome }, seconds);
}

const refusals = new WeakMap<Metrics, Counter<'code'>>();

/** Requests to /mcp refused before any tool ran, by error code (a fixed set). */
export function observeRefusal(metrics: Metrics, code: string): void {
  let counter = refusals.get(metrics);
  if (!counter) {
    counter = new Counter({
      name: 'mnemograph_mcp_refused_requests_total',
      help: 'Requests to /mcp refused before any tool ran (admission, limits, bad headers), by code',
      labelNames: ['code'] as const,
      registers: [metrics.registry],
    });
    refusals.set(metrics, counter);
  }
  counter.inc({ code });
}
