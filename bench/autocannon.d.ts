// The part of autocannon's programmatic API the benchmark uses (the package ships no types).
declare module 'autocannon' {
  /**
   * What a connection keeps while it goes through its requests: reset (to `initialContext`, or {})
   * each time it starts again from the first.
   */
  export type RequestContext = Record<string, unknown>;
  export interface AutocannonRequest {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
    /**
     * Called before this request is sent (each time, as it is built): returns the request to send,
     * or a falsy value to start again from the first request (not allowed on the first).
     */
    setupRequest?: (request: AutocannonRequest, context: RequestContext) => AutocannonRequest | null | undefined;
    /** Called with each response to this request (the body as a string). */
    onResponse?: (status: number, body: string, context: RequestContext, headers: Record<string, string | string[]>) => void;
  }
  /** One connection (`setupClient` receives it before its first request). */
  export interface Client {
    /** Replaces this connection's list of requests. */
    setRequests(requests: AutocannonRequest[]): void;
  }
  export interface AutocannonOptions extends AutocannonRequest {
    url: string;
    connections?: number;
    duration?: number;
    pipelining?: number;
    timeout?: number;
    requests?: AutocannonRequest[];
    /** Called once for each connection, before it sends anything. */
    setupClient?: (client: Client) => void;
    /** What each connection's context starts as (and is reset to). */
    initialContext?: RequestContext;
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
    /** Bytes of every response counted in totalCompletedRequests, headers included. */
    totalBytes: number;
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
