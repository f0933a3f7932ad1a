// The deck's gains: the volume slider's curve and an item's own gain in dB.

/** Volume 0..100 maps to gain (v/100)², so equal slider steps sound roughly equally loud. */
export const volumeToGain = (volume: number): number => {
  const v = Math.min(100, Math.max(0, Number.isFinite(volume) ? volume : 0)) / 100
  return v * v
}

export const dbToGain = (db: number): number => (Number.isFinite(db) ? Math.pow(10, db / 20) : 1)

/** What the deck's gains multiply to for an item: the volume's gain times its loudness normalisation (dB). */
export const deckGain = (volume: number, itemGainDb: number): number => volumeToGain(volume) * dbToGain(itemGainDb)
