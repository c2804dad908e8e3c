// JSON-RPC 2.0 over the chain: Solana's HTTP methods with their response shapes, the localnet's
// test hooks, and the envelope (batches, notifications, protocol errors).
import { isAddress, isSignature } from '@solana/kit';
import {
  CODE, RpcError, invalidParam, invalidParams, signatureVerificationFailure, simulationValue,
} from './errors.mjs';
import { TOKEN_PROGRAM, base58 } from './solana.mjs';
import { Message, Transaction, decodeBytes } from './transaction.mjs';

const API_VERSION = '2.2.0';
const U64_MAX = 2n ** 64n - 1n;
const MAX_MULTIPLE_ACCOUNTS = 100;
const MAX_SIGNATURE_STATUSES = 256;
const MAX_BASE58_ACCOUNT_BYTES = 128;
const MAX_ADVANCE_SLOTS = 100_000;

/** The HTTP methods, by name: each takes the request's params and returns its result. */
export function methods(chain) {
  const withContext = (value) => ({ context: { slot: chain.slot, apiVersion: API_VERSION }, value });
  const config = (value) => options(value, chain);

  return {
    getAccountInfo(params) {
      const [address, raw] = args(params, 1, 2);
      const encode = accountEncoder(config(raw));
      return withContext(encode(chain.account(addressParam(address))));
    },

    getMultipleAccounts(params) {
      const [addresses, raw] = args(params, 1, 2);
      const encode = accountEncoder(config(raw));
      return withContext(list(addresses, MAX_MULTIPLE_ACCOUNTS).map((a) => encode(chain.account(addressParam(a)))));
    },

    getBalance(params) {
      const [address, raw] = args(params, 1, 2);
      config(raw);
      return withContext(chain.account(addressParam(address))?.lamports ?? 0n);
    },

    getTokenAccountBalance(params) {
      const [address, raw] = args(params, 1, 2);
      config(raw);
      const { amount, decimals } = chain.tokenBalance(addressParam(address));
      return withContext(uiTokenAmount(amount, decimals));
    },

    getSlot(params) {
      config(args(params, 0, 1)[0]);
      return chain.slot;
    },

    getBlockHeight(params) {
      config(args(params, 0, 1)[0]);
      return chain.blockHeight;
    },

    getEpochInfo(params) {
      config(args(params, 0, 1)[0]);
      return chain.epochInfo();
    },

    getLatestBlockhash(params) {
      config(args(params, 0, 1)[0]);
      return withContext(chain.latestBlockhash());
    },

    isBlockhashValid(params) {
      const [blockhash, raw] = args(params, 1, 2);
      config(raw);
      return withContext(chain.isBlockhashValid(string(blockhash)));
    },

    getFeeForMessage(params) {
      const [message, raw] = args(params, 1, 2);
      config(raw);
      return withContext(chain.fee(new Message(decodeBytes(string(message), 'base64'))));
    },

    getMinimumBalanceForRentExemption(params) {
      const [size, raw] = args(params, 1, 2);
      config(raw);
      return chain.minimumBalance(u64(size));
    },

    getGenesisHash(params) {
      args(params, 0);
      return chain.genesisHash;
    },

    getHealth(params) {
      args(params, 0);
      return 'ok';
    },

    getVersion(params) {
      args(params, 0);
      return { 'solana-core': `${API_VERSION}-localnet`, 'feature-set': 0 };
    },

    getSignatureStatuses(params) {
      const [signatures, raw] = args(params, 1, 2);
      config(raw);
      return withContext(list(signatures, MAX_SIGNATURE_STATUSES).map((s) => status(chain.record(signatureParam(s)))));
    },

    getTransaction(params) {
      const [signature, raw] = args(params, 1, 2);
      const { encoding = 'json', maxSupportedTransactionVersion } = config(typeof raw === 'string' ? { encoding: raw } : raw);
      if (!['json', 'base64', 'base58'].includes(encoding)) {
        throw invalidParams(`Invalid params: unsupported encoding ${encoding}; localnet supports json, base58 and base64.`);
      }
      const record = chain.record(signatureParam(signature));
      return record && uiTransaction(record, encoding, maxSupportedTransactionVersion);
    },

    sendTransaction(params) {
      const [encoded, raw] = args(params, 1, 2);
      const { encoding, skipPreflight = false } = config(raw);
      return chain.send(Transaction.decode(string(encoded), transactionEncoding(encoding)), { skipPreflight });
    },

    simulateTransaction(params) {
      const [encoded, raw] = args(params, 1, 2);
      const { encoding, sigVerify = false, replaceRecentBlockhash = false } = config(raw);
      if (sigVerify && replaceRecentBlockhash) throw invalidParams('sigVerify may not be used with replaceRecentBlockhash');
      let transaction = Transaction.decode(string(encoded), transactionEncoding(encoding));
      if (sigVerify && !transaction.verifySignatures()) throw signatureVerificationFailure();
      const replacement = replaceRecentBlockhash ? chain.latestBlockhash() : null;
      if (replacement) transaction = transaction.withBlockhash(replacement.blockhash);
      return withContext(simulationValue(chain.simulate(transaction), replacement));
    },

    requestAirdrop(params) {
      const [address, lamports, raw] = args(params, 2, 3);
      config(raw);
      return chain.airdrop(addressParam(address), u64(lamports));
    },

    // ---------------------------------------------------------------- test hooks

    localnet_mintUsdc(params) {
      const [owner, amount] = args(params, 2);
      if (!(typeof amount === 'string' && /^\d{1,20}$/.test(amount)) || BigInt(amount) > U64_MAX) {
        throw invalidParams('Invalid params: amount: expected micro-USDC as a decimal string.');
      }
      return chain.mintUsdc(addressParam(owner), BigInt(amount));
    },

    localnet_setTime(params) {
      const [unixSeconds] = args(params, 1);
      if (unixSeconds !== null && !Number.isSafeInteger(unixSeconds)) {
        throw invalidParams('Invalid params: expected Unix seconds as an integer, or null for the wall clock.');
      }
      return chain.setTime(unixSeconds);
    },

    localnet_advanceSlots(params) {
      const [n] = args(params, 1);
      if (!Number.isSafeInteger(n) || n < 0 || n > MAX_ADVANCE_SLOTS) {
        throw invalidParams(`Invalid params: expected a number of slots from 0 to ${MAX_ADVANCE_SLOTS}.`);
      }
      chain.advanceSlots(n);
      return chain.slot;
    },
  };
}

