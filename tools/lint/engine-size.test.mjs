// src/engine's size limits must fail where they apply and stay quiet elsewhere: each case lints a
// snippet as if it were the named file, with the project's own configuration (eslint.config.js).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { fileURLToPath } from 'node:url'
import { ESLint } from 'eslint'

const root = fileURLToPath(new URL('../..', import.meta.url))
const eslint = new ESLint({ cwd: root, overrideConfigFile: fileURLToPath(new URL('eslint.config.js', import.meta.url)) })

async function sizeErrors(filePath, code) {
  const [result] = await eslint.lintText(code, { filePath })
  return result.messages.filter((m) => m.ruleId === 'max-lines' || m.ruleId === 'max-lines-per-function').map((m) => m.ruleId)
}

const lines = (n) => Array.from({ length: n }, (_, i) => `export const v${i} = ${i}`).join('\n') + '\n'
const longFunction = `export function big() {\n${Array.from({ length: 61 }, (_, i) => `  console.log(${i})`).join('\n')}\n}\n`

test('a file of src/engine over 300 lines fails; one of 300 passes; elsewhere the limit does not apply', async () => {
  assert.deepEqual(await sizeErrors('src/engine/too-long.ts', lines(301)), ['max-lines'])
  assert.deepEqual(await sizeErrors('src/engine/station/too-long.ts', lines(301)), ['max-lines'])
  assert.deepEqual(await sizeErrors('src/engine/fits.ts', lines(300)), [])
  assert.deepEqual(await sizeErrors('src/lib/long.ts', lines(301)), [])
})

test('a function of the player deck over 60 lines fails; a long test case does not', async () => {
  assert.deepEqual(await sizeErrors('src/engine/player-deck.ts', longFunction), ['max-lines-per-function'])
  assert.deepEqual(await sizeErrors('src/engine/deck-handover.ts', longFunction), ['max-lines-per-function'])
  const body = Array.from({ length: 61 }, (_, i) => `  console.log(${i})`).join('\n')
  const testCase = `import { it } from 'vitest'\nit('long', () => {\n${body}\n})\n`
  assert.deepEqual(await sizeErrors('src/engine/deck-machine.test.ts', testCase), [])
})
