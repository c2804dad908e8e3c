package com.agentwallet.bootstrap;

import com.agentwallet.core.common.Result;
import com.google.inject.Guice;
import com.google.inject.Injector;
import io.dropwizard.core.cli.Cli;
import io.dropwizard.core.cli.ConfiguredCommand;
import io.dropwizard.core.setup.Bootstrap;
import net.sourceforge.argparse4j.inf.Namespace;

import static java.util.Objects.requireNonNull;

/**
 * An operator command of the server binary ({@code <command> config.yml [options]}): it wires the
 * same core as the server from the same configuration, asks it for the one part it works with
 * ({@code T}, a use case or the books), does one thing and closes what it opened.
 */
abstract class OperatorCommand<T> extends ConfiguredCommand<ServiceConfiguration> {
    private final Class<T> part;

    OperatorCommand(String name, String description, Class<T> part) {
        super(name, description);
        this.part = requireNonNull(part, "part is null");
    }

    /** Named: Dropwizard looks for it among the type arguments, where it would find the part's instead. */
    @Override
    protected final Class<ServiceConfiguration> getConfigurationClass() {
        return ServiceConfiguration.class;
    }

    @Override
    protected final void run(Bootstrap<ServiceConfiguration> bootstrap, Namespace namespace,
                             ServiceConfiguration configuration) {
        Injector injector = Guice.createInjector(new CoreModule(configuration, CoreModule.SYSTEM_CLOCK));
        try (Resources resources = injector.getInstance(Resources.class)) {
            execute(injector.getInstance(part), namespace, configuration);
        }
    }

    abstract void execute(T part, Namespace namespace, ServiceConfiguration configuration);

    /** The value of a use case's result; a refusal ends the command with its message. */
    static <V> V orFail(Result<V> result) {
        if (!result.isOk()) {
            throw new CommandFailed(result.rejection().message());
        }
        return result.value();
    }

    /** A refusal the command reports as one line and a non-zero exit, not as a crash. */
    static final class CommandFailed extends RuntimeException {
        private static final long serialVersionUID = 1L;

        CommandFailed(String message) {
            super(message);
        }
    }

    @Override
    public void onError(Cli cli, Namespace namespace, Throwable e) {
        if (e instanceof CommandFailed) {
            cli.getStdErr().println(e.getMessage());
        } else {
            super.onError(cli, namespace, e);
        }
    }
}
