declare module 'autocannon' {
  interface Request { method?: string, path?: string, headers?: Record<string, string>, body?: string }
  interface Options { url: string, connections?: number, duration?: number, pipelining?: number, requests?: Request[] }
  interface Histogram { average: number, mean: number, p99: number, p50: number }
  interface Result { 'requests': Histogram, 'latency': Histogram, 'errors': number, 'timeouts': number, 'non2xx': number, '2xx': number }
  function autocannon(options: Options): Promise<Result>
  export default autocannon
}
