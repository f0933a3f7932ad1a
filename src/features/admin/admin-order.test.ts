import { expect, it } from 'vitest'
import { ADMIN_TABS } from './AdminPage.tsx'
import { AI_CATEGORIES } from './AiSettingsTab.tsx'

// The dashboard leads with what this deployment uses and says what each AI provider is for.

it('leads with the economy, the site and the backend; the AI providers nothing calls come last', () => {
  expect(ADMIN_TABS.map((t) => t.label)).toEqual([
    'Economy',
    'Site Settings',
    'API Config',
    'Knowledge Base',
    'Text AI',
    'Music AI',
    'Image AI',
    'Inference AI',
  ])
})

it('each AI provider says what it is for, and whether the app calls it as shipped', () => {
  expect(AI_CATEGORIES.text.purpose).toMatch(/NFT descriptions/)
  for (const unused of ['music', 'image', 'inference'] as const) expect(AI_CATEGORIES[unused].purpose).toMatch(/^Not called as shipped/)
})
