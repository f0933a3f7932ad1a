import { describe, expect, it } from 'vitest'
import { describeNft, describePrompt, generateDescription } from './describe.ts'

const track = { title: 'Neon Drift', artist: 'Synthwave Collective', genre: 'synthwave', duration: '1:25' }

describe('NFT description generator', () => {
  it('uses the server Text AI when it answers, with a prompt naming the NFT and its track', async () => {
    const prompts: string[] = []
    const out = await generateDescription('Night Ride', track, async (p) => {
      prompts.push(p)
      return 'A drive through neon rain.'
    })
    expect(out).toEqual({ text: 'A drive through neon rain.', source: 'server' })
    expect(prompts).toEqual([describePrompt('Night Ride', track)])
    expect(prompts[0]).toContain('"Night Ride"')
    expect(prompts[0]).toContain('"Neon Drift" by Synthwave Collective (synthwave), 1:25 long')
  })

  it('falls back to the on-device template when no provider is configured or the call fails', async () => {
    expect(await generateDescription('Night Ride', track, async () => null)).toEqual({
      text: describeNft('Night Ride', track),
      source: 'device',
    })
    expect(await generateDescription('Night Ride', null, async () => Promise.reject(new Error('down')))).toEqual({
      text: describeNft('Night Ride', null),
      source: 'device',
    })
  })
})
