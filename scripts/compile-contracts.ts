// Compiles contracts/CubeMusicNFT.sol with solc-js (npm) against OpenZeppelin Contracts (npm) and
// writes its ABI and bytecode to contracts/CubeMusicNFT.json (committed: the server deploys it at
// start without compiling). Run after changing the source: `npx tsx scripts/compile-contracts.ts`.
import { readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import solc from 'solc'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const require = createRequire(import.meta.url)
const source = 'CubeMusicNFT.sol'

const input = {
  language: 'Solidity',
  sources: { [source]: { content: readFileSync(join(root, 'contracts', source), 'utf8') } },
  settings: {
    optimizer: { enabled: true, runs: 200 },
    evmVersion: 'cancun',
    outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
  },
}
const findImports = (path: string) => {
  try {
    return { contents: readFileSync(require.resolve(path), 'utf8') }
  } catch {
    return { error: `not found: ${path}` }
  }
}
const output = JSON.parse(solc.compile(JSON.stringify(input), { import: findImports })) as {
  errors?: { severity: string; formattedMessage: string }[]
  contracts: Record<string, Record<string, { abi: unknown[]; evm: { bytecode: { object: string } } }>>
}
const errors = (output.errors ?? []).filter((e) => e.severity === 'error')
if (errors.length) {
  console.error(errors.map((e) => e.formattedMessage).join('\n'))
  process.exit(1)
}
const built = output.contracts[source]?.CubeMusicNFT
if (!built) throw new Error('solc produced no CubeMusicNFT')
const artifact = {
  contractName: 'CubeMusicNFT',
  compiler: `solc ${solc.version()}`,
  abi: built.abi,
  bytecode: `0x${built.evm.bytecode.object}`,
}
writeFileSync(join(root, 'contracts', 'CubeMusicNFT.json'), `${JSON.stringify(artifact, null, 2)}\n`)
console.log(`contracts/CubeMusicNFT.json: ${built.abi.length} ABI entries, ${built.evm.bytecode.object.length / 2} bytes of bytecode`)
