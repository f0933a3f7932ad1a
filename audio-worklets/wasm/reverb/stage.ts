// One stage of the convolution: a uniformly partitioned overlap-save convolver with block size B
// (FFT size 2B) for one stretch of the impulse response, both channels at once. Left and right
// travel as the real and imaginary parts of one complex FFT and are separated by the spectrum's
// conjugate symmetry, so a stereo block costs one forward and one inverse transform.
//
// A stage runs on the 128-frame grid: its block completes at the end of a quantum, is convolved in
// that same quantum, and its B output frames are played from that quantum on. Its latency is
// therefore B - 128 frames, so it may start at that offset into the response (stage 0, B = 128,
// from the first sample). All work happens in render(); nothing is allocated after the constructor.
import { allocate, bitReversal, bytes, fft, twiddles } from './fft'

export const QUANTUM: i32 = 128

export class Stage {
  readonly block: i32
  readonly size: i32
  /** Bins 0 … B (B + 1 of them), rounded up to a multiple of four for the vector loop. */
  readonly bins: i32
  readonly partitions: i32
  /** Bytes of one spectrum set: left re, left im, right re, right im, each `bins` long. */
  private readonly spectrumBytes: usize
  private readonly filters: usize
  private readonly history: usize
  private readonly accumulator: usize
  private readonly re: usize
  private readonly im: usize
  private readonly rev: usize
  private readonly twr: usize
  private readonly twi: usize
  /** The last 2B input frames of each channel: the previous block, then the block being filled. */
  private readonly inL: usize
  private readonly inR: usize
  private readonly outL: usize
  private readonly outR: usize
  private filled: i32 = 0
  private playing: i32 = 0
  private slot: i32 = 0

  constructor(block: i32, partitions: i32) {
    this.block = block
    this.size = block << 1
    this.bins = block + 4
    this.partitions = partitions
    const n = this.size
    this.spectrumBytes = bytes(this.bins << 2)
    this.filters = allocate((this.bins << 2) * partitions)
    this.history = allocate((this.bins << 2) * partitions)
    this.accumulator = allocate(this.bins << 2)
    this.re = allocate(n)
    this.im = allocate(n)
    this.rev = bitReversal(n)
    this.twr = allocate(n)
    this.twi = allocate(n)
    twiddles(n, this.twr, this.twi)
    this.inL = allocate(n)
    this.inR = allocate(n)
    this.outL = allocate(block)
    this.outR = allocate(block)
  }

  /**
   * Partition p's spectra from the response (left and right, `frames` long) starting at frame
   * `from + p·B`, times `scale`. The factor 1/(4N) folds in the inverse transform's 1/N and the
   * two halvings the channel separation leaves out in render().
   */
  loadFilters(left: usize, right: usize, frames: i32, from: i32, scale: f32): void {
    const n = this.size
    const b = this.block
    const k = <f32>0.25 / <f32>n
    for (let p = 0; p < this.partitions; p++) {
      memory.fill(this.re, 0, bytes(n))
      memory.fill(this.im, 0, bytes(n))
      const start = from + p * b
      for (let i = 0; i < b && start + i < frames; i++) {
        const r = bytes(load<i32>(this.rev + bytes(i)))
        store<f32>(this.re + r, load<f32>(left + bytes(start + i)) * scale)
        store<f32>(this.im + r, load<f32>(right + bytes(start + i)) * scale)
      }
      fft(this.re, this.im, n, this.twr, this.twi)
      this.separate(this.filters + this.spectrumBytes * <usize>p, k)
    }
  }

  /** Clears every input, partial block and output: as if the stage had only ever heard silence. */
  reset(): void {
    memory.fill(this.history, 0, this.spectrumBytes * <usize>this.partitions)
    memory.fill(this.inL, 0, bytes(this.size))
    memory.fill(this.inR, 0, bytes(this.size))
    memory.fill(this.outL, 0, bytes(this.block))
    memory.fill(this.outR, 0, bytes(this.block))
    this.filled = 0
    this.playing = 0
    this.slot = 0
  }

  /** Takes one quantum of input and adds this stage's part of the output quantum. */
  render(inL: usize, inR: usize, outL: usize, outR: usize): void {
    const b = this.block
    const at = bytes(b + this.filled)
    memory.copy(this.inL + at, inL, bytes(QUANTUM))
    memory.copy(this.inR + at, inR, bytes(QUANTUM))
    this.filled += QUANTUM
    if (this.filled == b) {
      this.convolve()
      this.filled = 0
      this.playing = 0
    }
    const from = bytes(this.playing)
    for (let i: usize = 0; i < bytes(QUANTUM); i += 16) {
      v128.store(outL + i, f32x4.add(v128.load(outL + i), v128.load(this.outL + from + i)))
      v128.store(outR + i, f32x4.add(v128.load(outR + i), v128.load(this.outR + from + i)))
    }
    this.playing += QUANTUM
  }

