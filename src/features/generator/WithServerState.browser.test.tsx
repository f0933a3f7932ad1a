import type { ReactNode } from 'react'
import { expect, it } from 'vitest'
import { page } from 'vitest/browser'
import { fakeBackend } from '../../../tests/component/fake-backend.ts'
import { render, renderWithBackend } from '../../../tests/component/render.tsx'
import { BackendContext, useOptionalBackend } from '../../domain/session/backend-context.ts'
import { SlotsProvider } from '../../ui/slots.tsx'
import { WithServerState } from './WithServerState.tsx'

// The landing page has no server-state layer; the generator's share panel, shown there, takes it from the app's slot.

function NeedsBackend() {
  return <p data-testid="child">{useOptionalBackend() ? 'has a backend' : 'no backend'}</p>
}

it('inside a page with a backend, renders its children under that one and never asks the slot', async () => {
  const slot = ({ children }: { children: ReactNode }) => <div data-testid="slot">{children}</div>
  renderWithBackend(
    <SlotsProvider slots={{ ServerState: slot }}>
      <WithServerState>
        <NeedsBackend />
      </WithServerState>
    </SlotsProvider>,
    fakeBackend().backend,
  )
  await expect.element(page.getByTestId('child')).toHaveTextContent('has a backend')
  expect(document.querySelector('[data-testid="slot"]')).toBeNull()
})

it('on a page without one (the landing page), renders its children inside the app’s server-state slot', async () => {
  const { backend } = fakeBackend()
  const slot = ({ children }: { children: ReactNode }) => (
    <div data-testid="slot">
      <BackendContext value={backend}>{children}</BackendContext>
    </div>
  )
  render(
    <SlotsProvider slots={{ ServerState: slot }}>
      <WithServerState>
        <NeedsBackend />
      </WithServerState>
    </SlotsProvider>,
  )
  await expect.element(page.getByTestId('slot').getByTestId('child')).toHaveTextContent('has a backend')
})
