package com.agentwallet.adapters.solana;

import com.agentwallet.core.port.LedgerPort;
import com.agentwallet.core.testing.LedgerContract;
import com.agentwallet.core.testing.MutableClock;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The ledger contract on the real thing: the Solana adapter sends real transactions over JSON-RPC
 * to localnet, where the wallet program (the C build of step 6) runs in LiteSVM with SPL Token.
 * One localnet serves the whole class; each test has its own ids and payees on it.
 */
class SolanaLedgerContractTest extends LedgerContract {
    private static final AtomicLong SEEDS = new AtomicLong(7_000);
    private static Localnet localnet;

    private final long seed = SEEDS.incrementAndGet();

    @TempDir
    Path data;

    @BeforeAll
    static void startLocalnet() {
        localnet = Localnet.start();
    }

    @AfterAll
    static void stopLocalnet() throws InterruptedException {
        localnet.close();
    }

    @Override
    protected LedgerPort newLedger(MutableClock clock) {
        return localnet.ledger(clock, data);
    }

    @Override
    protected long idSeed() {
        return seed;
    }

    /** On Solana a recipient must hold its USDC token account: the adapter opens none. */
    @Override
    protected void openUsdcAccount(String address) {
        localnet.openUsdcAccount(address);
    }
}