  /**
   * Splits the transform of (left + i·right) now in re/im into the two channels' spectra, bins
   * 0 … B, times k: with Z = a + ib at bin j and c + id at bin N - j, left = (a + c, b - d) and
   * right = (b + d, c - a), each twice the true value.
   */
  private separate(target: usize, k: f32): void {
    const n = this.size
    const lr = target
    const li = lr + bytes(this.bins)
    const rr = li + bytes(this.bins)
    const ri = rr + bytes(this.bins)
    for (let j = 0; j <= this.block; j++) {
      const m = (n - j) & (n - 1)
      const a = load<f32>(this.re + bytes(j))
      const bb = load<f32>(this.im + bytes(j))
      const c = load<f32>(this.re + bytes(m))
      const d = load<f32>(this.im + bytes(m))
      store<f32>(lr + bytes(j), (a + c) * k)
      store<f32>(li + bytes(j), (bb - d) * k)
      store<f32>(rr + bytes(j), (bb + d) * k)
      store<f32>(ri + bytes(j), (c - a) * k)
    }
  }

  /** The completed block: transform, multiply-accumulate every partition, transform back. */
  private convolve(): void {
    const n = this.size
    const b = this.block
    const rev = this.rev
    for (let i = 0; i < n; i++) {
      const r = bytes(load<i32>(rev + bytes(i)))
      store<f32>(this.re + r, load<f32>(this.inL + bytes(i)))
      store<f32>(this.im + r, load<f32>(this.inR + bytes(i)))
    }
    fft(this.re, this.im, n, this.twr, this.twi)
    const stride = this.spectrumBytes
    this.separate(this.history + stride * <usize>this.slot, 1)

    // Frequency-domain delay line: partition p meets the input block of p blocks ago.
    const acc = this.accumulator
    const lane = bytes(this.bins)
    memory.fill(acc, 0, stride)
    for (let p = 0; p < this.partitions; p++) {
      let s = this.slot - p
      if (s < 0) s += this.partitions
      const x = this.history + stride * <usize>s
      const h = this.filters + stride * <usize>p
      for (let o: usize = 0; o < lane; o += 16) {
        const xlr = v128.load(x + o)
        const xli = v128.load(x + lane + o)
        const xrr = v128.load(x + 2 * lane + o)
        const xri = v128.load(x + 3 * lane + o)
        const hlr = v128.load(h + o)
        const hli = v128.load(h + lane + o)
        const hrr = v128.load(h + 2 * lane + o)
        const hri = v128.load(h + 3 * lane + o)
        v128.store(acc + o, f32x4.add(v128.load(acc + o), f32x4.sub(f32x4.mul(xlr, hlr), f32x4.mul(xli, hli))))
        v128.store(acc + lane + o, f32x4.add(v128.load(acc + lane + o), f32x4.add(f32x4.mul(xlr, hli), f32x4.mul(xli, hlr))))
        v128.store(acc + 2 * lane + o, f32x4.add(v128.load(acc + 2 * lane + o), f32x4.sub(f32x4.mul(xrr, hrr), f32x4.mul(xri, hri))))
        v128.store(acc + 3 * lane + o, f32x4.add(v128.load(acc + 3 * lane + o), f32x4.add(f32x4.mul(xrr, hri), f32x4.mul(xri, hrr))))
      }
    }
    this.slot = this.slot + 1 == this.partitions ? 0 : this.slot + 1

    // Back to one complex spectrum W = L + i·R over all N bins (conjugate symmetry gives bins
    // above B), written conjugated and bit-reversed: the forward FFT of conj(W), conjugated,
    // is the inverse transform (its 1/N is already in the filters).
    for (let j = 0; j < n; j++) {
      let wr: f32, wi: f32
      if (j <= b) {
        const p = load<f32>(acc + bytes(j))
        const q = load<f32>(acc + lane + bytes(j))
        const r = load<f32>(acc + 2 * lane + bytes(j))
        const s = load<f32>(acc + 3 * lane + bytes(j))
        wr = p - s
        wi = q + r
      } else {
        const m = bytes(n - j)
        const p = load<f32>(acc + m)
        const q = load<f32>(acc + lane + m)
        const r = load<f32>(acc + 2 * lane + m)
        const s = load<f32>(acc + 3 * lane + m)
        wr = p + s
        wi = r - q
      }
      const t = bytes(load<i32>(rev + bytes(j)))
      store<f32>(this.re + t, wr)
      store<f32>(this.im + t, -wi)
    }
    fft(this.re, this.im, n, this.twr, this.twi)
    // Overlap-save: the second half is the block's linear convolution.
    for (let i = 0; i < b; i++) {
      store<f32>(this.outL + bytes(i), load<f32>(this.re + bytes(b + i)))
      store<f32>(this.outR + bytes(i), -load<f32>(this.im + bytes(b + i)))
    }
    // The block just convolved becomes the previous block.
    memory.copy(this.inL, this.inL + bytes(b), bytes(b))
    memory.copy(this.inR, this.inR + bytes(b), bytes(b))
  }
}
