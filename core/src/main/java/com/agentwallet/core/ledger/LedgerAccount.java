package com.agentwallet.core.ledger;

import com.agentwallet.core.id.EscrowId;
import com.agentwallet.core.id.OrgId;

import static java.util.Objects.requireNonNull;

/** An account whose balance the books can be reconciled against. */
public sealed interface LedgerAccount {

    /** The organisation's treasury token account. */
    record Treasury(OrgId orgId) implements LedgerAccount {
        public Treasury {
            requireNonNull(orgId, "orgId is null");
        }
    }

    /** A wallet's token account. */
    record Wallet(LedgerAddress address) implements LedgerAccount {
        public Wallet {
            requireNonNull(address, "address is null");
        }
    }

    /** The vault token account of an escrow locked by {@code wallet}. */
    record Vault(EscrowId escrowId, LedgerAddress wallet) implements LedgerAccount {
        public Vault {
            requireNonNull(escrowId, "escrowId is null");
            requireNonNull(wallet, "wallet is null");
        }
    }
}
