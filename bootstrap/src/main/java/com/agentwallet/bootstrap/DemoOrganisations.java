package com.agentwallet.bootstrap;

import com.agentwallet.adapters.dashboard.Dashboard;
import com.agentwallet.core.auth.ApiKeyService;
import com.agentwallet.core.auth.Role;
import com.agentwallet.core.common.Result;
import com.agentwallet.core.crypto.Base58;
import com.agentwallet.core.money.Usdc;
import com.agentwallet.core.org.Organisation;
import com.agentwallet.core.org.OrganisationService;
import com.agentwallet.core.user.DashboardUser;
import com.agentwallet.core.user.UserService;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.google.inject.Inject;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * The embedded default's first start: two organisations with 1,000,000.00 USDC each, one API key per
 * role, a demo operator's co-signing key, and two dashboard users (an owner and an operator, with
 * random passwords), written to {@code demo-credentials.json}, readable by its owner only. Later
 * starts find the file and leave everything as it is.
 */
final class DemoOrganisations {
    static final String FILE_NAME = "demo-credentials.json";
    static final Usdc DEPOSIT = Usdc.ofWhole(1_000_000);
    private static final List<String> NAMES = List.of("Demo Org A", "Demo Org B");

    private final OrganisationService organisations;
    private final ApiKeyService keys;
    private final UserService users;
    private final SecureRandom random = new SecureRandom();

    @Inject
    DemoOrganisations(OrganisationService organisations, ApiKeyService keys, UserService users) {
        this.organisations = requireNonNull(organisations, "organisations is null");
        this.keys = requireNonNull(keys, "keys is null");
        this.users = requireNonNull(users, "users is null");
    }

    /** The credentials file, made now unless an earlier start made it; {@code origin} is the HTTPS server's. */
    Path ensure(Path dataDirectory, String origin) {
        Path file = dataDirectory.resolve(FILE_NAME);
        if (Files.exists(file)) {
            OwnerOnly.file(file); // made by an older version, perhaps with the umask's permissions
            return file;
        }
        List<Map<String, Object>> created = NAMES.stream().map(this::create).toList();
        Map<String, Object> credentials = new LinkedHashMap<>();
        credentials.put("base_url", origin + "/v1");
        credentials.put("dashboard_url", origin + Dashboard.HOME);
        credentials.put("organisations", created);
        try {
            OwnerOnly.directory(dataDirectory);
            OwnerOnly.write(file, partial ->
                    new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(partial.toFile(), credentials));
        } catch (IOException e) {
            throw new IllegalStateException("cannot write " + file, e);
        }
        return file;
    }

    private Map<String, Object> create(String name) {
        Organisation org = organisations.create(name);
        Result<Organisation> deposited = organisations.deposit(org.id(), DEPOSIT);
        if (!deposited.isOk()) {
            throw new IllegalStateException("the demo deposit was refused: " + deposited.rejection().message());
        }
        Map<String, String> roleKeys = new LinkedHashMap<>();
        for (Role role : List.of(Role.OWNER, Role.ADMIN, Role.OPERATOR, Role.VIEWER)) {
            roleKeys.put(role.wireName(), keys.issue(org.id(), role).value().secret());
        }
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("id", org.id().value());
        entry.put("name", name);
        entry.put("keys", roleKeys);
        entry.put("co_signer_secret_key", coSignerSecretKey());
        entry.put("dashboard_users", List.of(dashboardUser(org, Role.OWNER), dashboardUser(org, Role.OPERATOR)));
        return entry;
    }

    /** {@code owner@demo-org-a.demo} and the like, with a random password of 24 characters. */
    private Map<String, String> dashboardUser(Organisation org, Role role) {
        String email = role.wireName() + "@" + org.name().toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-") + ".demo";
        byte[] secret = new byte[18];
        random.nextBytes(secret);
        String password = Base64.getUrlEncoder().withoutPadding().encodeToString(secret);
        Result<DashboardUser> created = users.create(org.id(), email, role, password);
        if (!created.isOk()) {
            throw new IllegalStateException("the demo user was refused: " + created.rejection().message());
        }
        Map<String, String> user = new LinkedHashMap<>();
        user.put("email", email);
        user.put("password", password);
        user.put("role", role.wireName());
        return user;
    }

    /** Solana's 64-byte secret key form: the 32-byte seed, then the 32-byte public key, in base58. */
    static String coSignerSecretKey() {
        try {
            KeyPair pair = KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
            byte[] privateKey = pair.getPrivate().getEncoded();
            byte[] publicKey = pair.getPublic().getEncoded();
            byte[] secret = new byte[64];
            System.arraycopy(privateKey, privateKey.length - 32, secret, 0, 32);
            System.arraycopy(publicKey, publicKey.length - 32, secret, 32, 32);
            return Base58.encode(secret);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Ed25519 keys are unavailable", e);
        }
    }
}
