package com.agentwallet.adapters.persistence;

import org.postgresql.core.BaseConnection;
import org.postgresql.core.TransactionState;

import javax.sql.DataSource;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The requests a data source's connections send PostgreSQL, as the SQL text of each statement
 * prepared (a pipelined request holds several statements, separated by {@code ;\n}) and each
 * {@code COMMIT} the driver sends (none when the server says the transaction has ended already):
 * one entry is one round trip.
 */
final class RequestLog {
    static final String COMMIT = "COMMIT";
    private static final Pattern SHAPE = Pattern.compile("(SELECT|INSERT|UPDATE|DELETE|SET LOCAL)\\s+(?:\\w+\\.)?(?:[\\w*,\\s]+?\\s+FROM\\s+|INTO\\s+|FROM\\s+)?(\\w+)");

    private final List<String> requests = Collections.synchronizedList(new ArrayList<>());

    /** {@code pool} with every connection it hands out recorded here. */
    DataSource recording(DataSource pool) {
        return (DataSource) Proxy.newProxyInstance(DataSource.class.getClassLoader(), new Class<?>[] {DataSource.class},
                (proxy, method, args) -> {
                    Object answer = invoke(pool, method, args);
                    return answer instanceof Connection connection ? recording(connection) : answer;
                });
    }

    void clear() {
        requests.clear();
    }

    /** The requests since the last {@link #clear}, in order. */
    List<String> requests() {
        return List.copyOf(requests);
    }

    /** The statements of all requests since the last {@link #clear}, in order. */
    List<String> statements() {
        return requests().stream().flatMap(request -> Arrays.stream(request.split(";\n"))).toList();
    }

    /**
     * The requests since the last {@link #clear}, each as what its statements do and to which table,
     * joined by {@code +}: {@code "UPDATE wallets + SELECT policies"}, or {@code COMMIT}; a setting
     * for the transaction as {@code "SET LOCAL plan_cache_mode"}.
     */
    List<String> summary() {
        return requests().stream().map(request -> Arrays.stream(request.split(";\n")).map(RequestLog::shape)
                .collect(Collectors.joining(" + "))).toList();
    }

    private static String shape(String statement) {
        Matcher matcher = SHAPE.matcher(statement);
        return matcher.lookingAt() ? matcher.group(1) + " " + matcher.group(2) : statement;
    }

    /**
     * The round trips the driver makes on this thread while {@code work} runs, counted on the wire's
     * side of the driver: by the Sync messages it sends (its log at {@code FINEST}), each of which ends
     * one. What {@link #requests} counts as one request is one round trip only if the driver sends
     * no Sync of its own in the middle of it, which it does before a statement it has had described
     * whose rows have no bounded size (see {@code Pipeline}).
     */
    static int roundTrips(Runnable work) {
        Logger driver = Logger.getLogger("org.postgresql.core.v3.QueryExecutorImpl");
        long thread = Thread.currentThread().getId();
        AtomicInteger syncs = new AtomicInteger();
        Handler counting = new Handler() {
            @Override
            public void publish(LogRecord record) {
                if (record.getLongThreadID() == thread && " FE=> Sync".equals(record.getMessage())) {
                    syncs.incrementAndGet();
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        Level level = driver.getLevel();
        driver.setLevel(Level.FINEST);
        driver.addHandler(counting);
        try {
            work.run();
        } finally {
            driver.removeHandler(counting);
            driver.setLevel(level);
        }
        return syncs.get();
    }

    private Connection recording(Connection connection) {
        return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[] {Connection.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("prepareStatement")) {
                        requests.add((String) args[0]);
                    } else if (method.getName().equals("commit")
                            && connection.unwrap(BaseConnection.class).getTransactionState() != TransactionState.IDLE) {
                        requests.add(COMMIT);
                    }
                    return invoke(connection, method, args);
                });
    }

    private static Object invoke(Object target, Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
