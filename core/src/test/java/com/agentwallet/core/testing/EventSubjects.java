package com.agentwallet.core.testing;

import com.agentwallet.core.crypto.Base58;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.PolicyId;
import com.agentwallet.core.id.TxId;
import com.agentwallet.core.id.WalletId;
import com.agentwallet.core.ledger.LedgerAddress;
import com.agentwallet.core.money.Usdc;
import com.agentwallet.core.payment.Transaction;
import com.agentwallet.core.payment.TransactionStatus;
import com.agentwallet.core.payment.TransactionType;
import com.agentwallet.core.policy.SpendSummary;
import com.agentwallet.core.wallet.Wallet;
import com.agentwallet.core.wallet.WalletStatus;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** One wallet and its payment with fixed ids, made at {@link #AT}: what tests of single events describe. */
public final class EventSubjects {
    public static final Instant AT = Instant.parse("2026-04-01T12:00:00.250Z");
    public static final OrgId ORG = new OrgId("org_OOOOOOOOOOOOOOOOOOOOOOOO");
    public static final WalletId WALLET = new WalletId("wal_WWWWWWWWWWWWWWWWWWWWWWWW");
    public static final TxId TX = new TxId("tx_TTTTTTTTTTTTTTTTTTTTTTTT");
    public static final PolicyId POLICY = new PolicyId("pol_PPPPPPPPPPPPPPPPPPPPPPPP");
    public static final String RECIPIENT = "7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV";
    public static final LedgerAddress ADDRESS = new LedgerAddress(Base58.encode(new byte[32]));

    private EventSubjects() {
    }

    /** The wallet's transaction {@link #TX} of {@code type} to {@link #RECIPIENT}. */
    public static Transaction transaction(TransactionType type, TransactionStatus status, String amount) {
        return Transaction.open(TX, ORG, WALLET, type, status, Usdc.parse(amount), RECIPIENT, AT);
    }

    public static Transaction payment(TransactionStatus status, String amount) {
        return transaction(TransactionType.PAYMENT, status, amount);
    }

    /** The active wallet of agent {@code agent-7} at {@link #ADDRESS} under {@link #POLICY}. */
    public static Wallet wallet(String balance) {
        return new Wallet(WALLET, ORG, "agent-7", "label", POLICY, List.of(), WalletStatus.ACTIVE, ADDRESS,
                Usdc.parse(balance), SpendSummary.EMPTY, 0, Optional.empty(), AT, AT);
    }
}
