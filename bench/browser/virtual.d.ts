/// <reference types="vite/client" />
declare module 'virtual:cube-benches' {
  export const benches: Record<string, () => Promise<unknown>>
}
