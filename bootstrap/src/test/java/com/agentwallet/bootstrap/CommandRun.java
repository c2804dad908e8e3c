package com.agentwallet.bootstrap;

import io.dropwizard.core.cli.Cli;
import io.dropwizard.core.setup.Bootstrap;
import io.dropwizard.util.JarLocation;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/** An operator command run as the server binary would run it, with what it printed. */
public record CommandRun(Optional<Throwable> failure, String out, String err) {

    /** Runs the command line {@code arguments}, capturing what it prints. */
    public static CommandRun run(String... arguments) {
        AgentWalletApplication application = new AgentWalletApplication();
        Bootstrap<ServiceConfiguration> bootstrap = new Bootstrap<>(application);
        application.initialize(bootstrap);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream console = System.out;
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        try {
            Optional<Throwable> failure = new Cli(new JarLocation(CommandRun.class), bootstrap, out, err)
                    .run(arguments);
            return new CommandRun(failure, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(console);
        }
    }
}
