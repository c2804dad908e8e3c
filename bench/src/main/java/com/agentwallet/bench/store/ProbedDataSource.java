package com.agentwallet.bench.store;

import javax.sql.DataSource;
import java.io.PrintWriter;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.logging.Logger;

/**
 * A data source over the pool that counts the calls made on its connections, to show which JDBC
 * calls one payment makes (which of them cost a round trip is the driver's business). Diagnostics
 * only; the measured scenarios use the pool directly.
 */
final class ProbedDataSource implements DataSource {
    private final DataSource pool;
    private final Map<String, LongAdder> calls = new ConcurrentHashMap<>();
    private final LongAdder statements = new LongAdder();

    ProbedDataSource(DataSource pool) {
        this.pool = pool;
    }

    void reset() {
        calls.clear();
        statements.reset();
    }

    /**
     * SQL statements prepared since the last reset: a request of several statements, as the
     * persistence adapter's pipeline sends, counts each (they are separated by semicolons).
     */
    long statements() {
        return statements.sum();
    }

    /** Calls per connection method since the last reset. */
    Map<String, Long> calls() {
        Map<String, Long> counted = new TreeMap<>();
        calls.forEach((name, adder) -> counted.put(name, adder.sum()));
        return counted;
    }

    @Override
    public Connection getConnection() throws SQLException {
        return wrap(pool.getConnection());
    }

    @Override
    public Connection getConnection(String username, String password) throws SQLException {
        return wrap(pool.getConnection(username, password));
    }

    private Connection wrap(Connection real) {
        InvocationHandler handler = (proxy, method, args) -> {
            calls.computeIfAbsent(method.getName(), n -> new LongAdder()).increment();
            if (method.getName().equals("prepareStatement")) {
                statements.add(((String) args[0]).split(";").length);
            }
            try {
                return method.invoke(real, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        };
        return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[]{Connection.class},
                handler);
    }

    @Override
    public PrintWriter getLogWriter() throws SQLException {
        return pool.getLogWriter();
    }

    @Override
    public void setLogWriter(PrintWriter out) throws SQLException {
        pool.setLogWriter(out);
    }

    @Override
    public void setLoginTimeout(int seconds) throws SQLException {
        pool.setLoginTimeout(seconds);
    }

    @Override
    public int getLoginTimeout() throws SQLException {
        return pool.getLoginTimeout();
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        return pool.getParentLogger();
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        return pool.unwrap(iface);
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) throws SQLException {
        return pool.isWrapperFor(iface);
    }
}