// ------------------------------------------------------------------ envelope

/** Answers a request body: a response, an array of them (batch), or null when nothing is to be answered. */
export async function dispatch(handlers, text) {
  let request;
  try {
    request = JSON.parse(text);
  } catch {
    return failure(null, new RpcError(CODE.PARSE_ERROR, 'Parse error'));
  }
  if (!Array.isArray(request)) return call(handlers, request);
  if (request.length === 0) return failure(null, invalidRequest());
  const responses = [];
  for (const each of request) {
    const response = await call(handlers, each);
    if (response) responses.push(response);
  }
  return responses.length > 0 ? responses : null;
}

async function call(handlers, request) {
  const valid = isObject(request) && request.jsonrpc === '2.0' && typeof request.method === 'string'
    && (!('id' in request) || request.id === null || ['string', 'number'].includes(typeof request.id))
    && (request.params === undefined || isObject(request.params) || Array.isArray(request.params));
  if (!valid) return failure(null, invalidRequest());
  const { id = null, method, params = [] } = request;
  let response;
  if (!Object.hasOwn(handlers, method)) {
    response = failure(id, new RpcError(CODE.METHOD_NOT_FOUND, 'Method not found'));
  } else {
    try {
      response = { jsonrpc: '2.0', result: await handlers[method](params), id };
    } catch (e) {
      if (!(e instanceof RpcError)) console.error(`localnet: ${method} failed:`, e);
      response = failure(id, e instanceof RpcError ? e : new RpcError(CODE.INTERNAL_ERROR, 'Internal error'));
    }
  }
  return 'id' in request ? response : null; // a notification is not answered
}

