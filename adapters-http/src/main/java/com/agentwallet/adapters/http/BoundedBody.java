package com.agentwallet.adapters.http;

import com.agentwallet.adapters.http.error.PayloadTooLargeException;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * A request body that may be read up to a limit and no further: past it, every read throws
 * {@link PayloadTooLargeException}. A chunked body (no Content-Length) is cut off this way while it
 * is read, so at most the limit and one buffer are ever held.
 */
final class BoundedBody extends FilterInputStream {
    private final long maxBytes;
    private long count;

    BoundedBody(InputStream body, long maxBytes) {
        super(body);
        this.maxBytes = maxBytes;
    }

    @Override
    public int read() throws IOException {
        int next = super.read();
        if (next >= 0) {
            counted(1);
        }
        return next;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
        return (int) counted(super.read(buffer, offset, length));
    }

    @Override
    public long skip(long bytes) throws IOException {
        return counted(super.skip(bytes));
    }

    private long counted(long bytes) throws PayloadTooLargeException {
        if (bytes > 0) {
            count += bytes;
            if (count > maxBytes) {
                throw new PayloadTooLargeException(maxBytes);
            }
        }
        return bytes;
    }
}
