// Prometheus text for the gateway: requests by service and status, and upstream latency (time to
// the service's response headers) by service. Kept in plain maps: the label sets are small and
// fixed (nine services, a handful of statuses), and the hot path is one map update per request.

const LATENCY_BUCKETS = [
  0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 120, 300,
];

interface Histogram {
  /**
   * Per bucket, the observations whose first bucket (the smallest `le` they fit) it is; made cumulative
   * when written out. One increment an observation rather than one for each of the sixteen buckets.
   */
  counts: number[];
  sum: number;
  count: number;
}

export class GatewayMetrics {
  // service → status → count: no string is built on the request path.
  private readonly requests = new Map<string, Map<number, number>>();
  private readonly latency = new Map<string, Histogram>();
  private readonly upstreamErrors = new Map<string, number>();

  /** `service` is the route's service, or `gateway` for the gateway's own endpoints and unknown paths. */
  countRequest(service: string, status: number): void {
    let byStatus = this.requests.get(service);
    if (!byStatus) {
      byStatus = new Map();
      this.requests.set(service, byStatus);
    }
    byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
  }

  observeUpstream(service: string, seconds: number): void {
    let h = this.latency.get(service);
    if (!h) {
      h = { counts: LATENCY_BUCKETS.map(() => 0), sum: 0, count: 0 };
      this.latency.set(service, h);
    }
    let i = 0;
    while (i < LATENCY_BUCKETS.length && seconds > LATENCY_BUCKETS[i]!) i++;
    // Over the last bucket: counted by +Inf (h.count) only.
    if (i < LATENCY_BUCKETS.length) h.counts[i]!++;
    h.sum += seconds;
    h.count++;
  }

  countUpstreamError(service: string, kind: 'unreachable' | 'timeout'): void {
    const key = `service="${service}",kind="${kind}"`;
    this.upstreamErrors.set(key, (this.upstreamErrors.get(key) ?? 0) + 1);
  }

  render(): string {
    const lines: string[] = [
      '# HELP gateway_requests_total Requests answered by the gateway, by service and status.',
      '# TYPE gateway_requests_total counter',
    ];
    for (const [service, byStatus] of this.requests) {
      for (const [status, n] of byStatus) {
        lines.push(`gateway_requests_total{service="${service}",status="${status}"} ${n}`);
      }
    }
    lines.push(
      '# HELP gateway_upstream_errors_total Requests the gateway could not pass to a service.',
      '# TYPE gateway_upstream_errors_total counter',
    );
    for (const [labels, n] of this.upstreamErrors)
      lines.push(`gateway_upstream_errors_total{${labels}} ${n}`);
    lines.push(
      '# HELP gateway_upstream_duration_seconds Time from forwarding a request to the service response headers.',
      '# TYPE gateway_upstream_duration_seconds histogram',
    );
    for (const [service, h] of this.latency) {
      let cumulative = 0;
      LATENCY_BUCKETS.forEach((le, i) => {
        cumulative += h.counts[i]!;
        lines.push(`gateway_upstream_duration_seconds_bucket{service="${service}",le="${le}"} ${cumulative}`);
      });
      lines.push(`gateway_upstream_duration_seconds_bucket{service="${service}",le="+Inf"} ${h.count}`);
      lines.push(`gateway_upstream_duration_seconds_sum{service="${service}"} ${h.sum}`);
      lines.push(`gateway_upstream_duration_seconds_count{service="${service}"} ${h.count}`);
    }
    return lines.join('\n') + '\n';
  }
}