const failure = (id, error) => ({ jsonrpc: '2.0', error: error.toJSON(), id });
const invalidRequest = () => new RpcError(CODE.INVALID_REQUEST, 'Invalid request');

const BIGINT = '\u0000bigint:';
const BIGINT_PATTERN = /"\\u0000bigint:(-?\d+)"/g;

/** JSON.stringify writing bigints (u64 lamports, rentEpoch) as exact JSON numbers. */
export const stringify = (value) => JSON.stringify(value, (_, v) => (typeof v === 'bigint' ? `${BIGINT}${v}` : v))
  .replace(BIGINT_PATTERN, '$1');

// ------------------------------------------------------------------ params

const isObject = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);
const typeName = (value) => (value === null ? 'null' : Array.isArray(value) ? 'sequence' : isObject(value) ? 'map' : typeof value);

/** Positional params, from `min` to `max` of them. */
export function args(params, min, max = min) {
  if (!Array.isArray(params)) throw invalidParams(`Invalid params: invalid type: ${typeName(params)}, expected a sequence.`);
  if (params.length < min || params.length > max) {
    throw invalidParams(`Invalid params: invalid length ${params.length}, expected ${min === max ? min : `${min} to ${max}`} params.`);
  }
  return params;
}

/** A method's config object (absent or null: empty); refuses a minContextSlot the chain has not reached. */
function options(value, chain) {
  if (value === undefined || value === null) return {};
  if (!isObject(value)) throw invalidParams(`Invalid params: invalid type: ${typeName(value)}, expected a config object.`);
  if (value.minContextSlot !== undefined && value.minContextSlot !== null && value.minContextSlot > chain.slot) {
    throw new RpcError(CODE.MIN_CONTEXT_SLOT_NOT_REACHED, 'Minimum context slot has not been reached', { contextSlot: chain.slot });
  }
  return value;
}

function string(value) {
  if (typeof value !== 'string') throw invalidParams(`Invalid params: invalid type: ${typeName(value)}, expected a string.`);
  return value;
}

function list(value, max) {
  if (!Array.isArray(value)) throw invalidParams(`Invalid params: invalid type: ${typeName(value)}, expected a sequence.`);
  if (value.length > max) throw invalidParams(`Too many inputs provided; max ${max}`);
  return value;
}

function addressParam(value) {
  if (!isAddress(string(value))) throw invalidParam('Invalid');
  return value;
}

export function signatureParam(value) {
  if (!isSignature(string(value))) throw invalidParam('Invalid');
  return value;
}

function u64(value) {
  if (!Number.isSafeInteger(value) || value < 0) throw invalidParams(`Invalid params: invalid value: ${JSON.stringify(value)}, expected u64.`);
  return BigInt(value);
}

function transactionEncoding(encoding = 'base58') {
  if (encoding !== 'base58' && encoding !== 'base64') {
    throw invalidParams(`unsupported encoding: ${encoding}. Supported encodings: base58, base64`);
  }
  return encoding;
}

// ------------------------------------------------------------------ response shapes

const ACCOUNT_ENCODINGS = { binary: 'binary', base58: 'base58', base64: 'base64', 'base64+zstd': 'base64', jsonParsed: 'base64' };
const ENCODE_ACCOUNT_DATA = {
  binary: (data) => base58.encode(data),
  base58: (data) => [base58.encode(data), 'base58'],
  base64: (data) => [Buffer.from(data).toString('base64'), 'base64'],
};

