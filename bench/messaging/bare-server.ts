import { createServer } from 'node:http';
import { Server } from 'socket.io';

/**
 * The baseline: a bare socket.io 4 server doing the same visible work as ours for a publish (ack the
 * publisher, broadcast to the channel room) with no storage, validation or permissions.
 */
const http = createServer();
const io = new Server(http, { path: '/socket.io/', transports: ['websocket'] });
io.on('connection', (socket) => {
  socket.on('authorize', (_payload, ack) => ack({ resultCode: 200, code: 200, sid: socket.id }));
  socket.on('subscribe', (payload: { channels: string[] }, ack) => {
    for (const channel of payload.channels) socket.join(`ch:${channel}`);
    ack({ code: 200 });
  });
  socket.on('publish', (payload: { channel: string; content: string; guid: string }, ack) => {
    io.to(`ch:${payload.channel}`).emit('message', {
      n: payload.channel,
      c: payload.content,
      t: Date.now(),
      i: payload.guid,
    });
    ack({ code: 200 });
  });
});
http.listen(0, '127.0.0.1', () => {
  const address = http.address();
  process.stdout.write(`listening ${typeof address === 'object' && address ? address.port : ''}\n`);
});
process.once('SIGTERM', () => {
  io.close();
  process.exit(0);
});
