// Solana's WebSocket PubSub, as far as clients need it to confirm transactions (web3.js's
// confirmTransaction subscribes to the signature): signatureSubscribe and signatureUnsubscribe.
import { invalidParams } from './errors.mjs';
import { args, dispatch, signatureParam, stringify } from './rpc.mjs';

/** Serves signature subscriptions to the clients of a `ws` WebSocketServer. */
export function servePubsub(wss, chain) {
  let lastId = 0;
  const subscriptions = new Map(); // id -> {socket, signature}

  const notify = (id, record) => {
    const subscription = subscriptions.get(id);
    if (!subscription) return;
    subscriptions.delete(id); // a signature subscription ends with its notification
    subscription.socket.send(stringify({
      jsonrpc: '2.0', method: 'signatureNotification',
      params: { result: { context: { slot: record.slot }, value: { err: record.err } }, subscription: id },
    }));
  };

  chain.on('landed', (record) => {
    for (const [id, subscription] of subscriptions) if (subscription.signature === record.signature) notify(id, record);
  });

  wss.on('connection', (socket) => {
    const handlers = {
      signatureSubscribe(params) {
        const [signature] = args(params, 1, 2);
        const id = ++lastId;
        subscriptions.set(id, { socket, signature: signatureParam(signature) });
        const record = chain.record(signature);
        if (record) setImmediate(() => notify(id, record)); // landed already: notified right after this reply
        return id;
      },
      signatureUnsubscribe(params) {
        const [id] = args(params, 1);
        if (subscriptions.get(id)?.socket !== socket) throw invalidParams('Invalid subscription id.');
        subscriptions.delete(id);
        return true;
      },
    };
    socket.on('message', async (data) => {
      const response = await dispatch(handlers, data.toString());
      if (response) socket.send(stringify(response));
    });
    socket.on('close', () => {
      for (const [id, subscription] of subscriptions) if (subscription.socket === socket) subscriptions.delete(id);
    });
    socket.on('error', (e) => console.error(`localnet: WebSocket client: ${e.message}`));
  });
}
