// Every service's per-request metrics, `http_requests_total` and `http_request_duration_seconds`, by
// method, route pattern and status: counted in plain numbers on the request path and written out as
// Prometheus text only when /metrics is scraped (observability.ts appends it to the registry's own).
//
// Why not prom-client's Counter and Histogram: each of their updates turns the labels object into a
// sorted key string and checks every label again — 0.86–0.93 µs a request for the two against 35–39 ns
// here (bench/request-metrics/run.mjs), and 2–3 µs in the profile of a busy service (2026-11-29;
// docs/adr/0016-in-process-dispatch-and-gateway-cost.md, revision of that day), 2–3 % of a
// `GET /account/me`. Here an update is three map lookups on values the request already holds and a few
// additions. The text is what prom-client wrote for these two metrics (label
// order included: test/http/request-metrics.test.ts holds it against prom-client's), so dashboards and
// alerts built on it keep working.

/** Upper bounds (seconds) of the duration histogram's buckets; +Inf is implied. */
export const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30] as const;

interface Series {
  count: number;
  sum: number;
  /** Observations per bucket, not cumulative: `perBucket[i]` counts those above bucket i-1 and ≤ bucket i. */
  perBucket: number[];
}

const REQUESTS_HELP = 'HTTP requests answered, by method, route pattern and status.';
const DURATION_HELP = 'Time from request start to response end, by method, route pattern and status.';

/** A label value as the Prometheus text format writes it. */
function escapeLabel(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
}

export class RequestMetrics {
  // route → method → status → series: nothing is built on the request path but a new series' record.
  private readonly series = new Map<string, Map<string, Map<number, Series>>>();

  constructor(private readonly service: string) {}

  /** One answered request: its method, route pattern (or `unmatched`), status and duration in seconds. */
  observe(method: string, route: string, status: number, seconds: number): void {
    let byMethod = this.series.get(route);
    if (byMethod === undefined) {
      byMethod = new Map();
      this.series.set(route, byMethod);
    }
    let byStatus = byMethod.get(method);
    if (byStatus === undefined) {
      byStatus = new Map();
      byMethod.set(method, byStatus);
    }
    let s = byStatus.get(status);
    if (s === undefined) {
      s = { count: 0, sum: 0, perBucket: new Array<number>(DURATION_BUCKETS.length + 1).fill(0) };
      byStatus.set(status, s);
    }
    s.count++;
    s.sum += seconds;
    let i = 0;
    while (i < DURATION_BUCKETS.length && seconds > DURATION_BUCKETS[i]!) i++;
    s.perBucket[i]!++;
  }

  /** Both metrics in the Prometheus text format, each series labelled with the service's name. */
  render(): string {
    const service = `service="${escapeLabel(this.service)}"`;
    const counts: string[] = [];
    const durations: string[] = [];
    for (const [route, byMethod] of this.series) {
      for (const [method, byStatus] of byMethod) {
        for (const [status, s] of byStatus) {
          const labels = `method="${escapeLabel(method)}",route="${escapeLabel(route)}",status="${status}"`;
          counts.push(`http_requests_total{${labels},${service}} ${s.count}`);
          let cumulative = 0;
          for (let i = 0; i < DURATION_BUCKETS.length; i++) {
            cumulative += s.perBucket[i]!;
            durations.push(
              `http_request_duration_seconds_bucket{le="${DURATION_BUCKETS[i]}",${service},${labels}} ${cumulative}`,
            );
          }
          durations.push(`http_request_duration_seconds_bucket{le="+Inf",${service},${labels}} ${s.count}`);
          durations.push(`http_request_duration_seconds_sum{${service},${labels}} ${s.sum}`);
          durations.push(`http_request_duration_seconds_count{${service},${labels}} ${s.count}`);
        }
      }
    }
    return [
      `# HELP http_requests_total ${REQUESTS_HELP}`,
      '# TYPE http_requests_total counter',
      ...counts,
      '',
      `# HELP http_request_duration_seconds ${DURATION_HELP}`,
      '# TYPE http_request_duration_seconds histogram',
      ...durations,
      '',
    ].join('\n');
  }
}
