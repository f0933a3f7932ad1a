/** Web Audio processes in blocks of this many frames; kernels size their scratch buffers from it. */
export const RENDER_QUANTUM_FRAMES = 128
