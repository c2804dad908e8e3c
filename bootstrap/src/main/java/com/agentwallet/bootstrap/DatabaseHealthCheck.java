package com.agentwallet.bootstrap;

import com.codahale.metrics.health.HealthCheck;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.SQLException;

import static java.util.Objects.requireNonNull;

/**
 * Readiness of the database ({@link HealthChecks}): healthy while a connection of the pool answers,
 * so that a load balancer sees the database go down as the API's 503s do.
 */
final class DatabaseHealthCheck extends HealthCheck {
    private static final int VALID_WITHIN_SECONDS = 1;

    private final DataSource dataSource;

    DatabaseHealthCheck(DataSource dataSource) {
        this.dataSource = requireNonNull(dataSource, "dataSource is null");
    }

    @Override
    protected Result check() {
        try (Connection connection = dataSource.getConnection()) {
            return connection.isValid(VALID_WITHIN_SECONDS) ? Result.healthy()
                    : Result.unhealthy("the database did not answer within " + VALID_WITHIN_SECONDS + " s");
        } catch (SQLException e) {
            return Result.unhealthy("the database is unavailable: " + e.getMessage());
        }
    }
}
