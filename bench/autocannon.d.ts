// The part of autocannon's programmatic API the benchmark uses (the package ships no types).
declare module 'autocannon' {
  export interface AutocannonRequest {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
  }
  export interface AutocannonOptions extends AutocannonRequest {
    url: string;
    connections?: number;
    duration?: number;
    pipelining?: number;
    timeout?: number;
    requests?: AutocannonRequest[];
    /** Resolve with the raw result (histograms encoded), to be merged with aggregateResult. */
    skipAggregateResult?: boolean;
  }
  export interface Histogram {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    total: number;
    p50: number;
    p90: number;
    p97_5: number;
    p99: number;
  }
  export interface AutocannonResult {
    requests: Histogram;
    latency: Histogram;
    throughput: Histogram;
    errors: number;
    timeouts: number;
    non2xx: number;
    '2xx': number;
    duration: number;
    statusCodeStats?: Record<string, { count: number }>;
  }
  /** What a run resolves with under skipAggregateResult. */
  export interface RawAutocannonResult {
    totalCompletedRequests: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    duration: number;
    statusCodeStats: Record<string, { count: number }>;
  }
  function autocannon(options: AutocannonOptions & { skipAggregateResult: true }): Promise<RawAutocannonResult>;
  function autocannon(options: AutocannonOptions): Promise<AutocannonResult>;
  namespace autocannon {
    /** Merges raw results, their latency histograms included. */
    function aggregateResult(
      results: RawAutocannonResult[],
      options: { url: string; connections?: number },
    ): AutocannonResult;
  }
  export default autocannon;
}
