package com.agentwallet.bench.store;

import javax.net.SocketFactory;
import java.io.FilterInputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A socket factory for the PostgreSQL JDBC driver ({@code ?socketFactory=}this class) that counts
 * the writes the driver makes to its sockets. The driver buffers each request and flushes it when
 * it must wait for an answer, so one write is one round trip to the server (for messages under
 * the driver's 8 KiB buffer, which every statement of a payment is). Diagnostics only.
 */
public final class CountingSocketFactory extends SocketFactory {
    static final AtomicLong WRITES = new AtomicLong();
    static final AtomicLong BYTES_OUT = new AtomicLong();
    static final AtomicLong BYTES_IN = new AtomicLong();

    public CountingSocketFactory() {
    }

    static void reset() {
        WRITES.set(0);
        BYTES_OUT.set(0);
        BYTES_IN.set(0);
    }

    @Override
    public Socket createSocket() {
        return new CountingSocket();
    }

    @Override
    public Socket createSocket(String host, int port) throws IOException {
        return connected(null, new InetSocketAddress(host, port));
    }

    @Override
    public Socket createSocket(String host, int port, InetAddress localHost, int localPort) throws IOException {
        return connected(new InetSocketAddress(localHost, localPort), new InetSocketAddress(host, port));
    }

    @Override
    public Socket createSocket(InetAddress host, int port) throws IOException {
        return connected(null, new InetSocketAddress(host, port));
    }

    @Override
    public Socket createSocket(InetAddress address, int port, InetAddress localAddress, int localPort) throws IOException {
        return connected(new InetSocketAddress(localAddress, localPort), new InetSocketAddress(address, port));
    }

    private static Socket connected(InetSocketAddress local, InetSocketAddress remote) throws IOException {
        Socket socket = new CountingSocket();
        if (local != null) {
            socket.bind(local);
        }
        socket.connect(remote);
        return socket;
    }

    private static final class CountingSocket extends Socket {
        private OutputStream out;
        private InputStream in;

        @Override
        public synchronized OutputStream getOutputStream() throws IOException {
            if (out == null) {
                out = new FilterOutputStream(super.getOutputStream()) {
                    @Override
                    public void write(byte[] b, int off, int len) throws IOException {
                        WRITES.incrementAndGet();
                        BYTES_OUT.addAndGet(len);
                        this.out.write(b, off, len);
                    }

                    @Override
                    public void write(int b) throws IOException {
                        WRITES.incrementAndGet();
                        BYTES_OUT.incrementAndGet();
                        this.out.write(b);
                    }
                };
            }
            return out;
        }

        @Override
        public synchronized InputStream getInputStream() throws IOException {
            if (in == null) {
                in = new FilterInputStream(super.getInputStream()) {
                    @Override
                    public int read(byte[] b, int off, int len) throws IOException {
                        int n = this.in.read(b, off, len);
                        if (n > 0) {
                            BYTES_IN.addAndGet(n);
                        }
                        return n;
                    }

                    @Override
                    public int read() throws IOException {
                        int c = this.in.read();
                        if (c >= 0) {
                            BYTES_IN.incrementAndGet();
                        }
                        return c;
                    }
                };
            }
            return in;
        }
    }
}
