// Stereo convolution reverb: the left input convolved with the left response, the right with the
// right (what a ConvolverNode does with a stereo response), zero latency, 128 frames per call.
// Pure IEEE single-precision arithmetic in a fixed order, so the same response and input give
// the same output bits in every browser thread, in Node and under any load.
//
// Non-uniform partitions keep a long response cheap without a background thread: stage 0 (128-
// frame blocks) covers the first 896 frames, stage 1 (1024) up to 8064, stage 2 (8192) the rest;
// a stage's block is convolved in the quantum that completes it (see stage.ts).
//
// One response per instance. The host calls, in order:
//   configure(frames)            room for a response of `frames` (once)
//   responseLeft/Right()         where to write the response's samples
//   prepare(scale)               the partitions' spectra (the response times scale), state cleared
//   inputLeft/Right(), outputLeft/Right()   the quantum's buffers (128 f32 each)
//   render()                     one quantum: inputs in, outputs out
//   reset()                      silence the tail
import { allocate, bytes } from './fft'
import { QUANTUM, Stage } from './stage'

const BLOCKS: StaticArray<i32> = [128, 1024, 8192]
const MAX_STAGES = 3

let stages: StaticArray<Stage | null> = new StaticArray<Stage | null>(MAX_STAGES)
let starts: StaticArray<i32> = new StaticArray<i32>(MAX_STAGES)
let frames: i32 = -1
let left: usize = 0
let right: usize = 0
let inL: usize = 0
let inR: usize = 0
let outL: usize = 0
let outR: usize = 0

/** Where stage k starts in the response: its latency, B_k - 128 (0 for the first stage). */
function stageStart(k: i32): i32 {
  return k == 0 ? 0 : BLOCKS[k] - QUANTUM
}

/** Sets up an instance for a response of `length` frames; returns false if it was set up already. */
export function configure(length: i32): bool {
  if (frames >= 0 || length < 1) return false
  frames = length
  left = allocate(length)
  right = allocate(length)
  inL = allocate(QUANTUM)
  inR = allocate(QUANTUM)
  outL = allocate(QUANTUM)
  outR = allocate(QUANTUM)
  for (let k = 0; k < MAX_STAGES; k++) {
    const from = stageStart(k)
    if (length <= from) break
    const to = k + 1 < MAX_STAGES ? min(length, stageStart(k + 1)) : length
    const block = BLOCKS[k]
    starts[k] = from
    stages[k] = new Stage(block, (to - from + block - 1) / block)
  }
  return true
}

export function responseLeft(): usize {
  return left
}

export function responseRight(): usize {
  return right
}

export function inputLeft(): usize {
  return inL
}

export function inputRight(): usize {
  return inR
}

export function outputLeft(): usize {
  return outL
}

export function outputRight(): usize {
  return outR
}

/** The partitions' spectra from the response now in memory, times `scale`; clears the state. */
export function prepare(scale: f32): void {
  for (let k = 0; k < MAX_STAGES; k++) {
    const stage = stages[k]
    if (stage == null) continue
    stage.loadFilters(left, right, frames, starts[k], scale)
    stage.reset()
  }
}

export function reset(): void {
  for (let k = 0; k < MAX_STAGES; k++) {
    const stage = stages[k]
    if (stage != null) stage.reset()
  }
}

export function render(): void {
  memory.fill(outL, 0, bytes(QUANTUM))
  memory.fill(outR, 0, bytes(QUANTUM))
  for (let k = 0; k < MAX_STAGES; k++) {
    const stage = stages[k]
    if (stage != null) stage.render(inL, inR, outL, outR)
  }
}
