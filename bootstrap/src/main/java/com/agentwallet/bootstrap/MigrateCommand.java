package com.agentwallet.bootstrap;

import com.agentwallet.adapters.persistence.Persistence;
import net.sourceforge.argparse4j.inf.Namespace;

/** {@code migrate config.yml}: brings the database schema up to date (the server also does on start). */
final class MigrateCommand extends OperatorCommand<Persistence> {

    MigrateCommand() {
        super("migrate", "Bring the database schema up to date", Persistence.class);
    }

    /** Opening the books migrated them. */
    @Override
    void execute(Persistence books, Namespace namespace, ServiceConfiguration configuration) {
        System.out.println("The database schema is up to date");
    }
}
