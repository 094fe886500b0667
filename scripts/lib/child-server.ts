import { spawn } from 'node:child_process'

/**
 * A benchmark server in a process of its own: runs `node --import tsx <args>`
 * and waits for its `listening <port>` line on stdout. The answer's `stop`
 * ends it and waits for it to exit.
 */
export async function startChildServer(label: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<{ url: string, stop: () => Promise<void> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], { env, stdio: ['ignore', 'pipe', 'inherit'] })
  const port = await new Promise<string>((resolve, reject) => {
    child.once('exit', code => reject(new Error(`${label} exited with ${code}`)))
    child.stdout!.on('data', (chunk: Buffer) => {
      const match = chunk.toString().match(/listening (\d+)/)
      if (match) resolve(match[1]!)
    })
  })
  return {
    url: `http://127.0.0.1:${port}`,
    stop: async () => {
      child.removeAllListeners('exit')
      const exited = new Promise(resolve => child.once('exit', resolve))
      child.kill('SIGTERM')
      await exited
    },
  }
}
