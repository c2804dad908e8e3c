package com.agentwallet.bootstrap.ledger;

import com.agentwallet.adapters.solana.Localnet;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.idempotency.RequestKey;
import com.agentwallet.core.ledger.LedgerAccount;
import com.agentwallet.core.ledger.LedgerInstruction;
import com.agentwallet.core.ledger.LedgerOutcome;
import com.agentwallet.core.money.Usdc;
import com.agentwallet.core.payment.Transaction;
import com.agentwallet.core.payment.TransactionStatus;
import com.agentwallet.core.policy.Policy;
import com.agentwallet.core.port.LedgerContext;
import com.agentwallet.core.port.LedgerPlugins;
import com.agentwallet.core.testing.Addresses;
import com.agentwallet.core.testing.CoreFixture;
import com.agentwallet.core.testing.Scenario;
import com.agentwallet.core.testing.TestCoSigner;
import com.agentwallet.core.wallet.CreateWallet;
import com.agentwallet.core.wallet.CreatedWallet;
import com.agentwallet.core.wallet.Wallet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static com.agentwallet.core.testing.RulesBuilder.rules;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A payment waiting for its co-signature counts toward the caps from when it was requested, in the
 * books and on chain alike. Under max_per_day 100 and co-signing from 50: 80 held at t0, a plain 40
 * at t0+25h (the books' day no longer holds the 80), the approval at t0+26h. The chain counts the
 * approved 80 at t0 too, so it pays, on the simulator and on the program on localnet, and both end
 * with the books' balance and the books' day total.
 */
class CoSignedHoldWindowTest {
    private static final String PAYEE = Addresses.external("merchant");

    private final TestCoSigner operator = new TestCoSigner(77);

    @TempDir
    Path data;

    @Test
    void onTheSimulatorAHoldApprovedADayLaterPaysAsTheBooksCountedIt() {
        CoreFixture core = CoreFixture.on(clock -> LedgerPlugins.find("sim", getClass().getClassLoader())
                .create(new LedgerContext(clock, data.resolve("sim"), Map.of("persist", "false"))), 42L);

        holdPayThenApprove(core);
    }

    @Test
    void onTheProgramAHoldApprovedADayLaterPaysAsTheBooksCountedIt() throws Exception {
        try (Localnet localnet = Localnet.start()) {
            localnet.openUsdcAccount(PAYEE);
            CoreFixture core = CoreFixture.on(clock -> localnet.ledger(clock, data.resolve("solana")), 42L);
            try {
                holdPayThenApprove(core);
            } finally {
                ((AutoCloseable) core.ledgerPort).close();
            }
        }
    }

    private void holdPayThenApprove(CoreFixture core) {
        Scenario scenario = new Scenario(core);
        OrgId org = scenario.organisation("1000");
        Policy policy = scenario.policy(org, rules().maxPerDay("100").coSignAtOrAbove("50", operator).build());
        // A session that outlives the approval: rotating it would change the message the operator signed.
        CreatedWallet created = core.wallets.create(new CreateWallet(org, "agent-1", "label", policy.id(), List.of(),
                Optional.of(Duration.ofDays(2))), RequestKey.none()).value();
        Wallet funded = core.wallets.fund(org, created.wallet().id(), Usdc.parse("500"), RequestKey.none()).value();
        Scenario.FundedWallet wallet = new Scenario.FundedWallet(funded, created.session());

        Transaction held = scenario.pay(wallet, PAYEE, "80").value().transaction();
        core.clock.advance(Duration.ofHours(25));
        Transaction plain = scenario.pay(wallet, PAYEE, "40").value().transaction();
        core.clock.advance(Duration.ofHours(1));
        Transaction approved = core.payments.coSign(org, held.id(),
                operator.sign(held.coSign().orElseThrow().payload()), TestCoSigner.APPROVER).value();

        assertThat(held.status()).isEqualTo(TransactionStatus.PENDING_CO_SIGN);
        assertThat(plain.status()).isEqualTo(TransactionStatus.CONFIRMED);
        assertThat(approved.status()).isEqualTo(TransactionStatus.CONFIRMED);
        Wallet books = core.wallets.get(org, funded.id()).value();
        assertThat(books.balance()).isEqualTo(Usdc.parse("380"));
        assertThat(core.ledgerPort.balance(new LedgerAccount.Wallet(books.address()))).isEqualTo(books.balance());
        assertThat(books.spend().day()).isEqualTo(Usdc.parse("40"));
        assertThat(books.spend().month()).isEqualTo(Usdc.parse("120"));
        // The chain's day holds the books' 40: 60.000001 more is over the cap; 60 is not, and then needs a co-signature.
        assertThat(chainRefuses(core, books, "60.000001")).isEqualTo("max_per_day");
        assertThat(chainRefuses(core, books, "60")).isEqualTo("co_signature_invalid");
    }

    /** The code the ledger refuses a plain payment with, sent past the books, which move nothing. */
    private static String chainRefuses(CoreFixture core, Wallet wallet, String amount) {
        LedgerOutcome outcome = core.ledgerPort.submit(new LedgerInstruction.Pay("probe:" + amount, wallet.address(),
                PAYEE, Usdc.parse(amount), core.clock.instant(), wallet.sessionVersion(), Optional.empty()));
        assertThat(outcome).isInstanceOf(LedgerOutcome.Rejected.class);
        return ((LedgerOutcome.Rejected) outcome).code();
    }
}
