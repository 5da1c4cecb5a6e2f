/**
 * The bench's baseline: a bare h3 app with one `GET /hello` JSON route, served the same way as the
 * API (h3 `serve`), in its own process. Usage: node --import tsx server/bench/hello.ts <port>
 */
import { H3, serve } from 'h3';

const port = Number(process.argv[2] ?? 8099);
const app = new H3().get('/hello', () => ({ hello: 'world' }));
const server = serve(app, { port, hostname: '127.0.0.1', silent: true });
await server.ready();
process.on('SIGTERM', () => void server.close(true).then(() => process.exit(0)));
process.on('SIGINT', () => void server.close(true).then(() => process.exit(0)));
