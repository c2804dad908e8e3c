package com.agentwallet.adapters.http.export;

import java.io.IOException;
import java.io.UncheckedIOException;

/** Writers fail with {@link UncheckedIOException}, as the core's port says. */
final class UncheckedIo {
    interface Work<T> {
        T run() throws IOException;
    }

    interface Action {
        void run() throws IOException;
    }

    private UncheckedIo() {
    }

    static <T> T call(Work<T> work) {
        try {
            return work.run();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static void run(Action action) {
        call(() -> {
            action.run();
            return null;
        });
    }
}
