package com.agentwallet.bootstrap;

import com.agentwallet.core.port.StorageUnavailableException;
import com.agentwallet.core.webhook.WebhookDispatcher;
import com.google.inject.Inject;
import io.dropwizard.lifecycle.Managed;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static java.util.Objects.requireNonNull;

/**
 * Webhook delivery in the background, apart from the clockwork so that slow receivers delay no
 * refund or expiry. Each worker fans new events out (one worker at a time gets to), then attempts
 * up to 50 due deliveries, and goes round again at once while there is a backlog (a full batch of
 * either); otherwise it waits a poll interval, so that the events of a busy service are fanned out
 * many at a time, not one round (two transactions) for every few events. An event waits at most
 * about a poll interval to be fanned out, as it did when the service was idle. A worker posts with no
 * transaction open, and claims only what the organisation's share lets it (see
 * {@link com.agentwallet.core.webhook.WebhookLimits}), so a slow receiver holds up only its own
 * organisation. A failure is logged (a broken database connection as one line) and the worker goes
 * on; the delivery it was on is tried again once its lease has run out. Public for the delivery
 * benchmarks, which run the same workers.
 */
public final class WebhookWorkers implements Managed {
    private static final Logger LOG = LoggerFactory.getLogger(WebhookWorkers.class);
    private static final int FAN_OUT_BATCH = 500;
    /** Deliveries a worker attempts before it fans out again: under a backlog new events still get scheduled. */
    private static final int DELIVERIES_PER_ROUND = 50;

    private final WebhookDispatcher dispatcher;
    private final ServiceConfiguration.WebhookSettings settings;
    private final ExecutorService workers;
    private final Heartbeats.Heartbeat steps;
    private volatile boolean running = true;

    @Inject
    public WebhookWorkers(WebhookDispatcher dispatcher, ServiceConfiguration.WebhookSettings settings,
                          Heartbeats heartbeats) {
        this.dispatcher = requireNonNull(dispatcher, "dispatcher is null");
        this.settings = requireNonNull(settings, "settings is null");
        this.steps = heartbeats.webhookWorkers();
        this.workers = Executors.newFixedThreadPool(settings.workers(), runnable -> {
            Thread thread = new Thread(runnable, "webhook-delivery");
            thread.setDaemon(true);
            return thread;
        });
    }

    @Override
    public void start() {
        for (int i = 1; i <= settings.workers(); i++) {
            String worker = "webhook worker " + i;
            steps.beat(worker);
            workers.execute(() -> work(worker));
        }
    }

    @Override
    public void stop() throws InterruptedException {
        running = false;
        workers.shutdown();
        if (!workers.awaitTermination(10, TimeUnit.SECONDS)) {
            workers.shutdownNow();
        }
    }

    /** The worker's loop; it beats after each step, so that a delivery waiting on a slow receiver is no stall. */
    private void work(String worker) {
        while (running) {
            try {
                int fannedOut = dispatcher.fanOut(FAN_OUT_BATCH);
                steps.beat(worker);
                int attempted = 0;
                while (running && attempted < DELIVERIES_PER_ROUND && dispatcher.deliverNext()) {
                    steps.beat(worker);
                    attempted++;
                }
                if (fannedOut < FAN_OUT_BATCH && attempted < DELIVERIES_PER_ROUND) {
                    Thread.sleep(settings.pollInterval().toMillis());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (StorageUnavailableException e) {
                LOG.warn("Webhook delivery paused by the database; the worker goes on: {}", e.getMessage());
                sleepAfterFailure();
            } catch (RuntimeException e) {
                LOG.error("Webhook delivery failed; the worker goes on", e);
                sleepAfterFailure();
            }
            steps.beat(worker);
        }
    }

    private void sleepAfterFailure() {
        try {
            Thread.sleep(settings.pollInterval().toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
