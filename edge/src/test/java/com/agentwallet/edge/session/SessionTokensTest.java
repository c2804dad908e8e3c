package com.agentwallet.edge.session;

import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.WalletId;
import com.agentwallet.core.policy.SessionGrant;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SessionTokensTest {
    private static final byte[] SECRET = "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
    private static final OrgId ORG = new OrgId("org_" + "A".repeat(24));
    private static final OrgId OTHER_ORG = new OrgId("org_" + "B".repeat(24));
    private static final SessionGrant GRANT = new SessionGrant(new WalletId("wal_" + "C".repeat(24)), 3,
            Instant.parse("2026-11-22T10:00:00Z"));

    private final SessionTokens tokens = new SessionTokens(SECRET, List.of(), "agent-wallet", "agent-wallet/v1");

    @Test
    void aTokenItIssuedVerifiesToItsOrganisationAndGrantEvenWhenExpired() {
        String token = tokens.issue(ORG, GRANT);

        assertThat(tokens.verify(token)).contains(new SessionTokens.Verified(ORG, GRANT));
    }

    @Test
    void anotherOrganisationsKeyCannotPresentTheTokenInTheHeader() {
        assertThat(tokens.fromHeader(tokens.issue(ORG, GRANT), OTHER_ORG)).isEmpty();
    }

    @Test
    void anotherKeyIssuerOrAudienceIsRefused() {
        byte[] otherSecret = "fedcba9876543210fedcba9876543210".getBytes(StandardCharsets.US_ASCII);

        assertThat(grant(new SessionTokens(otherSecret, List.of(), "agent-wallet", "agent-wallet/v1").issue(ORG, GRANT))).isEmpty();
        assertThat(grant(new SessionTokens(SECRET, List.of(), "someone-else", "agent-wallet/v1").issue(ORG, GRANT)))
                .isEmpty();
        assertThat(grant(new SessionTokens(SECRET, List.of(), "agent-wallet", "another-api").issue(ORG, GRANT)))
                .isEmpty();
    }

    @Test
    void theNoneAlgorithmAndATamperedPayloadAreRefused() {
        String[] parts = tokens.issue(ORG, GRANT).split("\\.");
        Base64.Encoder base64 = Base64.getUrlEncoder().withoutPadding();
        String none = base64.encodeToString("{\"alg\":\"none\",\"typ\":\"JWT\"}".getBytes(StandardCharsets.UTF_8))
                + "." + parts[1] + ".";
        String payload = new String(Base64.getUrlDecoder().decode(parts[1]), StandardCharsets.UTF_8);
        String tampered = parts[0] + "." + base64.encodeToString(payload.replace("\"ver\":3", "\"ver\":4")
                .getBytes(StandardCharsets.UTF_8)) + "." + parts[2];

        assertThat(grant(none)).isEmpty();
        assertThat(grant(tampered)).isEmpty();
        assertThat(grant("not a token")).isEmpty();
    }

    @Test
    void aMissingOrBlankHeaderIsNoGrant() {
        assertThat(tokens.fromHeader(null, ORG)).isEmpty();
        assertThat(tokens.fromHeader("  ", ORG)).isEmpty();
        assertThat(tokens.fromHeader(" " + tokens.issue(ORG, GRANT) + " ", ORG)).contains(GRANT);
    }

    @Test
    void aVerifiedTokenIsRefusedToAnotherOrganisationWhenPresentedAgain() {
        String token = tokens.issue(ORG, GRANT);

        assertThat(tokens.fromHeader(token, ORG)).contains(GRANT);
        assertThat(tokens.fromHeader(token, OTHER_ORG)).isEmpty();
        assertThat(tokens.fromHeader(token, ORG)).contains(GRANT);
    }

    @Test
    void aRefusedTokenIsRefusedEveryTime() {
        String forged = new SessionTokens("fedcba9876543210fedcba9876543210".getBytes(StandardCharsets.US_ASCII), List.of(),
                "agent-wallet", "agent-wallet/v1").issue(ORG, GRANT);

        assertThat(grant(forged)).isEmpty();
        assertThat(grant(forged)).isEmpty();
    }

    @Test
    void tokensStillVerifyOnceMoreThanTheRememberedNumberWereSeen() {
        List<String> issued = IntStream.rangeClosed(0, SessionTokens.REMEMBERED)
                .mapToObj(version -> tokens.issue(ORG, new SessionGrant(GRANT.walletId(), version, GRANT.expiresAt())))
                .toList();

        issued.forEach(token -> assertThat(grant(token)).isPresent());
        assertThat(grant(issued.get(0))).contains(new SessionGrant(GRANT.walletId(), 0, GRANT.expiresAt()));
        assertThat(grant(issued.get(SessionTokens.REMEMBERED)))
                .contains(new SessionGrant(GRANT.walletId(), SessionTokens.REMEMBERED, GRANT.expiresAt()));
    }

    private Optional<SessionGrant> grant(String token) {
        return tokens.verify(token).map(SessionTokens.Verified::grant);
    }

    @Test
    void aShortSecretIsRefusedAtStart() {
        assertThatThrownBy(() -> new SessionTokens(new byte[16], List.of(), "agent-wallet", "agent-wallet/v1"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new SessionTokens(SECRET, List.of(new byte[16]), "agent-wallet", "agent-wallet/v1"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aRotatedSecretSignsNewTokensWhileTheRetiredOneStillVerifiesItsOwn() {
        byte[] next = "0123456789abcdef0123456789abcdef-next".getBytes(StandardCharsets.US_ASCII);
        String before = tokens.issue(ORG, GRANT);
        SessionTokens rotated = new SessionTokens(next, List.of(SECRET), "agent-wallet", "agent-wallet/v1");
        String after = rotated.issue(ORG, GRANT);

        assertThat(rotated.verify(before)).contains(new SessionTokens.Verified(ORG, GRANT));
        assertThat(rotated.verify(after)).contains(new SessionTokens.Verified(ORG, GRANT));
        assertThat(grant(after)).as("signed with the new secret, not the old").isEmpty();
        assertThat(new SessionTokens(next, List.of(), "agent-wallet", "agent-wallet/v1").verify(before))
                .as("once the retired secret is dropped").isEmpty();
    }
}
