/**
 * A single-producer, single-consumer ring of audio frames in a SharedArrayBuffer, lock-free (the
 * design of ringbuf.js: each side owns one index and publishes it with Atomics). The audio thread
 * writes, the main thread reads, and neither allocates nor waits on the other.
 *
 *   SampleRing.create(channels, capacityFrames) → ring (allocates the SharedArrayBuffer; main thread)
 *   new SampleRing(ring.buffer)                  the same ring seen from the other thread
 *   .write(sources, frames, offset?)             producer: copies up to `frames` (planar sources;
 *                                                what does not fit is counted in `.dropped`)
 *   .writeSilence(frames)                        producer: the same, zeros
 *   .beginAt(frame)                              producer, once: context frame of the first sample
 *   .read(targets, frames, offset?)              consumer: copies up to `frames` out, returns how many
 *   .availableRead() / .availableWrite()         frames readable now / writable now
 *   .firstFrame                                  NaN until the producer called beginAt
 *
 * Layout: an Int32 header (read index, write index, channels, slots, dropped frames, started), a
 * Float64 for the first frame, then one plane of `slots` floats per channel. Indices run over
 * [0, slots) with slots = capacity + 1: one slot always stays empty, so read === write means
 * empty and full needs no separate flag.
 */
const READ = 0
const WRITE = 1
const CHANNELS = 2
const SLOTS = 3
const DROPPED = 4
const STARTED = 5
const HEADER_INTS = 8
const FIRST_FRAME_OFFSET = HEADER_INTS * 4
const STORAGE_OFFSET = FIRST_FRAME_OFFSET + 8

export class SampleRing {
  readonly buffer: SharedArrayBuffer
  readonly channels: number
  /** Frames the ring holds when full. */
  readonly capacity: number
  private readonly header: Int32Array
  private readonly first: Float64Array
  private readonly planes: Float32Array[]
  private readonly slots: number

  static create(channels: number, capacityFrames: number): SampleRing {
    const c = Math.max(0, Math.floor(channels))
    const slots = Math.max(1, Math.floor(capacityFrames)) + 1
    const buffer = new SharedArrayBuffer(STORAGE_OFFSET + c * slots * 4)
    const header = new Int32Array(buffer, 0, HEADER_INTS)
    header[CHANNELS] = c
    header[SLOTS] = slots
    new Float64Array(buffer, FIRST_FRAME_OFFSET, 1)[0] = Number.NaN
    return new SampleRing(buffer)
  }

  constructor(buffer: SharedArrayBuffer) {
    this.buffer = buffer
    this.header = new Int32Array(buffer, 0, HEADER_INTS)
    this.first = new Float64Array(buffer, FIRST_FRAME_OFFSET, 1)
    this.channels = this.header[CHANNELS]!
    this.slots = this.header[SLOTS]!
    this.capacity = this.slots - 1
    this.planes = []
    for (let c = 0; c < this.channels; c++) this.planes.push(new Float32Array(buffer, STORAGE_OFFSET + c * this.slots * 4, this.slots))
  }

  availableRead(): number {
    return this.used(Atomics.load(this.header, READ), Atomics.load(this.header, WRITE))
  }

  availableWrite(): number {
    return this.capacity - this.availableRead()
  }

  /** Frames the producer could not write because the ring was full (the consumer fell behind). */
  get dropped(): number {
    return Atomics.load(this.header, DROPPED)
  }

  get firstFrame(): number {
    return Atomics.load(this.header, STARTED) === 1 ? this.first[0]! : Number.NaN
  }

  beginAt(frame: number): void {
    if (Atomics.load(this.header, STARTED) === 1) return
    this.first[0] = frame
    // The store publishes the plain write above: a consumer that sees STARTED sees the frame.
    Atomics.store(this.header, STARTED, 1)
  }

  /** Copies frames from `sources[c][offset…]` (a missing channel repeats channel 0). */
  write(sources: ArrayLike<Float32Array>, frames: number, offset = 0): number {
    return this.produce(frames, sources, offset)
  }

  writeSilence(frames: number): number {
    return this.produce(frames, null, 0)
  }

  /** Copies up to `frames` into `targets[c][offset…]`; returns the frames read. */
  read(targets: ArrayLike<Float32Array>, frames: number, offset = 0): number {
    const r = Atomics.load(this.header, READ)
    // The acquire: every sample the producer wrote before publishing this index is visible.
    const w = Atomics.load(this.header, WRITE)
    const n = Math.min(Math.max(0, Math.floor(frames)), this.used(r, w))
    if (n === 0) return 0
    const firstPart = Math.min(n, this.slots - r)
    for (let c = 0; c < this.channels; c++) {
      const target = targets[c]
      if (!target) continue
      const plane = this.planes[c]!
      // Element loops, as in produce(): no view objects, so a reader on the audio thread could use it too.
      for (let i = 0; i < firstPart; i++) target[offset + i] = plane[r + i]!
      for (let i = firstPart; i < n; i++) target[offset + i] = plane[i - firstPart]!
    }
    Atomics.store(this.header, READ, (r + n) % this.slots)
    return n
  }

  private used(r: number, w: number): number {
    return w >= r ? w - r : w + this.slots - r
  }

  private produce(frames: number, sources: ArrayLike<Float32Array> | null, offset: number): number {
    const w = Atomics.load(this.header, WRITE)
    const r = Atomics.load(this.header, READ)
    const want = Math.max(0, Math.floor(frames))
    const n = Math.min(want, this.capacity - this.used(r, w))
    if (n < want) Atomics.add(this.header, DROPPED, want - n)
    if (n === 0) return 0
    const firstPart = Math.min(n, this.slots - w)
    for (let c = 0; c < this.channels; c++) {
      const plane = this.planes[c]!
      const src = sources ? (sources[c] ?? sources[0]) : undefined
      // Element loops rather than set(subarray): subarray creates a view object, and the audio
      // thread must not allocate (read() does the same, so neither side allocates).
      if (src) {
        for (let i = 0; i < firstPart; i++) plane[w + i] = src[offset + i]!
        for (let i = firstPart; i < n; i++) plane[i - firstPart] = src[offset + i]!
      } else {
        plane.fill(0, w, w + firstPart)
        if (n > firstPart) plane.fill(0, 0, n - firstPart)
      }
    }
    // The release: the samples above become visible to the consumer with the new index.
    Atomics.store(this.header, WRITE, (w + n) % this.slots)
    return n
  }
}
