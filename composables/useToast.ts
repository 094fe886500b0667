import { shallowRef } from 'vue'
import { perApp } from './useApi'

export interface ToastAction {
  label: string
  run: () => void | Promise<void>
}

export interface Toast {
  id: number
  text: string
  action?: ToastAction
}

/**
 * One short message at a time at the bottom of the screen (AppToast, in the
 * layout, so it outlives a navigation), optionally with one action such as
 * Undo. The region is a polite live region: screen readers announce it.
 */
export const useToast = perApp(() => {
  const current = shallowRef<Toast | null>(null)
  let next = 1
  let timer: ReturnType<typeof setTimeout> | undefined

  function dismiss() {
    clearTimeout(timer)
    current.value = null
  }

  function show(text: string, action?: ToastAction, seconds = 8) {
    clearTimeout(timer)
    current.value = { id: next++, text, action }
    if (import.meta.client) timer = setTimeout(dismiss, seconds * 1000)
  }

  async function act() {
    const action = current.value?.action
    dismiss()
    await action?.run()
  }

  return { current, show, dismiss, act }
})
