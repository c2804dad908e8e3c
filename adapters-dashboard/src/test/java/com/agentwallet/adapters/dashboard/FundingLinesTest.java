package com.agentwallet.adapters.dashboard;

import com.agentwallet.core.common.ValidationException;
import com.agentwallet.core.id.WalletId;
import com.agentwallet.core.money.Usdc;
import com.agentwallet.core.wallet.Funding;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class FundingLinesTest {
    private static final String FIRST = "wal_" + "a".repeat(24);
    private static final String SECOND = "wal_" + "b".repeat(24);

    @Test
    void eachLineIsAWalletAndAnExactAmountBlankLinesAndSpacesAside() {
        assertThat(FundingPages.lines(" " + FIRST + " ,  1.25\r\n\n" + SECOND + ",0.000001\n")).containsExactly(
                new Funding(new WalletId(FIRST), Usdc.parse("1.25")),
                new Funding(new WalletId(SECOND), new Usdc(1)));
    }

    @Test
    void aBadLineIsRefusedByItsNumber() {
        assertThatThrownBy(() -> FundingPages.lines(FIRST + ", 1.00\n" + SECOND + " 2.00"))
                .isInstanceOf(ValidationException.class).hasMessageStartingWith("Line 2: ");
        assertThatThrownBy(() -> FundingPages.lines(FIRST + ", 1.00, 2.00"))
                .hasMessageStartingWith("Line 1: ");
        assertThatThrownBy(() -> FundingPages.lines("\n\nnot-a-wallet, 1.00"))
                .hasMessageStartingWith("Line 3: 'wallet_id' must be a wallet id");
        assertThatThrownBy(() -> FundingPages.lines(FIRST + ", 1.5e3"))
                .hasMessageStartingWith("Line 1: 'amount' must be a decimal string");
        assertThatThrownBy(() -> FundingPages.lines(FIRST + ", 0"))
                .hasMessageStartingWith("Line 1: 'amount' must be greater than zero");
    }

    @Test
    void aBatchWithoutLinesIsRefused() {
        assertThatThrownBy(() -> FundingPages.lines(" \n\n")).hasMessageStartingWith("No fundings: ");
    }
}
