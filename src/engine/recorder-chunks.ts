/**
 * Crash-safe recording: blocks from the recorder worklet are gathered into chunks of about one
 * second and each chunk is written to a RecordingChunkStore as soon as it is full, so a reload or
 * crash loses at most the chunk being filled. Pure logic over a store interface: IndexedDB in the
 * app (src/engine/project-db.ts idbChunkStore), an in-memory map in unit tests.
 *
 *   new ChunkWriter(store, session, flushFrames)
 *     .push(channels)   append one block (copied); writes a chunk whenever flushFrames are gathered
 *     .flush()          writes what is gathered (call on stop); resolves after every write landed
 *     .frames           frames received so far
 *     .takeAll()        the whole take in memory (no read-back from the store)
 *   assembleChunks(chunks, channelCount)  ordered by seq → contiguous Float32Array per channel
 *   trimLatency(channels, frames)         drops the first `frames` (input+output latency)
 */
export interface RecordingSession {
  id: string
  startedAt: number
  sampleRate: number
  channelCount: number
  /** Frames to drop at the start so the take lines up with what was heard (latency compensation). */
  trimFrames: number
  /** Timeline position (seconds) that was playing when capture started; 0 when nothing played. */
  timelineOffset: number
}

export interface StoredChunk {
  sessionId: string
  seq: number
  channels: Float32Array[]
}

export interface RecordingChunkStore {
  begin(session: RecordingSession): Promise<void>
  append(chunk: StoredChunk): Promise<void>
  sessions(): Promise<RecordingSession[]>
  chunks(sessionId: string): Promise<StoredChunk[]>
  remove(sessionId: string): Promise<void>
}

export class ChunkWriter {
  private pending: Float32Array[][] = []
  private pendingFrames = 0
  private seq = 0
  private writes: Promise<void> = Promise.resolve()
  private failure: unknown = null
  /** Every chunk written so far, kept in memory too so stopping needs no read-back. */
  private readonly written: StoredChunk[] = []
  frames = 0

  constructor(
    private readonly store: RecordingChunkStore,
    readonly session: RecordingSession,
    private readonly flushFrames: number,
  ) {}

  push(channels: readonly Float32Array[]): void {
    const n = channels[0]?.length ?? 0
    if (n === 0) return
    const copy: Float32Array[] = []
    for (let c = 0; c < this.session.channelCount; c++) copy.push(Float32Array.from(channels[c] ?? channels[0]!))
    this.pending.push(copy)
    this.pendingFrames += n
    this.frames += n
    if (this.pendingFrames >= this.flushFrames) this.writePending()
  }

  /** Writes whatever is gathered; rejects if any earlier write failed (e.g. storage full). */
  async flush(): Promise<void> {
    this.writePending()
    await this.writes
    if (this.failure) throw this.failure
  }

  /** The whole take so far (written chunks plus what is still gathering). */
  takeAll(): Float32Array[] {
    return assembleChunks(
      [...this.written, { sessionId: this.session.id, seq: this.seq, channels: concatBlocks(this.pending, this.session.channelCount) }],
      this.session.channelCount,
    )
  }

  /** The first write error, if any (the recording keeps running in memory meanwhile). */
  get error(): unknown {
    return this.failure
  }

  private writePending() {
    if (this.pendingFrames === 0) return
    const chunk: StoredChunk = {
      sessionId: this.session.id,
      seq: this.seq++,
      channels: concatBlocks(this.pending, this.session.channelCount),
    }
    this.pending = []
    this.pendingFrames = 0
    this.written.push(chunk)
    // Serialised so chunks land in order and a slow write never races the next one.
    this.writes = this.writes.then(() =>
      this.store.append(chunk).catch((err: unknown) => {
        this.failure ??= err
      }),
    )
  }
}

function concatBlocks(blocks: readonly Float32Array[][], channelCount: number): Float32Array[] {
  const total = blocks.reduce((n, b) => n + (b[0]?.length ?? 0), 0)
  const out: Float32Array[] = []
  for (let c = 0; c < channelCount; c++) {
    const ch = new Float32Array(total)
    let at = 0
    for (const b of blocks) {
      const src = b[c] ?? b[0]!
      ch.set(src, at)
      at += src.length
    }
    out.push(ch)
  }
  return out
}

export function assembleChunks(chunks: readonly StoredChunk[], channelCount: number): Float32Array[] {
  const ordered = [...chunks].sort((a, b) => a.seq - b.seq)
  return concatBlocks(
    ordered.map((c) => c.channels),
    channelCount,
  )
}

export function trimLatency(channels: readonly Float32Array[], frames: number): Float32Array[] {
  const f = Math.max(0, Math.round(frames))
  return channels.map((c) => c.slice(Math.min(f, c.length)))
}

/** Latency to remove from a take: the context's output path plus the input's own latency. */
export function latencyFrames(
  sampleRate: number,
  latencies: { baseLatency?: number; outputLatency?: number; inputLatency?: number },
): number {
  const s = (v: number | undefined) => (typeof v === 'number' && Number.isFinite(v) && v > 0 && v < 1 ? v : 0)
  return Math.round((s(latencies.baseLatency) + s(latencies.outputLatency) + s(latencies.inputLatency)) * sampleRate)
}
