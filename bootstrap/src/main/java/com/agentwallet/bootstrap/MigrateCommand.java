package com.agentwallet.bootstrap;

import com.agentwallet.adapters.persistence.Persistence;
import com.google.inject.Injector;
import net.sourceforge.argparse4j.inf.Namespace;

/** {@code migrate config.yml}: brings the database schema up to date (the server also does on start). */
final class MigrateCommand extends OperatorCommand {

    MigrateCommand() {
        super("migrate", "Bring the database schema up to date");
    }

    @Override
    void execute(Injector injector, Namespace namespace, ServiceConfiguration configuration) {
        injector.getInstance(Persistence.class);
        System.out.println("The database schema is up to date");
    }
}
