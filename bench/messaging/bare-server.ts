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
  socket.on('subscribeGroups', (payload: { groupIds: string[] }, ack) => {
    for (const groupId of payload.groupIds) socket.join(`g:${groupId}`);
    ack({ code: 200 });
  });
  // A group message: the same push body ours sends, to the group's room except the sender, nothing stored.
  socket.on('publishIM', (payload: { to: string; t: string; mt: string; p: string; d: string; guid: string }, ack) => {
    const ts = Date.now();
    socket.to(`g:${payload.to}`).emit('imMessage', {
      t: payload.t,
      r: payload.to,
      s: socket.id,
      i: payload.guid,
      ts,
      mt: payload.mt,
      p: payload.p,
      d: payload.d,
    });
    ack({ code: 200, content: { timestamp: ts } });
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
