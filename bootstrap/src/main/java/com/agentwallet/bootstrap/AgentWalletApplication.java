package com.agentwallet.bootstrap;

import com.agentwallet.core.escrow.EscrowService;
import com.agentwallet.core.payment.PaymentService;
import com.agentwallet.core.payment.Settlement;
import com.agentwallet.core.reconcile.Reconciliation;
import com.agentwallet.core.wallet.WalletService;
import com.google.inject.Guice;
import com.google.inject.Injector;
import io.dropwizard.core.Application;
import io.dropwizard.core.setup.Bootstrap;
import io.dropwizard.core.setup.Environment;
import io.dropwizard.lifecycle.Managed;

/** The server binary: {@code server config.yml} runs the service; the other commands are operator tooling. */
public final class AgentWalletApplication extends Application<ServiceConfiguration> {

    public static void main(String[] args) throws Exception {
        new AgentWalletApplication().run(args);
    }

    @Override
    public String getName() {
        return "agent-wallet";
    }

    @Override
    public void initialize(Bootstrap<ServiceConfiguration> bootstrap) {
        bootstrap.addCommand(new ReconcileCommand());
    }

    @Override
    public void run(ServiceConfiguration configuration, Environment environment) {
        Injector injector = Guice.createInjector(new CoreModule(configuration));
        Resources resources = new Resources(injector);
        environment.lifecycle().manage(new Managed() {
            @Override
            public void stop() {
                resources.close();
            }
        });
        environment.lifecycle().manage(new Clockwork(injector.getInstance(Settlement.class),
                injector.getInstance(EscrowService.class), injector.getInstance(PaymentService.class),
                injector.getInstance(WalletService.class), injector.getInstance(Reconciliation.class),
                configuration.getClockwork()));
    }
}
