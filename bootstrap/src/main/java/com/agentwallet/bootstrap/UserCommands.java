package com.agentwallet.bootstrap;

import com.agentwallet.core.auth.Role;
import com.agentwallet.core.common.ValidationException;
import com.agentwallet.core.user.DashboardUser;
import com.agentwallet.core.user.UserService;
import net.sourceforge.argparse4j.inf.Namespace;
import net.sourceforge.argparse4j.inf.Subparser;

import java.io.BufferedReader;
import java.io.Console;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.function.Supplier;

/**
 * Dashboard users from the shell. The password is read from standard input, never from an argument,
 * which any user of the machine could see in the process list: typed without echo at a terminal, or
 * the first line of what is piped in.
 */
final class UserCommands {
    private UserCommands() {
    }

    /** The password: typed at the terminal, else the first line of standard input. */
    static String readPassword() {
        Console console = System.console();
        if (console != null) {
            char[] typed = console.readPassword("Password: ");
            if (typed == null) {
                throw new OperatorCommand.CommandFailed("no password was given on standard input");
            }
            return new String(typed);
        }
        try {
            String line = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
            if (line == null) {
                throw new OperatorCommand.CommandFailed("no password was given on standard input");
            }
            return line;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the password from standard input", e);
        }
    }

    /** The user a use case answers; a validation error ends the command with its message. */
    private static DashboardUser validOrFail(Supplier<DashboardUser> command) {
        try {
            return command.get();
        } catch (ValidationException e) {
            throw new OperatorCommand.CommandFailed(e.getMessage());
        }
    }

    /** {@code create-user config.yml --org org_... --email ada@example.com --role owner}, the password on standard input. */
    static final class Create extends OperatorCommand<UserService> {
        Create() {
            super("create-user", "Create a dashboard user; the password is read from standard input", UserService.class);
        }

        @Override
        public void configure(Subparser subparser) {
            super.configure(subparser);
            subparser.addArgument("--org").required(true).help("the organisation id (org_...)");
            subparser.addArgument("--email").required(true).help("the email the user signs in with");
            subparser.addArgument("--role").required(true).choices("owner", "admin", "operator", "viewer");
        }

        @Override
        void execute(UserService users, Namespace namespace, ServiceConfiguration configuration) {
            DashboardUser user = validOrFail(() -> orFail(users.create(ApiKeyCommands.orgId(namespace),
                    namespace.getString("email"), Role.fromWire(namespace.getString("role"), "role"), readPassword())));
            System.out.println(user.id().value() + " " + user.role().wireName() + " " + user.email());
        }
    }

    /** {@code reset-password config.yml --email ada@example.com}, the new password on standard input. */
    static final class ResetPassword extends OperatorCommand<UserService> {
        ResetPassword() {
            super("reset-password", "Set a dashboard user's password, read from standard input; ends its sessions "
                    + "and any lockout", UserService.class);
        }

        @Override
        public void configure(Subparser subparser) {
            super.configure(subparser);
            subparser.addArgument("--email").required(true).help("the email the user signs in with");
        }

        @Override
        void execute(UserService users, Namespace namespace, ServiceConfiguration configuration) {
            DashboardUser user = validOrFail(() -> orFail(users.resetPassword(namespace.getString("email"),
                    readPassword())));
            System.out.println(user.email() + " password reset; every session ended");
        }
    }
}
