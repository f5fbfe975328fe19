// Reading a request body of at most `limit` bytes, the one way every route does it: the body is
// read chunk by chunk and abandoned as soon as it passes the limit (a declared Content-Length past
// the limit is refused before reading; rules.ts). Express routes read the Node stream, which is
// paused rather than destroyed past the limit so that the 413 can still be written; web-standard
// handlers (MCP) read a ReadableStream, which is cancelled.
import type { Readable } from 'node:stream';

/** Where the chunks come from: the next chunk (undefined at the end), and how to stop early. */
export interface ChunkSource {
  next(): Promise<Uint8Array | undefined>;
  stop(): Promise<void> | void;
}

/** The body, or undefined when it is longer than `limit` bytes (the source is then stopped). */
export async function readBounded(source: ChunkSource, limit: number): Promise<Buffer | undefined> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const chunk = await source.next();
    if (chunk === undefined) return Buffer.concat(chunks);
    size += chunk.byteLength;
    if (size > limit) {
      await source.stop();
      return undefined;
    }
    chunks.push(chunk);
  }
}

export function webChunks(stream: ReadableStream<Uint8Array>): ChunkSource {
  const reader = stream.getReader();
  return {
    async next() {
      const { done, value } = await reader.read();
      return done ? undefined : value;
    },
    stop: () => reader.cancel(),
  };
}

/** Chunks of a Node request; stopping pauses it (the connection stays usable for the answer). */
export function nodeChunks(stream: Readable): ChunkSource {
  const queue: Uint8Array[] = [];
  let ended = false;
  let failure: unknown;
  let wake: (() => void) | undefined;
  const notify = () => {
    wake?.();
    wake = undefined;
  };
  const onData = (chunk: Buffer) => {
    queue.push(chunk);
    notify();
  };
  const onEnd = () => {
    ended = true;
    notify();
  };
  const onError = (error: unknown) => {
    failure = error;
    notify();
  };
  stream.on('data', onData);
  stream.on('end', onEnd);
  stream.on('error', onError);
  return {
    async next() {
      while (queue.length === 0 && !ended && failure === undefined)
        await new Promise<void>((resolve) => (wake = resolve));
      if (queue.length > 0) return queue.shift();
      if (failure !== undefined) throw failure;
      return undefined;
    },
    stop() {
      stream.off('data', onData);
      stream.pause();
    },
  };
}
