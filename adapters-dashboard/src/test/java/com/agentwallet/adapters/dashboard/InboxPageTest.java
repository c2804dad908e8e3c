package com.agentwallet.adapters.dashboard;

import com.agentwallet.core.auth.Role;
import com.agentwallet.core.common.Actor;
import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.TxId;
import com.agentwallet.core.id.WalletId;
import com.agentwallet.core.money.Usdc;
import com.agentwallet.core.payment.CoSign;
import com.agentwallet.core.payment.Transaction;
import com.agentwallet.core.payment.TransactionStatus;
import com.agentwallet.core.payment.TransactionType;
import com.agentwallet.core.user.SignedInUser;
import com.agentwallet.core.user.UserId;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

class InboxPageTest {
    private static final Instant NOW = Instant.parse("2026-11-27T12:00:00Z");
    private static final OrgId ORG = new OrgId("org_" + "B".repeat(24));

    @Test
    void aRowShowsThePaymentEscapedWithItsAgeTimeLeftAndBothForms() {
        Transaction tx = Transaction.open(new TxId("tx_" + "C".repeat(24)), ORG, new WalletId("wal_" + "D".repeat(24)),
                TransactionType.PAYMENT, TransactionStatus.PENDING_CO_SIGN, Usdc.parse("12.50"), "<b>payee</b>",
                NOW.minus(Duration.ofMinutes(75)));
        CoSign coSign = new CoSign("signer", "cGF5bG9hZA==", NOW.plus(Duration.ofMinutes(3)), Optional.empty(),
                Optional.of(new Actor("key_requester")));
        String page = InboxPage.render(operator(), new CoSignInbox.Listing(
                List.of(new CoSignInbox.Row(tx, coSign, Optional.empty(), Optional.empty())), false, NOW),
                Optional.empty(), Optional.empty()).markup();
        assertThat(page).contains("&lt;b&gt;payee&lt;/b&gt;").doesNotContain("<b>payee")
                .contains(tx.amount() + " USDC").contains("1 h 15 min ago").contains("3 min left")
                .contains("key_requester").contains("data-payload=\"cGF5bG9hZA==\"")
                .contains("action=\"/dashboard/co-sign/tx_" + "C".repeat(24) + "/approve\"")
                .contains("action=\"/dashboard/co-sign/tx_" + "C".repeat(24) + "/reject\"")
                .contains("<input type=\"hidden\" name=\"csrf_token\" value=\"csrf-1\">")
                .contains("<th scope=\"col\">Wallet</th>").contains("aria-current=\"page\"")
                .contains("<script type=\"module\" src=\"/dashboard/assets/inbox.js\"></script>");
    }

    @Test
    void noPaymentsShowTheEmptyStateAndARefusalShowsAsAnAlert() {
        String page = InboxPage.render(operator(), new CoSignInbox.Listing(List.of(), false, NOW), Optional.empty(),
                Optional.of("The signature is <wrong>")).markup();
        assertThat(page).contains("No payments are waiting for a co-signature.").doesNotContain("<table")
                .contains("role=\"alert\">The signature is &lt;wrong&gt;<");
    }

    private static SignedIn operator() {
        return new SignedIn(new SignedInUser(new UserId(UserId.PREFIX + "A".repeat(24)), ORG, Role.OPERATOR,
                "ops@example.com", "csrf-1", NOW.plus(Duration.ofHours(12))), 1);
    }
}
