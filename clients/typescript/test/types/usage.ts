// Compiled by types.test.mjs with `tsc --noEmit`: the declarations must accept what the README shows
// and refuse the mistakes marked @ts-expect-error (each must stay an error, or tsc fails).
import {
  AgentWallet, PolicyViolationError, verifyWebhookSignature, signCoSignPayload,
  type Amount, type Transaction, type Wallet,
} from '@agent-wallet/client';

export async function agentPays(token: string): Promise<Transaction['status']> {
  const agent = new AgentWallet({ sessionToken: token });
  try {
    const payment = await agent.payments.create({ to: 'Recipient', amount: '2.50', idempotencyKey: 'order-1' });
    return payment.status;
  } catch (error) {
    if (error instanceof PolicyViolationError) return 'blocked';
    throw error;
  }
}

export async function backendFundsAndLists(apiKey: string, walletId: string): Promise<Amount[]> {
  const client = new AgentWallet({ apiKey, baseUrl: 'https://host:8443/v1', maxRetries: 5, timeoutMs: 10_000 });
  const funded: Wallet = await client.wallets.fund(walletId, { amount: '10.00' }, { idempotencyKey: 'allot-7' });
  const balances: Amount[] = [funded.usdcBalance];
  for await (const wallet of client.wallets.list({ status: 'active', limit: 50 })) balances.push(wallet.usdcBalance);
  // @ts-expect-error money is a decimal string, never a number
  await client.wallets.fund(walletId, { amount: 10 });
  // @ts-expect-error a wallet is active, frozen or archived
  await client.wallets.update(walletId, { status: 'paused' });
  return balances;
}

export async function operatorApproves(apiKey: string, txId: string, secretKey: string): Promise<string> {
  const client = new AgentWallet({ apiKey });
  const pending = await client.payments.retrieve(txId);
  const signature = signCoSignPayload(pending.coSignPayload ?? '', secretKey);
  const done = await client.payments.coSign(txId, signature);
  // @ts-expect-error answers are camelCase
  void done.tx_id;
  return done.txId;
}

export function receiverVerifies(body: string, header: string, secret: string): boolean {
  return verifyWebhookSignature(body, header, secret);
}
