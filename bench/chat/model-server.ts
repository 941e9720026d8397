/**
 * The benchmarks' model provider in a process of its own, as a real local model server would be:
 * an OpenAI-compatible server that streams its reply at once. Prints its URL on the first line.
 *
 *   npx tsx bench/chat/model-server.ts <model> <reply>
 */
import { startFakeOpenAI } from '../../apps/api/src/testing/fake-openai-server.ts';

const [model = 'bench-chat', reply = 'The knowledge supports this claim [1], with a caveat [2].'] =
  process.argv.slice(2);
const server = await startFakeOpenAI({ models: [model], reply });
console.log(server.url);
process.on('SIGTERM', () => void server.close().then(() => process.exit(0)));
