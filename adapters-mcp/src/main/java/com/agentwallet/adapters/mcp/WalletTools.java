package com.agentwallet.adapters.mcp;

import com.agentwallet.core.common.Page;
import com.agentwallet.core.common.PageRequest;
import com.agentwallet.core.common.Rejection;
import com.agentwallet.core.common.Result;
import com.agentwallet.core.common.ValidationException;
import com.agentwallet.core.common.WireNamed;
import com.agentwallet.core.crypto.Hashing;
import com.agentwallet.core.escrow.Escrow;
import com.agentwallet.core.escrow.EscrowService;
import com.agentwallet.core.escrow.LockEscrow;
import com.agentwallet.core.id.EscrowId;
import com.agentwallet.core.id.TxId;
import com.agentwallet.core.idempotency.RequestKey;
import com.agentwallet.core.money.Usdc;
import com.agentwallet.core.payment.PayCommand;
import com.agentwallet.core.payment.PaymentResult;
import com.agentwallet.core.payment.PaymentService;
import com.agentwallet.core.payment.Transaction;
import com.agentwallet.core.payment.TransactionStatus;
import com.agentwallet.core.payment.TransactionType;
import com.agentwallet.core.policy.Decision;
import com.agentwallet.core.port.TransactionStore;
import com.agentwallet.core.wallet.WalletService;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

import static com.agentwallet.adapters.mcp.Answers.usdc;
import static java.util.Objects.requireNonNull;

/**
 * What each tool does, for the agent of one wallet: the same use cases, commands and idempotency as
 * /v1's resources for a session token (a payment checked by its policy with the token's grant; a
 * transaction or escrow of another wallet does not exist), answered as {@link Answers}.
 */
public final class WalletTools {
    /** The only proof type escrows take: the SHA-256 of the task's output. */
    static final String PROOF_TYPE = "output_hash";
    static final String IDEMPOTENCY_KEY = "idempotency_key";

    private final WalletService wallets;
    private final PaymentService payments;
    private final EscrowService escrows;

    public WalletTools(WalletService wallets, PaymentService payments, EscrowService escrows) {
        this.wallets = requireNonNull(wallets, "wallets is null");
        this.payments = requireNonNull(payments, "payments is null");
        this.escrows = requireNonNull(escrows, "escrows is null");
    }

    CallToolResult getWallet(Agent agent, Arguments arguments) {
        return answer(wallets.allowance(agent.orgId(), agent.walletId()),
                allowance -> Answers.ok(Views.walletText(allowance), Views.wallet(allowance)));
    }

    /** A dry run: nothing recorded, moved or announced, and no idempotency key taken. */
    CallToolResult checkPayment(Agent agent, Arguments arguments) {
        PayCommand command = payCommand(agent, arguments, Optional.empty());
        String attempt = usdc(command.amount()) + " to " + command.to();
        return answer(payments.decide(command), decision -> {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("decision", decision.wireName());
            json.put("amount", command.amount().toString());
            json.put("currency", Usdc.CURRENCY);
            json.put("to", command.to());
            json.put("violation", null);
            if (decision instanceof Decision.Blocked blocked) {
                json.put("violation", Answers.violation(blocked.violation()));
                return Answers.ok("Would be blocked: paying " + attempt + ". " + Answers.blocked(blocked.violation())
                        + " Nothing was recorded.", json);
            }
            if (decision instanceof Decision.NeedsCoSign) {
                json.put("co_sign_inbox", inbox(agent));
                return Answers.ok("Needs a co-signature: paying " + attempt + " passes every check, and pay would "
                        + "answer pending_co_sign, holding it until an operator co-signs it in the dashboard's inbox ("
                        + inbox(agent) + "). Nothing was recorded.", json);
            }
            return Answers.ok("Allowed: paying " + attempt + " passes every check now. Nothing was recorded.", json);
        });
    }

    CallToolResult pay(Agent agent, Arguments arguments) {
        PayCommand command = payCommand(agent, arguments, Optional.of(arguments.required(IDEMPOTENCY_KEY)));
        return answer(payments.pay(command), result -> paid(agent, result));
    }

    /** A payment made, or held for its co-signature; a blocked one is a refusal ({@link Answers#refused}). */
    private static CallToolResult paid(Agent agent, PaymentResult result) {
        Transaction tx = result.transaction();
        Map<String, Object> json = Views.transaction(tx);
        json.put("replayed", result.replayed());
        String replay = result.replayed()
                ? " This idempotency key was used before: this is that same payment, not a new one." : "";
        if (tx.status() == TransactionStatus.PENDING_CO_SIGN) {
            json.put("co_sign_inbox", inbox(agent));
            return Answers.ok("Payment " + tx.id().value() + " of " + usdc(tx.amount()) + " to " + tx.recipient()
                    + " is pending_co_sign: it is at or above the policy's co-sign threshold, so its amount is held"
                    + " until an operator co-signs or rejects it in the dashboard's inbox at " + inbox(agent)
                    + ". This is not an error and needs no retry: check its outcome later with get_payment"
                    + " {\"payment_id\": \"" + tx.id().value() + "\"}." + replay, json);
        }
        return Answers.ok("Paid: " + Views.transactionLine(tx) + tx.signature().map(sig -> ", ledger signature " + sig)
                .orElse("") + "." + replay, json);
    }

