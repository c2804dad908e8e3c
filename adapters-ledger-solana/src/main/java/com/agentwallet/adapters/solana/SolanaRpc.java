package com.agentwallet.adapters.solana;

import org.p2p.solanaj.core.PublicKey;
import org.p2p.solanaj.rpc.RpcClient;
import org.p2p.solanaj.rpc.RpcException;

import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * The JSON-RPC methods the adapter uses, through solanaj's {@link RpcClient}, read at the
 * configured commitment. Every failure to get an answer is an {@link RpcException}.
 */
final class SolanaRpc {
    private final RpcClient client;
    private final Commitment commitment;

    SolanaRpc(RpcClient client, Commitment commitment) {
        this.client = requireNonNull(client, "client is null");
        this.commitment = requireNonNull(commitment, "commitment is null");
    }

    /** A blockhash and the last block height at which a transaction carrying it can land. */
    record Blockhash(byte[] hash, long lastValidBlockHeight) {
    }

    /** What the cluster says of a signature. */
    record Status(long slot, Object err, Commitment reached) {
    }

    Blockhash latestBlockhash() throws RpcException {
        Map<?, ?> value = value(call("getLatestBlockhash", List.of(config())));
        byte[] hash = Base58Text.decode(String.valueOf(value.get("blockhash")), 32);
        return new Blockhash(hash, number(value.get("lastValidBlockHeight")));
    }

    long blockHeight() throws RpcException {
        return number(call("getBlockHeight", List.of(config())));
    }

    long slot() throws RpcException {
        return number(call("getSlot", List.of(config())));
    }

    long minimumBalanceForRentExemption(int size) throws RpcException {
        return number(call("getMinimumBalanceForRentExemption", List.of(size, config())));
    }

    /** The account's lamports; zero when no account lives at the address. */
    long balanceLamports(PublicKey address) throws RpcException {
        return number(value(call("getBalance", List.of(address.toBase58(), config()))));
    }

    /** The account's data, or empty when no account lives at the address. */
    Optional<byte[]> accountData(PublicKey address) throws RpcException {
        Object value = value(call("getAccountInfo", List.of(address.toBase58(),
                Map.of("encoding", "base64", "commitment", commitment.wireName()))));
        if (!(value instanceof Map<?, ?> account)) {
            return Optional.empty();
        }
        List<?> data = (List<?>) account.get("data");
        return Optional.of(Base64.getDecoder().decode(String.valueOf(data.get(0))));
    }

    /**
     * Sends a signed transaction without preflight, so that one that fails in the program still
     * lands, with its error, under its signature: the signature is then the operation's record.
     */
    String send(byte[] transaction) throws RpcException {
        return String.valueOf(call("sendTransaction", List.of(Base64.getEncoder().encodeToString(transaction),
                Map.of("encoding", "base64", "skipPreflight", true, "maxRetries", 0))));
    }

    /** The status of each signature, in order; empty for one the cluster does not know. */
    List<Optional<Status>> statuses(List<String> signatures) throws RpcException {
        List<?> values = (List<?>) value(call("getSignatureStatuses",
                List.of(signatures, Map.of("searchTransactionHistory", true))));
        List<Optional<Status>> statuses = new ArrayList<>();
        for (Object value : values) {
            statuses.add(value instanceof Map<?, ?> status
                    ? Optional.of(new Status(number(status.get("slot")), status.get("err"),
                    Commitment.ofStatus(status.get("confirmationStatus"))))
                    : Optional.empty());
        }
        return statuses;
    }

    private Object call(String method, List<Object> params) throws RpcException {
        try {
            return client.call(method, params, Object.class);
        } catch (RuntimeException e) {
            throw new RpcException(method + " failed: " + e.getMessage());
        }
    }

    private Map<String, Object> config() {
        return Map.of("commitment", commitment.wireName());
    }

    private static <T> T value(Object result) throws RpcException {
        if (!(result instanceof Map<?, ?> response) || !response.containsKey("value")) {
            throw new RpcException("an RPC answer without a value: " + result);
        }
        @SuppressWarnings("unchecked")
        T value = (T) response.get("value");
        return value;
    }

    private static long number(Object value) throws RpcException {
        if (!(value instanceof Number number)) {
            throw new RpcException("an RPC answer that is not a number: " + value);
        }
        return number.longValue();
    }
}
