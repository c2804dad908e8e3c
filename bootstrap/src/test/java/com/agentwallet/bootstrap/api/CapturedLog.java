package com.agentwallet.bootstrap.api;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.AppenderBase;
import org.slf4j.LoggerFactory;

/**
 * Everything logged in this JVM while it is open, from INFO up, as the text an operator would read
 * (message, then the stack trace with every cause's message). Opened after the server started,
 * since a starting server resets the logging configuration.
 */
final class CapturedLog implements AutoCloseable {
    private final Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    private final Level levelBefore = root.getLevel();
    private final StringBuffer text = new StringBuffer();
    private final AppenderBase<ILoggingEvent> appender = new AppenderBase<>() {
        @Override
        protected void append(ILoggingEvent event) {
            text.append(event.getLevel()).append(' ').append(event.getLoggerName()).append(": ")
                    .append(event.getFormattedMessage()).append('\n');
            if (event.getThrowableProxy() != null) {
                text.append(ThrowableProxyUtil.asString(event.getThrowableProxy())).append('\n');
            }
        }
    };

    CapturedLog() {
        appender.setContext(root.getLoggerContext());
        appender.start();
        root.addAppender(appender);
        root.setLevel(Level.INFO);
    }

    String text() {
        return text.toString();
    }

    @Override
    public void close() {
        root.setLevel(levelBefore);
        root.detachAppender(appender);
        appender.stop();
    }
}