    CallToolResult getPayment(Agent agent, Arguments arguments) {
        String id = arguments.required("payment_id");
        return answer(id(id, "transaction", TxId::new).flatMap(txId -> payments.get(agent.orgId(), txId))
                        .flatMap(tx -> tx.walletId().equals(agent.walletId()) ? Result.ok(tx)
                                : Result.<Transaction>refused(new Rejection.NotFound("transaction", id))),
                tx -> Answers.ok(Views.transactionLine(tx) + ".", Views.transaction(tx)));
    }

    CallToolResult listTransactions(Agent agent, Arguments arguments) {
        PageRequest page = new PageRequest(arguments.whole("limit").map(Math::toIntExact)
                .orElse(PageRequest.DEFAULT_LIMIT), arguments.optional("cursor"));
        TransactionStore.Query query = new TransactionStore.Query(Optional.of(agent.walletId()),
                arguments.optional("status").map(status -> WireNamed.parse(TransactionStatus.class, status, "status")),
                arguments.optional("type").map(type -> WireNamed.parse(TransactionType.class, type, "type")),
                Optional.empty(), Optional.empty());
        Page<Transaction> transactions = payments.list(agent.orgId(), query, page);
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("transactions", transactions.data().stream().map(Views::transaction).toList());
        json.put("has_more", transactions.hasMore());
        json.put("next_cursor", transactions.nextCursor().orElse(null));
        String lines = transactions.data().isEmpty() ? "No transactions."
                : transactions.data().stream().map(Views::transactionLine).collect(Collectors.joining("\n"));
        return Answers.ok(lines + transactions.nextCursor().map(cursor -> "\nMore: call again with cursor \""
                + cursor + "\".").orElse(""), json);
    }

    CallToolResult createEscrow(Agent agent, Arguments arguments) {
        LockEscrow command = new LockEscrow(agent.orgId(), agent.walletId(), arguments.required("to_wallet"),
                arguments.amount("amount"), arguments.optional("task_description").orElse(""),
                arguments.whole("timeout_seconds").orElseThrow(
                        () -> new ValidationException("timeout_seconds", "'timeout_seconds' is required")),
                arguments.optional("expected_proof"), Optional.of(agent.grant()));
        RequestKey key = RequestKey.of(agent.orgId(), arguments.required(IDEMPOTENCY_KEY), fingerprint(command),
                IDEMPOTENCY_KEY);
        return answer(escrows.lock(command, key), escrow -> escrowAnswer(escrow, key.replayed()
                ? " This idempotency key was used before: this is that same escrow, not a new one." : ""));
    }

    CallToolResult completeEscrow(Agent agent, Arguments arguments) {
        String id = arguments.required("escrow_id");
        String proof = arguments.required("proof");
        return answer(id(id, "escrow", EscrowId::new)
                .flatMap(escrowId -> escrows.complete(agent.requester(), escrowId, PROOF_TYPE, proof)),
                escrow -> escrowAnswer(escrow, ""));
    }

    CallToolResult disputeEscrow(Agent agent, Arguments arguments) {
        String id = arguments.required("escrow_id");
        String reason = arguments.required("reason");
        String evidence = arguments.required("evidence");
        return answer(id(id, "escrow", EscrowId::new)
                .flatMap(escrowId -> escrows.dispute(agent.requester(), escrowId, reason, evidence)),
                escrow -> escrowAnswer(escrow, " An operator of the sending organisation resolves it."));
    }

    private static CallToolResult escrowAnswer(Escrow escrow, String more) {
        return Answers.ok(Views.escrowLine(escrow) + more, Views.escrow(escrow));
    }

    private static PayCommand payCommand(Agent agent, Arguments arguments, Optional<String> idempotencyKey) {
        return new PayCommand(agent.orgId(), agent.walletId(), arguments.required("to"), arguments.amount("amount"),
                arguments.optional("memo"), idempotencyKey, false, Optional.of(agent.grant()),
                Optional.of(agent.actor()));
    }

    /**
     * What makes two escrow requests "the same" for a key: every field of the lock but the token. A
     * key is the organisation's, whichever door it came through; /v1 fingerprints its request body, so
     * a key reused across the two doors for escrows is a conflict, never a second lock.
     */
    private static String fingerprint(LockEscrow command) {
        return Hashing.sha256Hex(String.join("\u0000", "mcp:create_escrow", command.fromWallet().value(),
                command.toWallet(), Long.toString(command.amount().micros()), command.taskDescription(),
                Long.toString(command.timeoutSeconds()), command.expectedProof().orElse("\u0001")));
    }

    private static String inbox(Agent agent) {
        return agent.origin() + "/dashboard/co-sign";
    }

    /** A malformed id names nothing the agent has: not found, as /v1 answers it. */
    private static <I> Result<I> id(String value, String resource, Function<String, I> constructor) {
        try {
            return Result.ok(constructor.apply(value));
        } catch (IllegalArgumentException e) {
            return Result.refused(new Rejection.NotFound(resource, value));
        }
    }

    private static <T> CallToolResult answer(Result<T> result, Function<T, CallToolResult> onOk) {
        return result.isOk() ? onOk.apply(result.value()) : Answers.refused(result.rejection());
    }
}
