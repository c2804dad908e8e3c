package com.agentwallet.adapters.sim;

import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.idempotency.RequestKey;
import com.agentwallet.core.ledger.LedgerAccount;
import com.agentwallet.core.money.Usdc;
import com.agentwallet.core.policy.Policy;
import com.agentwallet.core.policy.PolicyRules;
import com.agentwallet.core.port.LedgerContext;
import com.agentwallet.core.port.LedgerUnavailableException;
import com.agentwallet.core.testing.CoreFixture;
import com.agentwallet.core.testing.MutableClock;
import com.agentwallet.core.testing.Scenario;
import com.agentwallet.core.wallet.CreateWallet;
import com.agentwallet.core.wallet.CreatedWallet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * An administrative change the ledger did not confirm is not kept, and "the request can be
 * retried" ({@link LedgerUnavailableException}): once the ledger is healthy again, the same request
 * must succeed.
 */
class SimAdminRetryTest {
    @TempDir
    Path folder;

    private final SwitchableLedger ledger = new SwitchableLedger();

    @AfterEach
    void closeTheChain() {
        ledger.close();
    }

    @Test
    void creatingAWalletRefusedByAnUnavailableLedgerSucceedsWhenRetriedOnAHealthyOne() {
        assertCreatingAWalletConvergesAfter(Map.of("failure_rate", "1"));
    }

    @Test
    void creatingAWalletWhoseOpeningWasLostSucceedsWhenRetriedOnAHealthyOne() {
        assertCreatingAWalletConvergesAfter(Map.of("drop_rate", "1"));
    }

    private void assertCreatingAWalletConvergesAfter(Map<String, String> fault) {
        CoreFixture core = CoreFixture.on(clock -> {
            ledger.use(simulator(clock, Map.of()));
            return ledger;
        }, 41L);
        Scenario scenario = new Scenario(core);
        OrgId org = scenario.organisation("100");
        Policy policy = scenario.policy(org, PolicyRules.NONE);
        CreateWallet request = new CreateWallet(org, "agent-1", "label", policy.id(), List.of(), Optional.empty());

        ledger.use(simulator(core.clock, fault));
        assertThatThrownBy(() -> core.wallets.create(request, RequestKey.none())).isInstanceOf(LedgerUnavailableException.class);
        assertThat(core.storage.allWallets()).as("the refused creation was not kept").isEmpty();
        if (fault.containsKey("drop_rate")) {
            // The service retries while the ledger still drops: the lost opening has expired.
            assertThatThrownBy(() -> core.wallets.create(request, RequestKey.none())).isInstanceOf(LedgerUnavailableException.class);
        }

        ledger.use(simulator(core.clock, Map.of()));
        CreatedWallet created = core.wallets.create(request, RequestKey.none()).value();

        assertThat(core.wallets.fund(org, created.wallet().id(), Usdc.parse("10"), RequestKey.none()).value()
                .balance()).isEqualTo(Usdc.parse("10"));
        assertThat(ledger.balance(new LedgerAccount.Wallet(created.wallet().address())))
                .isEqualTo(Usdc.parse("10"));
    }

    private SimulatedLedger simulator(MutableClock clock, Map<String, String> faults) {
        Map<String, String> settings = new HashMap<>(faults);
        settings.put("seed", "3");
        return (SimulatedLedger) new SimLedgerFactory().create(new LedgerContext(clock, folder, settings));
    }
}
