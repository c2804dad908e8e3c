package com.agentwallet.archfixture.core;

import javax.sql.DataSource;

/** Breaks the core rule with a JDK type outside java.. and javax.crypto..: persistence belongs to an adapter. */
public final class BadCoreOnJdk {
    private final DataSource dataSource;

    public BadCoreOnJdk(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    public DataSource dataSource() {
        return dataSource;
    }
}
