// Minimal types for the parts of autocannon the benchmarks use (it ships none).
declare module 'autocannon' {
  interface Histogram { average: number, mean: number, p50: number, p99: number }
  interface Request { method?: string, path?: string, body?: string | Buffer, headers?: Record<string, string> }
  interface Options {
    url: string
    connections?: number
    duration?: number
    amount?: number
    headers?: Record<string, string>
    pipelining?: number
    requests?: (Request & { setupRequest?: (request: Request) => Request })[]
  }
  interface Result {
    'duration': number
    'errors': number
    'timeouts': number
    'non2xx': number
    '2xx': number
    'latency': Histogram
    'requests': Histogram
    'throughput': Histogram
  }
  function autocannon(options: Options): Promise<Result>
  export default autocannon
}
