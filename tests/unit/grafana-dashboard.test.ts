import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { enableMetrics, metricsRegistry } from '../../server/services/metrics'

/** docs/grafana-dashboard.json charts only series the server serves (docs/operations.md, Monitoring). */
describe('docs/grafana-dashboard.json', () => {
  it('names only series that GET /metrics serves', async () => {
    const dashboard = readFileSync(resolve(import.meta.dirname, '../../docs/grafana-dashboard.json'), 'utf8')
    const used = new Set([...dashboard.matchAll(/\b((?:dif|process|nodejs)_[a-z_0-9]+)/g)].map(match => match[1]!))
    enableMetrics()
    // The gauges read at scrape time are registered by the server's plugin, where it reads the image queue, pool and Redis.
    const plugin = readFileSync(resolve(import.meta.dirname, '../../server/plugins/observability.ts'), 'utf8')
    const gauges = [...plugin.matchAll(/scrapedGauge\('(\w+)'/g)].map(match => match[1]!)
    expect(gauges).toHaveLength(4)
    const served = new Set([...(await metricsRegistry.getMetricsAsJSON()).map(metric => metric.name), ...gauges])
    const base = (name: string) => name.replace(/_(bucket|sum|count)$/, '')
    expect([...used].filter(name => !served.has(name) && !served.has(base(name)))).toEqual([])
    expect(used.size).toBeGreaterThan(10)
  })
})