/** getAccountInfo's encoder for a config: binary (a base58 string, the default), base58 or base64; base64+zstd and jsonParsed give base64. */
function accountEncoder({ encoding = 'binary', dataSlice }) {
  if (!Object.hasOwn(ACCOUNT_ENCODINGS, encoding)) {
    throw invalidParams(`Invalid params: unknown variant \`${encoding}\`, expected one of \`binary\`, \`base58\`, \`base64\`, \`jsonParsed\`, \`base64+zstd\``);
  }
  const as = ACCOUNT_ENCODINGS[encoding];
  if (dataSlice !== undefined && !(isObject(dataSlice) && [dataSlice.offset, dataSlice.length].every((n) => Number.isSafeInteger(n) && n >= 0))) {
    throw invalidParams('Invalid params: dataSlice: expected {offset, length}.');
  }
  return (account) => {
    if (!account) return null;
    const data = dataSlice ? account.data.subarray(dataSlice.offset, dataSlice.offset + dataSlice.length) : account.data;
    if (as !== 'base64' && data.length > MAX_BASE58_ACCOUNT_BYTES) {
      throw new RpcError(CODE.INVALID_REQUEST,
        'Encoded binary (base 58) data should be less than 128 bytes, please use Base64 encoding.');
    }
    return {
      data: ENCODE_ACCOUNT_DATA[as](data), executable: account.executable, lamports: account.lamports,
      owner: account.programAddress, rentEpoch: U64_MAX, space: account.data.length,
    };
  };
}

/** Solana's UiTokenAmount. */
function uiTokenAmount(amount, decimals) {
  const scale = 10n ** BigInt(decimals);
  const text = decimals === 0 ? `${amount}`
    : `${amount / scale}.${`${amount % scale}`.padStart(decimals, '0')}`.replace(/\.?0+$/, '');
  return { amount: `${amount}`, decimals, uiAmount: Number(amount) / 10 ** decimals, uiAmountString: text };
}

function status(record) {
  if (!record) return null;
  return {
    slot: record.slot, confirmations: null, err: record.err, status: record.err === null ? { Ok: null } : { Err: record.err },
    confirmationStatus: 'finalized',
  };
}

function uiTransaction(record, encoding, maxSupportedTransactionVersion) {
  const { transaction } = record;
  const { version } = transaction.message;
  if (version !== 'legacy' && !(maxSupportedTransactionVersion >= version)) {
    throw new RpcError(CODE.UNSUPPORTED_TRANSACTION_VERSION, `Transaction version (${version}) is not supported by the `
      + 'requesting client. Please try the request again with the following configuration parameter: '
      + `"maxSupportedTransactionVersion": ${version}`);
  }
  const encoded = {
    json: () => uiTransactionJson(transaction),
    base64: () => [Buffer.from(transaction.bytes).toString('base64'), 'base64'],
    base58: () => [base58.encode(transaction.bytes), 'base58'],
  }[encoding]();
  const result = { slot: record.slot, blockTime: record.blockTime, meta: uiMeta(record), transaction: encoded };
  if (maxSupportedTransactionVersion !== undefined && maxSupportedTransactionVersion !== null) result.version = version;
  return result;
}

function uiTransactionJson(transaction) {
  const { message } = transaction;
  return {
    signatures: transaction.signatures,
    message: {
      accountKeys: message.accounts,
      header: {
        numRequiredSignatures: message.header.numSignerAccounts,
        numReadonlySignedAccounts: message.header.numReadonlySignerAccounts,
        numReadonlyUnsignedAccounts: message.header.numReadonlyNonSignerAccounts,
      },
      recentBlockhash: message.blockhash,
      instructions: message.instructions.map((ix) => ({
        programIdIndex: ix.programIdIndex, accounts: ix.accounts, data: base58.encode(ix.data), stackHeight: null,
      })),
      ...(message.version === 'legacy' ? {} : { addressTableLookups: [] }),
    },
  };
}

function uiMeta(record) {
  const tokenBalances = (tokens) => tokens.map(({ accountIndex, mint, owner, amount, decimals }) => ({
    accountIndex, mint, owner, programId: TOKEN_PROGRAM, uiTokenAmount: uiTokenAmount(amount, decimals),
  }));
  return {
    err: record.err,
    status: record.err === null ? { Ok: null } : { Err: record.err },
    fee: record.fee,
    preBalances: record.pre.lamports,
    postBalances: record.post.lamports,
    innerInstructions: record.innerInstructions,
    logMessages: record.logs,
    preTokenBalances: tokenBalances(record.pre.tokens),
    postTokenBalances: tokenBalances(record.post.tokens),
    rewards: [],
    loadedAddresses: { writable: [], readonly: [] },
    computeUnitsConsumed: record.unitsConsumed,
    ...(record.returnData ? { returnData: record.returnData } : {}),
  };
}
