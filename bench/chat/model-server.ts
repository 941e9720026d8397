/**
 * The benchmarks' model provider in a process of its own, as a real local model server would be:
 * an OpenAI-compatible server that streams its reply at once. Prints its URL on the first line.
 *
 *   npx tsx bench/chat/model-server.ts <model> <reply>
 *
 * `BENCH_REPLY_WORDS=n` replies with n words instead, and `BENCH_CHUNK_MS=ms` waits that long before
 * each streamed word, as a model generating tokens does (the chat benches pass their environment on).
 */
import { startFakeOpenAI } from '../../apps/api/src/testing/fake-openai-server.ts';

const [model = 'bench-chat', reply = 'The knowledge supports this claim [1], with a caveat [2].'] =
  process.argv.slice(2);
const words = Number(process.env.BENCH_REPLY_WORDS) || 0;
const server = await startFakeOpenAI({
  models: [model],
  reply: words ? Array.from({ length: words }, (_, i) => `word${i}`).join(' ') : reply,
  chunkDelayMs: Number(process.env.BENCH_CHUNK_MS) || 0,
});
console.log(server.url);
process.on('SIGTERM', () => void server.close().then(() => process.exit(0)));
