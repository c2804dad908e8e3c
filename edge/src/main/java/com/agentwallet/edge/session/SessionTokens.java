package com.agentwallet.edge.session;

import com.agentwallet.core.id.OrgId;
import com.agentwallet.core.id.WalletId;
import com.agentwallet.core.policy.SessionGrant;
import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.crypto.MACVerifier;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;

import java.text.ParseException;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import static java.util.Objects.requireNonNull;

/**
 * Session tokens: HS256 JWTs naming the wallet ({@code sub}), its organisation ({@code org}) and the
 * wallet's token version ({@code ver}). Only HS256 is accepted (so {@code none} and any algorithm
 * swap fail), and issuer and audience must be ours. Expiry and version are the core's checks, so
 * that an expired or revoked token is reported as such.
 *
 * <p>Verifying is a function of the token's exact text alone (the secret, issuer and audience are
 * fixed), so the tokens that verified are remembered, up to {@link #REMEMBERED} of them, and an agent
 * presenting its token again is not checked again: parsing and the HMAC were a tenth of the
 * request threads' samples of a payment in a JFR profile. Only verified tokens are kept, with the
 * organisation they name, so a token refused once is checked every time, and a remembered one
 * presented in a {@code Session-Token} header by another organisation's key is still refused.
 *
 * <p>Tokens are signed with the current secret and verified with it or any retired one, so the
 * secret can be rotated without cutting every agent off: a retired secret is dropped once the
 * tokens it signed have expired or been rotated.
 */
public final class SessionTokens {
    public static final int MIN_SECRET_BYTES = 32;
    static final String ORG_CLAIM = "org";
    static final String VERSION_CLAIM = "ver";
    /** Verified tokens kept at most; when full, all are forgotten at once and verified again as they come. */
    static final int REMEMBERED = 10_000;

    private final byte[] secret;
    private final List<byte[]> verifiers;
    private final String issuer;
    private final String audience;
    private final ConcurrentHashMap<String, Verified> verified = new ConcurrentHashMap<>();

    public SessionTokens(byte[] secret, List<byte[]> retired, String issuer, String audience) {
        List<byte[]> all = new ArrayList<>();
        all.add(secret);
        all.addAll(retired);
        for (byte[] each : all) {
            if (each.length < MIN_SECRET_BYTES) {
                throw new IllegalArgumentException("session token secrets need at least " + MIN_SECRET_BYTES + " bytes");
            }
        }
        this.secret = secret.clone();
        this.verifiers = all.stream().map(byte[]::clone).toList();
        this.issuer = requireNonNull(issuer, "issuer is null");
        this.audience = requireNonNull(audience, "audience is null");
    }

    public String issue(OrgId orgId, SessionGrant grant) {
        JWTClaimsSet claims = new JWTClaimsSet.Builder()
                .issuer(issuer)
                .audience(audience)
                .subject(grant.walletId().value())
                .claim(ORG_CLAIM, orgId.value())
                .claim(VERSION_CLAIM, grant.version())
                .expirationTime(Date.from(grant.expiresAt()))
                .build();
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.HS256).type(JOSEObjectType.JWT).build(), claims);
        try {
            jwt.sign(new MACSigner(secret));
        } catch (JOSEException e) {
            throw new IllegalStateException("cannot sign a session token", e);
        }
        return jwt.serialize();
    }

    /** The verified grant of a {@code Session-Token} header; a missing or unverifiable one fails check 1 in the core. */
    public Optional<SessionGrant> fromHeader(String header, OrgId callerOrg) {
        return header == null || header.isBlank() ? Optional.empty()
                : verify(header.trim()).filter(token -> token.orgId().equals(callerOrg)).map(Verified::grant);
    }

    /**
     * The organisation and grant of a token that is ours; empty for anything else (malformed, another
     * algorithm, a bad signature, a foreign issuer or audience). Whether the grant is still live is
     * for its wallet to say.
     */
    public Optional<Verified> verify(String token) {
        Verified known = verified.get(token);
        if (known == null) {
            Optional<Verified> checked = check(token);
            if (checked.isEmpty()) {
                return Optional.empty();
            }
            known = checked.get();
            if (verified.size() >= REMEMBERED) {
                verified.clear();
            }
            verified.put(token, known);
        }
        return Optional.of(known);
    }

    /** The grant and organisation of a token that is ours; empty for anything else. */
    private Optional<Verified> check(String token) {
        try {
            SignedJWT jwt = SignedJWT.parse(token);
            if (!JWSAlgorithm.HS256.equals(jwt.getHeader().getAlgorithm()) || !signedByOneOfUs(jwt)) {
                return Optional.empty();
            }
            JWTClaimsSet claims = jwt.getJWTClaimsSet();
            Long version = claims.getLongClaim(VERSION_CLAIM);
            String org = claims.getStringClaim(ORG_CLAIM);
            if (!issuer.equals(claims.getIssuer()) || claims.getAudience() == null
                    || !claims.getAudience().contains(audience) || org == null
                    || version == null || claims.getExpirationTime() == null || claims.getSubject() == null) {
                return Optional.empty();
            }
            return Optional.of(new Verified(new OrgId(org), new SessionGrant(new WalletId(claims.getSubject()),
                    version, claims.getExpirationTime().toInstant())));
        } catch (ParseException | JOSEException | IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    private boolean signedByOneOfUs(SignedJWT jwt) throws JOSEException {
        for (byte[] verifier : verifiers) {
            if (jwt.verify(new MACVerifier(verifier))) {
                return true;
            }
        }
        return false;
    }

    /** A token that verified: the organisation it was issued to, and its grant. */
    public record Verified(OrgId orgId, SessionGrant grant) {
        public Verified {
            requireNonNull(orgId, "orgId is null");
            requireNonNull(grant, "grant is null");
        }
    }
}
