package com.agentwallet.bootstrap;

import com.agentwallet.core.auth.ApiKey;
import com.agentwallet.core.auth.ApiKeyService;
import com.agentwallet.core.auth.IssuedKey;
import com.agentwallet.core.auth.Role;
import com.agentwallet.core.id.ApiKeyId;
import com.agentwallet.core.id.OrgId;
import net.sourceforge.argparse4j.inf.Namespace;
import net.sourceforge.argparse4j.inf.Subparser;

import java.util.function.Function;

/**
 * API key tooling, the owner's business and not part of /v1: create a key of one role, revoke one,
 * rotate one (the old secret stops working at once). A new secret is printed once and never again.
 */
final class ApiKeyCommands {
    private ApiKeyCommands() {
    }

    static OrgId orgId(Namespace namespace) {
        return id(namespace, "org", OrgId::new, "an organisation id (org_...)");
    }

    static ApiKeyId keyId(Namespace namespace) {
        return id(namespace, "key", ApiKeyId::new, "an API key id (key_...)");
    }

    /** The typed id an option names; a malformed one ends the command with a one-line refusal. */
    private static <I> I id(Namespace namespace, String option, Function<String, I> parse, String kind) {
        String value = namespace.getString(option);
        try {
            return parse.apply(value);
        } catch (IllegalArgumentException e) {
            throw new OperatorCommand.CommandFailed("'" + value + "' is not " + kind);
        }
    }

    static void printIssued(IssuedKey issued) {
        System.out.println(issued.key().id().value() + " " + issued.key().role().wireName() + " " + issued.secret());
    }

    /** {@code create-key config.yml --org org_... --role admin}. */
    static final class Create extends OperatorCommand<ApiKeyService> {
        Create() {
            super("create-key", "Create an API key for an organisation and print its secret once", ApiKeyService.class);
        }

        @Override
        public void configure(Subparser subparser) {
            super.configure(subparser);
            subparser.addArgument("--org").required(true).help("the organisation id (org_...)");
            subparser.addArgument("--role").required(true).choices("owner", "admin", "operator", "viewer");
        }

        @Override
        void execute(ApiKeyService keys, Namespace namespace, ServiceConfiguration configuration) {
            printIssued(orFail(keys.issue(orgId(namespace),
                    Role.fromWire(namespace.getString("role"), "role"))));
        }
    }

    /** A command about one existing key: {@code --org org_... --key key_...}. */
    abstract static class ExistingKeyCommand extends OperatorCommand<ApiKeyService> {
        ExistingKeyCommand(String name, String description) {
            super(name, description, ApiKeyService.class);
        }

        @Override
        public void configure(Subparser subparser) {
            super.configure(subparser);
            subparser.addArgument("--org").required(true).help("the organisation id (org_...)");
            subparser.addArgument("--key").required(true).help("the API key id (key_...)");
        }
    }

    /** {@code revoke-key config.yml --org org_... --key key_...}. */
    static final class Revoke extends ExistingKeyCommand {
        Revoke() {
            super("revoke-key", "Revoke an API key at once");
        }

        @Override
        void execute(ApiKeyService keys, Namespace namespace, ServiceConfiguration configuration) {
            ApiKey revoked = orFail(keys.revoke(orgId(namespace), keyId(namespace)));
            System.out.println(revoked.id().value() + " revoked");
        }
    }

    /** {@code rotate-key config.yml --org org_... --key key_...}: a new key of the same role replaces it. */
    static final class Rotate extends ExistingKeyCommand {
        Rotate() {
            super("rotate-key", "Replace an API key with a new one of the same role; the old one stops working");
        }

        @Override
        void execute(ApiKeyService keys, Namespace namespace, ServiceConfiguration configuration) {
            printIssued(orFail(keys.rotate(orgId(namespace), keyId(namespace))));
        }
    }
}
